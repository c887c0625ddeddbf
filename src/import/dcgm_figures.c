/* DCGM's PCIe test writes one info line per figure and GPU (nvvs/plugin_src/pcie/
   PcieMain.cpp addBandwidthInfo, addLatencyInfo; verbose runs): "GPU to Host
   bandwidth:\t\t24.02 GB/s", "Host to GPU bandwidth:", "bidirectional bandwidth:", the
   same three "latency: ... us". DCGM 3.x joins a GPU's lines into one string, each
   "GPU 0 "-prefixed and separated by ", " (as posted in NVIDIA/DCGM#215); 4.x lists them
   in the result's info array. A line names its GPU ("GPU 0 ...") or belongs to the
   result's GPU. */
#include "dcgm_figures.h"
#include "import_util.h"
#include "model/doc.h"
#include "model/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *label, *method, *metric, *unit;
} figures[] = {
    {"GPU to Host bandwidth:", "pcie_d2h", "bandwidth", "GB/s"},
    {"Host to GPU bandwidth:", "pcie_h2d", "bandwidth", "GB/s"},
    {"bidirectional bandwidth:", "pcie_bidir", "bandwidth", "GB/s"},
    {"GPU to Host latency:", "pcie_latency_d2h", "latency", "us"},
    {"Host to GPU latency:", "pcie_latency_h2d", "latency", "us"},
    {"bidirectional latency:", "pcie_latency_bidir", "latency", "us"},
};

static long long result_gpu(const json_t *r)
{
    const json_t *id = json_object_get(r, "entity_id");
    if (!id)
        id = json_object_get(r, "gpu_id");
    if (!id)
        id = json_object_get(r, "gpu_ids");
    if (json_is_integer(id))
        return json_integer_value(id);
    const char *s = json_string_value(id);
    char *end;
    long long v = s ? strtoll(s, &end, 10) : -1;
    return s && end != s && *end == 0 ? v : -1; /* "0,1": not one GPU */
}

static void add_figure(json_t *doc, const char *method, const char *metric, const char *unit,
                       double v, long long gpu, const char *test)
{
    json_t *e = ls_import_entry(LS_FAMILY_DCGM, metric, unit, v);
    json_object_set_new(e, "method", json_string(method));
    json_object_set_new(e, "gpu", json_integer(gpu));
    json_object_set_new(e, "test", json_string(test));
    char id[96], subject[32];
    snprintf(subject, sizeof subject, "GPU %lld", gpu);
    json_object_set_new(e, "subject", json_string(subject));
    snprintf(id, sizeof id, "dcgm-%s-%lld", method, gpu);
    ls_import_add(doc, e, "dcgm", id);
}

/* One piece of info text: "[GPU N ]LABEL<blanks>VALUE UNIT", or the diagnostic test's
   "GPU N calculated at approximately 859.08 gigaflops during this test"
   (nvvs/plugin_src/diagnostic/DiagnosticPlugin.cpp), kept in TFLOP/s as linkscope's
   burn. 1 when a figure was added. */
static int piece(json_t *doc, const char *text, long long gpu, const char *test)
{
    const char *p = text + strspn(text, " \t\n");
    long long g;
    int used = 0;
    if (sscanf(p, "GPU %lld %n", &g, &used) == 1 && used > 0)
        gpu = g, p += used;
    if (gpu < 0 || gpu >= 4096)
        return 0;
    double v;
    if (sscanf(p, "calculated at approximately %lf gigaflops", &v) == 1) {
        add_figure(doc, "diagnostic_tflops", "throughput", "TFLOP/s", v / 1000, gpu, test);
        return 1;
    }
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        size_t n = strlen(figures[i].label);
        if (strncmp(p, figures[i].label, n) != 0 || sscanf(p + n, " %lf", &v) != 1)
            continue;
        add_figure(doc, figures[i].method, figures[i].metric, figures[i].unit, v, gpu, test);
        return 1;
    }
    return 0;
}

/* A 3.x info string: pieces separated by ", " (a paste may have wrapped it). */
static int info_text(json_t *doc, const char *s, long long gpu, const char *test)
{
    char *copy = strdup(s);
    int n = 0;
    for (char *save = NULL, *t = copy ? strtok_r(copy, ",", &save) : NULL; t;
         t = strtok_r(NULL, ",", &save))
        n += piece(doc, t, gpu, test);
    free(copy);
    return n;
}

static int one_test(json_t *doc, const json_t *t)
{
    int n = 0;
    size_t i, k;
    const json_t *r, *line;
    json_array_foreach(json_object_get(t, "results"), i, r) {
        const json_t *info = json_object_get(r, "info");
        long long gpu = result_gpu(r);
        const char *test = ls_json_str(t, "name", "unknown");
        if (json_is_string(info))
            n += info_text(doc, json_string_value(info), gpu, test);
        json_array_foreach(info, k, line) {
            if (json_is_string(line))
                n += info_text(doc, json_string_value(line), gpu, test);
        }
    }
    return n;
}

int ls_dcgm_figures(json_t *doc, const json_t *root)
{
    int n = 0;
    size_t i, j;
    const json_t *c, *t;
    json_array_foreach(json_object_get(root, "test_categories"), i, c) {
        json_array_foreach(json_object_get(c, "tests"), j, t)
            n += json_is_object(t) ? one_test(doc, t) : 0;
    }
    json_array_foreach(json_object_get(root, "tests"), j, t)
        n += json_is_object(t) ? one_test(doc, t) : 0;
    return n;
}
