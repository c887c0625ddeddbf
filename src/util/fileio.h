/* Whole-file reading and atomic writing (temporary file, then rename). */
#ifndef LS_UTIL_FILEIO_H
#define LS_UTIL_FILEIO_H

#include <stddef.h>

/* Reads a whole file ("-" is stdin) into a NUL-terminated buffer the caller frees.
   Returns NULL and fills err (naming the file) on failure. */
char *ls_read_file(const char *path, size_t *len, char *err, size_t errlen);

/* Writes len bytes to path through path.tmp.PID and rename, so a reader never sees
   half a file. "-" writes to stdout. Returns 0, or -1 with err filled. */
int ls_write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);

/* Reads a small text file under root (sysfs style) and strips the trailing newline.
   root may be NULL or "" for "/". Returns 0 or -1. */
int ls_read_text(const char *root, const char *path, char *buf, size_t buflen);

/* Creates the folder dir unless it exists. 0, or -1 with errno set. */
int ls_make_dir(const char *dir);

#endif
