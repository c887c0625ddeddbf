/* linkscope p2p|latency|hbm|host: one measurement family (measure/family.h) measured on
   the chosen GPUs, its tables printed (render/family_tables.h), its entries written to a
   new or an existing run document. The same options and order of work for every
   family; what differs is the family's descriptor. */
#include "commands.h"
#include "options.h"
#include "discover/discover.h"
#include "measure/family.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "render/family_tables.h"
#include "render/matrix.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/parse.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const char *out, *into, *csv_dir;
    int gpus[LS_MAX_GPUS];
    int ngpus;            /* 0: all GPUs */
    long samples;         /* 0: default */
    uint64_t size;        /* 0: default */
} measure_args_t;

static int parse_value(const char *cmd, int c, const char *v, measure_args_t *a)
{
    switch (c) {
    case 'o': a->out = v; return 0;
    case 'i': a->into = v; return 0;
    case 'c': a->csv_dir = v; return 0;
    case 'g': return ls_opt_gpus(cmd, v, a->gpus, LS_MAX_GPUS, &a->ngpus);
    case 'P': return ls_opt_progress(cmd, v) ? LS_EXIT_USAGE : 0;
    case 'n':
        if (ls_parse_long(v, 1, 100000, &a->samples) != 0)
            return ls_usage_error(cmd, "--samples '%s': expected a whole number from 1 to 100000", v);
        return 0;
    default:
        if (ls_parse_size(v, &a->size) != 0)
            return ls_usage_error(cmd, "--size '%s': expected a size like 256M or 1G", v);
        if (a->size < 16)
            return ls_usage_error(cmd, "--size '%s': expected at least 16 bytes", v);
        return 0;
    }
}

static int parse_args(const char *cmd, int argc, char **argv, measure_args_t *a)
{
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"into", required_argument, 0, 'i'},
                                         {"gpus", required_argument, 0, 'g'},
                                         {"samples", required_argument, 0, 'n'},
                                         {"size", required_argument, 0, 's'},
                                         {"csv", required_argument, 0, 'c'},
                                         {"progress", required_argument, 0, 'P'},
                                         {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    ls_opt_begin();
    int c, rc = 0;
    while (!rc && (c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
        if (ls_opt_refused(cmd, c, argv))
            return LS_EXIT_USAGE;
        rc = parse_value(cmd, c, optarg, a);
    }
    if (rc)
        return rc;
    if (optind < argc)
        return ls_usage_error(cmd, "unknown option '%s'", argv[optind]);
    if (a->out && a->into)
        return ls_usage_error(cmd, "-o and --into exclude each other");
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
    return ls_family_check_gpu_memory(fam, o, err, sizeof err) ? ls_usage_error(fam->name, "%s", err) : 0;
}

static json_t *open_document(const measure_args_t *a)
{
    if (a->into)
        return ls_read_document_into(a->into);
    json_t *doc = ls_doc_new();
    ls_discover_opts_t d = {NULL, 1, 1};
    ls_discover(doc, &d);
    return doc;
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
    if (path && ls_doc_into_write(doc, path, err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
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

/* Every refusal that needs no GPU: options, output paths, host memory. */
static int check_args(const ls_family_t *fam, const measure_args_t *a)
{
    if (a->size && !fam->default_size)
        return ls_usage_error(fam->name, "--size does not apply to %s", fam->name);
    if (ls_check_writable(fam->name, a->out ? "-o" : "--into", a->out ? a->out : a->into, 0) ||
        ls_check_writable(fam->name, "--csv", a->csv_dir, 1))
        return LS_EXIT_USAGE;
    char err[256];
    return ls_family_check_host_memory(fam, a->size, err, sizeof err) ? ls_usage_error(fam->name, "%s", err) : 0;
}

/* Measures into doc and writes the outputs; takes doc. */
static int measure(const ls_family_t *fam, const measure_args_t *a, json_t *doc, ls_measure_opts_t *o,
                   int count)
{
    char err[512] = "";
    if (fam->pairs && o->ngpus < 2)
        fprintf(stderr, "linkscope %s: P2P needs two GPUs; this machine has %d%s\n", fam->name, count,
                fam->one_gpu);
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

int cmd_measure(int argc, char **argv)
{
    const ls_family_t *fam = ls_family_find(argv[0]);
    measure_args_t a;
    int rc = fam ? parse_args(fam->name, argc, argv, &a) : LS_EXIT_USAGE;
    if (!rc)
        rc = check_args(fam, &a);
    if (rc)
        return rc;
    /* Order: the input document, then the machine, then discovery for a new document,
       so that every refusal is one line and comes before any work. */
    json_t *doc = a.into ? open_document(&a) : NULL;
    if (a.into && !doc)
        return LS_EXIT_USAGE;
    char err[512] = "";
    int count = ls_gpu_count(err, sizeof err);
    ls_measure_opts_t o;
    memset(&o, 0, sizeof o);
    if (count <= 0) {
        ls_error("%s", err);
        json_decref(doc);
        return LS_EXIT_NOGPU;
    }
    rc = check_machine(fam, &a, count, &o);
    if (!rc && fam->pairs && o.ngpus < 2 && a.ngpus)
        rc = ls_usage_error(fam->name, "P2P needs two GPUs; --gpus chose %d", o.ngpus);
    if (rc) {
        json_decref(doc);
        return rc;
    }
    return measure(fam, &a, doc ? doc : open_document(&a), &o, count);
}
