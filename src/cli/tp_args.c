/* linkscope tp's option parser (tp_args.h). */
#include "tp_args.h"
#include "commands.h"
#include "options.h"
#include "util/log.h"
#include "util/parse.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- Parsing ------------------------------------------------------------------------ */

/* A comma-separated list of at most max items, each read by one into out[k]: the number
   of items, or -1 (an empty or unreadable item, too many). */
static int parse_list(const char *text, int max, int (*one)(const char *item, void *out, int k),
                      void *out)
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
                   ? 0
                   : ls_usage_error("tp", "--bytes: expected 1, 2 or 4, got '%s'", val);
    }
    if (strcmp(opt, "--tp") == 0)
        return parse_number_opt(opt, val, 2, 1024, &a->tp);
    if (strcmp(opt, "--output") == 0)
        return parse_number_opt(opt, val, 1, 100000000, &a->output);
    if (strcmp(opt, "--prompt") == 0)
        return list_opt(a->nprompts = parse_u64_list(val, a->prompts, MAX_LIST), opt,
                        "token counts like 3200,12900", val);
    if (strcmp(opt, "--batch") == 0)
        return list_opt(a->nbatches = parse_u64_list(val, a->batches, MAX_LIST), opt,
                        "batch sizes like 1,8", val);
    if (strcmp(opt, "--compute-ms") == 0)
        return list_opt(a->ndecode_compute = parse_double_list(val, a->decode_compute_ms, MAX_LIST),
                        opt, "milliseconds like 34.2 or 34.2,46.7", val);
    if (strcmp(opt, "--prefill-compute-ms") == 0)
        return list_opt(a->nprefill_compute = parse_double_list(val, a->prefill_compute_ms,
                                                                MAX_LIST),
                        opt, "milliseconds like 3900,22700", val);
    if (strcmp(opt, "--run") == 0) {
        if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
            return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)",
                                  MAX_SOURCES);
        a->runs[a->nruns++] = (run_arg_t){.path = val};
        *last_is_run = 1;
        a->last_source = 'r';
        return 0;
    }
    if (strcmp(opt, "--link") == 0) {
        if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
            return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)",
                                  MAX_SOURCES);
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
    return ls_usage_error("tp", "unknown option '%s'", opt);
}

static int add_measure(tp_args_t *a)
{
    if (a->nruns + a->nlinks + a->measure >= MAX_SOURCES)
        return ls_usage_error("tp", "at most %d sources (--run, --link, --measure)", MAX_SOURCES);
    a->measure = 1;
    a->gpus_of = 0;
    a->last_source = 'm';
    return 0;
}

/* Every option, by its row, in the order given. */
static int on_option(const ls_opt_t *row, const char *v, void *args)
{
    tp_args_t *a = args;
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", row->name);
    if (row->value == 'j')
        a->json = 1;
    else if (row->value == 'm')
        return add_measure(a);
    else
        return parse_valued(a, opt, v, &a->gpus_of);
    return 0;
}

/* Every row of tp's table goes to on_option; UNLISTED rows are said in the usage's text. */
#define TP_ROW(n, a, col, fl, text)                                                                \
    {                                                                                              \
        .name = n, .kind = LS_OPT_CALL, .arg = a, .call_row = on_option, .column = col,            \
        .flags = fl, .help = text                                                                  \
    }
#define ROW(n, a, col, text) TP_ROW(n, a, col, 0, text)
#define UNLISTED(n, a) TP_ROW(n, a, 0, LS_OPT_UNLISTED, NULL)

static const ls_opt_t options[] = {
    ROW("run", "FILE", 18,
        "the nccl all_reduce curve of a run document (time against\n"
        "size): interpolated in log size and log time between measured\n"
        "sizes, an alpha-beta fit t = alpha + S/bw outside them (shown\n"
        "with its fit).\n"
        "--gpus and --variant after --run pick the entry (default\n"
        "variant \"default\"); its rank count must equal --tp."),
    ROW("link", "SPEC", 18,
        "a link described by bandwidth (GB/s = 1e9 B/s, one direction)\n"
        "and latency: ring all-reduce over N ranks, t = 2(N-1) lat +\n"
        "2(N-1)/N S/bw; lat = us per step (one transfer to the next\n"
        "rank); rtt = a measured round trip, used as lat = rtt/2."),
    {.name = "measure",
     .kind = LS_OPT_CALL,
     .value = 'm',
     .call_row = on_option,
     .column = 18,
     .help = "runs all_reduce at exactly the sizes needed on --gpus (count =\n"
             "--tp) and shows the measured times beside the other sources\n"
             "(needs NCCL and GPUs; exit 3 when it cannot run)."},
    UNLISTED("gpus", "LIST"),
    UNLISTED("variant", "V"),
    UNLISTED("name", "N"),
    {.kind = LS_OPT_TEXT,
     .help = "--name N after a source names its column (default: the file name[:variant], the\n"
             "link's name=, \"measured\"). Two or more sources are compared with the first:\n"
             "difference (first - other) and ratio (first / other).\n"
             "--verdict RUN.json prints the document's tensor-parallel verdict (a 32k-token\n"
             "prefill at each TP size the machine has, default model llama3.3-70b), the lines\n"
             "run, report and check --spec print.\n"
             "\n"
             "options:\n"},
    ROW("model", "NAME", 0, "a preset (see below); --hidden/--layers override it"),
    UNLISTED("hidden", "H"),
    UNLISTED("layers", "L"),
    UNLISTED("tp", "N"),
    ROW("bytes", "B", 0, "bytes per activation element: 2 (bf16/fp16, default),\n1, 4"),
    ROW("prompt", "LIST", 0, "prompt lengths in tokens, e.g. 3200,12900,51400"),
    ROW("output", "N", 0,
        "output tokens per request (default 256): the prefill\n"
        "yields the first, then N-1 decode steps"),
    ROW("batch", "LIST", 0, "requests processed together (default 1)"),
    ROW("compute-ms", "MS[,MS..]", 0,
        "compute time of one decode step without communication\n"
        "(ms): one value for every prompt, or one per --prompt"),
    ROW("prefill-compute-ms", "L", 0,
        "compute time of each prefill (one per --prompt, batch\n"
        "1, ms; scaled by the batch); with these, totals and\n"
        "shares are shown"),
    {.name = "json",
     .kind = LS_OPT_CALL,
     .value = 'j',
     .call_row = on_option,
     .help = "the estimate as JSON on stdout instead of the report"},
    LS_OPT_DOC_ROW(tp_args_t, out_path, "output-file",
                   "write a new run document holding the tp entry (and the\n"
                   "measured nccl entry with --measure)"),
    LS_OPT_INTO_ROW(tp_args_t, into_path, "append those entries to an existing run document"),
    {.kind = LS_OPT_END},
};

static void init_args(void *args)
{
    tp_args_t *a = args;
    a->bytes = 2;
    a->output = 256;
    a->gpus_of = -1;
}

static int check_args(const char *cmd, void *args)
{
    (void)cmd;
    return ls_tp_check_args(args);
}

/* tp measures (LS_CMD_GPU) only with --measure. */
static int measures(const void *args)
{
    return ((const tp_args_t *)args)->measure;
}

const ls_cmd_opts_t opts_tp = {
    .head = "usage: linkscope tp (--model NAME | --hidden H --layers L) [--bytes B] --tp N\n"
            "                    --prompt T[,T...] [--output N] [--batch B[,B...]]\n"
            "                    [--run RUN.json [--gpus LIST] [--variant V] [--name N]]...\n"
            "                    [--link [name=NAME,]bw=GB/s,(lat=us|rtt=us)]...\n"
            "                    [--measure --gpus LIST]\n"
            "                    [--compute-ms MS] [--prefill-compute-ms MS[,MS...]]\n"
            "                    [--json] [-o NEW.json | --into RUN.json]\n"
            "       linkscope tp --verdict RUN.json [--model NAME]\n"
            "\n"
            "Estimates the tensor-parallel communication of a transformer: Megatron-style\n"
            "tensor parallelism issues two all-reduces per layer (after attention, after the\n"
            "MLP), each of tokens x hidden x bytes. A prefill of T tokens moves batch x T\n"
            "tokens at once, a decode step batch tokens. Each source of all-reduce time is\n"
            "one column:\n",
    .opts = options,
    .tail = "\n"
            "presets: llama3-8b, llama3-70b (= llama3.1-70b), llama3.3-70b, llama3.1-405b,\n"
            "qwen3-8b,\n"
            "         qwen3-32b, qwen3-30b-a3b (MoE), mixtral-8x7b (MoE); MoE experts are\n"
            "         taken as sharded by tensor parallelism: expert-parallel all-to-all is\n"
            "         not modelled.\n"
            "\n"
            "example (seed 001: V100 pair over PCIe Gen3 x8 against NVLink):\n"
            "  linkscope tp --model llama3.3-70b --tp 2 --prompt 3200,12900,51400 \\\n"
            "      --output 256 \\\n"
            "      --link name=PCIe,bw=5.2,lat=22.1 --link name=NVLink,bw=122.7,lat=17.5\n",
    .column = 25,
    .args_size = sizeof(tp_args_t),
    .check = check_args,
    .init = init_args,
    .measures = measures,
};

int ls_tp_parse_args(int argc, char **argv, tp_args_t *a)
{
    if (ls_opt_parse("tp", &opts_tp, argc, argv, a, NULL, NULL))
        return LS_EXIT_USAGE;
    return 0;
}

int ls_tp_check_args(tp_args_t *a)
{
    if (!a->nbatches)
        a->batches[a->nbatches++] = 1;
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
        return ls_usage_error("tp",
                              "give at least one source: --run FILE, --link SPEC or --measure");
    if (a->ndecode_compute == 1)
        for (int p = 1; p < a->nprompts; p++)
            a->decode_compute_ms[p] = a->decode_compute_ms[0];
    else if (a->ndecode_compute && a->ndecode_compute != a->nprompts)
        return ls_usage_error("tp",
                              "--compute-ms: expected 1 or %d values (one per --prompt), got %d",
                              a->nprompts, a->ndecode_compute);
    if (a->nprefill_compute && a->nprefill_compute != a->nprompts)
        return ls_usage_error("tp",
                              "--prefill-compute-ms: expected %d values (one per --prompt), got %d",
                              a->nprompts, a->nprefill_compute);
    if (a->measure && a->nmeasure_gpus != a->tp)
        return ls_usage_error("tp", "--measure needs --gpus with %ld GPUs (= --tp)", a->tp);
    for (int p = 0; p < a->nprompts; p++)
        for (int b = 0; b < a->nbatches; b++)
            if ((double)a->prompts[p] * (double)a->batches[b] * (double)a->hidden *
                    (double)a->bytes >
                0x1p50) /* in double: the product of the limits overflows 64 bits */
                return ls_usage_error("tp", "--prompt x --batch: an all-reduce of more than 1 PiB");
    return 0;
}
