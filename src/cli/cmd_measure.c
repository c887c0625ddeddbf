/* linkscope p2p|latency|hbm|host: one measurement family (measure/family.h) measured on
   the chosen GPUs, its tables printed (render/family_tables.h), its entries written to a
   new or an existing run document. The same options and order of work for every
   family; what differs is the family's descriptor. */
#include "commands.h"
#include "measure_usage.h"
#include "options.h"
#include "measure/family.h"
#include "model/doc.h"
#include "render/family_tables.h"
#include "render/matrix.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/parse.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const char *out, *into, *csv_dir;
    int gpus[LS_MAX_GPUS];
    int ngpus;     /* 0: all GPUs */
    long samples;  /* 0: default */
    uint64_t size; /* 0: default */
} measure_args_t;

static int opt_gpus(const char *cmd, const char *v, void *args)
{
    measure_args_t *a = args;
    return ls_opt_gpus(cmd, v, a->gpus, LS_MAX_GPUS, &a->ngpus);
}

static int opt_samples(const char *cmd, const char *v, void *args)
{
    if (ls_parse_long(v, 1, 100000, &((measure_args_t *)args)->samples) != 0)
        return ls_usage_error(cmd, "--samples '%s': expected a whole number from 1 to 100000", v);
    return 0;
}

static int opt_size(const char *cmd, const char *v, void *args)
{
    uint64_t *size = &((measure_args_t *)args)->size;
    if (ls_parse_size(v, size) != 0)
        return ls_usage_error(cmd, "--size '%s': expected a size like 256M or 1G", v);
    if (*size < 16)
        return ls_usage_error(cmd, "--size '%s': expected at least 16 bytes", v);
    return 0;
}

/* The options every measuring command takes; --size shown where the family has one
   (another refuses it after parsing, in words). */
static const ls_opt_t options[] = {
    LS_OPT_DOC_ROW(measure_args_t, out, "output",
                   "write a new run document (discovery first, so the GPUs are\n"
                   "recorded); - writes it to stdout, without the tables"),
    LS_OPT_INTO_ROW(measure_args_t, into,
                    "add the entries to an existing run document (validated first)"),
    {.name = "gpus",
     .kind = LS_OPT_CALL,
     .arg = "LIST",
     .call = opt_gpus,
     .help = "GPUs to measure, e.g. 0,1 or 0-3 (nvidia-smi / PCI bus order);\ndefault all"},
    {.name = "samples",
     .kind = LS_OPT_CALL,
     .arg = "N",
     .call = opt_samples,
     .help = "timed samples per figure, all kept (default 20; median\nreported)"},
    {.name = "csv",
     .kind = LS_OPT_STRING,
     .arg = "DIR",
     .off = offsetof(measure_args_t, csv_dir),
     .flags = LS_OPT_OUTPUT_DIR,
     .help = "also write each table as CSV into DIR (created if missing)"},
    LS_OPT_PROGRESS_ROW,
    {.name = "size",
     .kind = LS_OPT_CALL,
     .arg = "SIZE",
     .call = opt_size,
     .help_of = ls_measure_size_help},
    {.kind = LS_OPT_END},
};

/* What the options say together, before the dispatcher's prologue (optparse.h): --size
   where the family has one, and within host memory. */
static int check_options(const char *cmd, void *args)
{
    const measure_args_t *a = args;
    const ls_family_t *fam = ls_family_find(cmd);
    if (a->size && fam && !fam->default_size)
        return ls_usage_error(cmd, "--size does not apply to %s", cmd);
    char err[256];
    if (fam && ls_family_check_host_memory(fam, a->size, err, sizeof err))
        return ls_usage_error(cmd, "%s", err);
    return 0;
}

const ls_cmd_opts_t opts_measure = {
    .head_of = ls_measure_head,
    .opts = options,
    .tail_of = ls_measure_tail,
    .column = 17,
    .args_size = sizeof(measure_args_t),
    .check = check_options,
};

static int parse_args(const char *cmd, int argc, char **argv, measure_args_t *a)
{
    memset(a, 0, sizeof *a);
    if (ls_opt_parse(cmd, &opts_measure, argc, argv, a, NULL, NULL))
        return LS_EXIT_USAGE;
    return 0;
}

/* Checks --gpus and --size against the machine; fills the measuring options. */
static int check_machine(const ls_family_t *fam, const measure_args_t *a, int count,
                         ls_measure_opts_t *o)
{
    if (ls_opt_gpus_exist(fam->name, a->gpus, a->ngpus, count))
        return LS_EXIT_USAGE;
    if (a->ngpus) {
        memcpy(o->gpus, a->gpus, sizeof a->gpus);
        o->ngpus = a->ngpus;
    } else {
        o->ngpus = count > LS_MAX_GPUS ? LS_MAX_GPUS : count;
        for (int i = 0; i < o->ngpus; i++)
            o->gpus[i] = i;
    }
    o->samples = (int)a->samples;
    o->size = a->size;
    char err[256];
    return ls_family_check_gpu_memory(fam, o, err, sizeof err)
               ? ls_usage_error(fam->name, "%s", err)
               : 0;
}

static int finish(const ls_family_t *fam, const measure_args_t *a, json_t *doc)
{
    char err[512] = "";
    const char *path = a->out ? a->out : a->into;
    const ls_family_tables_t *t = ls_family_tables(fam->name);
    if (t && (!path || strcmp(path, "-") != 0)) { /* -o -: stdout holds the document alone */
        t->print(stdout, doc, fam->methods, ls_use_color(stdout));
        fflush(stdout);
    }
    if (ls_doc_target_write(doc, a->out, a->into, NULL))
        return LS_EXIT_USAGE;
    if (a->csv_dir && t) {
        if (ls_make_dir(a->csv_dir) != 0) {
            ls_error("--csv %s: cannot create the folder: %s", a->csv_dir, strerror(errno));
            return LS_EXIT_USAGE;
        }
        if (t->csv(doc, fam->methods, a->csv_dir, err, sizeof err) != 0) {
            ls_error("%s", err);
            return LS_EXIT_USAGE;
        }
    }
    return LS_EXIT_OK;
}

/* Measures into doc and writes the outputs; takes doc. */
static int measure(const ls_family_t *fam, const measure_args_t *a, json_t *doc,
                   ls_measure_opts_t *o, int count)
{
    char err[512] = "";
    if (fam->pairs && o->ngpus < 2)
        fprintf(stderr, "linkscope %s: P2P needs two GPUs; this machine has %d%s\n", fam->name,
                count, fam->one_gpu);
    o->doc = doc;
    size_t first = json_array_size(json_object_get(doc, "measurements"));
    int rc = ls_family_measure(fam, doc, o, err, sizeof err);
    if (rc) {
        ls_error("%s", err);
        json_decref(doc);
        return rc;
    }
    ls_family_warn_failures(fam, doc, first);
    rc = finish(fam, a, doc);
    json_decref(doc);
    return rc;
}

/* The prologue (prologue.c) has checked -o, --into and the GPU by now. */
int cmd_measure(int argc, char **argv)
{
    const ls_family_t *fam = ls_family_find(argv[0]);
    measure_args_t a;
    int rc = fam ? parse_args(fam->name, argc, argv, &a) : LS_EXIT_USAGE;
    if (rc)
        return rc;
    int count = ls_gpus_seen();
    ls_measure_opts_t o;
    memset(&o, 0, sizeof o);
    rc = check_machine(fam, &a, count, &o);
    if (!rc && fam->pairs && o.ngpus < 2 && a.ngpus)
        rc = ls_usage_error(fam->name, "P2P needs two GPUs; --gpus chose %d", o.ngpus);
    if (rc)
        return rc;
    json_t *doc = ls_doc_target_open(fam->name, a.into, ls_doc_new_discovered);
    return doc ? measure(fam, &a, doc, &o, count) : LS_EXIT_USAGE;
}
