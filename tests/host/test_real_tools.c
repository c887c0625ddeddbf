/* Real pasted outputs of p2pBandwidthLatencyTest, nvbandwidth and nvidia-smi
   (tests/fixtures/real/{p2p,nvbw,topo,smi,h200x2}-*.case): every case imports as its
   sidecar says (complete or incomplete), its document validates, every imported
   figure is found in the text it came from, and chosen values, GPUs and links are
   checked one by one against the lines quoted beside them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "analyze/analyze.h"
#include "analyze/compare.h"
#include "import/import.h"
#include "model/doc.h"
#include "render/matrix.h"
#include "util/fileio.h"
#include "util/log.h"

static const char *const prefixes[] = {"p2p-", "nvbw-", "topo-", "smi-", "h200x2-"};

static char *read_text(const char *path)
{
    char err[512];
    char *text = ls_read_file(path, NULL, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    return text;
}

typedef struct {
    char files[4][256];
    int nfiles;
    int incomplete; /* the sidecar's "import: incomplete" */
    int refused;    /* "import: refused": the right answer is a one-line refusal */
    int heldout;    /* "split: heldout": measured by test_real_findings.sh, not failed here */
} sidecar_t;

static void read_sidecar(const char *name, sidecar_t *sc)
{
    char rel[300];
    snprintf(rel, sizeof rel, "real/%s.case", name);
    char *text = read_text(ls_fixture(rel));
    memset(sc, 0, sizeof *sc);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "file: ", 6) == 0 && sc->nfiles < 4)
            snprintf(sc->files[sc->nfiles++], sizeof sc->files[0], "real/%s", line + 6);
        else if (strncmp(line, "import: ", 8) == 0) {
            sc->incomplete = strcmp(line + 8, "incomplete") == 0;
            sc->refused = strcmp(line + 8, "refused") == 0;
        } else if (strncmp(line, "split: heldout", 14) == 0)
            sc->heldout = 1;
    }
    free(text);
    if (sc->nfiles == 0)
        fail_msg("%s.case names no file", name);
}

/* Imports the case's files in order into a fresh document; asserts that each imports
   and that the document validates and says incomplete exactly when the sidecar does. */
static json_t *import_case(const char *name)
{
    sidecar_t sc;
    read_sidecar(name, &sc);
    json_t *doc = ls_import_doc_new();
    for (int f = 0; f < sc.nfiles; f++) {
        char *text = read_text(ls_fixture(sc.files[f]));
        char err[512] = "";
        if (ls_import_text(doc, text, sc.files[f], NULL, NULL, err, sizeof err) < 0)
            fail_msg("%s: %s", name, err);
        free(text);
    }
    char why[256];
    if (ls_doc_validate(doc, why, sizeof why) != 0)
        fail_msg("%s: imported document does not validate: %s", name, why);
    int incomplete = 0;
    size_t i;
    const json_t *rec;
    json_array_foreach(json_object_get(doc, "imports"), i, rec)
        incomplete |= json_is_true(json_object_get(rec, "incomplete"));
    if (incomplete != sc.incomplete)
        fail_msg("%s: imported as %s, the sidecar says %s", name,
                 incomplete ? "incomplete" : "complete", sc.incomplete ? "incomplete" : "complete");
    return doc;
}

static const json_t *entry(const json_t *doc, const char *id)
{
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(doc, "measurements"), i, m) {
        if (strcmp(ls_json_str(m, "id", ""), id) == 0)
            return m;
    }
    fail_msg("no entry '%s'", id);
    return NULL;
}

static void value_is(const json_t *doc, const char *id, double want)
{
    double have = ls_json_num(entry(doc, id), "value", NAN);
    if (!(fabs(have - want) < 1e-9))
        fail_msg("%s: %.6g, the text says %.6g", id, have, want);
}

static const json_t *gpu(const json_t *doc, int index)
{
    return ls_test_gpu(doc, index);
}

static const json_t *link_ab(const json_t *doc, int a, int b)
{
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(doc, "links"), i, l) {
        if (ls_json_int(l, "a", -1) == a && ls_json_int(l, "b", -1) == b)
            return l;
    }
    fail_msg("no link %d -> %d", a, b);
    return NULL;
}

static void str_is(const json_t *obj, const char *key, const char *want)
{
    const char *have = ls_json_str(obj, key, "(absent)");
    if (strcmp(have, want) != 0)
        fail_msg("%s: '%s', the text says '%s'", key, have, want);
}

static size_t count(const json_t *doc, const char *family, const char *status)
{
    size_t n = 0, i;
    const json_t *m;
    json_array_foreach(json_object_get(doc, "measurements"), i, m)
        n += strcmp(ls_json_str(m, "family", ""), family) == 0 &&
             strcmp(ls_json_str(m, "status", ""), status) == 0;
    return n;
}

/* ---- every figure is in its text ------------------------------------------------ */

/* 1 when word stands in text as a whole token (between blanks or line ends). */
static int has_token(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        int before = p == text || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n';
        int after = p[n] == ' ' || p[n] == '\t' || p[n] == '\n' || p[n] == '\r' || p[n] == '\0';
        if (before && after)
            return 1;
    }
    return 0;
}

/* The number the tool printed for an entry: both tools print two decimals; nvbandwidth
   prints latencies in ns (imported in us) and device_local_copy as bytes copied
   (imported as HBM traffic, twice that). */
static double printed_figure(const json_t *e)
{
    if (strcmp(ls_json_str(e, "source", ""), "nvbandwidth") == 0) {
        if (strcmp(ls_json_str(e, "family", ""), "latency") == 0)
            return ls_json_num(e, "value", NAN) * 1000;
        if (strcmp(ls_json_str(e, "family", ""), "hbm") == 0)
            return ls_json_num(e, "copied_gbps", NAN);
    }
    return ls_json_num(e, "value", NAN);
}

static void figures_in_text(const json_t *doc, const char *name)
{
    sidecar_t sc;
    read_sidecar(name, &sc);
    size_t i, checked = 0;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "status", ""), "ok") != 0)
            continue;
        const char *file = ls_json_str(e, "source_file", "");
        char *text = NULL;
        for (int f = 0; f < sc.nfiles && !text; f++) {
            const char *slash = strrchr(sc.files[f], '/');
            if (strcmp(slash ? slash + 1 : sc.files[f], file) == 0)
                text = read_text(ls_fixture(sc.files[f]));
        }
        if (!text)
            fail_msg("%s: entry %s names file '%s', not one of the case", name,
                     ls_json_str(e, "id", ""), file);
        char id[96];
        snprintf(id, sizeof id, "%s", ls_json_str(e, "id", ""));
        const json_t *samples = json_object_get(e, "samples");
        size_t k, n = json_array_size(samples);
        for (k = 0; k < (n ? n : 1); k++) {
            double v = n ? json_number_value(json_array_get(samples, k)) : printed_figure(e);
            char word[40];
            /* the JSON's matrices hold strings of six significant digits */
            int json = strstr(file, ".json") != NULL;
            snprintf(word, sizeof word, json ? "\"%.6g\"" : "%.2f", v);
            if (json ? !strstr(text, word) : !has_token(text, word)) {
                free(text);
                fail_msg("%s: %s = %s is not in the text of %s", name, id, word, file);
            }
            checked++;
        }
        free(text);
    }
    if (count(doc, "p2p", "ok") + count(doc, "host", "ok") + count(doc, "latency", "ok") > 0)
        assert_true(checked > 0);
}

static int mine(const char *file)
{
    size_t n = strlen(file);
    if (n < 6 || strcmp(file + n - 5, ".case") != 0)
        return 0;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(file, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

static void every_case_imports_and_its_figures_are_in_its_text(void **state)
{
    (void)state;
    DIR *dir = opendir(ls_fixture("real"));
    assert_non_null(dir);
    int cases = 0;
    for (struct dirent *d; (d = readdir(dir)) != NULL;) {
        if (!mine(d->d_name))
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(strlen(d->d_name) - 5), d->d_name);
        sidecar_t sc;
        read_sidecar(name, &sc);
        if (sc.heldout || sc.refused) /* heldout: measured only; refused: test_real_findings.sh */
            continue;
        cases++;
        json_t *doc = import_case(name);
        figures_in_text(doc, name);
        json_decref(doc);
    }
    closedir(dir);
    assert_true(cases >= 20);
}

/* ---- p2pBandwidthLatencyTest ------------------------------------------------------ */

static void p2p_partial_six_gpus_keeps_whole_matrices_and_the_cut_row(void **state)
{
    (void)state;
    json_t *doc = import_case("p2p-nccl814-6gpu-partial");
    /* "     0 911.08  20.10  22.16 ..." under "Unidirectional P2P=Disabled" */
    value_is(doc, "p2p-ce-uni-0-1-nop2p", 20.10);
    value_is(doc, "p2p-ce-uni-5-4-nop2p", 22.38);
    /* "     4   9.65   9.64 ..." under "Unidirectional P2P=Enabled ... (P2P Writes)":
       no access lines in the paste, so the pairs count as P2P */
    value_is(doc, "p2p-ce-uni-4-1", 9.64);
    str_is(entry(doc, "p2p-ce-uni-4-1"), "p2p_setting", "enabled");
    /* "(P2P Reads)": GPU 3 pulls from GPU 2, "     3   9.95   9.95  10.45 ..." */
    value_is(doc, "p2p-ce-read-uni-2-3", 10.45);
    str_is(entry(doc, "p2p-ce-read-uni-2-3"), "mode", "read");
    /* the cut row "     0 918.31  21.12  30.53  29.85  3": 21.12, 30.53, 29.85 kept */
    value_is(doc, "p2p-ce-bidir-0-1-nop2p", 21.12);
    value_is(doc, "p2p-ce-bidir-0-3-nop2p", 29.85);
    str_is(entry(doc, "p2p-ce-bidir-0-3-nop2p"), "matrix",
           "Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)");
    /* 30 + 30 + 30 pair cells, 3 cut-row cells, 6 HBM entries */
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 99);
    json_decref(doc);
}

static void p2p_two_4090s_both_bidirectional_cells(void **state)
{
    (void)state;
    json_t *doc = import_case("p2p-tinygrad44-2x4090");
    str_is(gpu(doc, 1), "name", "NVIDIA GeForce RTX 4090");
    str_is(gpu(doc, 1), "pci_bus_id", "00000000:17:00.0"); /* pciBusID: 17 (hex) */
    assert_true(json_is_true(json_object_get(link_ab(doc, 0, 1), "cuda_peer_access")));
    value_is(doc, "p2p-ce-uni-0-1-nop2p", 6.34);
    value_is(doc, "p2p-ce-uni-0-1", 6.60);
    /* "     0 1018.92   8.66" and "     1   8.67 926.39": two cells, two values */
    value_is(doc, "p2p-ce-bidir-0-1-nop2p", 8.66);
    value_is(doc, "p2p-ce-bidir-1-0-nop2p", 8.67);
    value_is(doc, "p2p-ce-bidir-0-1", 12.88);
    /* HBM: the unidirectional diagonals 1008.06 (disabled) and 1015.27 (enabled) */
    const json_t *hbm = entry(doc, "hbm-copy_ce-0");
    assert_int_equal(json_array_size(json_object_get(hbm, "samples")), 2);
    json_decref(doc);
}

static void p2p_h100_cut_inside_the_write_matrix(void **state)
{
    (void)state;
    json_t *doc = import_case("p2p-nccl1264-8xh100-partial");
    value_is(doc, "p2p-ce-uni-7-6-nop2p", 37.38);
    value_is(doc, "p2p-ce-uni-0-1", 371.02);
    value_is(doc, "p2p-ce-uni-0-6", 375.94);
    /* "375.6", the last token of the paste, may be cut short (375.6x): dropped */
    assert_int_equal(count(doc, "p2p", "ok"), 56 + 6);
    json_decref(doc);
}

static void p2p_rows_before_the_first_title_and_a_whole_last_row(void **state)
{
    (void)state;
    json_t *doc = import_case("p2p-nccl1127-8x3090-bidir-cut");
    /* "     5   8.60   8.56   8.57   8.53   6.12 838.48   6.12   6.13" heads the paste: the
       end of the matrix the sample prints just before 'Bidirectional P2P=Enabled' */
    value_is(doc, "p2p-ce-bidir-5-0-nop2p", 8.60);
    value_is(doc, "p2p-ce-bidir-5-4-nop2p", 6.12);
    value_is(doc, "p2p-ce-bidir-7-6-nop2p", 6.11);
    str_is(entry(doc, "p2p-ce-bidir-5-0-nop2p"), "matrix",
           "Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)");
    /* "     0 838.25   6.11   6.13   6.11   8.59   8.57   8.63   8.59" */
    value_is(doc, "p2p-ce-bidir-0-1", 6.11);
    value_is(doc, "p2p-ce-bidir-0-4", 8.59);
    str_is(entry(doc, "p2p-ce-bidir-0-4"), "matrix",
           "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)");
    /* 3 x 7 tail cells + 56 enabled cells */
    assert_int_equal(count(doc, "p2p", "ok"), 21 + 56);
    json_decref(doc);

    /* the last line "     2  41.37  41.36 921.56 " ends in the space the sample prints after
       every cell: not cut, so the paste misses only the latency matrix */
    doc = import_case("p2p-tinygrad6-3x4090-bidir");
    value_is(doc, "p2p-ce-bidir-2-1", 41.36);
    value_is(doc, "p2p-ce-bidir-2-0-nop2p", 26.15);
    assert_int_equal(count(doc, "p2p", "ok"), 12);
    str_is(json_array_get(json_object_get(doc, "imports"), 0), "missing", "no latency matrix");
    json_decref(doc);
}

static void p2p_collapsed_whitespace_from_a_web_page(void **state)
{
    (void)state;
    json_t *doc = import_case("p2p-rtx6kpro-6gpu-web-collapsed");
    /* "3 50.97 50.97 50.97 1375.60 50.16 50.45" */
    value_is(doc, "p2p-ce-uni-3-4", 50.16);
    /* "2 111.39 111.39 1415.11 99.53 111.04 111.12" */
    value_is(doc, "p2p-ce-bidir-2-5", 111.12);
    /* the last line "3 99.42 99.59 99.53 1377.73 99.09 99": its "99" may be cut */
    value_is(doc, "p2p-ce-bidir-3-4", 99.09);
    assert_int_equal(count(doc, "p2p", "ok"), 30 + 3 * 5 + 4);
    json_decref(doc);

    doc = import_case("p2p-ginkgo164-4xv100-cut-title");
    str_is(gpu(doc, 3), "name", "Tesla V100-SXM2-16GB");
    assert_true(json_is_true(json_object_get(link_ab(doc, 3, 2), "cuda_peer_access")));
    json_decref(doc);
}

static void p2p_line_numbered_latency_only(void **state)
{
    (void)state;
    json_t *doc = import_case("p2p-cudasamples230-linenumbers");
    /* "  3      0   2.61  14.95  19.61  14.42" (P2P=Disabled, GPU-timed) */
    value_is(doc, "latency-gpu_copy-0-1-nop2p", 14.95);
    /* " 11      2   6.35   6.27   2.50   5.78" (P2P=Disabled, CPU-timed) */
    value_is(doc, "latency-cpu_copy-2-3-nop2p", 5.78);
    /* " 17      2   1.81   1.83   2.07   2.31" (P2P=Enabled, GPU-timed) */
    value_is(doc, "latency-gpu_copy-2-3", 2.31);
    /* " 23      2   1.92   1.76   2.58   1.94" (P2P=Enabled, CPU-timed) */
    value_is(doc, "latency-cpu_copy-2-1", 1.76);
    assert_int_equal(count(doc, "latency", "ok"), 48);
    assert_int_equal(count(doc, "p2p", "ok"), 0);
    json_decref(doc);
}

static void p2p_access_lines_alone(void **state)
{
    (void)state;
    json_t *doc = import_case("p2p-nccltests117-8x2080ti-cannot");
    str_is(gpu(doc, 7), "name", "NVIDIA GeForce RTX 2080 Ti");
    str_is(gpu(doc, 4), "pci_bus_id", "00000000:84:00.0");
    assert_true(json_is_false(json_object_get(link_ab(doc, 0, 7), "cuda_peer_access")));
    assert_true(json_is_false(json_object_get(link_ab(doc, 1, 0), "cuda_peer_access")));
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 0);
    json_decref(doc);

    doc = import_case("p2p-aikitoria5-mixed-cannot");
    str_is(gpu(doc, 4), "name", "NVIDIA RTX A6000");
    assert_true(json_is_true(json_object_get(link_ab(doc, 2, 3), "cuda_peer_access")));
    assert_true(json_is_false(json_object_get(link_ab(doc, 1, 5), "cuda_peer_access")));
    json_decref(doc);
}

/* The report shows each of the sample's matrices under its own title, with both cells
   of a bidirectional pair ("     0 4070.67 737.55" / "     1 770.05 4077.14"). */
static void p2p_report_matrices_keep_titles_and_both_cells(void **state)
{
    (void)state;
    json_t *doc = import_case("h200x2-p2p");
    ls_matrix_t *mats = NULL;
    int n = ls_doc_matrices(doc, &mats), found = 0;
    for (int k = 0; k < n; k++) {
        if (!strstr(mats[k].title, "Bidirectional P2P=Enabled Bandwidth Matrix"))
            continue;
        found++;
        assert_true(fabs(mats[k].v[0][1] - 737.55) < 1e-9);
        assert_true(fabs(mats[k].v[1][0] - 770.05) < 1e-9);
    }
    assert_int_equal(found, 1);
    /* 4 bandwidth matrices, 2 P2P settings x GPU/CPU-timed latency */
    assert_int_equal(n, 8);
    free(mats);
    json_decref(doc);
}

/* ---- nvbandwidth --------------------------------------------------------------------- */

static void nvbw_text_read_matrix_without_running_line(void **state)
{
    (void)state;
    json_t *doc = import_case("nvbw-nvbandwidth50-6xa6000-read");
    /* " 3     21.82     21.82     22.26       N/A     26.34     26.35": GPU 3 reads */
    value_is(doc, "p2p-ce-read-uni-2-3", 22.26);
    value_is(doc, "p2p-ce-read-uni-5-3", 26.35);
    str_is(entry(doc, "p2p-ce-read-uni-5-3"), "test", "device_to_device_memcpy_read_ce");
    assert_int_equal(count(doc, "p2p", "ok"), 30);
    str_is(json_object_get(doc, "software"), "driver", "580.95.05");
    str_is(json_object_get(doc, "software"), "cuda_runtime", "13.0");
    json_decref(doc);
}

static void nvbw_text_v02_cut_inside_a_row(void **state)
{
    (void)state;
    json_t *doc = import_case("nvbw-nvbandwidth15-8x4090-v02");
    str_is(gpu(doc, 7), "name", "NVIDIA GeForce RTX 4090");
    value_is(doc, "host-ce-h2d-5", 26.38);
    value_is(doc, "host-ce-d2h-4", 27.10);
    /* "0     11.24     14.42     16.": 11.24 and 14.42 kept, the cut "16." dropped */
    value_is(doc, "host-ce-h2d-1-bidir", 14.42);
    assert_int_equal(count(doc, "host", "ok"), 8 + 8 + 2);
    json_decref(doc);
}

static void nvbw_text_quoted_sm_tests(void **state)
{
    (void)state;
    json_t *doc = import_case("nvbw-nvbandwidth24-8xh100-sm");
    value_is(doc, "host-sm-h2d-7", 35.06);
    value_is(doc, "host-sm-d2h-3", 52.78);
    str_is(entry(doc, "host-sm-d2h-3"), "method", "sm");
    json_decref(doc);
}

static void nvbw_waived_and_failed_testcases(void **state)
{
    (void)state;
    json_t *doc = import_case("nvbw-nvbandwidth13-2x2080ti-waived");
    const json_t *e = entry(doc, "p2p-device_to_device_memcpy_write_ce");
    str_is(e, "status", "skipped");
    assert_true(json_is_false(json_object_get(e, "p2p")));
    json_decref(doc);

    doc = import_case("nvbw-nvbandwidth34-8xa100-assert");
    e = entry(doc, "p2p-device_to_device_memcpy_read_ce");
    str_is(e, "status", "failed");
    assert_non_null(strstr(ls_json_str(e, "error", ""), "Invalid value when checking the pattern"));
    str_is(gpu(doc, 4), "pci_bus_id", "00000000:9b:00.0");
    json_decref(doc);

    doc = import_case("nvbw-nvbandwidth42-a100-h2d-sm");
    value_is(doc, "host-sm-h2d-0", 25.13);
    str_is(gpu(doc, 0), "pci_bus_id", "00000000:99:00.0");
    json_decref(doc);
}

/* v0.10: COEFFICIENT_OF_VARIATION lines, "GPU(row) -> CPU(column)" for device to host,
   rows without a leading blank */
static void nvbw_text_v010(void **state)
{
    (void)state;
    json_t *doc = import_case("nvbw-azurehpc-v010-2gpu-cv");
    value_is(doc, "host-ce-d2h-1", 26.00); /* "0     25.97     26.00" */
    value_is(doc, "host-ce-h2d-0", 26.03);
    value_is(doc, "p2p-ce-read-uni-0-1", 276.19); /* "1    276.19       N/A": GPU 1 reads GPU 0 */
    assert_int_equal(json_array_size(json_object_get(doc, "measurements")), 6);
    json_decref(doc);
}

static void nvbw_text_and_json_of_our_machine_give_the_same_entries(void **state)
{
    (void)state;
    json_t *text = import_case("h200x2-nvbandwidth-text");
    json_t *json = import_case("h200x2-nvbandwidth-json");
    /* the Total block of device_to_device_bidirectional_memcpy_read_ce: " 0  N/A  778.60"
       style rows; the text run and the JSON run are two runs: same entries, own values */
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(json, "measurements"), i, e)
        entry(text, ls_json_str(e, "id", ""));
    assert_int_equal(json_array_size(json_object_get(text, "measurements")),
                     json_array_size(json_object_get(json, "measurements")));
    /* "SUM device_local_copy 4161.29" over " 0   2079.38   2081.90": HBM traffic = 2 x */
    value_is(text, "hbm-copy_ce-0", 2 * 2079.38);
    /* " 0   1187.07   1193.03" ns, host_device_latency_sm */
    value_is(text, "latency-pointer_chase-1-host", 1.19303);
    json_decref(text);
    json_decref(json);
}

/* ---- nvidia-smi topo -m ------------------------------------------------------------------ */

static void topo_cut_rows_keep_every_whole_row(void **state)
{
    (void)state;
    json_t *doc = import_case("topo-sglang13973-8xh100-nv18-cut");
    str_is(link_ab(doc, 0, 5), "type", "NV18");
    /* GPU7 has no row: its links come from the other rows' GPU7 column */
    str_is(link_ab(doc, 7, 2), "type", "NV18");
    str_is(link_ab(doc, 6, 7), "type", "?"); /* neither row is there */
    str_is(gpu(doc, 3), "cpu_affinity", "24-47,120-143");
    str_is(gpu(doc, 3), "numa_affinity", "1");
    str_is(gpu(doc, 3), "gpu_numa_id", "N/A");
    json_decref(doc);

    doc = import_case("topo-deepep128-8xh20-allsys-cut");
    str_is(link_ab(doc, 0, 3), "type", "SYS");
    str_is(gpu(doc, 4), "cpu_affinity", "56-111,168-223");
    json_decref(doc);

    doc = import_case("topo-nccl707-8xa100-mlx5-cut");
    str_is(link_ab(doc, 3, 1), "type", "NV12");
    str_is(json_array_get(json_object_get(doc, "nics"), 17), "name", "mlx5_17");
    str_is(gpu(doc, 0), "cpu_affinity", "0-47,96-143");
    str_is(gpu(doc, 0), "gpu_numa_id", ""); /* no GPU NUMA ID column then */
    json_decref(doc);

    /* every GPU row whole, the paste stops inside the NIC rows ("NIC3    SYS") */
    doc = import_case("topo-daskcuda1358-2gpu-nic-rows-cut");
    str_is(link_ab(doc, 1, 0), "type", "NV12");
    str_is(gpu(doc, 1), "cpu_affinity", "48-63,176-191");
    str_is(json_array_get(json_object_get(doc, "gpu_nic_links"), 1), "type", "PXB"); /* GPU0-NIC1 */
    json_decref(doc);

    doc = import_case("topo-nccl933-8gpu-nv8-cut");
    str_is(link_ab(doc, 7, 6), "type", "NV8"); /* from GPU6's row */
    str_is(gpu(doc, 6), "numa_affinity", "1");
    str_is(gpu(doc, 7), "numa_affinity", ""); /* its row is cut: unknown */
    json_decref(doc);

    doc = import_case("topo-k8s53497-8gpu-mlx4-2017");
    str_is(link_ab(doc, 0, 1), "type", "PIX");
    str_is(link_ab(doc, 4, 5), "type", "PIX"); /* GPU4's row is whole */
    str_is(gpu(doc, 4), "cpu_affinity", "10-19,30-39");
    json_decref(doc);
}

static void topo_whole_matrices(void **state)
{
    (void)state;
    json_t *doc = import_case("topo-nccl1617-4xh100-nv6");
    str_is(link_ab(doc, 2, 3), "type", "NV6");
    str_is(gpu(doc, 2), "cpu_affinity", "7,15,23,31");
    str_is(gpu(doc, 2), "numa_affinity", "7");
    str_is(gpu(doc, 2), "gpu_numa_id", "N/A");
    json_decref(doc);

    doc = import_case("topo-club3090-46-5x4090");
    str_is(link_ab(doc, 3, 4), "type", "PHB");
    str_is(link_ab(doc, 0, 2), "type", "SYS");
    str_is(gpu(doc, 0), "numa_affinity", "1");
    json_decref(doc);
}

static void topo_p2p_blocks(void **state)
{
    (void)state;
    /* "GPU0\t X \tPHB\t0-63\t0\t\tN/A": the empty field before N/A is the tab too many */
    json_t *doc = import_case("topo-club3090-1229-2x5090-tabs");
    str_is(gpu(doc, 1), "cpu_affinity", "0-63");
    str_is(gpu(doc, 1), "numa_affinity", "0");
    str_is(gpu(doc, 1), "gpu_numa_id", "N/A");
    str_is(link_ab(doc, 0, 1), "p2p_status", "GNS"); /* the -p2p file of the case */
    json_decref(doc);

    doc = import_case("topo-club3090-1125-2gpu-indented-p2p");
    str_is(link_ab(doc, 0, 1), "type", "NODE");
    str_is(link_ab(doc, 1, 0), "p2p_status", "NS"); /* the block under the matrix */
    str_is(gpu(doc, 0), "cpu_affinity", "0-15");
    json_decref(doc);

    /* `-p2p n` then `-p2p p` (a DGX-1's 8 V100): NVLink's OK gives the pair peer access,
       its NS says nothing alone; the PCIe block's NS then says none at all */
    doc = import_case("fresh40-topo-nvtools-dgx1v-p2p-n-and-pcie-all-ns");
    str_is(link_ab(doc, 0, 4), "p2p_status", "OK");
    str_is(link_ab(doc, 0, 5), "p2p_status", "NS");
    str_is(link_ab(doc, 7, 3), "p2p_status", "OK");
    json_decref(doc);

    /* `-p2p n` alone: the pair without NVLink P2P may still have it over PCIe: unknown */
    char err[256];
    doc = ls_doc_new();
    assert_true(ls_import_text(doc,
                               "nvidia-smi topo -p2p n\n"
                               "        GPU0    GPU1    GPU2\n"
                               " GPU0   X       OK      NS\n"
                               " GPU1   OK      X       NS\n"
                               " GPU2   NS      NS      X\n",
                               "p2p-n.txt", NULL, NULL, err, sizeof err) >= 0);
    str_is(link_ab(doc, 0, 1), "p2p_status", "OK");
    assert_non_null(link_ab(doc, 0, 2));
    assert_null(json_object_get(link_ab(doc, 0, 2), "p2p_status"));
    json_decref(doc);

    /* `topo -mp` is the PCIe-only matrix: its PHB says nothing of NVLink, so
       all_pairs_host does not judge it; the same rows from `topo -m` do fire */
    static const char *const cmds[] = {"nvidia-smi topo -mp", "nvidia-smi topo -m"};
    for (int i = 0; i < 2; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "%s\n        GPU0    GPU1    CPU Affinity    NUMA Affinity\n"
                 "GPU0     X      PHB     0-47    0\nGPU1    PHB      X      0-47    0\n",
                 cmds[i]);
        doc = ls_doc_new();
        assert_true(ls_import_text(doc, text, "topo.txt", NULL, NULL, err, sizeof err) >= 0);
        assert_int_equal(json_is_true(json_object_get(link_ab(doc, 0, 1), "pci_only")), i == 0);
        json_t *f = ls_findings(doc);
        assert_int_equal(ls_test_finding(f, "all_pairs_host") != NULL, i == 1);
        json_decref(f);
        json_decref(doc);
    }
}

/* Space-separated values under empty affinity columns stay under their own header. */
static void topo_value_under_its_own_column(void **state)
{
    (void)state;
    /* the 2-GPU matrix of topo-club3090-46 with the CPU and NUMA affinity of GPU0 left
       empty, as a machine that reports none prints it */
    const char *text = "        GPU0    GPU1    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
                       "GPU0     X      SYS                                     N/A\n"
                       "GPU1    SYS      X      0-7,16-23       0               N/A\n";
    json_t *doc = ls_import_doc_new();
    char err[256];
    assert_true(ls_import_text(doc, text, "inline", NULL, NULL, err, sizeof err) >= 0);
    str_is(gpu(doc, 0), "cpu_affinity", "");
    str_is(gpu(doc, 0), "gpu_numa_id", "N/A");
    str_is(gpu(doc, 1), "numa_affinity", "0");
    json_decref(doc);
}

/* ---- nvidia-smi nvlink and -q ------------------------------------------------------------- */

static void smi_nvlink_speeds_inactive_links_and_errors(void **state)
{
    (void)state;
    json_t *doc = import_case("smi-azhpc73-v100-nvlink-inactive");
    const json_t *links = json_object_get(gpu(doc, 3), "nvlinks");
    assert_int_equal(json_array_size(links), 6);
    assert_true(json_is_false(json_object_get(json_array_get(links, 3), "active")));
    assert_true(ls_json_num(json_array_get(links, 4), "gbps", 0) == 25.781);
    /* four active links of 25.781 GB/s */
    assert_true(fabs(ls_json_num(gpu(doc, 3), "nvlink_theoretical_gbps", 0) - 103.124) < 1e-9);
    json_decref(doc);

    doc = import_case("smi-k8sinfra371-gb200-nvlink-s");
    assert_int_equal(json_array_size(json_object_get(gpu(doc, 0), "nvlinks")), 18);
    str_is(gpu(doc, 1), "uuid", "GPU-39ac7bce-e3d6-b426-008e-fa47897c72d5");
    /* GPU 1's links are elided after link 1: no theoretical figure from two of them */
    assert_null(json_object_get(gpu(doc, 1), "nvlink_theoretical_gbps"));
    json_decref(doc);

    doc = import_case("smi-srtslurm307-gb300-nvlink-e");
    const json_t *errors = json_object_get(json_array_get(json_object_get(gpu(doc, 0), "nvlinks"),
                                                          0),
                                           "errors");
    assert_int_equal(ls_json_int(errors, "replay", -1), 0);
    assert_int_equal(ls_json_int(errors, "recovery", -1), 0);
    assert_int_equal(ls_json_int(errors, "crc", -1), 0);
    str_is(gpu(doc, 0), "name", "NVIDIA GB300");
    json_decref(doc);

    doc = import_case("smi-azurehpc-a100-nvlink-s");
    assert_int_equal(json_array_size(json_object_get(gpu(doc, 7), "nvlinks")), 12);
    assert_true(ls_json_num(gpu(doc, 7), "nvlink_theoretical_gbps", 0) == 300); /* 12 x "25 GB/s" */
    json_decref(doc);

    doc = import_case("smi-azurehpc-a100-nvlink-all-inactive");
    assert_true(json_is_true(json_object_get(gpu(doc, 6), "nvlinks_all_inactive")));
    assert_int_equal(json_array_size(json_object_get(gpu(doc, 6), "nvlinks")), 0);
    json_decref(doc);

    doc = import_case("h200x2-nvlink");
    assert_true(ls_json_num(json_array_get(json_object_get(gpu(doc, 1), "nvlinks"), 17), "gbps",
                            0) == 26.562);
    json_decref(doc);
}

static void smi_query_inventory(void **state)
{
    (void)state;
    json_t *doc = import_case("h200x2-smi-q");
    const json_t *g = gpu(doc, 0);
    str_is(g, "name", "NVIDIA H200");
    str_is(g, "pci_bus_id", "00000000:00:06.0");
    const json_t *pcie = json_object_get(g, "pcie");
    assert_int_equal(ls_json_int(pcie, "gen_max", 0), 5);
    assert_int_equal(ls_json_int(pcie, "width_current", 0), 16);
    str_is(json_object_get(doc, "software"), "driver", "580.159.04");
    json_decref(doc);

    doc = import_case("smi-gputil38-1080ti-q");
    str_is(gpu(doc, 0), "name", "GeForce GTX 1080 Ti");
    str_is(gpu(doc, 0), "pci_bus_id", "00000000:18:00.0");
    str_is(gpu(doc, 0), "uuid", "GPU-95ef7c5d-fc11-835b-cd38-2020193cf8e0");
    str_is(json_object_get(doc, "software"), "cuda_driver", "10.2");
    json_decref(doc);
}

static double num_at(const json_t *g, const char *obj, const char *key)
{
    return ls_json_num(json_object_get(g, obj), key, NAN);
}

static int has_reason(const json_t *g, const char *reason)
{
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(g, "throttle_reasons"), i, r) {
        if (json_is_string(r) && strcmp(json_string_value(r), reason) == 0)
            return 1;
    }
    return 0;
}

/* nvidia-smi -q beyond identity, against the quoted lines of the real texts: device id,
   the GPU's power readings (not the module's), clock-event reasons, ECC in both layouts,
   remapped rows and retired pages. */
static void smi_query_health(void **state)
{
    (void)state;
    json_t *doc = import_case("smi-q-gls-gh200");
    const json_t *g = gpu(doc, 0);
    str_is(g, "pci_device_id", "0x2342");              /* Device Id : 0x234210DE */
    assert_true(num_at(g, "power", "limit_w") == 700); /* GPU Current Power Limit : 700.00 W */
    assert_true(num_at(g, "power", "default_limit_w") == 900); /* not the module's 1000 W */
    assert_true(num_at(g, "power", "draw_w") == 87.88);
    json_decref(doc);

    doc = import_case("smi-q-gls-a100sxm-x4");
    g = gpu(doc, 1);
    assert_true(num_at(g, "ecc", "volatile_corrected") == 353); /* DRAM Correctable : 353 */
    assert_true(num_at(g, "ecc", "volatile_uncorrected") == 0);
    const json_t *rows = json_object_get(json_object_get(g, "ecc"), "remapped_rows");
    assert_true(json_is_true(json_object_get(rows, "pending"))); /* Pending : Yes */
    assert_true(json_is_false(json_object_get(rows, "failure")));
    assert_int_equal(ls_json_int(rows, "correctable", -1), 1);
    assert_true(num_at(gpu(doc, 0), "ecc", "volatile_corrected") == 0);
    json_decref(doc);

    doc = import_case(
        "smi-q-gls-v100sxm2-x8"); /* driver 550 on Volta: Single / Double Bit blocks */
    g = gpu(doc, 7);
    str_is(g, "pci_device_id", "0x1db1");
    assert_true(json_is_true(json_object_get(json_object_get(g, "ecc"), "enabled")));
    assert_true(num_at(g, "ecc", "volatile_corrected") == 0);
    const json_t *pages = json_object_get(json_object_get(g, "ecc"), "retired_pages");
    assert_true(json_is_false(json_object_get(pages, "pending"))); /* Pending Page Blacklist : No */
    json_decref(doc);

    doc = import_case("smi-q-gls-a40-x10");
    assert_true(num_at(gpu(doc, 6), "ecc", "aggregate_corrected") ==
                10289); /* Aggregate DRAM Correctable */
    assert_true(num_at(gpu(doc, 6), "ecc", "volatile_corrected") == 0);
    assert_true(has_reason(gpu(doc, 0), "sw_power_cap")); /* SW Power Cap : Active */
    assert_false(has_reason(gpu(doc, 0), "hw_slowdown"));
    json_decref(doc);

    doc = import_case("smi-q-perflab-rtx3060-laptop"); /* driver 610: limits one level deeper */
    g = gpu(doc, 0);
    assert_true(num_at(g, "power", "limit_w") == 80); /* GPU Ceiling Power Limit / Current */
    assert_true(num_at(g, "power", "default_limit_w") == 80);
    assert_true(num_at(g, "power", "draw_w") == 12.60);           /* Instantaneous Power Draw */
    str_is(json_object_get(doc, "software"), "driver", "610.88"); /* without "[Deprecated; ...]" */
    assert_int_equal(ls_json_int(json_object_get(g, "pcie"), "width_current", 0), 8);
    json_decref(doc);

    doc = import_case("smi-q-gls-h100nvl-x2");
    g = gpu(doc, 1);
    str_is(g, "pci_device_id", "0x2321");
    assert_true(num_at(g, "power", "default_limit_w") == 310);
    assert_int_equal(ls_json_int(json_object_get(g, "clocks"), "sm_max_mhz", 0), 1785);
    json_decref(doc);
}

/* The same A10 text with HW Slowdown and HW Power Brake marked Active (a transform: no
   public whole -q with them active was found): the reasons are imported and `throttling`
   fires on the GPU's own reading. */
static void smi_query_hw_slowdown(void **state)
{
    (void)state;
    char *text = read_text(ls_fixture("real/smi-q-gls-a10.txt"));
    const char *words[] = {"HW Slowdown                       : Not Active",
                           "HW Power Brake Slowdown       : Not Active"};
    for (size_t w = 0; w < 2; w++) {
        char *at = strstr(text, words[w]);
        assert_non_null(at);
        at = strstr(at, "Not Active");
        memmove(at, at + 4, strlen(at + 4) + 1); /* "Not Active" -> "Active" */
    }
    json_t *doc = ls_import_doc_new();
    char err[256];
    assert_true(ls_import_text(doc, text, "a10-hw.txt", NULL, NULL, err, sizeof err) >= 0);
    free(text);
    assert_true(has_reason(gpu(doc, 0), "hw_slowdown"));
    assert_true(has_reason(gpu(doc, 0), "hw_power_brake_slowdown"));
    json_t *findings = ls_findings(doc);
    size_t i;
    const json_t *f;
    int hit = 0;
    json_array_foreach(findings, i, f) {
        hit |= strcmp(ls_json_str(f, "rule", ""), "throttling") == 0 &&
               strstr(ls_json_str(f, "message", ""), "power-brake") != NULL;
    }
    assert_true(hit);
    json_decref(findings);
    json_decref(doc);
}

/* The nvlink and -q pastes of our machine join the topology: names, speeds, PCIe. */
static void smi_joins_the_topology(void **state)
{
    (void)state;
    json_t *doc = ls_import_doc_new();
    const char *files[] = {"h200x2/nvidia-smi-topo.txt", "h200x2/nvidia-smi-nvlink.txt",
                           "h200x2/nvidia-smi-q-gpu0.txt"};
    for (size_t f = 0; f < 3; f++) {
        char *text = read_text(ls_fixture(files[f]));
        char err[256];
        assert_true(ls_import_text(doc, text, files[f], NULL, NULL, err, sizeof err) >= 0);
        free(text);
    }
    str_is(link_ab(doc, 0, 1), "type", "NV18");
    str_is(gpu(doc, 0), "name", "NVIDIA H200");
    str_is(gpu(doc, 0), "label", "GPU0");
    assert_non_null(json_object_get(gpu(doc, 0), "pcie"));
    assert_int_equal(json_array_size(json_object_get(gpu(doc, 1), "nvlinks")), 18);
    json_decref(doc);
}

/* ---- compare ------------------------------------------------------------------------------ */

static json_t *import_files(const char *const *files, size_t n)
{
    json_t *doc = ls_import_doc_new();
    for (size_t f = 0; f < n; f++) {
        char *text = read_text(ls_fixture(files[f]));
        char err[256];
        assert_true(ls_import_text(doc, text, files[f], NULL, NULL, err, sizeof err) >= 0);
        free(text);
    }
    return doc;
}

static void compare_does_not_depend_on_file_order(void **state)
{
    (void)state;
    const char *forward[] = {"h200x2/p2pBandwidthLatencyTest.txt", "h200x2/nvbandwidth.json",
                             "h200x2/nvbandwidth.txt", "h200x2/nccl-tests-all_reduce.txt"};
    const char *backward[] = {forward[3], forward[2], forward[1], forward[0]};
    json_t *a = import_files(forward, 4), *b = import_files(backward, 4);
    ls_compare_opts_t opts = {5, 10};
    char err[256];
    json_t *ab = ls_compare_docs(a, b, &opts, err, sizeof err);
    json_t *ba = ls_compare_docs(b, a, &opts, err, sizeof err);
    assert_non_null(ab);
    assert_non_null(ba);
    assert_int_equal(ls_json_int(ab, "regressions", -1), 0);
    assert_int_equal(ls_json_int(ba, "regressions", -1), 0);
    assert_int_equal(ls_json_int(ab, "gains", -1), 0);
    assert_int_equal(ls_json_int(ab, "only_a", -1), 0);
    /* p2p ce uni 0->1 is measured by three files: three rows, each with its source */
    size_t i, rows = 0;
    const json_t *row;
    json_array_foreach(json_object_get(ab, "rows"), i, row) {
        const json_t *m = json_object_get(row, "match");
        if (strcmp(ls_json_str(m, "family", ""), "p2p") ||
            strcmp(ls_json_str(m, "method", ""), "ce") ||
            strcmp(ls_json_str(m, "direction", ""), "uni") || json_object_get(m, "mode") ||
            ls_json_int(m, "src", -1) != 0 || ls_json_int(m, "dst", -1) != 1 ||
            !json_is_true(json_object_get(m, "p2p")))
            continue;
        rows++;
        assert_string_equal(ls_json_str(row, "source_a", ""), ls_json_str(row, "source_b", "?"));
    }
    assert_int_equal(rows, 3);
    json_decref(ab);
    json_decref(ba);
    json_decref(a);
    json_decref(b);
}

int main(void)
{
    ls_log_quiet(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_case_imports_and_its_figures_are_in_its_text),
        cmocka_unit_test(p2p_partial_six_gpus_keeps_whole_matrices_and_the_cut_row),
        cmocka_unit_test(p2p_two_4090s_both_bidirectional_cells),
        cmocka_unit_test(p2p_h100_cut_inside_the_write_matrix),
        cmocka_unit_test(p2p_collapsed_whitespace_from_a_web_page),
        cmocka_unit_test(p2p_rows_before_the_first_title_and_a_whole_last_row),
        cmocka_unit_test(p2p_line_numbered_latency_only),
        cmocka_unit_test(p2p_report_matrices_keep_titles_and_both_cells),
        cmocka_unit_test(p2p_access_lines_alone),
        cmocka_unit_test(nvbw_text_read_matrix_without_running_line),
        cmocka_unit_test(nvbw_text_v02_cut_inside_a_row),
        cmocka_unit_test(nvbw_text_quoted_sm_tests),
        cmocka_unit_test(nvbw_waived_and_failed_testcases),
        cmocka_unit_test(nvbw_text_v010),
        cmocka_unit_test(nvbw_text_and_json_of_our_machine_give_the_same_entries),
        cmocka_unit_test(topo_cut_rows_keep_every_whole_row),
        cmocka_unit_test(topo_whole_matrices),
        cmocka_unit_test(topo_p2p_blocks),
        cmocka_unit_test(topo_value_under_its_own_column),
        cmocka_unit_test(smi_nvlink_speeds_inactive_links_and_errors),
        cmocka_unit_test(smi_query_inventory),
        cmocka_unit_test(smi_query_health),
        cmocka_unit_test(smi_query_hw_slowdown),
        cmocka_unit_test(smi_joins_the_topology),
        cmocka_unit_test(compare_does_not_depend_on_file_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
