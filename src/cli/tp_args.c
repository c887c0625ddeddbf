/* linkscope tp's option parser (tp_args.h). */
#include "tp_args.h"
#include "commands.h"
#include "options.h"
#include "util/log.h"
#include "util/parse.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* ---- Parsing ------------------------------------------------------------------------ */

/* A comma-separated list of at most max items, each read by one into out[k]: the number
   of items, or -1 (an empty or unreadable item, too many). */
static int parse_list(const char *text, int max, int (*one)(const char *item, void *out, int k), void *out)
{
    int n = 0;
    const char *p = text;
    while (p && *p) {
        char item[64];
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof item || n >= max)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (one(item, out, n++) != 0)
            return -1;
        p = comma ? comma + 1 : NULL;
        if (comma && !*p)
            return -1;
    }
    return n;
}

static int one_count(const char *item, void *out, int k)
{
    long v;
    if (ls_parse_long(item, 1, 100000000, &v) != 0)
        return -1;
    ((uint64_t *)out)[k] = (uint64_t)v;
    return 0;
}

static int one_ms(const char *item, void *out, int k)
{
    double *ms = out;
    return ls_parse_double(item, &ms[k]) != 0 || ms[k] < 0 ? -1 : 0;
}

static int parse_u64_list(const char *text, uint64_t *out, int max)
{
    return parse_list(text, max, one_count, out);
}

static int parse_double_list(const char *text, double *out, int max)
{
    return parse_list(text, max, one_ms, out);
}

static int attach_gpus(tp_args_t *a, const char *text, int last_is_run)
{
    int *dst = last_is_run ? a->runs[a->nruns - 1].gpus : a->measure_gpus;
    int n;
    if (ls_opt_gpus("tp", text, dst, MAX_GPUS, &n))
        return LS_EXIT_USAGE;
    if (last_is_run)
        a->runs[a->nruns - 1].ngpus = n;
    else
        a->nmeasure_gpus = n;
    return 0;
}

static int name_last_source(tp_args_t *a, const char *name)
{
    if (!*name || strlen(name) > 40)
        return ls_usage_error("tp", "--name: expected 1 to 40 characters, got '%s'", name);
    if (a->last_source == 'r')
        a->runs[a->nruns - 1].name = name;
    else if (a->last_source == 'l')
        a->link_names[a->nlinks - 1] = name;
    else if (a->last_source == 'm')
        a->measure_name = name;
    else
        return ls_usage_error("tp", "--name: give it after --run, --link or --measure");
    return 0;
}

static int parse_number_opt(const char *opt, const char *text, long min, long max, long *v)
{
    if (ls_parse_long(text, min, max, v) != 0)
        return ls_usage_error("tp", "%s: expected a whole number from %ld to %ld, got '%s'", opt,
                              min, max, text);
    return 0;
}

/* A list option's refusal when it gave no item (n <= 0). */
static int list_opt(int n, const char *opt, const char *expected, const char *text)
{
    return n > 0 ? 0 : ls_usage_error("tp", "%s: expected %s, got '%s'", opt, expected, text);
}

/* Options taking a value; returns 0, or the exit code. */
static int parse_valued(tp_args_t *a, const char *opt, const char *val, int *last_is_run)
{
    if (strcmp(opt, "--model") == 0) {
        a->preset = ls_tp_preset_find(val);
        return a->preset ? 0 : ls_usage_error("tp", "--model: unknown model '%s'", val);
    }
    if (strcmp(opt, "--hidden") == 0)
        return parse_number_opt(opt, val, 1, 1 << 20, &a->hidden);
    if (strcmp(opt, "--layers") == 0)
        return parse_number_opt(opt, val, 1, 10000, &a->layers);
    if (strcmp(opt, "--bytes") == 0) {
        if (parse_number_opt(opt, val, 1, 8, &a->bytes))
            return LS_EXIT_USAGE;
        return (a->bytes == 1 || a->bytes == 2 || a->bytes == 4)
                   ? 0 : ls_usage_error("tp", "--bytes: expected 1, 2 or 4, got '%s'", val);
    }
    if (strcmp(opt, "--tp") == 0)
        return parse_number_opt(opt, val, 2, 1024, &a->tp);
    if (strcmp(opt, "--output") == 0)
        return parse_number_opt(opt, val, 1, 100000000, &a->output);
    if (strcmp(opt, "--prompt") == 0)
        return list_opt(a->nprompts = parse_u64_list(val, a->prompts, MAX_LIST), opt, "token counts like 3200,12900", val);
    if (strcmp(opt, "--batch") == 0)
        return list_opt(a->nbatches = parse_u64_list(val, a->batches, MAX_LIST), opt, "batch sizes like 1,8", val);
    if (strcmp(opt, "--compute-ms") == 0)
        return list_opt(a->ndecode_compute = parse_double_list(val, a->decode_compute_ms, MAX_LIST), opt,
                        "milliseconds like 34.2 or 34.2,46.7", val);
    if (strcmp(opt, "--prefill-compute-ms") == 0)
        return list_opt(a->nprefill_compute = parse_double_list(val, a->prefill_compute_ms, MAX_LIST), opt,
                        "milliseconds like 3900,22700", val);
    if (strcmp(opt, "--run") == 0) {
        if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
            return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)", MAX_SOURCES);
        a->runs[a->nruns++] = (run_arg_t){.path = val};
        *last_is_run = 1;
        a->last_source = 'r';
        return 0;
    }
    if (strcmp(opt, "--link") == 0) {
        if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
            return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)", MAX_SOURCES);
        a->links[a->nlinks++] = val;
        a->last_source = 'l';
        return 0;
    }
    if (strcmp(opt, "--name") == 0)
        return name_last_source(a, val);
    if (strcmp(opt, "--gpus") == 0) {
        if (*last_is_run < 0)
            return ls_usage_error("tp", "--gpus: give it after --run FILE or --measure");
        return attach_gpus(a, val, *last_is_run);
    }
    if (strcmp(opt, "--variant") == 0) {
        if (*last_is_run < 0)
            return ls_usage_error("tp", "--variant: give it after --run FILE or --measure");
        if (!*last_is_run) /* it was accepted and silently ignored: the sweep runs as set */
            return ls_usage_error("tp", "--variant after --measure: the measurement runs with this "
                                        "process's NCCL settings; set the variable instead, e.g. "
                                        "NCCL_P2P_DISABLE=1 linkscope tp ... --measure");
        a->runs[a->nruns - 1].variant = val;
        return 0;
    }
    if (strcmp(opt, "-o") == 0 || strcmp(opt, "--output-file") == 0) {
        a->out_path = val;
        return 0;
    }
    if (strcmp(opt, "--into") == 0) {
        a->into_path = val;
        return 0;
    }
    return ls_usage_error("tp", "unknown option '%s'", opt);
}

int ls_tp_parse_args(int argc, char **argv, tp_args_t *a)
{
    static const char *const valued[] = {"model", "hidden", "layers", "bytes", "tp", "output", "prompt",
        "batch", "compute-ms", "prefill-compute-ms", "run", "link", "gpus", "variant", "into", "name",
        "output-file"};
    enum { NV = sizeof valued / sizeof valued[0] };
    static struct option opts[NV + 3];
    for (int k = 0; k < NV && !opts[NV - 1].name; k++)
        opts[k] = (struct option){valued[k], required_argument, 0, 'v'};
    opts[NV] = (struct option){"json", no_argument, 0, 'j'};
    opts[NV + 1] = (struct option){"measure", no_argument, 0, 'm'};
    int last_is_run = -1; /* -1 none yet, 1 --run, 0 --measure */
    int c, index = -1;
    ls_opt_begin();
    while ((c = getopt_long(argc, argv, ":o:", opts, &index)) != -1) {
        if (ls_opt_refused("tp", c, argv))
            return LS_EXIT_USAGE;
        char opt[64];
        snprintf(opt, sizeof opt, "%s%s", c == 'o' ? "-o" : "--", c == 'o' ? "" : opts[index].name);
        index = -1;
        if (c == 'j') {
            a->json = 1;
        } else if (c == 'm') {
            if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
                return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)", MAX_SOURCES);
            a->measure = 1;
            last_is_run = 0;
            a->last_source = 'm';
        } else {
            int rc = parse_valued(a, opt, optarg, &last_is_run);
            if (rc)
                return rc;
        }
    }
    if (optind < argc)
        return ls_usage_error("tp", "unknown option '%s'", argv[optind]);
    return 0;
}

int ls_tp_check_args(tp_args_t *a)
{
    if (a->preset) {
        a->hidden = a->hidden ? a->hidden : a->preset->hidden;
        a->layers = a->layers ? a->layers : a->preset->layers;
    }
    if (!a->hidden || !a->layers)
        return ls_usage_error("tp", "give --model NAME, or --hidden H and --layers L");
    if (!a->tp)
        return ls_usage_error("tp", "--tp N (tensor-parallel degree, at least 2) is required");
    if (!a->nprompts)
        return ls_usage_error("tp", "--prompt LIST (prompt lengths in tokens) is required");
    if (a->nruns + a->nlinks + a->measure == 0)
        return ls_usage_error("tp", "give at least one source: --run FILE, --link SPEC or --measure");
    if (a->ndecode_compute == 1)
        for (int p = 1; p < a->nprompts; p++)
            a->decode_compute_ms[p] = a->decode_compute_ms[0];
    else if (a->ndecode_compute && a->ndecode_compute != a->nprompts)
        return ls_usage_error("tp", "--compute-ms: expected 1 or %d values (one per --prompt), got %d",
                              a->nprompts, a->ndecode_compute);
    if (a->nprefill_compute && a->nprefill_compute != a->nprompts)
        return ls_usage_error("tp", "--prefill-compute-ms: expected %d values (one per --prompt), got %d",
                              a->nprompts, a->nprefill_compute);
    if (a->measure && a->nmeasure_gpus != a->tp)
        return ls_usage_error("tp", "--measure needs --gpus with %ld GPUs (= --tp)", a->tp);
    if (a->out_path && a->into_path)
        return ls_usage_error("tp", "give -o or --into, not both");
    /* before any work: --measure runs NCCL */
    if (ls_check_writable("tp", a->into_path ? "--into" : "-o", a->into_path ? a->into_path : a->out_path, 0))
        return LS_EXIT_USAGE;
    for (int p = 0; p < a->nprompts; p++)
        for (int b = 0; b < a->nbatches; b++)
            if ((double)a->prompts[p] * (double)a->batches[b] * (double)a->hidden * (double)a->bytes >
                0x1p50) /* in double: the product of the limits overflows 64 bits */
                return ls_usage_error("tp", "--prompt x --batch: an all-reduce of more than 1 PiB");
    return 0;
}
