/* The probe's findings (health.h, docs/health.md "The probe"): its figures against
   their hardware ceilings by the run's own floors (analyze/ceiling.h ls_ceiling_floor),
   its copies' verification and its all_reduce's #wrong, each with an action. */
#include "health.h"

#include "analyze/ceiling.h"
#include "model/cuda_errors.h"

#include <stdio.h>
#include <string.h>

/* This many figures of one kind below their floor make one finding (a whole board at
   part speed), as the run's below_ceiling rule groups them. */
#define PROBE_GROUP 4

static const char *str(const json_t *o, const char *key, const char *fallback)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : fallback;
}

static double num(const json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

static int is(const json_t *o, const char *key, const char *want)
{
    return strcmp(str(o, key, ""), want) == 0;
}

/* "GPU0->GPU1 copy-engine copy", "GPU3 HBM copy" */
static void subject(const json_t *f, char *buf, size_t len)
{
    if (is(f, "kind", "p2p_ce"))
        snprintf(buf, len, "GPU%lld->GPU%lld copy-engine copy", (long long)num(f, "src"),
                 (long long)num(f, "dst"));
    else
        snprintf(buf, len, "GPU%lld HBM copy", (long long)num(f, "gpu"));
}

static int gpu_of(const json_t *f)
{
    return is(f, "kind", "hbm_copy") ? (int)num(f, "gpu") : (int)num(f, "src");
}

/* A copy that failed, was not verified or gave wrong words: the data path cannot be
   trusted (isolate). A copy skipped (nothing to measure) is not judged. */
static int copy_failed(const json_t *f, json_t *out)
{
    const json_t *v = json_object_get(f, "verified");
    if (is(f, "status", "skipped") || (is(f, "status", "ok") && !json_is_false(v)))
        return 0;
    char s[96];
    subject(f, s, sizeof s);
    ls_health_add(out, "probe_copy", gpu_of(f), LS_ACT_ISOLATE, "%s %s: %s", s,
                  json_is_false(v) ? "failed verification" : "failed",
                  str(f, "error", str(f, "status", "failed")));
    return 1;
}

/* The share of its ceiling below which a figure is judged, 0 where it is not (ceiling
   unknown, or a path the run does not judge). */
static double floor_of(const json_t *f)
{
    if (num(f, "ceiling_gbps") <= 0 || num(f, "gbps") <= 0)
        return 0;
    for (int p = LS_PATH_UNKNOWN; p <= LS_PATH_NCCL_HOST; p++)
        if (is(f, "path", ls_path_name((enum ls_path)p)))
            return ls_ceiling_floor((enum ls_path)p);
    return 0;
}

/* Below its floor: watch. A copy-engine pair below half its floor (as the run's
   below_ceiling error) is a link at a fraction of its links or lanes: isolate, unless
   its ceiling is only the part's (the slot's wiring unknown). HBM: watch (clocks,
   power, heat hold it down as often as the memory). */
static enum ls_action below_action(const json_t *f)
{
    double ratio = num(f, "gbps") / num(f, "ceiling_gbps"), floor = floor_of(f);
    if (ratio >= floor)
        return LS_ACT_NONE;
    int assumed = strstr(str(f, "basis", ""), "assumed from the part") != NULL;
    if (is(f, "kind", "p2p_ce") && ratio < floor / 2 && !assumed)
        return LS_ACT_ISOLATE;
    return LS_ACT_WATCH;
}

static void below_one(const json_t *f, enum ls_action a, json_t *out)
{
    char s[96];
    subject(f, s, sizeof s);
    ls_health_add(out, is(f, "kind", "p2p_ce") ? "probe_p2p" : "probe_hbm", gpu_of(f), a,
                  "%s %.1f GB/s is %.0f%% of its %s ceiling %.1f GB/s (%s; healthy: at least "
                  "%.0f%%)",
                  s, num(f, "gbps"), 100 * num(f, "gbps") / num(f, "ceiling_gbps"),
                  str(f, "path", "?"), num(f, "ceiling_gbps"), str(f, "basis", ""),
                  100 * floor_of(f));
}

/* Every figure of one kind below its floor: one finding each, or one for the lot. */
static void below_kind(const json_t *figures, const char *kind, json_t *out)
{
    const json_t *worst = NULL, *f;
    enum ls_action act = LS_ACT_NONE;
    int count = 0, total = 0;
    size_t i;
    json_array_foreach(figures, i, f) {
        if (!is(f, "kind", kind) || !is(f, "status", "ok") || floor_of(f) <= 0)
            continue;
        total++;
        enum ls_action a = below_action(f);
        if (a == LS_ACT_NONE)
            continue;
        count++;
        if (!worst || num(f, "gbps") / num(f, "ceiling_gbps") <
                          num(worst, "gbps") / num(worst, "ceiling_gbps"))
            worst = f;
        act = a > act ? a : act;
    }
    if (count == 0)
        return;
    if (count < PROBE_GROUP) {
        json_array_foreach(figures, i, f)
            if (is(f, "kind", kind) && is(f, "status", "ok") && floor_of(f) > 0 &&
                below_action(f) != LS_ACT_NONE)
                below_one(f, below_action(f), out);
        return;
    }
    char s[96];
    subject(worst, s, sizeof s);
    ls_health_add(out, strcmp(kind, "p2p_ce") ? "probe_hbm" : "probe_p2p", -1, act,
                  "%d of %d %s figures below %.0f%% of their ceilings (worst %s %.1f of %.1f GB/s)",
                  count, total, strcmp(kind, "p2p_ce") ? "HBM copy" : "copy-engine",
                  100 * floor_of(worst), s, num(worst, "gbps"), num(worst, "ceiling_gbps"));
}

/* Wrong results are data corruption on the path (isolate); a collective that errors
   or times out says as much of the software (NCCL's environment, shared memory in a
   container) as of the hardware, which the copies judge: watch. */
static void all_reduce(const json_t *f, json_t *out)
{
    long long wrong = (long long)num(f, "wrong");
    double mib = num(f, "bytes") / (1024.0 * 1024.0);
    if (wrong > 0)
        ls_health_add(out, "probe_all_reduce", -1, LS_ACT_ISOLATE,
                      "all_reduce of %.0f MiB on %zu GPUs: %lld wrong elements", mib,
                      json_array_size(json_object_get(f, "gpus")), wrong);
    else if (!is(f, "status", "ok"))
        ls_health_add(out, "probe_all_reduce", -1, LS_ACT_WATCH,
                      "all_reduce of %.0f MiB on %zu GPUs %s: %s", mib,
                      json_array_size(json_object_get(f, "gpus")), str(f, "status", "failed"),
                      str(f, "error", "no reason given"));
}

/* 1 when figures hold one of this kind. */
static int has_kind(const json_t *figures, const char *kind)
{
    size_t i;
    const json_t *f;
    json_array_foreach(figures, i, f)
        if (is(f, "kind", kind))
            return 1;
    return 0;
}

/* CUDA could not start (the step "probe: GPUs", its note cudaGetDeviceCount's error
   string): the error named from the CUDA error catalog (model/cuda_errors.c, the one
   import reads pasted errors with) and given its node action there (802, Fabric Manager
   not running on an NVSwitch machine: isolate); an error whose fault the catalog cannot
   tell (999, unknown error), or a note without one, stays watch. */
static void cuda_failed(const json_t *step, json_t *out)
{
    const char *note = str(step, "note", "no reason given");
    size_t at, len;
    const ls_cuda_error_t *ce = ls_cuda_error_in_text(note, LS_CE_STRINGS, 8, &at, &len);
    if (!ce) {
        ls_health_add(out, "probe_gpus", -1, LS_ACT_WATCH, "probe: GPUs failed: %s", note);
        return;
    }
    ls_health_add(out, "probe_gpus", -1,
                  ce->action >= 0 ? (enum ls_action)ce->action : LS_ACT_WATCH,
                  "probe: GPUs failed: %s: CUDA error %d %s, %s (%.200s)", note, ce->code,
                  ce->runtime, ce->meaning, ce->cause);
}

/* A step that failed before it had a figure to judge (CUDA finds no GPU the driver
   shows, NCCL could not start): the node may not run a job, but the cause is as likely
   the software's as the hardware's: watch, with the step's reason. */
static void step_failed(const json_t *figures, const json_t *step, json_t *out)
{
    static const struct {
        const char *step, *kind, *rule;
    } steps[] = {
        {.step = "probe: GPUs", .kind = "", .rule = "probe_gpus"},
        {.step = "probe: p2p", .kind = "p2p_ce", .rule = "probe_p2p"},
        {.step = "probe: all_reduce", .kind = "all_reduce", .rule = "probe_all_reduce"},
        {.step = "probe: hbm", .kind = "hbm_copy", .rule = "probe_hbm"},
    };
    const char *name = str(step, "step", "");
    if (!is(step, "status", "failed"))
        return;
    if (!strcmp(name, "probe: GPUs")) {
        cuda_failed(step, out);
        return;
    }
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
        if (!strncmp(name, steps[k].step, strlen(steps[k].step)) &&
            (!*steps[k].kind || !has_kind(figures, steps[k].kind)))
            ls_health_add(out, steps[k].rule, -1, LS_ACT_WATCH, "%s failed: %s", name,
                          str(step, "note", "no reason given"));
}

json_t *ls_health_probe_findings(const json_t *probe)
{
    json_t *out = json_array();
    const json_t *figures = json_object_get(probe, "figures"), *f;
    size_t i;
    json_array_foreach(figures, i, f) {
        if (is(f, "kind", "all_reduce"))
            all_reduce(f, out);
        else
            copy_failed(f, out);
    }
    json_array_foreach(json_object_get(probe, "steps"), i, f)
        step_failed(figures, f, out);
    below_kind(figures, "p2p_ce", out);
    below_kind(figures, "hbm_copy", out);
    const char *running = str(probe, "running", NULL);
    if (running) /* cut off at the cap: slow, or hung (a hung GPU leaves an XID) */
        ls_health_add(out, "probe_budget", -1, LS_ACT_WATCH, "%s did not finish within the budget",
                      running);
    return out;
}
