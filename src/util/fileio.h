/* Whole-file reading and the one output writer every command uses (docs/safety.md). */
#ifndef LS_UTIL_FILEIO_H
#define LS_UTIL_FILEIO_H

#include <stddef.h>

/* Largest input file or run document read, in MiB, unless LINKSCOPE_MAX_INPUT_MB says
   otherwise: import holds about 25 bytes of memory per input byte. */
#define LS_MAX_INPUT_MB 256

/* The input limit in force, in bytes. */
size_t ls_max_input_bytes(void);

/* Reads a whole file ("-" is stdin) into a NUL-terminated buffer the caller frees.
   Returns NULL and fills err (naming the file) on failure or past the input limit.
   The file is remembered as an input: ls_write_file_atomic refuses to overwrite it. */
char *ls_read_file(const char *path, size_t *len, char *err, size_t errlen);

/* Lets the file at path (an input read earlier) be written again: import --into. */
void ls_inputs_forget(const char *path);

/* Writes len bytes to path. "-" is stdout. A regular file (or a new one) is replaced
   atomically: a temporary file created O_EXCL|O_NOFOLLOW beside it, the old mode (and
   owner, as root) kept, fsync, rename; the temporary file is removed on every failure
   and on SIGINT/SIGTERM/SIGHUP. A symbolic link's target is replaced, the link kept; a
   dangling link is refused. A device, FIFO or socket is written through. A folder or
   one of this process's inputs is refused. Returns 0, or -1 with err filled. */
int ls_write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);

/* Most files in one set of outputs (report --format csv DIR writes six). */
#define LS_OUTPUTS_MAX 16

/* A set of outputs replaced together: report --format csv DIR's six files, so that no
   reader (and no failure) sees new files beside old ones. ls_outputs_add checks each path
   as ls_write_file_atomic does (links, folders, inputs) and writes its temporary file to
   disk at once; nothing is replaced until ls_outputs_commit, which renames them all one
   after the other with SIGINT, SIGTERM and SIGHUP held back (so an interruption leaves
   either every old file or every new one; only SIGKILL or a power cut in that window of
   renames can split the set), then writes the special files (a FIFO, /dev/null) through.
   A failed add leaves the set as it was, to be freed: ls_outputs_free removes every
   temporary file not renamed, and the old files stay whole. Commit frees the set. Each
   returns 0, or -1 with err filled. */
typedef struct ls_outputs ls_outputs_t;
ls_outputs_t *ls_outputs_new(void);
int ls_outputs_add(ls_outputs_t *set, const char *path, const char *data, size_t len, char *err,
                   size_t errlen);
int ls_outputs_commit(ls_outputs_t *set, char *err, size_t errlen);
void ls_outputs_free(ls_outputs_t *set);

/* At exit: flushes and closes stdout. A failed or short write seen at any time, or a
   failed flush or close, is one line on stderr (unless the writer said it already) and
   -1; otherwise 0. */
int ls_stdout_close(void);

/* The path an output to path writes: the symbolic link's target, or path itself.
   Returns 0, or -1 with err filled (a dangling link). */
int ls_resolve_output(const char *path, char *target, size_t targetlen, char *err, size_t errlen);

/* Takes an exclusive advisory lock (flock) on the existing file at path, held until
   ls_unlock_file; waits for another holder. Returns the descriptor, or -1 with err. */
int ls_lock_file(const char *path, char *err, size_t errlen);
void ls_unlock_file(int fd);

/* Reads a small text file under root (sysfs style) and strips the trailing newline.
   root may be NULL or "" for "/". Returns 0 or -1. */
int ls_read_text(const char *root, const char *path, char *buf, size_t buflen);

/* Creates the folder dir unless it exists. 0, or -1 with errno set. */
int ls_make_dir(const char *dir);

#endif
