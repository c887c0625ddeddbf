/* GPU rules: HBM efficiency outliers, power limit below default, throttling during a
   measurement, ECC errors, NVLink error counters rising while measuring. */
#include "rules.h"
#include "model/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hbm_outliers(const ls_machine_t *m, json_t *out)
{
    double eff[LS_MAX_GPUS], vals[LS_MAX_GPUS];
    int n = 0;
    for (int g = 0; g < m->ngpus; g++) {
        eff[g] = m->hbm[g] > 0 && m->hbm_theoretical[g] > 0 ? m->hbm[g] / m->hbm_theoretical[g] : 0;
        if (eff[g] > 0)
            vals[n++] = eff[g];
    }
    if (n < LS_HBM_MIN_GPUS)
        return;
    double med = ls_median(vals, n);
    for (int g = 0; g < m->ngpus; g++) {
        if (eff[g] <= 0 || eff[g] >= LS_HBM_OUTLIER_RATIO * med)
            continue;
        char subject[16];
        snprintf(subject, sizeof subject, "GPU%d", g);
        ls_finding_add(out, "hbm_efficiency", LS_SEV_WARNING, subject, json_pack("[s]", m->hbm_id[g]),
                       "GPU%d %s: HBM %.1f of %.1f GB/s theoretical (%.0f%%), while the GPUs' median is %.0f%%",
                       g, ls_machine_gpu_name(m, g), m->hbm[g], m->hbm_theoretical[g], 100 * eff[g],
                       100 * med);
    }
}

static void power_limits(const ls_machine_t *m, json_t *out)
{
    for (int g = 0; g < m->ngpus; g++) {
        const json_t *p = json_object_get(m->gpu[g], "power");
        double limit = ls_json_num(p, "limit_w", 0), def = ls_json_num(p, "default_limit_w", 0);
        if (limit <= 0 || def <= 0 || limit >= LS_POWER_TOLERANCE * def)
            continue;
        char subject[16], path[48];
        snprintf(subject, sizeof subject, "GPU%d", g);
        snprintf(path, sizeof path, "gpus[%d].power", g);
        ls_finding_add(out, "power_limit", LS_SEV_WARNING, subject, json_pack("[s]", path),
                       "GPU%d power limit %.0f W is below its default %.0f W: clocks and figures drop under load",
                       g, limit, def);
    }
}

/* Clock-event reasons that are not throttling. */
static int benign_reason(const char *r)
{
    return !strcmp(r, "gpu_idle") || !strcmp(r, "applications_clocks_setting") ||
           !strcmp(r, "display_clock_setting") || !strcmp(r, "none");
}

static void add_unique(json_t *array, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(array, i, v)
    {
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
        json_array_foreach(tr, k, r)
        {
            if (json_is_string(r) && !benign_reason(json_string_value(r)))
                add_unique(reasons, json_string_value(r)), hit = 1;
        }
        json_array_foreach(json_object_get(e, "flags"), k, r)
        {
            if (json_is_string(r) && !strcmp(json_string_value(r), "throttled"))
                hit = 1;
        }
        if (hit)
            json_array_append_new(evidence, json_string(ls_json_str(e, "id", "")));
    }
    if (json_array_size(evidence)) {
        char list[256] = "";
        size_t k;
        json_t *r;
        json_array_foreach(reasons, k, r)
        {
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", json_string_value(r));
        }
        ls_finding_add(out, "throttling", LS_SEV_WARNING, "measurements", json_incref(evidence),
                       "%zu measurement(s) ran while clocks were throttled (%s): their figures understate the hardware",
                       json_array_size(evidence), list[0] ? list : "flagged throttled");
    }
    json_decref(reasons);
    json_decref(evidence);
}

static void ecc_errors(const ls_machine_t *m, json_t *out)
{
    for (int g = 0; g < m->ngpus; g++) {
        const json_t *ecc = json_object_get(m->gpu[g], "ecc");
        long long unc = ls_json_int(ecc, "volatile_uncorrected", 0);
        long long cor = ls_json_int(ecc, "volatile_corrected", 0);
        char subject[16], path[48];
        snprintf(subject, sizeof subject, "GPU%d", g);
        snprintf(path, sizeof path, "gpus[%d].ecc", g);
        if (unc > 0)
            ls_finding_add(out, "ecc", LS_SEV_ERROR, subject, json_pack("[s]", path),
                           "GPU%d has %lld uncorrected ECC errors since the driver loaded: drain it and check "
                           "nvidia-smi -q -d ECC,PAGE_RETIREMENT", g, unc);
        else if (cor > 0)
            ls_finding_add(out, "ecc", LS_SEV_INFO, subject, json_pack("[s]", path),
                           "GPU%d has %lld corrected ECC errors since the driver loaded", g, cor);
    }
}

/* Rise of one GPU's NVLink error counters over one measurement, by kind. */
typedef struct {
    double crc, replay, recovery;
} nvlink_rise_t;

static void counter_rise(const json_t *before, const json_t *after, nvlink_rise_t *rise)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)after, key, v)
    {
        double d = json_number_value(v) - ls_json_num(before, key, json_number_value(v));
        if (!json_is_number(v) || d <= 0)
            continue;
        if (!strcmp(key, "recovery"))
            rise->recovery += d;
        else if (!strcmp(key, "replay"))
            rise->replay += d;
        else
            rise->crc += d; /* crc_flit, crc_data */
    }
}

/* A link recovery is an error; a replay a warning. CRC counts with no replay and no
   recovery were corrected in the link layer: on the 2 x H200 machine the data-CRC
   counter rose by 20 to 50 per second under full NVLink load while replays and
   recoveries stayed at 0, so that alone is information, not a fault. */
static void nvlink_error_finding(int g, const nvlink_rise_t *r, json_t *evidence, json_t *out)
{
    char subject[16];
    snprintf(subject, sizeof subject, "GPU%d", g);
    if (r->recovery > 0 || r->replay > 0)
        ls_finding_add(out, "nvlink_errors", r->recovery > 0 ? LS_SEV_ERROR : LS_SEV_WARNING,
                       subject, evidence,
                       "GPU%d NVLink errors rose during measurements: %.0f recoveries, %.0f "
                       "replays, %.0f CRC: check nvidia-smi nvlink -e and the link's cabling/board",
                       g, r->recovery, r->replay, r->crc);
    else
        ls_finding_add(out, "nvlink_errors", LS_SEV_INFO, subject, evidence,
                       "GPU%d NVLink CRC counters rose by %.0f during measurements with no replay "
                       "or recovery (corrected in the link layer); watch the trend with "
                       "nvidia-smi nvlink -e", g, r->crc);
}

static void nvlink_errors(const ls_machine_t *m, json_t *out)
{
    nvlink_rise_t rise[LS_MAX_GPUS];
    memset(rise, 0, sizeof rise);
    json_t *evidence[LS_MAX_GPUS] = {0};
    for (long i = ls_doc_next_measurement(m->doc, NULL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, NULL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i), *t = json_object_get(e, "telemetry");
        const json_t *before = json_object_get(t, "nvlink_errors_before");
        const char *key;
        const json_t *after;
        json_object_foreach((json_t *)json_object_get(t, "nvlink_errors_after"), key, after)
        {
            int g = atoi(key);
            if (g < 0 || g >= LS_MAX_GPUS)
                continue;
            nvlink_rise_t r = {0, 0, 0};
            counter_rise(json_object_get(before, key), after, &r);
            if (r.crc + r.replay + r.recovery <= 0)
                continue;
            rise[g].crc += r.crc, rise[g].replay += r.replay, rise[g].recovery += r.recovery;
            if (!evidence[g])
                evidence[g] = json_array();
            json_array_append_new(evidence[g], json_string(ls_json_str(e, "id", "")));
        }
    }
    for (int g = 0; g < LS_MAX_GPUS; g++)
        if (evidence[g])
            nvlink_error_finding(g, &rise[g], evidence[g], out);
}

void ls_rules_gpus(const ls_machine_t *m, json_t *out)
{
    hbm_outliers(m, out);
    power_limits(m, out);
    throttling(m, out);
    ecc_errors(m, out);
    nvlink_errors(m, out);
}
