/* linkscope import: other tools' saved output into one run document. */
#include "commands.h"
#include "options.h"
#include "import/import.h"
#include "model/doc.h"
#include "util/fileio.h"
#include "util/log.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 256

typedef struct {
    const char *files[MAX_FILES];
    int nfiles;
    const char *out, *into, *p2p_read, *p2p_write;
    ls_import_opts_t opts;
} import_args_t;

static int opt_collective(const char *cmd, const char *v, void *args)
{
    char names[256] = "";
    for (const char *const *w = ls_import_collectives(); *w; w++) {
        if (!strcmp(v, *w)) {
            ((import_args_t *)args)->opts.collective = *w;
            return 0;
        }
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", *names ? ", " : "",
                 *w);
    }
    return ls_usage_error(cmd, "--collective %.64s: not one of nccl-tests' collectives (%s)", v,
                          names);
}

/* The head of the usage, with the formats listed by import's table. */
static const char *head_of(const char *cmd)
{
    static char text[8192];
    (void)cmd;
    if (!text[0])
        snprintf(text, sizeof text, "%s%s%s",
                 "usage: linkscope import FILE... [-o OUT.json | --into DOC.json] [--variant "
                 "NAME]\n"
                 "                        [--collective NAME] [--p2p-read FILE] [--p2p-write "
                 "FILE]\n"
                 "\n"
                 "Reads saved output of other tools into one run document (\"source\": "
                 "\"import\"),\n"
                 "so that reports, plan, compare and check work on logs people already have.\n"
                 "Each FILE's format is recognized from its text (tried in this order):\n",
                 ls_import_formats(29),
                 "A partial paste keeps its whole rows and says what was cut (one warning line).\n"
                 "\n"
                 "Options:\n");
    return text;
}

static const ls_opt_t options[] = {
    LS_OPT_DOC_ROW(import_args_t, out, "output",
                   "write the document to FILE (default: stdout, or DOC with\n--into)"),
    {.name = "into",
     .kind = LS_OPT_STRING,
     .arg = "DOC",
     .off = offsetof(import_args_t, into),
     .help = "add to an existing run document (rewritten atomically)"},
    {.name = "variant",
     .kind = LS_OPT_STRING,
     .arg = "NAME",
     .off = offsetof(import_args_t, opts.variant),
     .help = "label nccl-tests results, e.g. NCCL_P2P_LEVEL=PHB (default\n"
             "\"default\"); compare --variants sets variants side by side"},
    {.name = "collective",
     .kind = LS_OPT_CALL,
     .arg = "NAME",
     .call = opt_collective,
     .words = ls_import_collectives,
     .help = "the collective, when the log names none (all_reduce, ...)"},
    {.name = "p2p-read",
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(import_args_t, p2p_read),
     .help = "nvidia-smi topo -p2p r output (the topology imported with\nit)"},
    {.name = "p2p-write",
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(import_args_t, p2p_write),
     .help = "nvidia-smi topo -p2p w output"},
    {.kind = LS_OPT_END},
};

const ls_cmd_opts_t opts_import = {
    .head_of = head_of,
    .opts = options,
    .tail = "\n"
            "A file that is unreadable or in no known format gives one line naming it and\n"
            "exit code 2; nothing is written then. Details: docs/import.md.\n",
    .column = 22,
    .args_size = sizeof(import_args_t),
};

static int parse_args(int argc, char **argv, import_args_t *a)
{
    memset(a, 0, sizeof *a);
    char *pos[argc];
    int npos;
    if (ls_opt_parse("import", &opts_import, argc, argv, a, pos, &npos))
        return LS_EXIT_USAGE;
    if (npos > MAX_FILES)
        return ls_usage_error("import", "at most %d files at once", MAX_FILES);
    for (int i = 0; i < npos; i++)
        a->files[a->nfiles++] = pos[i];
    if (a->nfiles == 0 && !a->p2p_read && !a->p2p_write)
        return ls_usage_error("import", "no FILE given");
    return 0;
}

/* Reads every input first, so that an unreadable file stops everything. */
static char **read_all(const import_args_t *a)
{
    char **texts = calloc((size_t)a->nfiles + 1, sizeof *texts);
    if (!texts)
        return NULL;
    char err[512];
    for (int i = 0; i < a->nfiles; i++) {
        texts[i] = ls_read_file(a->files[i], NULL, err, sizeof err);
        if (!texts[i]) {
            ls_error("%s", err);
            for (int k = 0; k < i; k++)
                free(texts[k]);
            free(texts);
            return NULL;
        }
    }
    return texts;
}

static void free_all(char **texts, int n)
{
    for (int i = 0; texts && i < n; i++)
        free(texts[i]);
    free(texts);
}

/* Range-checked as the reader checks: never a document report would refuse. 0, or one
   line and LS_EXIT_USAGE. */
static int check_valid(const import_args_t *a, const json_t *doc)
{
    char why[256];
    if (ls_doc_validate(doc, why, sizeof why) == 0)
        return 0;
    ls_error("%s%s: what was read makes no valid run document (%s); nothing written",
             a->nfiles     ? a->files[0]
             : a->p2p_read ? a->p2p_read
                           : a->p2p_write,
             a->nfiles > 1 ? " and the other files" : "", why);
    return LS_EXIT_USAGE;
}

int cmd_import(int argc, char **argv)
{
    import_args_t a;
    if (parse_args(argc, argv, &a) != 0)
        return LS_EXIT_USAGE;
    json_t *doc = ls_doc_target_open("import", a.into, ls_import_doc_new);
    if (!doc)
        return LS_EXIT_USAGE;
    char **texts = read_all(&a);
    char(*notes)[640] = calloc((size_t)a.nfiles + 1, sizeof *notes);
    char(*warns)[640] = calloc((size_t)a.nfiles + 1, sizeof *warns);
    int rc = LS_EXIT_USAGE;
    ls_import_batch_t batch = {.files = a.files,
                               .texts = texts,
                               .nfiles = a.nfiles,
                               .p2p_read = a.p2p_read,
                               .p2p_write = a.p2p_write,
                               .opts = a.opts};
    if (texts && notes && warns && ls_import_batch(doc, &batch, notes, warns) == 0 &&
        check_valid(&a, doc) == 0 && ls_doc_target_write(doc, a.out, a.into, "-") == 0) {
        rc = LS_EXIT_OK;
        for (int i = 0; i < a.nfiles; i++) {
            ls_info("%s", notes[i]);
            if (warns[i][0])
                ls_warn("%s", warns[i]);
        }
    }
    ls_doc_unlock_into();
    free(notes);
    free(warns);
    free_all(texts, a.nfiles);
    json_decref(doc);
    return rc;
}
