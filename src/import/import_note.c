#include "import_note.h"
#include "model/entry.h"
#include "model/doc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char note[512];

void ls_import_note_reset(void)
{
    note[0] = '\0';
}

const char *ls_import_note_text(void)
{
    return note[0] ? note : NULL;
}

void ls_import_note_missing(const char *fmt, ...)
{
    size_t used = strlen(note);
    if (used && used + 2 < sizeof note) {
        memcpy(note + used, "; ", 3);
        used += 2;
    }
    if (used >= sizeof note - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + used, sizeof note - used, fmt, ap);
    va_end(ap);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void mark_entries(json_t *doc, const char *file, size_t first, int incomplete)
{
    json_t *list = json_object_get(doc, "measurements");
    for (size_t i = first; i < json_array_size(list); i++) {
        json_t *e = json_array_get(list, i);
        json_object_set_new(e, "source_file", json_string(file));
        if (incomplete && json_is_array(json_object_get(e, "flags")))
            ls_entry_flag(e, "incomplete");
    }
}

/* An importer that flags its own entries "incomplete" with a note (nccl-tests) says
   what was missing in the entry's notes[0]. */
static const char *entry_note(const json_t *doc, size_t first)
{
    const json_t *list = json_object_get(doc, "measurements");
    for (size_t i = first; i < json_array_size(list); i++) {
        const json_t *e = json_array_get(list, i);
        if (ls_entry_has_flag(e, "incomplete")) {
            const char *note = json_string_value(json_array_get(json_object_get(e, "notes"), 0));
            return note ? note : "incomplete paste";
        }
    }
    return NULL;
}

void ls_import_note_record(json_t *doc, const char *name, const char *format, size_t first,
                           int entries)
{
    const char *file = base_name(name);
    const char *missing = ls_import_note_text();
    if (!missing)
        missing = entry_note(doc, first);
    mark_entries(doc, file, first, missing != NULL);
    json_t *list = ls_json_array_at(doc, "imports");
    json_t *rec = json_pack("{s:s, s:s, s:i, s:b}", "file", file, "format", format, "entries",
                            entries, "incomplete", missing != NULL);
    if (missing)
        json_object_set_new(rec, "missing", json_string(missing));
    json_array_append_new(list, rec);
}
