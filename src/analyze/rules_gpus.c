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

/* Sum over counters of after - before for GPU key g; sets *recovery for that counter. */
static double counter_rise(const json_t *before, const json_t *after, double *recovery)
{
    const char *key;
    const json_t *v;
    double rise = 0;
    *recovery = 0;
    json_object_foreach((json_t *)after, key, v)
    {
        double d = json_number_value(v) - ls_json_num(before, key, json_number_value(v));
        if (json_is_number(v) && d > 0) {
            rise += d;
            if (!strcmp(key, "recovery"))
                *recovery += d;
        }
    }
    return rise;
}

static void nvlink_errors(const ls_machine_t *m, json_t *out)
{
    double rise[LS_MAX_GPUS] = {0}, recov[LS_MAX_GPUS] = {0};
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
            double r, d = counter_rise(json_object_get(before, key), after, &r);
            if (g < 0 || g >= LS_MAX_GPUS || d <= 0)
                continue;
            rise[g] += d, recov[g] += r;
            if (!evidence[g])
                evidence[g] = json_array();
            json_array_append_new(evidence[g], json_string(ls_json_str(e, "id", "")));
        }
    }
    for (int g = 0; g < LS_MAX_GPUS; g++) {
        if (!evidence[g])
            continue;
        char subject[16];
        snprintf(subject, sizeof subject, "GPU%d", g);
        ls_finding_add(out, "nvlink_errors", recov[g] > 0 ? LS_SEV_ERROR : LS_SEV_WARNING, subject,
                       evidence[g], "GPU%d NVLink error counters rose by %.0f during measurements (%.0f recoveries): "
                       "check nvidia-smi nvlink -e", g, rise[g], recov[g]);
    }
}

void ls_rules_gpus(const ls_machine_t *m, json_t *out)
{
    hbm_outliers(m, out);
    power_limits(m, out);
    throttling(m, out);
    ecc_errors(m, out);
    nvlink_errors(m, out);
}
