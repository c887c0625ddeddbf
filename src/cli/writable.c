/* Checks, before any work, that an output path can be written: its folder exists and is
   writable (or, for is_dir, the folder itself). One usage line and exit 2 otherwise. */
#include "commands.h"
#include "util/fileio.h"
#include "util/log.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ls_check_writable(const char *cmd, const char *opt, const char *path, int is_dir)
{
    if (!path || strcmp(path, "-") == 0)
        return 0;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (is_dir != !!S_ISDIR(st.st_mode))
            return ls_usage_error(cmd, "%s %s: expected %s", opt, path, is_dir ? "a folder" : "a file, not a folder");
        if (is_dir)
            return access(path, W_OK) == 0 ? 0 : ls_usage_error(cmd, "%s %s: cannot write into it: %s", opt, path, strerror(errno));
        if (!S_ISREG(st.st_mode)) /* a device or FIFO is written through (docs/safety.md) */
            return access(path, W_OK) == 0 ? 0 : ls_usage_error(cmd, "%s %s: cannot write: %s", opt, path, strerror(errno));
    }
    char parent[4096], err[512];
    /* A symbolic link's target is what gets replaced: its folder must be writable. */
    if (ls_resolve_output(path, parent, sizeof parent, err, sizeof err) != 0)
        return ls_usage_error(cmd, "%s %s", opt, err);
    const char *folder = dirname(parent);
    if (access(folder, W_OK) != 0)
        return ls_usage_error(cmd, "%s %s: cannot write into the folder %s: %s", opt, path, folder, strerror(errno));
    return 0;
}

