/* GPU rules: HBM efficiency outliers, power limit below default, throttling during a
   measurement, ECC errors, NVLink error counters rising while measuring (and, in
   rules_nvlink_counts.c, those a pasted nvidia-smi nvlink -e shows). */
#include "rules.h"
#include "ceiling.h"
#include "spec.h"
#include "model/doc.h"
#include "model/memory_repair.h"
#include "model/nvlink_errors.h"
#include "model/vocab.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HBM_METHODS 8

/* Best HBM figure of one GPU by one method. */
typedef struct {
    double value, theoretical;
    const char *id;
} hbm_best_t;

/* Efficiency (measured / theoretical) per method and GPU: a GPU is compared with the
   others by the same method, never its copy with their read (read > write > copy). */
static int hbm_by_method(const ls_machine_t *m, const char **methods,
                         hbm_best_t (*best)[LS_MAX_GPUS])
{
    int nmethods = 0;
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_HBM, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_HBM, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        long long g = ls_json_int(e, "gpu", -1);
        if (g < 0 && json_is_integer(json_array_get(json_object_get(e, "gpus"), 0)))
            g = json_integer_value(json_array_get(json_object_get(e, "gpus"), 0));
        double v = ls_json_num(e, "value", 0);
        if (g < 0 || g >= m->ngpus || v <= 0 || strcmp(ls_json_str(e, "status", ""), "ok"))
            continue;
        const char *method = ls_json_str(e, "method", "");
        int k = 0;
        while (k < nmethods && strcmp(methods[k], method))
            k++;
        if (k == nmethods) {
            if (nmethods == HBM_METHODS)
                continue;
            methods[nmethods++] = method;
        }
        double th = ls_json_num(e, "theoretical", 0);
        if (v > best[k][g].value)
            best[k][g] = (hbm_best_t){v,
                                      th > 0 ? th
                                             : ls_json_num(m->gpu[g], "hbm_theoretical_gbps", 0),
                                      ls_json_str(e, "id", "")};
    }
    return nmethods;
}

static void hbm_outliers(const ls_machine_t *m, json_t *out)
{
    const char *methods[HBM_METHODS];
    hbm_best_t best[HBM_METHODS][LS_MAX_GPUS];
    memset(best, 0, sizeof best);
    int nmethods = hbm_by_method(m, methods, best);
    int worst_k[LS_MAX_GPUS];
    double worst_ratio[LS_MAX_GPUS], median[HBM_METHODS] = {0};
    json_t *evidence[LS_MAX_GPUS] = {0};
    for (int g = 0; g < m->ngpus; g++)
        worst_k[g] = -1, worst_ratio[g] = 1;
    for (int k = 0; k < nmethods; k++) {
        double eff[LS_MAX_GPUS], vals[LS_MAX_GPUS];
        int n = 0;
        for (int g = 0; g < m->ngpus; g++) {
            eff[g] = best[k][g].value > 0 && best[k][g].theoretical > 0
                         ? best[k][g].value / best[k][g].theoretical
                         : 0;
            if (eff[g] > 0)
                vals[n++] = eff[g];
        }
        if (n < LS_HBM_MIN_GPUS)
            continue;
        median[k] = ls_median(vals, n);
        for (int g = 0; g < m->ngpus; g++) {
            if (eff[g] <= 0 || eff[g] >= LS_HBM_OUTLIER_RATIO * median[k])
                continue;
            if (!evidence[g])
                evidence[g] = json_array();
            json_array_append_new(evidence[g], json_string(best[k][g].id));
            if (eff[g] / median[k] < worst_ratio[g])
                worst_ratio[g] = eff[g] / median[k], worst_k[g] = k;
        }
    }
    for (int g = 0; g < m->ngpus; g++) {
        if (!evidence[g])
            continue;
        int k = worst_k[g];
        ls_finding_add(out, "hbm_efficiency", LS_SEV_WARNING, LS_ABOUT_GPU(g), evidence[g],
                       "GPU%d %s: HBM %s %.1f of %.1f GB/s theoretical (%.0f%%), while the GPUs' "
                       "median by that "
                       "method is %.0f%%",
                       g, ls_machine_gpu_name(m, g), methods[k], best[k][g].value,
                       best[k][g].theoretical, 100 * best[k][g].value / best[k][g].theoretical,
                       100 * median[k]);
    }
}

static void power_limits(const ls_machine_t *m, json_t *out)
{
    for (int g = 0; g < m->ngpus; g++) {
        const json_t *p = json_object_get(m->gpu[g], "power");
        double limit = ls_json_num(p, "limit_w", 0), def = ls_json_num(p, "default_limit_w", 0);
        if (limit <= 0 || def <= 0 || limit >= LS_POWER_TOLERANCE * def)
            continue;
        char path[48];
        snprintf(path, sizeof path, "gpus[%d].power", g);
        ls_finding_add(out, "power_limit", LS_SEV_WARNING, LS_ABOUT_GPU(g), json_pack("[s]", path),
                       "GPU%d power limit %.0f W is below its default %.0f W: clocks and figures "
                       "drop under load",
                       g, limit, def);
    }
}

/* Clock-event reasons that are not throttling (as src/discover/nvml.c marks them: they
   do not lower the clocks; sync_boost holds GPUs of a sync-boost group at one clock). */
static int benign_reason(const char *r)
{
    return !strcmp(r, "gpu_idle") || !strcmp(r, "applications_clocks_setting") ||
           !strcmp(r, "display_clock_setting") || !strcmp(r, "sync_boost") || !strcmp(r, "none");
}

static void add_unique(json_t *array, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(array, i, v) {
        if (!strcmp(json_string_value(v), s))
            return;
    }
    json_array_append_new(array, json_string(s));
}

static void throttling(const ls_machine_t *m, json_t *out)
{
    json_t *reasons = json_array(), *evidence = json_array();
    for (long i = ls_doc_next_measurement(m->doc, NULL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, NULL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        const json_t *tr = json_object_get(json_object_get(e, "telemetry"), "throttle_reasons");
        int hit = 0;
        size_t k;
        const json_t *r;
        json_array_foreach(tr, k, r) {
            if (json_is_string(r) && !benign_reason(json_string_value(r)))
                add_unique(reasons, json_string_value(r)), hit = 1;
        }
        json_array_foreach(json_object_get(e, "flags"), k, r) {
            if (json_is_string(r) && !strcmp(json_string_value(r), LS_FLAG_THROTTLED))
                hit = 1;
        }
        if (hit)
            json_array_append_new(evidence, json_string(ls_json_str(e, "id", "")));
    }
    if (json_array_size(evidence)) {
        char list[256] = "";
        size_t k;
        json_t *r;
        json_array_foreach(reasons, k, r) {
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", json_string_value(r));
        }
        ls_finding_add(out, "throttling", LS_SEV_WARNING, LS_ABOUT_WHAT("measurements"),
                       json_incref(evidence),
                       "%zu measurement(s) ran while clocks were throttled (%s): their figures "
                       "understate the hardware",
                       json_array_size(evidence), list[0] ? list : "flagged throttled");
    }
    json_decref(reasons);
    json_decref(evidence);
}

/* An "ecc" finding about GPU g, resting on its ECC object in the document (path). */
static void ecc_finding(json_t *out, enum ls_severity sev, int g, const char *path, const char *fmt,
                        ...) __attribute__((format(printf, 5, 6)));
static void ecc_finding(json_t *out, enum ls_severity sev, int g, const char *path, const char *fmt,
                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    ls_finding_vadd(out, "ecc", sev, LS_ABOUT_GPU(g), json_pack("[s]", path), fmt, ap);
    va_end(ap);
}

/* ", 1 page retired for them (1 single-bit, 0 double-bit), none pending" of nvidia-smi
   -q's Retired Pages (V100 and earlier), or "" when none was retired or one is pending
   (memory_repair says that one). */
static void retired_clause(const json_t *pages, char *buf, size_t len)
{
    long long sbe = ls_json_int(pages, "single_bit", 0), dbe = ls_json_int(pages, "double_bit", 0);
    buf[0] = '\0';
    if (sbe + dbe > 0 && !json_is_true(json_object_get(pages, "pending")))
        snprintf(buf, len,
                 ", %lld page%s retired for them (%lld single-bit, %lld double-bit), "
                 "none pending",
                 sbe + dbe, sbe + dbe == 1 ? "" : "s", sbe, dbe);
}

/* The last finding added gets node_action a. */
static void last_action(json_t *out, enum ls_action a)
{
    json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                        json_string(ls_action_name(a)));
}

/* Row remapping (A100 and later) and page retirement (earlier parts) as NVML reports
   them: a repair the GPU has recorded but applies only at the next GPU reset (rows) or
   driver load (pages); a remapping failure means a bank has no spare row left. The row
   remapper's node actions are linkscope health's (remap_failed isolate, remap_pending
   reset: NVIDIA's memory error management: a pending remap is applied at the next GPU
   reset, a failed one asks for the GPU to be checked). */
static void memory_repair(int g, const json_t *ecc, const char *path, json_t *out)
{
    const json_t *rows = json_object_get(ecc, "remapped_rows");
    const json_t *pages = json_object_get(ecc, "retired_pages");
    if (json_is_true(json_object_get(rows, "failure"))) {
        ecc_finding(out, LS_SEV_ERROR, g, path,
                    "GPU%d: row remapping failed (a memory bank has no spare row left): drain "
                    "it and "
                    "have it checked (nvidia-smi -q -d ROW_REMAPPER)",
                    g);
        last_action(out, LS_ACT_ISOLATE);
    } else if (json_is_true(json_object_get(rows, "pending"))) {
        ecc_finding(out, LS_SEV_WARNING, g, path,
                    "GPU%d has a row remap pending (%lld correctable, %lld uncorrectable rows "
                    "remapped): "
                    "it takes effect only after a GPU reset (nvidia-smi -r) or a reboot",
                    g, ls_json_int(rows, "correctable", 0), ls_json_int(rows, "uncorrectable", 0));
        last_action(out, LS_ACT_RESET);
    }
    if (json_is_true(json_object_get(pages, "pending"))) {
        ecc_finding(out, LS_SEV_WARNING, g, path,
                    "GPU%d has memory pages pending retirement (%lld single-bit, %lld "
                    "double-bit retired): the driver sets them aside when it loads: %s",
                    g, ls_json_int(pages, "single_bit", 0), ls_json_int(pages, "double_bit", 0),
                    ls_retire_pending.applied);
        last_action(out, ls_retire_pending.action); /* health's retire_pending, one meaning */
    }
}

/* Clock-event reasons of the GPU's own reading (discovery, or an import of nvidia-smi
   -q): a snapshot, so only the reasons no workload explains. HW Slowdown halves the
   clocks or more; HW Power Brake is an external signal (the PSU, or a chassis power
   table that does not know the board); the thermal ones mean cooling. sw_power_cap is
   what a loaded part does at its limit and is left to the measurement rule above. */
static void throttled_now(const ls_machine_t *m, json_t *out)
{
    static const char *const serious[] = {"hw_slowdown", "hw_power_brake_slowdown",
                                          "hw_thermal_slowdown", "sw_thermal_slowdown"};
    for (int g = 0; g < m->ngpus; g++) {
        char list[160] = "", path[48];
        size_t k;
        const json_t *r;
        json_array_foreach(json_object_get(m->gpu[g], "throttle_reasons"), k, r) {
            for (size_t i = 0; i < sizeof serious / sizeof serious[0]; i++) {
                size_t len = strlen(list);
                if (json_is_string(r) && !strcmp(json_string_value(r), serious[i]))
                    snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", serious[i]);
            }
        }
        if (!list[0])
            continue;
        snprintf(path, sizeof path, "gpus[%d].throttle_reasons", g);
        ls_finding_add(out, "throttling", LS_SEV_WARNING, LS_ABOUT_GPU(g), json_pack("[s]", path),
                       "GPU%d's clocks were held down by %s when it was read: %s", g, list,
                       strstr(list, "power_brake")
                           ? "a power-brake signal from outside the GPU (power supply, or a "
                             "chassis that does not know the board): check cabling and the BMC"
                       : strstr(list, "thermal")
                           ? "check cooling and airflow before measuring"
                           : "check power cabling and temperature before measuring");
    }
}

static void ecc_errors(const ls_machine_t *m, json_t *out)
{
    for (int g = 0; g < m->ngpus; g++) {
        const json_t *ecc = json_object_get(m->gpu[g], "ecc");
        long long unc = ls_json_int(ecc, "volatile_uncorrected", 0);
        long long cor = ls_json_int(ecc, "volatile_corrected", 0);
        char path[48];
        snprintf(path, sizeof path, "gpus[%d].ecc", g);
        if (unc > 0)
            ecc_finding(out, LS_SEV_ERROR, g, path,
                        "GPU%d has %lld uncorrected ECC errors since the driver loaded: drain "
                        "it and check "
                        "nvidia-smi -q -d ECC,PAGE_RETIREMENT",
                        g, unc);
        else if (cor > 0)
            ecc_finding(out, LS_SEV_INFO, g, path,
                        "GPU%d has %lld corrected ECC errors since the driver loaded", g, cor);
        else if (ls_json_int(ecc, "aggregate_corrected", 0) > 0 ||
                 ls_json_int(ecc, "aggregate_uncorrected", 0) > 0) {
            char retired[192]; /* the clause with three counts of 20 digits */
            retired_clause(json_object_get(ecc, "retired_pages"), retired, sizeof retired);
            ecc_finding(out, LS_SEV_INFO, g, path,
                        "GPU%d has %lld corrected and %lld uncorrected ECC errors over its life "
                        "(none since the driver loaded)%s: watch whether they grow",
                        g, ls_json_int(ecc, "aggregate_corrected", 0),
                        ls_json_int(ecc, "aggregate_uncorrected", 0), retired);
        }
        memory_repair(g, ecc, path, out);
    }
}

/* Rise of one GPU's NVLink error counters during the measurements, by kind. */
typedef struct {
    double crc, replay, recovery;
} nvlink_rise_t;

typedef struct {
    double from, to; /* from first: the sort key (ls_cmp_double) */
} span_t;

/* The NVLink counters read, and the [before, after] spans over which each rose. */
enum { NVLINK_COUNTERS = 4 };
static const char *const nvlink_counter[NVLINK_COUNTERS] = {"crc_flit", "crc_data", "replay",
                                                            "recovery"};

typedef struct {
    span_t *span;
    size_t n, cap;
} spans_t;

static int by_from(const void *a, const void *b)
{
    double x = ((const span_t *)a)->from, y = ((const span_t *)b)->from;
    return (x > y) - (x < y);
}

static void add_span(spans_t *s, double from, double to)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        span_t *grown = realloc(s->span, cap * sizeof *grown);
        if (!grown)
            return; /* out of memory: this span is not counted */
        s->span = grown, s->cap = cap;
    }
    s->span[s->n++] = (span_t){from, to};
}

/* How far a counter rose while measurements ran. Entries measured together share one
   window (the GPU- and CPU-timed copy latencies have the same before/after): the counter
   is monotonic, so the rise is the length of the union of the [before, after] spans, not
   their sum. Spans come in document order, which is usually time order: sorted only when
   they are not (linear then). */
static double counter_rise(spans_t *s)
{
    int sorted = 1;
    for (size_t i = 1; i < s->n && sorted; i++)
        sorted = s->span[i - 1].from <= s->span[i].from;
    if (!sorted)
        qsort(s->span, s->n, sizeof *s->span, by_from);
    double rise = 0, end = -INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        if (s->span[i].to <= end)
            continue;
        rise += s->span[i].to - (s->span[i].from > end ? s->span[i].from : end);
        end = s->span[i].to;
    }
    return rise;
}

/* Adds the spans over which one GPU's counters rose (before and after a measurement). */
static void add_spans(const json_t *before, const json_t *after, spans_t *s)
{
    for (int c = 0; c < NVLINK_COUNTERS; c++) {
        const json_t *b = json_object_get(before, nvlink_counter[c]),
                     *a = json_object_get(after, nvlink_counter[c]);
        if (json_is_number(a) && json_is_number(b) && json_number_value(a) > json_number_value(b))
            add_span(&s[c], json_number_value(b), json_number_value(a));
    }
}

/* 1 when any of one GPU's counters rose (before and after a measurement). */
static int rose(const json_t *before, json_t *after)
{
    const char *key;
    const json_t *v;
    json_object_foreach(after, key, v) {
        const json_t *b = json_object_get(before, key);
        if (json_is_number(v) && json_is_number(b) && json_number_value(v) > json_number_value(b))
            return 1;
    }
    return 0;
}

/* A replay or a link recovery is an error with node action isolate (model/nvlink_errors.h:
   both are 0 on a sound link; linkscope health and a pasted nvidia-smi nvlink -e are judged
   the same). CRC counts with no replay and no recovery were corrected in the link layer:
   on the 2 x H200 machine the data-CRC counter rose by 20 to 50 per second under full
   NVLink load while replays and recoveries stayed at 0, so that alone is information, not
   a fault. */
static void nvlink_error_finding(int g, const nvlink_rise_t *r, json_t *evidence, json_t *out)
{
    enum ls_action a = ls_nvlink_errors_action(r->replay, r->recovery);
    if (a != LS_ACT_NONE) {
        ls_finding_add(out, "nvlink_errors", ls_action_severity(a), LS_ABOUT_GPU(g), evidence,
                       "GPU%d NVLink errors rose during measurements: %.0f recoveries, %.0f "
                       "replays, %.0f CRC (0 on a sound link; a reset clears the counters, not "
                       "the fault): check nvidia-smi nvlink -e and the link's cabling/board",
                       g, r->recovery, r->replay, r->crc);
        last_action(out, a);
    } else
        ls_finding_add(out, "nvlink_errors", LS_SEV_INFO, LS_ABOUT_GPU(g), evidence,
                       "GPU%d NVLink CRC counters rose by %.0f during measurements with no replay "
                       "or recovery (corrected in the link layer); watch the trend with "
                       "nvidia-smi nvlink -e",
                       g, r->crc);
}

/* GPU index of a telemetry key ("3"), -1 when the key is no canonical index. */
static int gpu_key(const char *key)
{
    int g = 0;
    for (const char *p = key; *p || p == key; p++) { /* digits only: no sign, no space */
        if (*p < '0' || *p > '9' || (g = g * 10 + (*p - '0')) >= LS_MAX_GPUS)
            return -1;
    }
    return key[0] == '0' && key[1] ? -1 : g; /* "03" is no canonical index */
}

/* One pass over the entries and each entry's GPU keys (linear in entries): the entries
   over which a GPU's counters rose, and each counter's spans. */
static void nvlink_errors(const ls_machine_t *m, json_t *out)
{
    json_t *evidence[LS_MAX_GPUS] = {0};
    spans_t spans[LS_MAX_GPUS][NVLINK_COUNTERS];
    memset(spans, 0, sizeof spans);
    LS_DOC_FOREACH(e, m->doc, NULL)
    {
        const json_t *t = json_object_get(e.json, "telemetry");
        const json_t *before = json_object_get(t, "nvlink_errors_before");
        const char *key;
        json_t *after;
        json_object_foreach(json_object_get(t, "nvlink_errors_after"), key, after) {
            int g = gpu_key(key); /* telemetry is keyed by GPU index */
            const json_t *was = json_object_get(before, key);
            if (g < 0 || !rose(was, after))
                continue;
            if (!evidence[g])
                evidence[g] = json_array();
            json_array_append_new(evidence[g], json_string(e.id));
            add_spans(was, after, spans[g]);
        }
    }
    for (int g = 0; g < LS_MAX_GPUS; g++) {
        if (evidence[g]) {
            nvlink_rise_t r = {counter_rise(&spans[g][0]) + counter_rise(&spans[g][1]),
                               counter_rise(&spans[g][2]), counter_rise(&spans[g][3])};
            nvlink_error_finding(g, &r, evidence[g], out);
        }
        for (int c = 0; c < NVLINK_COUNTERS; c++)
            free(spans[g][c].span);
    }
}

/* ECC mode off (nvidia-smi -q's "Ecc Mode / Current: Disabled", NVML's ECC mode) on a part
   whose memory is HBM (ls_part_ecc_free): a setting, not a fault, but one that hides what
   the ECC rules read. GDDR parts and parts not in the datasheet stay quiet (there off may
   be the trade the owner chose; unknown is not guessed). Same id and meaning as linkscope
   health's ecc_off. */
static void ecc_off(const ls_machine_t *m, json_t *out)
{
    for (int g = 0; g < m->ngpus; g++) {
        const json_t *ecc = json_object_get(m->gpu[g], "ecc");
        const ls_spec_row_t *part = ls_part_of(m, g);
        if (!json_is_false(json_object_get(ecc, "enabled")) || !ls_part_ecc_free(part))
            continue;
        char path[48];
        snprintf(path, sizeof path, "gpus[%d].ecc", g);
        ls_finding_add(out, "ecc_off", LS_SEV_WARNING, LS_ABOUT_GPU(g), json_pack("[s]", path),
                       "GPU%d (%s, %s memory): ECC is off. On HBM, ECC costs no capacity or "
                       "bandwidth, so off only hides memory errors: they are neither corrected "
                       "nor counted, and the ECC counts and row remapping say nothing of this "
                       "GPU. A setting, not a fault: no node action; next: `nvidia-smi -i %d -e "
                       "1` and a GPU reset, unless it was turned off on purpose",
                       g, ls_json_str(m->gpu[g], "name", part->key), part->memory_type, g);
        last_action(out, LS_ACT_NONE);
    }
}

void ls_rules_gpus(const ls_machine_t *m, json_t *out)
{
    ecc_off(m, out);
    hbm_outliers(m, out);
    power_limits(m, out);
    throttling(m, out);
    throttled_now(m, out);
    ecc_errors(m, out);
    nvlink_errors(m, out);
    ls_rule_nvlink_counts(m, out);
}
