/* --into DOC: the read-modify-write of a run document, under an advisory lock so that
   two commands adding to one document at once both keep their entries. */
#include "doc.h"
#include "../util/fileio.h"

#include <string.h>

static int held_lock = -1;

json_t *ls_doc_read_into(const char *path, char *err, size_t errlen)
{
    if (held_lock < 0 && strcmp(path, "-") != 0) {
        held_lock = ls_lock_file(path, err, errlen);
        if (held_lock < 0)
            return NULL;
    }
    json_t *doc = ls_doc_read(path, err, errlen);
    ls_inputs_forget(path); /* the document is rewritten in place, on purpose */
    return doc;
}

void ls_doc_unlock_into(void)
{
    ls_unlock_file(held_lock);
    held_lock = -1;
}
