/* Findings of the sustained-load family (docs/acceptance.md "burn"): throttling and its
   cause, power that never reaches the limit (DCGM's targeted power criterion),
   throughput that sags after the first seconds, a GPU behind its peers, a fault in the
   repeated product. */
#include "burn_rules.h"
#include "rules.h"
#include "model/doc.h"
#include "util/stats.h"

#include <stdio.h>
#include <string.h>

static const json_t *burn_of(const json_t *e) { return json_object_get(e, "burn"); }

static int is_burn(const json_t *e)
{
    return strcmp(ls_json_str(e, "family", ""), "burn") == 0 && json_is_object(burn_of(e));
}

static const json_t *gpu_object(const json_t *doc, long long g)
{
    size_t i;
    const json_t *gpu;
    json_array_foreach(json_object_get(doc, "gpus"), i, gpu) if (ls_json_int(gpu, "index", -1) == g) return gpu;
    return NULL;
}

/* Thermal reasons first, then the hardware brake, then the power cap. */
static void throttle_findings(const json_t *e, const char *subject, json_t *out)
{
    const json_t *b = burn_of(e), *ev;
    size_t i;
    double temp = ls_json_num(b, "temp_max_c", -1);
    json_array_foreach(json_object_get(b, "throttle_events"), i, ev)
    {
        const char *r = ls_json_str(ev, "reason", "");
        double first = ls_json_num(ev, "first_s", 0), share = 100 * ls_json_num(ev, "share", 0);
        json_t *evidence = json_pack("[s]", ls_json_str(e, "id", ""));
        if (strstr(r, "thermal"))
            ls_finding_add(out, "burn_thermal", LS_SEV_WARNING, subject, evidence,
                           "%s: %s from %.1f s into the load (%.0f%% of samples), %.0f C reached: "
                           "check the airflow or coolant before accepting it",
                           subject, r, first, share, temp);
        else if (strcmp(r, "hw_slowdown") == 0 || strcmp(r, "hw_power_brake_slowdown") == 0)
            ls_finding_add(out, "burn_hw_slowdown", LS_SEV_ERROR, subject, evidence,
                           "%s: %s from %.1f s into the load (%.0f%% of samples): the board or "
                           "the power supply pulled the clocks down (power brake, PSU or "
                           "temperature sensor)",
                           subject, r, first, share);
        else if (strcmp(r, "sw_power_cap") == 0)
            ls_finding_add(out, "burn_power_cap", LS_SEV_INFO, subject, evidence,
                           "%s: held at its power limit from %.1f s (%.0f%% of samples); SM clock "
                           "%.0f MHz sustained at %.0f W: what the part does at its rating",
                           subject, first, share, ls_json_num(b, "sm_mhz_sustained", 0),
                           ls_json_num(b, "power_sustained_w", 0));
        else
            json_decref(evidence);
    }
}

/* DCGM's targeted power test passes when the board reaches 75% of its target power (by
   default the power limit) under sustained GEMMs; the FMA kernel is not a power load. */
static void power_finding(const json_t *doc, const json_t *e, const char *subject, json_t *out)
{
    const json_t *b = burn_of(e);
    const json_t *gpu = gpu_object(doc, ls_json_int(e, "gpu", -1));
    double limit = ls_json_num(json_object_get(gpu, "power"), "limit_w", 0);
    double reached = ls_json_num(b, "power_max_w", 0);
    if (strcmp(ls_json_str(b, "method", ""), "gemm_bf16") != 0 || limit <= 0 || reached <= 0)
        return;
    if (reached < LS_BURN_POWER_SHARE * limit)
        ls_finding_add(out, "burn_power_low", LS_SEV_WARNING, subject,
                       json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: drew at most %.0f W of its %.0f W limit under sustained GEMMs (%.0f%%; "
                       "DCGM's targeted power test fails below %.0f%%)",
                       subject, reached, limit, 100 * reached / limit, 100 * LS_BURN_POWER_SHARE);
}

static void sag_finding(const json_t *e, const char *subject, json_t *out)
{
    const json_t *b = burn_of(e);
    double ratio = ls_json_num(b, "sustained_ratio", 0);
    if (ratio > 0 && ratio < LS_BURN_SAG_RATIO)
        ls_finding_add(out, "burn_sag", LS_SEV_WARNING, subject, json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: %.0f TFLOP/s sustained after %.0f TFLOP/s in the first seconds (%.0f%%): "
                       "the load pulled clocks down over time",
                       subject, ls_json_num(b, "sustained_tflops", 0), ls_json_num(b, "first_tflops", 0),
                       100 * ratio);
}

static void fault_finding(const json_t *e, const char *subject, json_t *out)
{
    long long wrong = ls_json_int(burn_of(e), "wrong", 0);
    if (wrong > 0)
        ls_finding_add(out, "burn_fault", LS_SEV_ERROR, subject, json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: the repeated product differed from the first in %lld words: a compute "
                       "or memory fault under load",
                       subject, wrong);
}

/* A GPU whose sustained throughput is below LS_BURN_PEER_RATIO of the median of the
   others of the same method (two or more GPUs). */
static void peer_findings(const json_t *list, json_t *out)
{
    size_t i, j;
    const json_t *e, *f;
    json_array_foreach(list, i, e)
    {
        if (!is_burn(e) || ls_json_num(e, "value", 0) <= 0)
            continue;
        double others[LS_MAX_GPUS];
        int n = 0;
        json_array_foreach(list, j, f) if (j != i && is_burn(f) && n < LS_MAX_GPUS &&
                                           ls_json_num(f, "value", 0) > 0 &&
                                           strcmp(ls_json_str(f, "method", ""), ls_json_str(e, "method", "")) == 0)
            others[n++] = ls_json_num(f, "value", 0);
        ls_stats_t s = ls_stats(others, (size_t)n);
        double v = ls_json_num(e, "value", 0);
        if (n == 0 || v >= LS_BURN_PEER_RATIO * s.median)
            continue;
        char subject[32];
        snprintf(subject, sizeof subject, "GPU %lld", ls_json_int(e, "gpu", -1));
        ls_finding_add(out, "burn_behind", LS_SEV_WARNING, subject, json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: %.0f TFLOP/s sustained, %.0f%% of the other GPUs' median %.0f",
                       subject, v, 100 * v / s.median, s.median);
    }
}

void ls_rules_burn(const json_t *doc, json_t *out)
{
    const json_t *list = json_object_get(doc, "measurements"), *e;
    size_t i;
    json_array_foreach(list, i, e)
    {
        if (!is_burn(e))
            continue;
        char subject[32];
        snprintf(subject, sizeof subject, "GPU %lld", ls_json_int(e, "gpu", -1));
        fault_finding(e, subject, out);
        throttle_findings(e, subject, out);
        power_finding(doc, e, subject, out);
        sag_finding(e, subject, out);
    }
    peer_findings(list, out);
}
