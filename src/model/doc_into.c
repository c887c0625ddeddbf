/* --into DOC: the one read-modify-write path of every command that adds to a run
   document (burn, measure's families, nccl, import, tp), under an advisory lock so that
   two commands adding to one document at once both keep their entries (docs/safety.md).
   An input is otherwise never overwritten (util/fileio.c); the --into document is the
   one input that is rewritten, on purpose, whatever else read it on the way. */
#include "doc.h"
#include "../util/fileio.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static int held_lock = -1;
static char held_path[PATH_MAX];

json_t *ls_doc_into_open(const char *path, char *err, size_t errlen)
{
    if (held_lock < 0 && strcmp(path, "-") != 0) {
        held_lock = ls_lock_file(path, err, errlen);
        if (held_lock < 0)
            return NULL;
        snprintf(held_path, sizeof held_path, "%s", path);
    }
    json_t *doc = ls_doc_read(path, err, errlen);
    ls_inputs_forget(path);
    if (!doc)
        ls_doc_unlock_into();
    return doc;
}

int ls_doc_into_write(const json_t *doc, const char *path, char *err, size_t errlen)
{
    int into = held_lock >= 0 && strcmp(path, held_path) == 0;
    if (into) /* read again since it was opened (a command's --run of the same file) */
        ls_inputs_forget(path);
    int rc = ls_doc_write(doc, path, err, errlen);
    if (into)
        ls_doc_unlock_into();
    return rc;
}

void ls_doc_unlock_into(void)
{
    ls_unlock_file(held_lock);
    held_lock = -1;
    held_path[0] = '\0';
}
