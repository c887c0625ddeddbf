/* linkscope nccl's option parser (nccl_args.h). */
#include "nccl_args.h"
#include "nccl_ports.h"
#include "commands.h"
#include "options.h"
#include "nccl/coll.h"
#include "nccl/variant.h"
#include "util/log.h"
#include "util/parse.h"

#include <getopt.h>
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

/* nccl-tests' flags in both spellings, then linkscope's own (long only). */
typedef struct {
    const char *s, *l;
    int val, has_arg;
} flag_t;

static const flag_t flags[] = {
    {"-b", "--minbytes", 'b', 1},  {"-e", "--maxbytes", 'e', 1},    {"-i", "--stepbytes", 'i', 1},
    {"-f", "--stepfactor", 'f', 1}, {"-n", "--iters", 'n', 1},      {"-w", "--warmup_iters", 'w', 1},
    {"-c", "--check", 'c', 1},     {"-z", "--blocking", 'z', 1},    {"-G", "--cudagraph", 'G', 1},
    {"-r", "--root", 'r', 1},      {"-d", "--datatype", 'd', 1},    {"-g", "--ngpus", 'g', 1},
    {"-t", "--nthreads", 't', 1},  {"-o", "--output", 'o', 1},      {NULL, "--in-place", 'P', 1},
    {NULL, "--op", 'O', 1},        {NULL, "--timeout", 'T', 1},     {NULL, "--gpus", 'U', 1},
    {NULL, "--into", 'I', 1},      {NULL, "--child-out", 'C', 1},   {NULL, "--variant", 'V', 1},
    {NULL, "--launch", 'L', 1},    {NULL, "--json", 'J', 0},      {NULL, "--mpi-selftest", 'M', 0},
    {NULL, "--each-hca", 'H', 0},
};
#define NFLAGS ((int)(sizeof flags / sizeof flags[0]))

static const struct option *long_options(void)
{
    static struct option opts[NFLAGS + 1];
    for (int j = 0; j < NFLAGS && !opts[NFLAGS - 1].name; j++)
        opts[j] = (struct option){flags[j].l + 2, flags[j].has_arg ? required_argument : no_argument, 0,
                                  flags[j].val};
    return opts;
}

/* The flag as given: its long spelling when given long (index >= 0), else its short. */
static const char *spelling(int val, int index)
{
    for (int k = 0; k < NFLAGS; k++)
        if (flags[k].val == val && (index >= 0 || flags[k].s))
            return index >= 0 ? flags[index].l : flags[k].s;
    return "?";
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
    json_array_foreach(o->hca_plan, i, p)
    {
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

int ls_nccl_parse_args(int argc, char **argv, opts_t *o)
{
    ls_nccl_sweep_opts_t *s = &o->sweep;
    sweep_defaults(o);
    ls_opt_begin();
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":b:e:i:f:n:w:c:z:G:r:d:g:t:o:", long_options(), &index)) != -1) {
        if (c == ':')
            return bad("%s needs a value%s", argv[optind - 1], "");
        if (c == '?')
            return bad("unknown option '%s'%s", argv[optind - 1], "");
        const char *f = spelling(c, index);
        index = -1;
        int rc = parse_own(o, c, f, optarg);
        if (rc == 1)
            rc = parse_sweep_flag(o, f, optarg);
        if (rc == 1)
            return bad("unknown option '%s'%s", f, "");
        if (rc)
            return LS_EXIT_USAGE;
    }
    for (; optind < argc; optind++)
        if (add_collective(o, argv[optind]))
            return LS_EXIT_USAGE;
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
