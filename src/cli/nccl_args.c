/* linkscope nccl's option parser (nccl_args.h). */
#include "nccl_args.h"
#include "nccl_ports.h"
#include "commands.h"
#include "options.h"
#include "nccl/coll.h"
#include "nccl/variant.h"
#include "util/log.h"
#include "util/parse.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int bad(const char *fmt, const char *a, const char *b)
{
    char line[512];
    snprintf(line, sizeof line, fmt, a, b);
    return ls_usage_error("nccl", "%s", line);
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
        int n;
        if (ls_opt_gpus("nccl", v, o->gpus, LS_MAX_GPUS, &n))
            return LS_EXIT_USAGE;
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

/* nccl's collectives by name, from its table (nccl/coll.c): "all_reduce, ..., sendrecv". */
static const char *collective_names(void)
{
    static char text[256];
    int n;
    const ls_coll_t *const *all = ls_coll_all(&n);
    size_t used = 0;
    for (int k = 0; k < n && used < sizeof text; k++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", k ? ", " : "",
                                 all[k]->name);
    return text;
}

static int add_collective(opts_t *o, const char *name)
{
    int n;
    const ls_coll_t *const *all = ls_coll_all(&n);
    if (strcmp(name, "all") == 0) { /* the first four of the table, as the usage says */
        for (int k = 0; k < 4 && k < n; k++)
            add_unique(o, all[k]->name);
        return 0;
    }
    const ls_coll_t *coll = ls_coll_find(name);
    if (!coll)
        return bad("unknown collective '%s' (expected %s or all)", name, collective_names());
    add_unique(o, coll->name);
    return 0;
}

static void sweep_defaults(opts_t *o)
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
}

/* --each-hca: one variant per active RDMA port and one with all (analyze/ports.c). */
static int add_each_hca(opts_t *o)
{
    if (o->hca_plan)
        return 0;
    o->hca_plan = ls_each_hca_plan("");
    if (json_array_size(o->hca_plan) == 0)
        return bad("--each-hca: no active RDMA port in /sys/class/infiniband%s%s", "", "");
    size_t i;
    const json_t *p;
    json_array_foreach(o->hca_plan, i, p) {
        if (o->nvariants == MAX_VARIANTS)
            return bad("--each-hca: more active ports than %s variants%s", "16", "");
        o->variants[o->nvariants++] = json_string_value(json_object_get(p, "setting"));
    }
    return 0;
}

/* One option (not a sweep flag); 1 = a sweep flag. */
static int parse_own(opts_t *o, int c, const char *f, const char *v)
{
    switch (c) {
    case 'J': o->json = 1; return 0;
    case 'M': o->selftest = 1; return 0;
    case 'H': return add_each_hca(o);
    case 'I': o->into = v; return 0;
    case 'C': o->child_out = v; return 0;
    case 'V': {
        char key[256];
        const char *val;
        if (ls_variant_parse(v, key, sizeof key, &val) != 0)
            return bad("--variant: '%s' is not NAME=VALUE%s", v, "");
        if (o->nvariants == MAX_VARIANTS)
            return bad("at most 16 --variant settings%s%s", "", "");
        o->variants[o->nvariants++] = v;
        return 0;
    }
    case 'o':
        /* nccl-tests' -o is the operator; any other word (and --output) a file */
        if (!strcmp(f, "-o") && !strcmp(v, "all"))
            return bad("-o all is not supported: give one operator%s%s", "", "");
        if (strcmp(f, "-o") || ls_redop_find(v) < 0) {
            o->output = v;
            return 0;
        }
        return parse_sweep_flag(o, "--op", v);
    default: return 1;
    }
}

/* A row's spelling, the short one where there is one (as the refusals word it and as
   variant children get it again): kept as long as the process, one slot per row. */
static const char *spelling(const ls_opt_t *row)
{
    static struct {
        const ls_opt_t *row;
        char text[24];
    } kept[48];
    int k = 0;
    while (k < 47 && kept[k].row && kept[k].row != row)
        k++;
    if (kept[k].row != row) {
        kept[k].row = row;
        if (row->short_name)
            snprintf(kept[k].text, sizeof kept[k].text, "-%c", row->short_name);
        else
            snprintf(kept[k].text, sizeof kept[k].text, "--%s", row->name);
    }
    return kept[k].text;
}

/* One option, by its row. */
static int on_option(const ls_opt_t *row, const char *v, void *args)
{
    const char *f = spelling(row);
    int rc = parse_own(args, row->value, f, v);
    if (rc == 1)
        rc = parse_sweep_flag(args, f, v);
    return rc == 1 ? bad("unknown option '%s'%s", f, "") : rc;
}

/* nccl-tests' flags in both spellings, then linkscope's own (long only). */
#define TESTS(s, shown, n, a, text)                                                                \
    {                                                                                              \
        .name = n, .short_name = s, .kind = LS_OPT_CALL, .arg = a, .label = shown, .value = s,     \
        .call_row = on_option, .help = text                                                        \
    }
#define OWN(n, code, a, text)                                                                      \
    {                                                                                              \
        .name = n, .kind = LS_OPT_CALL, .arg = a, .value = code, .call_row = on_option,            \
        .help = text                                                                               \
    }

static const ls_opt_t options[] = {
    {.kind = LS_OPT_TEXT, .help = "nccl-tests flags (same meaning and defaults):\n"},
    TESTS('b', "-b, --minbytes SIZE", "minbytes", "SIZE",
          "smallest size (default 32M; K, M, G = 1024 multiples)"),
    TESTS('e', "-e, --maxbytes SIZE", "maxbytes", "SIZE", "largest size (default 32M)"),
    TESTS('f', "-f, --stepfactor F", "stepfactor", "F",
          "multiply the size by F (default 1 = use -i)"),
    TESTS('i', "-i, --stepbytes SIZE", "stepbytes", "SIZE", "add SIZE when -f is 1 (default 1M)"),
    TESTS('n', "-n, --iters N", "iters", "N", "timed iterations per size (default 20)"),
    TESTS('w', "-w, --warmup_iters N", "warmup_iters", "N",
          "warmup iterations per size (default 1)"),
    TESTS('c', "-c, --check 0|1", "check", "0|1",
          "check results on the device (#wrong; default 1)"),
    TESTS('d', "-d, --datatype TYPE", "datatype", "TYPE",
          "int8 uint8 int32 uint32 int64 uint64 half float double\n"
          "bfloat16 (default float)"),
    {.name = "op",
     .kind = LS_OPT_CALL,
     .arg = "OP",
     .label = "-o, --op OP",
     .value = 'O',
     .call_row = on_option,
     .help = "sum prod max min avg (default sum); -o with any other\n"
             "word is the output file (see below)"},
    TESTS('r', "-r, --root N", "root", "N", "root rank of broadcast and reduce (default 0)"),
    TESTS('z', "-z, --blocking 0|1", "blocking", "0|1",
          "wait for each collective inside the timed loop\n(default 0)"),
    TESTS('G', "-G, --cudagraph N", "cudagraph", "N",
          "capture the iterations in a CUDA graph, launch it N\ntimes"),
    TESTS('g', "-g, --ngpus N", "ngpus", "N", "use GPUs 0..N-1 (default: every visible GPU)"),
    TESTS('t', "-t, --nthreads 1", "nthreads", "1",
          "one thread drives all GPUs with group calls (only 1)"),
    /* -o: nccl-tests' operator, or with any other word the output file */
    {.short_name = 'o',
     .kind = LS_OPT_CALL,
     .arg = "OP",
     .value = 'o',
     .call_row = on_option,
     .flags = LS_OPT_HIDDEN},
    {.kind = LS_OPT_TEXT, .help = "\nlinkscope options:\n"},
    OWN("gpus", 'U', "LIST", "GPUs to use, e.g. 0,1,4 (PCI bus order, as nvidia-smi)"),
    OWN("in-place", 'P', "0|1|2", "0 out-of-place only, 1 in-place only, 2 both (default)"),
    OWN("launch", 'L', "group|threads",
        "group: one thread launches for every GPU in group\n"
        "calls (nccl-tests' -t 1, default); threads: one thread\n"
        "per GPU"),
    OWN("variant", 'V', "K=V",
        "also run with the environment variable K=V, each\n"
        "setting in its own process; shown beside the default\n"
        "with ratios"),
    OWN("each-hca", 'H', NULL,
        "a variant per active RDMA port (NCCL_IB_HCA==mlx5_N:P)\n"
        "and one with all of them; busbw per port beside the\n"
        "port's line rate, with findings (docs/nccl.md)"),
    /* the document (LS_CMD_WRITES): on_option puts -o's file at .off, for the dispatcher */
    {.name = "output",
     .kind = LS_OPT_CALL,
     .arg = "FILE",
     .label = "-o, --output FILE",
     .value = 'o',
     .call_row = on_option,
     .off = offsetof(opts_t, output),
     .flags = LS_OPT_DOC,
     .help = "write a new run document (- = stdout)"},
    {.name = "into",
     .kind = LS_OPT_STRING,
     .arg = "FILE",
     .off = offsetof(opts_t, into),
     .help = "add the entries to an existing run document"},
    OWN("timeout", 'T', "S", "watchdog: abort a collective not done in S s (default\n60)"),
    OWN("json", 'J', NULL, "print the run document on stdout instead of the tables"),
    OWN("mpi-selftest", 'M', NULL, "under mpirun: check MPI broadcast and gather, no GPU"),
    /* a variant child's document (nccl/variants.c) */
    {.name = "child-out",
     .kind = LS_OPT_CALL,
     .arg = "FILE",
     .value = 'C',
     .call_row = on_option,
     .flags = LS_OPT_HIDDEN},
    {.kind = LS_OPT_END},
};
_Static_assert(sizeof options / sizeof options[0] <= 48, "more rows than spelling() keeps");

const ls_cmd_opts_t opts_nccl = {
    .head = "usage: linkscope nccl COLLECTIVE|all [nccl-tests flags] [--gpus 0,1]\n"
            "                      [--variant K=V]...\n"
            "                      [-o FILE] [--into FILE] [--timeout S] [--json]\n"
            "\n"
            "Sweeps an NCCL collective over sizes, nccl-tests' way, checks every result on\n"
            "the GPU, and records the transport NCCL used on each ring edge (from its own\n"
            "debug log, captured privately).\n"
            "\n"
            "COLLECTIVE: all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce,\n"
            "            sendrecv; all = the first four.\n"
            "\n",
    .opts = options,
    .tail = "\n"
            "Under MPI (mpirun -np N linkscope nccl ...): one rank per GPU, the node-local\n"
            "rank picks the GPU (--gpus maps local ranks to GPUs), rank 0 prints and writes.\n"
            "Exit: 0 ok; 1 a result was wrong or a collective timed out or failed; 2 usage;\n"
            "3 no NCCL or no GPU (the document, when asked for, is still written and valid).\n",
    .column = 26,
    .args_size = sizeof(opts_t),
};

int ls_nccl_parse_args(int argc, char **argv, opts_t *o)
{
    ls_nccl_sweep_opts_t *s = &o->sweep;
    sweep_defaults(o);
    char *pos[argc];
    int npos;
    if (ls_opt_parse("nccl", &opts_nccl, argc, argv, o, pos, &npos))
        return LS_EXIT_USAGE;
    for (int i = 0; i < npos; i++)
        if (add_collective(o, pos[i]))
            return LS_EXIT_USAGE;
    if (!o->selftest && o->ncolls == 0)
        return bad("which collective? (%s or all)%s", collective_names(), "");
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
        return bad("-b, -e, -f and -i give more than %s sizes%s", "100000",
                   ": take a larger -i or -f");
    if (o->ngpus_flag && !s->ngpus) {
        for (int k = 0; k < o->ngpus_flag; k++)
            o->gpus[k] = k;
        s->ngpus = o->ngpus_flag;
    }
    return 0;
}
