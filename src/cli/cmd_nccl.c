/* linkscope nccl: NCCL collectives swept nccl-tests' way, with validation, the
   transports NCCL used, settings variants and MPI. docs/nccl.md. */
#include "commands.h"
#include "discover/discover.h"
#include "measure/gpu.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/topo.h"
#include "nccl/coll.h"
#include "nccl/mpirt.h"
#include "nccl/sweep.h"
#include "nccl/table.h"
#include "model/translog.h"
#include "nccl/annotate.h"
#include "nccl/variant.h"
#include "util/log.h"
#include "util/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

const char usage_nccl[] =
    "usage: linkscope nccl COLLECTIVE|all [nccl-tests flags] [--gpus 0,1] [--variant K=V]...\n"
    "                      [-o FILE] [--into FILE] [--timeout S] [--json]\n"
    "\n"
    "Sweeps an NCCL collective over sizes, nccl-tests' way, checks every result on the\n"
    "GPU, and records the transport NCCL used on each ring edge (from its own debug log,\n"
    "captured privately).\n"
    "\n"
    "COLLECTIVE: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce,\n"
    "            sendrecv; all = the first four.\n"
    "\n"
    "nccl-tests flags (same meaning and defaults):\n"
    "  -b, --minbytes SIZE     smallest size (default 32M; K, M, G = 1024 multiples)\n"
    "  -e, --maxbytes SIZE     largest size (default 32M)\n"
    "  -f, --stepfactor F      multiply the size by F (default 1 = use -i)\n"
    "  -i, --stepbytes SIZE    add SIZE when -f is 1 (default 1M)\n"
    "  -n, --iters N           timed iterations per size (default 20)\n"
    "  -w, --warmup_iters N    warmup iterations per size (default 1)\n"
    "  -c, --check 0|1         check results on the device (#wrong; default 1)\n"
    "  -d, --datatype TYPE     int8 uint8 int32 uint32 int64 uint64 half float double\n"
    "                          bfloat16 (default float)\n"
    "  -o, --op OP             sum prod max min avg (default sum); -o with any other\n"
    "                          word is the output file (see below)\n"
    "  -r, --root N            root rank of broadcast and reduce (default 0)\n"
    "  -z, --blocking 0|1      wait for each collective inside the timed loop (default 0)\n"
    "  -G, --cudagraph N       capture the iterations in a CUDA graph, launch it N times\n"
    "  -g, --ngpus N           use GPUs 0..N-1 (default: every visible GPU)\n"
    "  -t, --nthreads 1        one thread drives all GPUs with group calls (only 1)\n"
    "\n"
    "linkscope options:\n"
    "  --gpus LIST             GPUs to use, e.g. 0,1,4 (PCI bus order, as nvidia-smi)\n"
    "  --in-place 0|1|2        0 out-of-place only, 1 in-place only, 2 both (default)\n"
    "  --launch group|threads  group: one thread launches for every GPU in group calls\n"
    "                          (nccl-tests' -t 1, default); threads: one thread per GPU\n"
    "  --variant K=V           also run with the environment variable K=V, each setting\n"
    "                          in its own process; shown beside the default with ratios\n"
    "  -o, --output FILE       write a new run document (- = stdout)\n"
    "  --into FILE             add the entries to an existing run document\n"
    "  --timeout S             watchdog: abort a collective not done in S s (default 60)\n"
    "  --json                  print the run document on stdout instead of the tables\n"
    "  --mpi-selftest          under mpirun: check MPI broadcast and gather, no GPU\n"
    "\n"
    "Under MPI (mpirun -np N linkscope nccl ...): one rank per GPU, the node-local rank\n"
    "picks the GPU (--gpus maps local ranks to GPUs), rank 0 prints and writes.\n"
    "Exit: 0 ok; 1 a result was wrong or a collective timed out or failed; 2 usage;\n"
    "3 no NCCL or no GPU (the document, when asked for, is still written and valid).\n";

#define MAX_VARIANTS 16

typedef struct {
    ls_nccl_sweep_opts_t sweep;
    const char *colls[8];
    int ncolls;
    int gpus[LS_MAX_GPUS];
    const char *variants[MAX_VARIANTS];
    int nvariants;
    const char *output, *into, *child_out;
    int json, selftest, ngpus_flag;
    char *raw[64]; /* the sweep's flags, re-issued to variant children */
    int nraw;
} opts_t;

/* stdout carries the document instead of the tables (--json, -o -, or a child). */
static int tables_off(const opts_t *o)
{
    return o->json || o->child_out || (o->output && strcmp(o->output, "-") == 0) ||
           (o->into && strcmp(o->into, "-") == 0);
}

static int bad(const char *fmt, const char *a, const char *b)
{
    char line[512];
    snprintf(line, sizeof line, fmt, a, b);
    return ls_usage_error("nccl", "%s", line);
}

static int want_value(int argc, char **argv, int *i, const char **value)
{
    if (*i + 1 >= argc)
        return bad("%s needs a value%s", argv[*i], "");
    *value = argv[++*i];
    return 0;
}

static int keep_raw(opts_t *o, const char *flag, const char *value)
{
    if (o->nraw + 2 > (int)(sizeof o->raw / sizeof o->raw[0]))
        return bad("too many options%s%s", "", "");
    o->raw[o->nraw++] = (char *)flag;
    o->raw[o->nraw++] = (char *)value;
    return 0;
}

static int parse_size_opt(const char *flag, const char *v, uint64_t *out)
{
    if (ls_parse_size(v, out) != 0 || *out == 0)
        return bad("%s: '%s' is not a size (expected e.g. 8, 64K, 1M, 8G)", flag, v);
    return 0;
}

static int parse_int_opt(const char *flag, const char *v, long lo, long hi, int *out)
{
    long n;
    if (ls_parse_long(v, lo, hi, &n) != 0) {
        char range[64];
        snprintf(range, sizeof range, "a whole number %ld-%ld", lo, hi);
        return bad("%s: expected %s", flag, range);
    }
    *out = (int)n;
    return 0;
}

/* Flags of the sweep itself (they travel to variant children). 1 = not one of them. */
static int parse_sweep_flag(opts_t *o, const char *f, const char *v)
{
    ls_nccl_sweep_opts_t *s = &o->sweep;
    int rc = 0;
    if (!strcmp(f, "-b") || !strcmp(f, "--minbytes"))
        rc = parse_size_opt(f, v, &s->min_bytes);
    else if (!strcmp(f, "-e") || !strcmp(f, "--maxbytes"))
        rc = parse_size_opt(f, v, &s->max_bytes);
    else if (!strcmp(f, "-i") || !strcmp(f, "--stepbytes"))
        rc = parse_size_opt(f, v, &s->step_bytes);
    else if (!strcmp(f, "-f") || !strcmp(f, "--stepfactor")) {
        if (ls_parse_double(v, &s->step_factor) != 0 || s->step_factor < 1.0)
            return bad("%s: '%s' is not a factor >= 1", f, v);
    } else if (!strcmp(f, "-n") || !strcmp(f, "--iters"))
        rc = parse_int_opt(f, v, 1, 1000000, &s->iters);
    else if (!strcmp(f, "-w") || !strcmp(f, "--warmup_iters"))
        rc = parse_int_opt(f, v, 0, 1000000, &s->warmup);
    else if (!strcmp(f, "-c") || !strcmp(f, "--check"))
        rc = parse_int_opt(f, v, 0, 1, &s->check);
    else if (!strcmp(f, "-z") || !strcmp(f, "--blocking"))
        rc = parse_int_opt(f, v, 0, 1, &s->blocking);
    else if (!strcmp(f, "-G") || !strcmp(f, "--cudagraph"))
        rc = parse_int_opt(f, v, 0, 1000000, &s->graph);
    else if (!strcmp(f, "-r") || !strcmp(f, "--root"))
        rc = parse_int_opt(f, v, 0, 1 << 20, &s->root);
    else if (!strcmp(f, "--in-place"))
        rc = parse_int_opt(f, v, 0, 2, &s->in_place);
    else if (!strcmp(f, "-d") || !strcmp(f, "--datatype")) {
        if (!ls_dtype_find(v))
            return bad("-d: unknown data type '%s' (expected %s)", v, ls_dtype_names());
        s->dtype = v;
    } else if (!strcmp(f, "--op")) {
        if (ls_redop_find(v) < 0)
            return bad("--op: unknown reduction '%s'%s (expected sum, prod, max, min, avg)", v, "");
        s->redop = v;
    } else if (!strcmp(f, "--timeout")) {
        if (ls_parse_double(v, &s->timeout_s) != 0 || s->timeout_s <= 0)
            return bad("--timeout: '%s' is not a number of seconds > 0%s", v, "");
    } else if (!strcmp(f, "-g") || !strcmp(f, "--ngpus")) {
        rc = parse_int_opt(f, v, 1, LS_MAX_GPUS, &o->ngpus_flag);
    } else if (!strcmp(f, "-t") || !strcmp(f, "--nthreads")) {
        int t;
        rc = parse_int_opt(f, v, 1, 1, &t);
    } else if (!strcmp(f, "--launch")) {
        if (strcmp(v, "group") != 0 && strcmp(v, "threads") != 0)
            return bad("--launch: '%s' is not group or threads%s", v, "");
        s->threads = strcmp(v, "threads") == 0;
    } else if (!strcmp(f, "--gpus")) {
        int n = ls_parse_index_list(v, o->gpus, LS_MAX_GPUS);
        if (n <= 0)
            return bad("--gpus: '%s' is not a GPU list (expected e.g. 0,1 or 0-3)%s", v, "");
        s->ngpus = n;
    } else
        return 1;
    return rc ? rc : keep_raw(o, f, v);
}

/* Each collective once, in the order first named ("all all_reduce" is the four): a
   repeat would add nothing but a second sweep, and at most seven names fit. */
static void add_unique(opts_t *o, const char *name)
{
    for (int k = 0; k < o->ncolls; k++)
        if (strcmp(o->colls[k], name) == 0)
            return;
    o->colls[o->ncolls++] = name;
}

static int add_collective(opts_t *o, const char *name)
{
    if (strcmp(name, "all") == 0) {
        static const char *four[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall"};
        for (int k = 0; k < 4; k++)
            add_unique(o, four[k]);
        return 0;
    }
    if (!ls_coll_find(name))
        return bad("unknown collective '%s' (expected all_reduce, all_gather, reduce_scatter, "
                   "alltoall, broadcast, reduce, sendrecv or all)%s", name, "");
    add_unique(o, name);
    return 0;
}

static int parse_args(int argc, char **argv, opts_t *o)
{
    ls_nccl_sweep_opts_t *s = &o->sweep;
    s->min_bytes = s->max_bytes = 32ull << 20; /* nccl-tests' defaults */
    s->step_factor = 1.0;
    s->step_bytes = 1ull << 20;
    s->iters = 20;
    s->warmup = 1;
    s->check = 1;
    s->dtype = "float";
    s->redop = "sum";
    s->in_place = 2;
    s->timeout_s = 60;
    s->gpus = o->gpus;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (add_collective(o, a))
                return LS_EXIT_USAGE;
            continue;
        }
        if (!strcmp(a, "--json")) {
            o->json = 1;
            continue;
        }
        if (!strcmp(a, "--mpi-selftest")) {
            o->selftest = 1;
            continue;
        }
        if (want_value(argc, argv, &i, &v))
            return LS_EXIT_USAGE;
        if (!strcmp(a, "-o")) { /* nccl-tests' -o is the operator; any other word a file */
            if (ls_redop_find(v) >= 0 || !strcmp(v, "all")) {
                if (!strcmp(v, "all"))
                    return bad("-o all is not supported: give one operator%s%s", "", "");
                a = "--op";
            } else {
                o->output = v;
                continue;
            }
        }
        if (!strcmp(a, "--output"))
            o->output = v;
        else if (!strcmp(a, "--into"))
            o->into = v;
        else if (!strcmp(a, "--child-out"))
            o->child_out = v;
        else if (!strcmp(a, "--variant")) {
            char key[256];
            const char *val;
            if (ls_variant_parse(v, key, sizeof key, &val) != 0)
                return bad("--variant: '%s' is not NAME=VALUE%s", v, "");
            if (o->nvariants == MAX_VARIANTS)
                return bad("at most 16 --variant settings%s%s", "", "");
            o->variants[o->nvariants++] = v;
        } else {
            int rc = parse_sweep_flag(o, a, v);
            if (rc == 1)
                return bad("unknown option '%s'%s", a, "");
            if (rc)
                return LS_EXIT_USAGE;
        }
    }
    if (!o->selftest && o->ncolls == 0)
        return bad("which collective? (all_reduce, all_gather, reduce_scatter, alltoall, "
                   "broadcast, reduce, sendrecv or all)%s%s", "", "");
    if (s->min_bytes > s->max_bytes)
        return bad("-b is larger than -e%s%s", "", "");
    if (s->step_factor > 1.0 && s->min_bytes < s->max_bytes &&
        (double)s->min_bytes * s->step_factor < (double)s->min_bytes + 1.0) {
        char line[160];
        snprintf(line, sizeof line, "-f %g does not grow -b %llu B (the sweep would stop there)",
                 s->step_factor, (unsigned long long)s->min_bytes);
        return bad("%s%s", line, "");
    }
    if (ls_coll_sweep_sizes(s->min_bytes, s->max_bytes, s->step_factor, s->step_bytes, NULL, 0) >
        LS_COLL_MAX_SIZES)
        return bad("-b, -e, -f and -i give more than %s sizes%s", "100000", ": take a larger -i or -f");
    if (o->ngpus_flag && !s->ngpus) {
        for (int k = 0; k < o->ngpus_flag; k++)
            o->gpus[k] = k;
        s->ngpus = o->ngpus_flag;
    }
    if (o->output && o->into)
        return bad("-o and --into exclude each other%s%s", "", "");
    return 0;
}

/* Every NCCL_* and CUDA_* variable as the user set it (before linkscope adds its own). */
static json_t *env_snapshot(void)
{
    json_t *env = json_object();
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "NCCL_", 5) && strncmp(*e, "CUDA_", 5))
            continue;
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - *e), *e);
        json_object_set_new(env, key, json_string(eq + 1));
    }
    return env;
}

static json_t *open_document(const opts_t *o, json_t *env, int discover)
{
    char err[512];
    json_t *doc;
    if (o->into) {
        doc = ls_doc_read(o->into, err, sizeof err);
        if (!doc) {
            ls_error("%s", err);
            return NULL;
        }
    } else {
        doc = ls_doc_new();
        if (discover) {
            /* Discovery's warnings stay in software.warnings: the one line about
               NCCL itself, if any, is what the user needs here. */
            ls_discover_opts_t d = {NULL, 1, 1};
            ls_log_quiet(1);
            ls_discover(doc, &d);
            ls_log_quiet(0);
        }
    }
    json_t *denv = json_object_get(doc, "env");
    json_object_update_missing(denv, env);
    return doc;
}


static json_t *skipped_entry(const char *coll, const char *variant, const char *why)
{
    json_t *e = ls_entry_new("nccl", "busbw", "GB/s");
    char id[160];
    snprintf(id, sizeof id, "nccl-%s-%s", coll, variant ? variant : "default");
    json_object_set_new(e, "id", json_string(id));
    json_object_set_new(e, "collective", json_string(coll));
    json_object_set_new(e, "variant", json_string(variant ? variant : "default"));
    json_object_set_new(e, "source", json_string("linkscope"));
    ls_entry_fail(e, "skipped", why);
    return e;
}

static int entry_exit(const json_t *e)
{
    if (strcmp(ls_json_str(e, "status", "ok"), "ok") != 0)
        return LS_EXIT_CHECK;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row)
    {
        const char *m[] = {"oop", "ip"};
        for (int k = 0; k < 2; k++)
            if (ls_json_int(json_object_get(row, m[k]), "wrong", 0) > 0)
                return LS_EXIT_CHECK;
    }
    return LS_EXIT_OK;
}

static int write_outputs(const opts_t *o, json_t *doc)
{
    char err[512];
    const char *path = o->child_out ? o->child_out : o->into ? o->into : o->output;
    if (o->json && !path)
        path = "-";
    if (path && ls_doc_write(doc, path, err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_USAGE;
    }
    return 0;
}

static int run_selftest(void)
{
    char err[512];
    if (!ls_mpi_launched()) {
        ls_error("nccl --mpi-selftest: not started by mpirun (no OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK)");
        return LS_EXIT_USAGE;
    }
    if (ls_mpi_init(err, sizeof err) != 0) {
        ls_error("%s", err);
        return LS_EXIT_NOGPU;
    }
    int rank = ls_mpi_rank(), size = ls_mpi_size();
    unsigned char id[128]; /* the size of ncclUniqueId */
    for (int k = 0; k < 128; k++)
        id[k] = rank == 0 ? (unsigned char)(k * 37 + 11) : 0;
    int ok = ls_mpi_bcast(id, sizeof id, 0) == 0;
    for (int k = 0; k < 128; k++)
        ok = ok && id[k] == (unsigned char)(k * 37 + 11);
    struct {
        int rank, local_rank, ok, pad;
        double value;
    } mine = {rank, ls_mpi_local_rank(), ok, 0, 1.5 * rank}, *all = calloc((size_t)size, sizeof mine);
    int gathered = all && ls_mpi_gather(&mine, sizeof mine, all, 0) == 0;
    int rc = LS_EXIT_OK;
    if (rank == 0) {
        int good = gathered;
        for (int r = 0; r < size && gathered; r++) {
            printf("rank %d: node-local rank %d, unique id broadcast %s, value %.1f\n", all[r].rank,
                   all[r].local_rank, all[r].ok ? "ok" : "WRONG", all[r].value);
            good = good && all[r].ok && all[r].rank == r && all[r].value == 1.5 * r;
        }
        printf("mpi self-test: %d ranks through %s: %s\n", size, ls_mpi_library(),
               good ? "broadcast and gather ok" : "FAILED");
        rc = good ? LS_EXIT_OK : LS_EXIT_CHECK;
    }
    free(all);
    ls_mpi_barrier();
    ls_mpi_finalize();
    return rc;
}

/* Each setting in its own process; entries[v][c] for setting v, collective c. */
static int run_variants(opts_t *o, json_t *doc)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        ls_error("cannot find this program (/proc/self/exe) to run the variants");
        return LS_EXIT_USAGE;
    }
    exe[n] = '\0';
    char dir[] = "/tmp/linkscope-variant-XXXXXX";
    if (!mkdtemp(dir)) {
        ls_error("cannot make a temporary directory for the variants");
        return LS_EXIT_USAGE;
    }
    char *args[80];
    int nargs = 0;
    args[nargs++] = "nccl";
    for (int c = 0; c < o->ncolls; c++)
        args[nargs++] = (char *)o->colls[c];
    for (int k = 0; k < o->nraw; k++)
        args[nargs++] = o->raw[k];
    const char *settings[MAX_VARIANTS + 1];
    settings[0] = "default";
    for (int v = 0; v < o->nvariants; v++)
        settings[v + 1] = o->variants[v];
    int nset = o->nvariants + 1, rc = LS_EXIT_OK;
    json_t *got[MAX_VARIANTS + 1][8] = {{0}};
    for (int v = 0; v < nset; v++) {
        char out[128], err[600];
        snprintf(out, sizeof out, "%s/setting-%d.json", dir, v);
        char **argv = ls_variant_argv(exe, args, nargs, out);
        int code = 0;
        setenv("LINKSCOPE_NCCL_VARIANT", settings[v], 1);
        double limit = o->sweep.timeout_s * 20 + 120;
        json_t *child = ls_variant_run(argv, settings[v], out, limit, &code, err, sizeof err);
        free(argv);
        for (int c = 0; c < o->ncolls; c++) {
            json_t *e = NULL;
            size_t i;
            json_t *m;
            json_array_foreach(json_object_get(child, "measurements"), i, m)
            {
                if (!e && strcmp(ls_json_str(m, "collective", ""), o->colls[c]) == 0)
                    e = json_incref(m);
            }
            if (!e)
                e = skipped_entry(o->colls[c], settings[v], child ? "the child wrote no entry" : err);
            json_object_set_new(e, "variant", json_string(settings[v]));
            char id[200];
            snprintf(id, sizeof id, "nccl-%s-%s", o->colls[c], settings[v]);
            json_object_set_new(e, "id", json_string(id));
            got[v][c] = e;
        }
        const char *nv = json_string_value(json_object_get(json_object_get(child, "software"), "nccl"));
        if (nv)
            json_object_set_new(json_object_get(doc, "software"), "nccl", json_string(nv));
        if (code != 0 && rc == LS_EXIT_OK)
            rc = code == LS_EXIT_NOGPU ? LS_EXIT_NOGPU : LS_EXIT_CHECK;
        json_decref(child);
    }
    unsetenv("LINKSCOPE_NCCL_VARIANT");
    rmdir(dir);
    for (int c = 0; c < o->ncolls; c++) {
        json_t *row[MAX_VARIANTS + 1];
        for (int v = 0; v < nset; v++) {
            ls_nccl_annotate_entry(doc, got[v][c]);
            row[v] = got[v][c];
        }
        if (!tables_off(o))
            ls_nccl_print_variants(stdout, row, nset);
        for (int v = 0; v < nset; v++)
            ls_nccl_add_entry(doc, got[v][c]);
    }
    return rc;
}

static int run_here(opts_t *o, json_t *doc, int writer)
{
    int rc = LS_EXIT_OK;
    const char *label = getenv("LINKSCOPE_NCCL_VARIANT");
    o->sweep.variant = label && *label ? label : "default";
    for (int c = 0; c < o->ncolls; c++) {
        o->sweep.collective = o->colls[c];
        char err[600];
        json_t *e = ls_nccl_sweep(&o->sweep, err, sizeof err);
        if (!e) {
            ls_error("nccl %s: %s", o->colls[c], err);
            ls_nccl_sweep_finish();
            return strstr(err, "no usable GPU") ? LS_EXIT_NOGPU : LS_EXIT_USAGE;
        }
        if (!writer) {
            json_decref(e);
            continue;
        }
        ls_nccl_annotate_entry(doc, e);
        if (!tables_off(o)) {
            ls_nccl_print_table(stdout, e);
            fputc('\n', stdout);
            fflush(stdout);
        }
        int erc = entry_exit(e);
        if (erc != LS_EXIT_OK) {
            ls_error("nccl %s: %s", o->colls[c],
                     strcmp(ls_json_str(e, "status", "ok"), "ok") ? ls_json_str(e, "error", "failed")
                                                                    : "wrong results (#wrong > 0)");
            rc = erc;
        }
        ls_nccl_add_entry(doc, e);
    }
    ls_nccl_sweep_finish();
    return rc;
}

int cmd_nccl(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;
    if (o.selftest)
        return run_selftest();
    json_t *env = env_snapshot();
    int mpi = ls_mpi_launched() && !o.child_out;
    char err[600];
    if (mpi) {
        if (o.nvariants) {
            json_decref(env);
            return bad("--variant cannot run under MPI (each setting needs its own mpirun)%s%s", "", "");
        }
        if (o.ngpus_flag > 1) { /* parse_args has turned -g into a GPU list by now */
            json_decref(env);
            return bad("under MPI each rank drives one GPU: -g must be 1%s%s", "", "");
        }
        if (ls_mpi_init(err, sizeof err) != 0) {
            json_decref(env);
            ls_error("%s", err);
            return LS_EXIT_NOGPU;
        }
        o.sweep.mpi = 1;
    }
    int writer = ls_nccl_is_writer();
    json_t *doc = writer ? open_document(&o, env, !o.child_out) : json_object();
    json_decref(env);
    if (!doc)
        return LS_EXIT_USAGE;
    char version[32] = "";
    if (!o.nvariants && ls_nccl_probe(version, sizeof version, err, sizeof err) != 0) {
        ls_error("nccl: %s", err); /* the one line: what is missing and how to install it */
        for (int c = 0; c < o.ncolls; c++)
            ls_nccl_add_entry(doc, skipped_entry(o.colls[c], NULL, err));
        rc = LS_EXIT_NOGPU;
    } else if (!o.nvariants && ls_gpu_count(err, sizeof err) <= 0) {
        ls_error("nccl: %s", err);
        for (int c = 0; c < o.ncolls; c++)
            ls_nccl_add_entry(doc, skipped_entry(o.colls[c], NULL, err));
        rc = LS_EXIT_NOGPU;
    } else {
        if (version[0])
            json_object_set_new(json_object_get(doc, "software"), "nccl", json_string(version));
        rc = o.nvariants ? run_variants(&o, doc) : run_here(&o, doc, writer);
    }
    if (writer && (o.output || o.into || o.json || o.child_out)) {
        int wrc = write_outputs(&o, doc);
        if (wrc)
            rc = wrc;
    }
    json_decref(doc);
    if (mpi)
        ls_mpi_finalize();
    return rc;
}
