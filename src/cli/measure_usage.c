/* The usage text of a measuring command (cmd_measure.c), built from its family's
   descriptor: the same options for every family, its own paragraphs and --size line. */
#include "commands.h"
#include "options.h"
#include "measure/family.h"

#include <stdio.h>
#include <string.h>

/* The options every measuring command takes, for its usage text. */
static const char options_help[] =
    "  -o FILE        write a new run document (discovery first, so the GPUs are recorded);\n"
    "                 - writes it to stdout, without the tables\n"
    "  --into FILE    add the entries to an existing run document (validated first)\n"
    "  --gpus LIST    GPUs to measure, e.g. 0,1 or 0-3 (nvidia-smi / PCI bus order); default all\n"
    "  --samples N    timed samples per figure, all kept (default 20; median reported)\n"
    "  --csv DIR      also write each table as CSV into DIR (created if missing)\n"
    LS_PROGRESS_USAGE;

static void build_usage(const ls_family_t *f, char *buf, size_t len)
{
    int head = (int)strlen("usage: linkscope  ") + (int)strlen(f->name);
    int n = snprintf(buf, len, "usage: linkscope %s [-o FILE | --into FILE] [--gpus LIST] [--samples N]%s\n",
                     f->name, f->default_size ? " [--size SIZE]" : " [--csv DIR]");
    n += snprintf(buf + n, len - (size_t)n, "%*s%s[--progress auto|always|never]\n", head, "",
                  f->default_size ? "[--csv DIR] " : "");
    n += snprintf(buf + n, len - (size_t)n, "\n%s\n%s", f->about, options_help);
    if (f->default_size)
        n += snprintf(buf + n, len - (size_t)n, "  --size SIZE    %s (default %s; %s)\n", f->size_what,
                      f->default_size_text, f->size_note);
    snprintf(buf + n, len - (size_t)n, "\n%sExit codes: 0 ok, 2 bad option or input file, 3 no usable "
             "GPU or built without CUDA.\n", f->notes);
}

const char *ls_measure_usage(const char *family)
{
    static char text[8][4096];
    int count;
    const ls_family_t *fams = ls_families(&count);
    for (int i = 0; i < count && i < 8; i++)
        if (strcmp(fams[i].name, family) == 0) {
            if (!text[i][0])
                build_usage(&fams[i], text[i], sizeof text[i]);
            return text[i];
        }
    return "";
}
