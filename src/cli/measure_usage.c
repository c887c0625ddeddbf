/* The usage text of a measuring command (cmd_measure.c) around its options, built from
   its family's descriptor: its own synopsis, paragraphs and --size line. */
#include "measure_usage.h"
#include "measure/family.h"

#include <stdio.h>
#include <string.h>

/* The family's slot among at most LS_MEASURE_MAX_FAMILIES, or -1. */
static int slot_of(const char *family, const ls_family_t **f)
{
    int count;
    const ls_family_t *fams = ls_families(&count);
    for (int i = 0; i < count && i < LS_MEASURE_MAX_FAMILIES; i++)
        if (strcmp(fams[i].name, family) == 0) {
            *f = &fams[i];
            return i;
        }
    return -1;
}

const char *ls_measure_head(const char *family)
{
    static char text[LS_MEASURE_MAX_FAMILIES][2048];
    const ls_family_t *f;
    int i = slot_of(family, &f);
    if (i < 0)
        return "";
    if (!text[i][0]) {
        int head = (int)strlen("usage: linkscope  ") + (int)strlen(f->name);
        snprintf(text[i], sizeof text[i],
                 "usage: linkscope %s [-o FILE | --into FILE] [--gpus LIST]\n%*s[--samples N]%s\n"
                 "%*s[--progress auto|always|never]\n\n%s\n",
                 f->name, head, "", f->default_size ? " [--size SIZE] [--csv DIR]" : " [--csv DIR]",
                 head, "", f->about);
    }
    return text[i];
}

const char *ls_measure_size_help(const char *family)
{
    static char text[LS_MEASURE_MAX_FAMILIES][512];
    const ls_family_t *f;
    int i = slot_of(family, &f);
    if (i < 0 || !f->default_size)
        return NULL;
    if (!text[i][0])
        snprintf(text[i], sizeof text[i], "%s (default %s; %s)", f->size_what, f->default_size_text,
                 f->size_note);
    return text[i];
}

const char *ls_measure_tail(const char *family)
{
    static char text[LS_MEASURE_MAX_FAMILIES][2048];
    const ls_family_t *f;
    int i = slot_of(family, &f);
    if (i < 0)
        return "";
    if (!text[i][0])
        snprintf(text[i], sizeof text[i],
                 "\n%sExit codes: 0 ok, 2 bad option or input file, 3 no usable GPU or\n"
                 "built without CUDA.\n",
                 f->notes);
    return text[i];
}
