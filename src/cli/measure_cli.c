#include "measure_cli.h"
#include "commands.h"
#include "discover/discover.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "render/matrix.h"
#include "util/log.h"
#include "util/parse.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int need_value(const char *cmd, int i, int argc, char **argv)
{
    if (i + 1 >= argc) {
        ls_usage_error(cmd, "%s needs a value", argv[i]);
        return 0;
    }
    return 1;
}

int ls_measure_parse(const char *cmd, int argc, char **argv, ls_measure_args_t *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        int has = strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0 ||
                  strcmp(opt, "--into") == 0 || strcmp(opt, "--gpus") == 0 ||
                  strcmp(opt, "--samples") == 0 || strcmp(opt, "--size") == 0 ||
                  strcmp(opt, "--csv") == 0;
        if (!has)
            return ls_usage_error(cmd, "unknown option '%s'", opt);
        if (!need_value(cmd, i, argc, argv))
            return LS_EXIT_USAGE;
        const char *v = argv[++i];
        if (strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0) {
            a->out = v;
        } else if (strcmp(opt, "--into") == 0) {
            a->into = v;
        } else if (strcmp(opt, "--csv") == 0) {
            a->csv_dir = v;
        } else if (strcmp(opt, "--gpus") == 0) {
            a->ngpus = ls_parse_index_list(v, a->gpus, LS_MAX_GPUS);
            if (a->ngpus <= 0)
                return ls_usage_error(cmd, "--gpus '%s': expected GPU indices like 0,1 or 0-3", v);
        } else if (strcmp(opt, "--samples") == 0) {
            if (ls_parse_long(v, 1, 100000, &a->samples) != 0)
                return ls_usage_error(cmd, "--samples '%s': expected a whole number from 1 to 100000", v);
        } else {
            if (ls_parse_size(v, &a->size) != 0)
                return ls_usage_error(cmd, "--size '%s': expected a size like 256M or 1G", v);
            if (a->size < 16)
                return ls_usage_error(cmd, "--size '%s': expected at least 16 bytes", v);
        }
    }
    if (a->out && a->into)
        return ls_usage_error(cmd, "-o and --into exclude each other");
    return 0;
}

/* Checks --gpus and --size against the machine; fills the measuring options. */
static int check_machine(const ls_family_cmd_t *fam, const ls_measure_args_t *a, int count,
                         ls_measure_opts_t *o)
{
    if (a->ngpus) {
        for (int i = 0; i < a->ngpus; i++)
            if (a->gpus[i] >= count)
                return ls_usage_error(fam->name, "--gpus: GPU %d does not exist (this machine has %d GPU%s: 0-%d)",
                                      a->gpus[i], count, count == 1 ? "" : "s", count - 1);
        memcpy(o->gpus, a->gpus, sizeof a->gpus);
        o->ngpus = a->ngpus;
    } else {
        o->ngpus = count > LS_MAX_GPUS ? LS_MAX_GPUS : count;
        for (int i = 0; i < o->ngpus; i++)
            o->gpus[i] = i;
    }
    if (a->size && fam->buffers_per_gpu) {
        for (int i = 0; i < o->ngpus; i++) {
            uint64_t mem = ls_gpu_memory_bytes(o->gpus[i]);
            if (mem && a->size > mem / (uint64_t)fam->buffers_per_gpu) {
                char want[32], have[32];
                ls_format_size(a->size, want, sizeof want);
                ls_format_size(mem, have, sizeof have);
                return ls_usage_error(fam->name, "--size %s: %d buffers of it do not fit in GPU %d's %s",
                                      want, fam->buffers_per_gpu, o->gpus[i], have);
            }
        }
    }
    o->samples = (int)a->samples;
    o->size = a->size;
    return 0;
}

/* Where -o, --into and --csv will write must be usable before any work, so that a typo
   does not cost a whole measurement: a file goes into an existing, writable folder (by a
   temporary file and a rename); the CSV folder exists and is writable, or is created
   later in an existing, writable one. */
/* host: its buffers of --size must fit in the machine's memory (touching more than that
   would end in the kernel's out-of-memory killer, not in a message). */
static int check_host_memory(const ls_family_cmd_t *fam, uint64_t size)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (!size || !fam->host_buffers || pages <= 0 || page <= 0)
        return 0;
    uint64_t mem = (uint64_t)pages * (uint64_t)page;
    if (size <= mem / (uint64_t)fam->host_buffers)
        return 0;
    char want[32], have[32];
    ls_format_size(size, want, sizeof want);
    ls_format_size(mem, have, sizeof have);
    return ls_usage_error(fam->name, "--size %s: %d buffers of it do not fit in this machine's %s of memory",
                          want, fam->host_buffers, have);
}

static json_t *open_document(const ls_measure_args_t *a)
{
    if (a->into) {
        char err[512];
        json_t *doc = ls_doc_read_into(a->into, err, sizeof err);
        if (!doc)
            ls_error("%s", err);
        return doc;
    }
    json_t *doc = ls_doc_new();
    ls_discover_opts_t d = {NULL, 1, 1};
    ls_discover(doc, &d);
    return doc;
}

static int make_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return 0;
    ls_error("--csv %s: cannot create the folder: %s", dir, strerror(errno));
    return -1;
}

static int report_failures(const json_t *doc, const char *family, size_t first)
{
    int failed = 0;
    const json_t *list = json_object_get(doc, "measurements");
    for (size_t i = first; i < json_array_size(list); i++) {
        const json_t *e = json_array_get(list, i);
        const char *status = ls_json_str(e, "status", "ok");
        if (strcmp(ls_json_str(e, "family", ""), family) == 0 && strcmp(status, "ok") != 0 &&
            strcmp(status, "skipped") != 0) {
            ls_warn("%s: %s: %s", ls_json_str(e, "id", "?"), status, ls_json_str(e, "error", ""));
            failed++;
        }
    }
    return failed;
}

static int finish(const ls_family_cmd_t *fam, const ls_measure_args_t *a, json_t *doc)
{
    char err[512] = "";
    const char *path = a->out ? a->out : a->into;
    if (!path || strcmp(path, "-") != 0) { /* -o -: stdout holds the document alone */
        fam->print(stdout, doc, ls_use_color(stdout));
        fflush(stdout);
    }
    if (path && ls_doc_write(doc, path, err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    if (a->csv_dir) {
        if (make_dir(a->csv_dir) != 0)
            return LS_EXIT_USAGE;
        if (fam->csv(doc, a->csv_dir, err, sizeof err) != 0) {
            ls_error("%s", err);
            return LS_EXIT_USAGE;
        }
    }
    return LS_EXIT_OK;
}

int ls_measure_command(const ls_family_cmd_t *fam, int argc, char **argv)
{
    ls_measure_args_t a;
    int rc = ls_measure_parse(fam->name, argc, argv, &a);
    if (rc)
        return rc;
    if (a.size && !fam->default_size)
        return ls_usage_error(fam->name, "--size does not apply to %s", fam->name);
    rc = ls_check_writable(fam->name, a.out ? "-o" : "--into", a.out ? a.out : a.into, 0);
    if (!rc)
        rc = ls_check_writable(fam->name, "--csv", a.csv_dir, 1);
    if (!rc)
        rc = check_host_memory(fam, a.size);
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
    if (!rc && fam->needs_pairs && o.ngpus < 2 && a.ngpus)
        rc = ls_usage_error(fam->name, "P2P needs two GPUs; --gpus chose %d", o.ngpus);
    if (rc) {
        json_decref(doc);
        return rc;
    }
    if (!doc)
        doc = open_document(&a);
    if (fam->needs_pairs && o.ngpus < 2)
        fprintf(stderr, "linkscope %s: P2P needs two GPUs; this machine has %d%s\n", fam->name, count,
                strcmp(fam->name, "latency") == 0 ? " (measuring GPU to host only)" : "");
    o.doc = doc;
    size_t first = json_array_size(json_object_get(doc, "measurements"));
    rc = fam->measure(doc, &o, err, sizeof err);
    if (rc) {
        ls_error("%s", err);
        json_decref(doc);
        return rc;
    }
    int failed = report_failures(doc, fam->name, first);
    if (failed)
        ls_warn("%d %s figure%s failed; the others are recorded", failed, fam->name, failed == 1 ? "" : "s");
    rc = finish(fam, &a, doc);
    json_decref(doc);
    return rc;
}
