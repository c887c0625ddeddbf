/* Findings of the sustained-load family (docs/acceptance.md "burn"): throttling and its
   cause, power that never reaches the limit (DCGM's targeted power criterion),
   throughput that sags after the first seconds, a GPU behind its peers, a fault in the
   repeated product. */
#include "burn_rules.h"
#include "rules.h"
#include "spec.h"
#include "model/doc.h"
#include "util/stats.h"

#include <stdio.h>
#include <string.h>

static const json_t *burn_of(const json_t *e)
{
    return json_object_get(e, "burn");
}

static int is_burn(const json_t *e)
{
    return strcmp(ls_json_str(e, "family", ""), "burn") == 0 && json_is_object(burn_of(e));
}

/* A burn finding is about the GPU the load ran on. */
static ls_about_t burn_gpu(const json_t *e)
{
    return LS_ABOUT_GPU(ls_json_int(e, "gpu", -1));
}

/* Thermal reasons first, then the hardware brake, then the power cap. */
static void throttle_findings(const json_t *e, const char *subject, json_t *out)
{
    const json_t *b = burn_of(e), *ev;
    size_t i;
    double temp = ls_json_num(b, "temp_max_c", -1);
    json_array_foreach(json_object_get(b, "throttle_events"), i, ev) {
        const char *r = ls_json_str(ev, "reason", "");
        double first = ls_json_num(ev, "first_s", 0), share = 100 * ls_json_num(ev, "share", 0);
        json_t *evidence = json_pack("[s]", ls_json_str(e, "id", ""));
        if (strstr(r, "thermal"))
            ls_finding_add(out, "burn_thermal", LS_SEV_WARNING, burn_gpu(e), evidence,
                           "%s: %s from %.1f s into the load (%.0f%% of samples), %.0f C reached: "
                           "check the airflow or coolant before accepting it",
                           subject, r, first, share, temp);
        else if (strcmp(r, "hw_slowdown") == 0 || strcmp(r, "hw_power_brake_slowdown") == 0)
            ls_finding_add(out, "burn_hw_slowdown", LS_SEV_ERROR, burn_gpu(e), evidence,
                           "%s: %s from %.1f s into the load (%.0f%% of samples): the board or "
                           "the power supply pulled the clocks down (power brake, PSU or "
                           "temperature sensor)",
                           subject, r, first, share);
        else if (strcmp(r, "sw_power_cap") == 0)
            ls_finding_add(out, "burn_power_cap", LS_SEV_INFO, burn_gpu(e), evidence,
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
    const json_t *gpu = ls_doc_gpu(doc, ls_json_int(e, "gpu", -1));
    double limit = ls_json_num(json_object_get(gpu, "power"), "limit_w", 0);
    double reached = ls_json_num(b, "power_max_w", 0);
    if (strcmp(ls_json_str(b, "method", ""), "gemm_bf16") != 0 || limit <= 0 || reached <= 0)
        return;
    if (reached < LS_BURN_POWER_SHARE * limit)
        ls_finding_add(out, "burn_power_low", LS_SEV_WARNING, burn_gpu(e),
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
        ls_finding_add(out, "burn_sag", LS_SEV_WARNING, burn_gpu(e),
                       json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: %.0f TFLOP/s sustained after %.0f TFLOP/s in the first seconds "
                       "(%.0f%%): "
                       "the load pulled clocks down over time",
                       subject, ls_json_num(b, "sustained_tflops", 0),
                       ls_json_num(b, "first_tflops", 0), 100 * ratio);
}

static void fault_finding(const json_t *e, const char *subject, json_t *out)
{
    long long wrong = ls_json_int(burn_of(e), "wrong", 0);
    if (wrong > 0)
        ls_finding_add(out, "burn_fault", LS_SEV_ERROR, burn_gpu(e),
                       json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: the repeated product differed from the first in %lld words: a compute "
                       "or memory fault under load",
                       subject, wrong);
}

double ls_burn_sm_mhz_held(const json_t *doc, long long g)
{
    double held = 0;
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        double mhz = ls_json_num(burn_of(e), "sm_mhz_sustained", 0);
        if (is_burn(e) && ls_json_int(e, "gpu", -1) == g && mhz > 0 && (held == 0 || mhz < held))
            held = mhz;
    }
    return held;
}

/* The throttle reasons a burn entry saw, "a, b" ("none recorded" when none). */
static void reasons_seen(const json_t *e, char *text, size_t len)
{
    size_t i, used = 0;
    const json_t *ev;
    text[0] = '\0';
    json_array_foreach(json_object_get(burn_of(e), "throttle_events"), i, ev) {
        int n = snprintf(text + used, len - used, "%s%s", used ? ", " : "",
                         ls_json_str(ev, "reason", "?"));
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
    if (!used)
        snprintf(text, len, "none recorded");
}

/* NVIDIA's GPU Boost promises every workload at least the base clock within the power
   target (docs/acceptance.md, "base clock"): a sustained SM clock below the base clock of
   the part's product brief is a part, a power limit or a cooling that does not deliver
   what was bought. Parts without a sourced base clock are left alone (unknown). */
static void base_clock_finding(const json_t *doc, const json_t *e, const ls_datasheet_t *ds,
                               const char *subject, json_t *out)
{
    const json_t *gpu = ls_doc_gpu(doc, ls_json_int(e, "gpu", -1));
    const ls_spec_row_t *r = gpu ? ls_datasheet_row_of(ds, gpu) : NULL;
    double held = ls_json_num(burn_of(e), "sm_mhz_sustained", 0);
    if (!r || r->base_mhz <= 0 || held <= 0 || held >= r->base_mhz)
        return;
    const json_t *power = json_object_get(gpu, "power");
    double limit = ls_json_num(power, "limit_w", 0),
           rated = ls_json_num(power, "default_limit_w", 0);
    char reasons[160], cause[96] = "";
    reasons_seen(e, reasons, sizeof reasons);
    if (limit > 0 && rated > 0 && limit < rated)
        snprintf(cause, sizeof cause, "; its power limit is set to %.0f W of the default %.0f W",
                 limit, rated);
    ls_finding_add(out, "burn_below_base", LS_SEV_WARNING, burn_gpu(e),
                   json_pack("[s]", ls_json_str(e, "id", "")),
                   "%s: SM clock held %.0f MHz under sustained load (median of the second half), "
                   "below "
                   "the %s's %d MHz base clock, the minimum NVIDIA promises within the power "
                   "limit; "
                   "throttle reasons seen: %s%s",
                   subject, held, r->key, r->base_mhz, reasons, cause);
}

/* A GPU whose sustained throughput is below LS_BURN_PEER_RATIO of the median of the
   others of the same method (two or more GPUs). */
static void peer_findings(const json_t *list, json_t *out)
{
    size_t i, j;
    const json_t *e, *f;
    json_array_foreach(list, i, e) {
        if (!is_burn(e) || ls_json_num(e, "value", 0) <= 0)
            continue;
        double others[LS_MAX_GPUS];
        int n = 0;
        json_array_foreach(list, j, f)
            if (j != i && is_burn(f) && n < LS_MAX_GPUS && ls_json_num(f, "value", 0) > 0 &&
                strcmp(ls_json_str(f, "method", ""), ls_json_str(e, "method", "")) == 0)
                others[n++] = ls_json_num(f, "value", 0);
        ls_stats_t s = ls_stats(others, (size_t)n);
        double v = ls_json_num(e, "value", 0);
        if (n == 0 || v >= LS_BURN_PEER_RATIO * s.median)
            continue;
        char subject[32];
        snprintf(subject, sizeof subject, "GPU %lld", ls_json_int(e, "gpu", -1));
        ls_finding_add(out, "burn_behind", LS_SEV_WARNING, burn_gpu(e),
                       json_pack("[s]", ls_json_str(e, "id", "")),
                       "%s: %.0f TFLOP/s sustained, %.0f%% of the other GPUs' median %.0f", subject,
                       v, 100 * v / s.median, s.median);
    }
}

void ls_rules_burn(const json_t *doc, json_t *out)
{
    const json_t *list = json_object_get(doc, "measurements"), *e;
    size_t i;
    ls_datasheet_t ds = {0};
    char err[160];
    int have_ds = 0;
    json_array_foreach(list, i, e) {
        if (!is_burn(e))
            continue;
        char subject[32];
        snprintf(subject, sizeof subject, "GPU %lld", ls_json_int(e, "gpu", -1));
        fault_finding(e, subject, out);
        throttle_findings(e, subject, out);
        power_finding(doc, e, subject, out);
        sag_finding(e, subject, out);
        if (!have_ds)
            have_ds = ls_datasheet_builtin(&ds, err, sizeof err) == 0 ? 1 : -1;
        if (have_ds > 0)
            base_clock_finding(doc, e, &ds, subject, out);
    }
    if (have_ds > 0)
        ls_datasheet_free(&ds);
    peer_findings(list, out);
}
