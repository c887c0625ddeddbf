/* nvbandwidth -j. Facts from nvbandwidth's source that decide what a cell means:
   - the row is the GPU whose context runs the copy; for "write" tests the data goes
     row -> column, for "read" tests column -> row (the row pulls), whatever the arrow
     in the description says;
   - bidirectional testcases stack three N x N matrices in "bandwidth_matrix": the
     first direction, the second, and the total; the total is recorded (sum of both);
   - host testcases have one row (the CPU) and a column per GPU; the *_bidirectional_*
     ones measure one direction while the other runs ("under": "bidir"), and
     host_to_all / all_to_host run every GPU at once ("under": "all_gpus");
   - latencies are pointer chases in ns (recorded in us): the row GPU reads memory on
     the column GPU, or host memory for host_device_latency_sm;
   - device_local_copy is a copy-engine memcpy (method copy_ce, as linkscope hbm's) that
     reports bytes copied; HBM traffic is twice that. */
#include "nvbandwidth.h"
#include "import_util.h"
#include "nvbandwidth_text.h"
#include "model/vocab.h"
#include "model/busid.h"
#include "model/doc.h"
#include "model/entry.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOURCE "nvbandwidth"

static int is_json(const char *text)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return *p == '{' && strstr(text, "\"nvbandwidth\"") != NULL;
}

int ls_nvbandwidth_detect(const char *text)
{
    return is_json(text) || ls_nvbandwidth_text_detect(text);
}

static int cell(const json_t *matrix, size_t row, size_t col, double *out)
{
    const json_t *v = json_array_get(json_array_get(matrix, row), col);
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return 1;
    }
    return json_is_string(v) && ls_tok_double(json_string_value(v), out) == 0;
}

static int has(const char *name, const char *part)
{
    return strstr(name, part) != NULL;
}

static void finish(json_t *doc, json_t *e, const char *test, const char *id, int *added)
{
    json_object_set_new(e, "test", json_string(test));
    json_object_set_new(e, "verified", json_true()); /* nvbandwidth verifies copies by default */
    ls_import_add(doc, e, SOURCE, id);
    (*added)++;
}

static void add_host(json_t *doc, const char *test, const json_t *matrix, int *added)
{
    int sm = has(test, "_sm");
    const char *dir = (has(test, "host_to_device") || has(test, "host_to_all")) ? LS_DIR_H2D
                                                                                : LS_DIR_D2H;
    int all = strncmp(test, "all_to_", 7) == 0 || has(test, "_to_all");
    const char *under = all ? (has(test, "bidirectional") ? "all_gpus_bidir" : "all_gpus")
                            : (has(test, "bidirectional") ? LS_DIR_BIDIR : NULL);
    size_t ncols = json_array_size(json_array_get(matrix, 0));
    for (size_t g = 0; g < ncols; g++) {
        double v;
        if (!cell(matrix, 0, g, &v))
            continue;
        json_t *e = ls_import_entry(LS_FAMILY_HOST, "bandwidth", "GB/s", v);
        json_object_set_new(e, "method", json_string(sm ? "sm" : LS_P2P_CE));
        json_object_set_new(e, "gpus", json_pack("[i]", (int)g));
        json_object_set_new(e, "gpu", json_integer((int)g));
        json_object_set_new(e, "direction", json_string(dir));
        json_object_set_new(e, "memory", json_string(LS_MEM_PINNED));
        if (under)
            json_object_set_new(e, "under", json_string(under));
        char id[128];
        snprintf(id, sizeof id, "host-%s-%s-%zu%s%s", sm ? "sm" : "ce", dir, g, under ? "-" : "",
                 under ? under : "");
        finish(doc, e, test, id, added);
    }
}

static void add_d2d(json_t *doc, const char *test, const json_t *matrix, int *added)
{
    int sm = has(test, "_sm"), read = has(test, "_read_");
    int bidir = has(test, "bidirectional");
    size_t n = json_array_size(json_array_get(matrix, 0));
    size_t rows = json_array_size(matrix);
    size_t first_row = (bidir && rows == 3 * n) ? 2 * n : 0; /* the "Total" matrix */
    const char *method = sm ? (read ? LS_P2P_SM_READ : LS_P2P_SM_WRITE) : LS_P2P_CE;
    for (size_t r = 0; r < n && first_row + r < rows; r++)
        for (size_t c = 0; c < n; c++) {
            double v;
            if (r == c || !cell(matrix, first_row + r, c, &v))
                continue;
            int src = read ? (int)c : (int)r, dst = read ? (int)r : (int)c;
            json_t *e = ls_import_entry(LS_FAMILY_P2P, "bandwidth", "GB/s", v);
            json_object_set_new(e, "method", json_string(method));
            if (!sm && read)
                json_object_set_new(e, "mode", json_string("read"));
            json_object_set_new(e, "gpus", json_pack("[i, i]", src, dst));
            json_object_set_new(e, "src", json_integer(src));
            json_object_set_new(e, "dst", json_integer(dst));
            /* older nvbandwidth printed only the measured direction of a bidir test */
            int total = bidir && rows == 3 * n;
            json_object_set_new(e, "direction", json_string(total ? LS_DIR_BIDIR : LS_DIR_UNI));
            if (bidir && !total)
                json_object_set_new(e, "under", json_string(LS_DIR_BIDIR));
            json_object_set_new(e, "p2p", json_true());
            char id[128];
            snprintf(id, sizeof id, "p2p-%s%s-%s-%d-%d", method, (!sm && read) ? "-read" : "",
                     total ? LS_DIR_BIDIR : LS_DIR_UNI, src, dst);
            finish(doc, e, test, id, added);
        }
}

static void add_latency(json_t *doc, const char *test, const json_t *matrix, int *added)
{
    int host = has(test, "host_device");
    size_t rows = json_array_size(matrix);
    size_t ncols = json_array_size(json_array_get(matrix, 0));
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < ncols; c++) {
            double ns;
            if ((!host && r == c) || !cell(matrix, r, c, &ns))
                continue;
            /* src runs the pointer chase; dst owns the memory (-1 = host memory) */
            int src = host ? (int)c : (int)r, dst = host ? -1 : (int)c;
            json_t *e = ls_import_entry(LS_FAMILY_LATENCY, "latency", "us", ns / 1000.0);
            json_object_set_new(e, "method", json_string("pointer_chase"));
            json_object_set_new(e, "gpus",
                                host ? json_pack("[i]", src) : json_pack("[i, i]", src, dst));
            json_object_set_new(e, "src", json_integer(src));
            json_object_set_new(e, "dst", json_integer(dst));
            json_object_set_new(e, "p2p", json_boolean(!host));
            char id[96];
            if (host)
                snprintf(id, sizeof id, "latency-pointer_chase-%d-host", src);
            else
                snprintf(id, sizeof id, "latency-pointer_chase-%d-%d", src, dst);
            finish(doc, e, test, id, added);
        }
}

static void add_local_copy(json_t *doc, const char *test, const json_t *matrix, int *added)
{
    size_t ncols = json_array_size(json_array_get(matrix, 0));
    for (size_t g = 0; g < ncols; g++) {
        double copied;
        if (!cell(matrix, 0, g, &copied))
            continue;
        json_t *e = ls_import_entry(LS_FAMILY_HBM, "bandwidth", "GB/s", 2 * copied);
        /* nvbandwidth's DeviceLocalCopy is a cudaMemcpy on the copy engine, not a kernel */
        json_object_set_new(e, "method", json_string(LS_HBM_COPY_CE));
        json_object_set_new(e, "gpus", json_pack("[i]", (int)g));
        json_object_set_new(e, "gpu", json_integer((int)g));
        json_object_set_new(e, "copied_gbps", json_real(copied));
        char id[48];
        snprintf(id, sizeof id, "hbm-copy_ce-%zu", g);
        finish(doc, e, test, id, added);
    }
}

/* "0: NVIDIA H200 (00000000:00:06): (vm)" */
static void add_inventory(json_t *doc, const json_t *nvb)
{
    size_t i;
    const json_t *item;
    json_array_foreach(json_object_get(nvb, "GPU Device list"), i, item) {
        int index;
        char name[128], bus[64] = "", bus_id[32];
        /* older versions print the name alone: "0: NVIDIA GeForce RTX 4090" */
        if (!json_is_string(item) ||
            sscanf(json_string_value(item), "%d: %127[^(](%63[^)])", &index, name, bus) < 2)
            continue;
        size_t n = strlen(name);
        while (n && name[n - 1] == ' ')
            name[--n] = '\0';
        json_t *gpu = ls_import_gpu(doc, index);
        ls_set_if_absent(gpu, "name", name);
        if (bus[0] && ls_busid_normalize(bus, bus_id, sizeof bus_id) == 0)
            ls_set_if_absent(gpu, "pci_bus_id", bus_id);
    }
    json_t *sw = json_object_get(doc, "software");
    ls_set_if_absent(sw, "driver", ls_json_str(nvb, "Driver Version", NULL));
    long long rt = ls_json_int(nvb, "CUDA Runtime Version", 0);
    if (rt > 0) {
        char v[32];
        snprintf(v, sizeof v, "%lld.%lld", rt / 1000, (rt % 1000) / 10);
        ls_set_if_absent(sw, "cuda_runtime", v);
    }
}

static const char *family_of(const char *test)
{
    if (has(test, "latency"))
        return LS_FAMILY_LATENCY;
    if (strcmp(test, "device_local_copy") == 0)
        return LS_FAMILY_HBM;
    return has(test, "device_to_device") ? LS_FAMILY_P2P : LS_FAMILY_HOST;
}

/* A testcase nvbandwidth waived (it could not run, e.g. no peer access) or that
   failed: one entry with that status, so that the report says so. */
static void add_not_run(json_t *doc, const json_t *tc, const char *status, int *added)
{
    const char *test = ls_json_str(tc, "name", "");
    int waived = strcmp(status, "Waived") == 0;
    const char *family = family_of(test);
    int latency = strcmp(family, LS_FAMILY_LATENCY) == 0;
    json_t *e = ls_import_entry(family, latency ? "latency" : "bandwidth", latency ? "us" : "GB/s",
                                0);
    json_object_del(e, "value");
    char why[600];
    snprintf(why, sizeof why, "%s",
             waived ? "nvbandwidth waived the testcase (it could not "
                      "run here, e.g. peer access unavailable)"
                    : ls_json_str(tc, "error", "nvbandwidth reported an error"));
    ls_entry_fail(e, waived ? "skipped" : "failed", why);
    char id[128];
    snprintf(id, sizeof id, "%s-%s", family, test);
    /* nvbandwidth waives device-to-device tests exactly where peer access is missing */
    if (waived && strcmp(family, LS_FAMILY_P2P) == 0)
        json_object_set_new(e, "p2p", json_false());
    finish(doc, e, test, id, added);
    if (waived)
        json_object_del(e, "verified"); /* nothing ran, nothing was checked */
}

static void add_testcase(json_t *doc, const json_t *tc, int *added)
{
    const char *test = ls_json_str(tc, "name", "");
    const json_t *matrix = json_object_get(tc, "bandwidth_matrix");
    const char *status = ls_json_str(tc, "status", "Passed");
    if (!*test || strcmp(status, "Cut") == 0)
        return;
    if (strcmp(status, "Passed") != 0) {
        add_not_run(doc, tc, status, added);
        return;
    }
    if (!json_is_array(matrix))
        return;
    if (has(test, "latency"))
        add_latency(doc, test, matrix, added);
    else if (strcmp(test, "device_local_copy") == 0)
        add_local_copy(doc, test, matrix, added);
    else if (has(test, "device_to_device"))
        add_d2d(doc, test, matrix, added);
    else if (has(test, "host"))
        add_host(doc, test, matrix, added);
    /* all_to_one / one_to_all aggregate several peers into one figure: not imported */
}

/* "SUM <testcase> <value>" lines: nvbandwidth's per-test totals. */
static int sum_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "SUM ")) != NULL; p += 4)
        n += p == text || p[-1] == '\n';
    return n;
}

int ls_import_nvbandwidth(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = is_json(text) ? json_loads(text, 0, &jerr) : ls_nvbandwidth_text_parse(text);
    if (!root)
        return ls_seterr(err, errlen, "%s: not valid JSON (line %d: %s)", name, jerr.line,
                         jerr.text);
    const json_t *nvb = json_object_get(root, "nvbandwidth");
    const json_t *cases = json_object_get(nvb, "testcases");
    if (!json_is_array(cases)) {
        json_decref(root);
        return ls_seterr(err, errlen, "%s: nvbandwidth.testcases: missing or not an array", name);
    }
    add_inventory(doc, nvb);
    int added = 0;
    size_t i;
    const json_t *tc;
    json_array_foreach(cases, i, tc)
        add_testcase(doc, tc, &added);
    json_decref(root);
    int sums = sum_lines(text);
    if (added == 0 && sums > 0)
        return ls_seterr(err, errlen,
                         "%s: looks like nvbandwidth's SUM lines alone (%d per-test totals, as "
                         "'| grep SUM' leaves them): no matrix, so no GPU or pair figure to read; "
                         "import the whole output",
                         name, sums);
    if (added == 0)
        return ls_seterr(err, errlen,
                         "%s: no nvbandwidth testcase with figures or a status "
                         "(expected 'Running <testcase>.' and its matrix)",
                         name);
    return added;
}
