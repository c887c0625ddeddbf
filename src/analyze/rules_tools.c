/* What other tools' results mean (tools_rules.h): a DCGM diagnostic's failures and
   passes, stragglers in nccl-tests' per-iteration data, NCCL RAS states, and a job's
   Inspector records against this machine's own measured curve. */
#include "rules.h"
#include "tools_rules.h"
#include "model/doc.h"
#include "model/gpuset.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DCGM's own severity of an error (dcgm_errors.h dcgmErrorSeverity_t): what it says to
   do with the GPU. */
static const char *dcgm_severity_name(long long sev)
{
    static const char *const names[] = {"none",   "monitor",       "isolate",        "unknown",
                                        "triage", "configuration", "drain and reset"};
    return sev >= 0 && sev < 7 ? names[sev] : NULL;
}

/* The node action a DCGM refusal's fault asks for (import/dcgm_error.c): a lost GPU needs
   the node rebooted, "GPU requires reset" a reset, a refusal without a fault (MIG, the
   host engine not reached) none; NULL where the text does not say (the driver not
   reached through NVML: nvidia-smi says more). */
static const char *not_run_action(const char *fault)
{
    return !strcmp(fault, "gpu_lost") ? "reboot"
           : !strcmp(fault, "reset")  ? "reset"
           : !strcmp(fault, "none")   ? "none"
                                      : NULL;
}

/* The diagnostic did not run: never a pass, and no verdict on the GPUs. A refusal
   imported with its meaning ("not_run") is a warning unless it shows a node fault (a lost
   GPU, a reset asked for, the driver not reached: then an error about that); a
   runtime_error not known stays an error, as DCGM reports it. */
static void dcgm_not_run(json_t *out, const json_t *d)
{
    const json_t *why = json_object_get(d, "not_run");
    const char *fault = ls_json_str(why, "fault", "none");
    int faulty = !why || strcmp(fault, "none") != 0;
    ls_finding_add(out, "dcgm_runtime_error", faulty ? LS_SEV_ERROR : LS_SEV_WARNING,
                   LS_ABOUT_WHAT(!strcmp(fault, "driver") ? "NVIDIA driver" : "DCGM diagnostic"),
                   NULL, "DCGM diagnostic did not run (\"%s\")%s%s%s",
                   ls_json_str(d, "runtime_error", ""), why ? ": " : "",
                   ls_json_str(why, "meaning", ""),
                   json_array_size(json_object_get(d, "tests"))
                       ? ""
                       : "; no test passed or failed, so the GPUs' health is unknown (not "
                         "healthy)");
    const char *action = why ? not_run_action(fault) : NULL;
    if (action)
        json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                            json_string(action));
}

/* The node action of a failed or warned result. DCGM's own severity where the output
   gives it (dcgm_errors.h dcgmErrorSeverity_t: monitor watch, configuration none, isolate
   and triage isolate, drain and reset reset). Without it (dcgmi's text, 2.x JSON): a
   pending row remap (DCGM_FR_PENDING_ROW_REMAP's text, "... row remappings are pending")
   is reset, as linkscope health's remap_pending and plan's ecc rule judge it (NVIDIA's
   memory error management: the remap is applied at the next GPU reset; DCGM 4.x rates it
   drain and reset); another failed test is isolate (the GPU failed DCGM's acceptance
   test: drained until its message's next step is done and the diagnostic passes); a
   failed Deployment check none, since its row is often a setting (persistence mode,
   environment variables, graphics processes: 2.x and 3.x print a warned check as Fail)
   and the text does not say which; a warned result watch. */
static const char *dcgm_action(const json_t *test, long long sev, const char *msg, int fail)
{
    static const char *const by_sev[] = {NULL,      "watch", "isolate", "isolate",
                                         "isolate", "none",  "reset"};
    if (!fail)
        return "watch";
    if (sev >= 1 && sev < 7)
        return by_sev[sev];
    if (strstr(msg, "row remappings are pending"))
        return "reset";
    return strcmp(ls_json_str(test, "category", ""), "Deployment") ? "isolate" : NULL;
}

/* A failed result is an error unless DCGM itself rates the problem as one the GPU can
   work with: DCGM_ERROR_MONITOR (1) or DCGM_ERROR_CONFIG (5, e.g. persistence mode off),
   then a warning; a warned result is a warning. */
static void dcgm_problem(json_t *out, const json_t *test, const json_t *result, const json_t *p,
                         int fail)
{
    char subject[128];
    ls_about_t about = LS_ABOUT_GPUS(ls_gpu_mask_of(json_object_get(result, "gpus")));
    ls_about_text(&about, subject, sizeof subject);
    /* dcgmi's "Fail - All" with no GPU count in the paste: every GPU, not an unknown one */
    if (!json_array_size(json_object_get(result, "gpus")) &&
        json_is_true(json_object_get(result, "all_gpus")))
        snprintf(subject, sizeof subject, "%s",
                 json_is_true(json_object_get(result, "summary"))
                     ? "the GPUs of the run (its row names none; how many is not in the paste)"
                     : "every GPU (\"All\"; how many is not in the paste)");
    char code[48] = "no error code";
    if (json_is_integer(json_object_get(p, "error_id")))
        snprintf(code, sizeof code, "DCGM error code %lld", ls_json_int(p, "error_id", 0));
    long long sev = ls_json_int(p, "severity", -1);
    const char *sev_name = dcgm_severity_name(sev);
    char sev_text[64] = "";
    if (sev_name)
        snprintf(sev_text, sizeof sev_text, ", DCGM severity: %s", sev_name);
    int workable = sev == 1 || sev == 5;
    ls_finding_add(out, "dcgm_failed", fail && !workable ? LS_SEV_ERROR : LS_SEV_WARNING, about,
                   NULL,
                   "DCGM diagnostic %s test %s on %s (%s%s): %s (the next step is DCGM's own, in "
                   "its message)",
                   ls_json_str(test, "name", "?"), fail ? "failed" : "warned", subject, code,
                   sev_text, ls_json_str(p, "message", ""));
    const char *action = dcgm_action(test, sev, ls_json_str(p, "message", ""), fail);
    if (action)
        json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                            json_string(action));
}

/* Passes are evidence: one line per diagnostic naming the tests that passed. */
static void dcgm_one(json_t *out, const json_t *d)
{
    char passed[512] = "";
    size_t used = 0;
    int npass = 0;
    size_t i, j, k;
    const json_t *t, *r, *p;
    json_array_foreach(json_object_get(d, "tests"), i, t) {
        int test_pass = 0, test_bad = 0;
        json_array_foreach(json_object_get(t, "results"), j, r) {
            const char *st = ls_json_str(r, "status", "");
            int fail = strcmp(st, "fail") == 0,
                warn = strcmp(st, "warn") == 0 || strcmp(st, "warning") == 0;
            test_pass |= strcmp(st, "pass") == 0;
            test_bad |= fail || warn;
            json_array_foreach(json_object_get(r, "problems"), k, p) {
                if (fail || warn)
                    dcgm_problem(out, t, r, p, fail);
            }
            if ((fail || warn) && json_array_size(json_object_get(r, "problems")) == 0) {
                json_t *none = json_pack("{s:s}", "message", "DCGM gave no message");
                dcgm_problem(out, t, r, none, fail);
                json_decref(none);
            }
        }
        if (test_pass && !test_bad && used < sizeof passed) {
            used += (size_t)snprintf(passed + used, sizeof passed - used, "%s%s", npass ? ", " : "",
                                     ls_json_str(t, "name", "?"));
            npass++;
        }
    }
    if (npass)
        ls_finding_add(out, "dcgm_passed", LS_SEV_INFO, LS_ABOUT_WHAT("DCGM diagnostic"), NULL,
                       "DCGM %s diagnostic: %d test%s passed (%s)",
                       ls_json_str(d, "version", "(version unknown)"), npass, npass == 1 ? "" : "s",
                       passed);
    if (ls_json_str(d, "runtime_error", NULL))
        dcgm_not_run(out, d);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The slowest process of one size and its time over the others' median; -1 if fewer
   than two processes have a time. */
static int slowest_process(const json_t *means, double *ratio)
{
    size_t n = json_array_size(means);
    if (n < 2 || n > 4096)
        return -1;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return -1;
    int worst = -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *t = json_array_get(means, i);
        if (!json_is_number(t))
            continue;
        if (worst < 0 ||
            json_number_value(t) > json_number_value(json_array_get(means, (size_t)worst)))
            worst = (int)i;
    }
    for (size_t i = 0; i < n; i++)
        if ((int)i != worst && json_is_number(json_array_get(means, i)))
            v[m++] = json_number_value(json_array_get(means, i));
    *ratio = 0;
    if (worst >= 0 && m > 0) {
        qsort(v, m, sizeof *v, cmp_double);
        double med = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
        *ratio = med > 0 ? json_number_value(json_array_get(means, (size_t)worst)) / med : 0;
    }
    free(v);
    return m > 0 ? worst : -1;
}

static void name_process(const json_t *e, int p, char *out, size_t len)
{
    /* nccl-tests' process p drives ranks p*k .. p*k+k-1 (k = ranks / processes) */
    const json_t *ranks = json_object_get(e, "ranks");
    const json_t *row = json_array_get(json_object_get(e, "rows"), 0);
    size_t nproc = json_array_size(
        json_object_get(json_object_get(json_object_get(row, "oop"), "iter"), "process_mean_us"));
    size_t per = nproc && json_array_size(ranks) ? json_array_size(ranks) / nproc : 0;
    const json_t *r = per ? json_array_get(ranks, (size_t)p * per) : NULL;
    if (r)
        snprintf(out, len, "process %d (rank %lld on %s, GPU %lld)", p, ls_json_int(r, "rank", -1),
                 ls_json_str(r, "host", "unknown"), ls_json_int(r, "device", -1));
    else
        snprintf(out, len, "process %d (host and GPU unknown: the file has no rank table)", p);
}

static void straggler_entry(json_t *out, const json_t *e)
{
    int counts[64] = {0}, sized = 0, worst_size_p = -1;
    double worst_ratio = 0;
    long long worst_bytes = 0;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row) {
        const json_t *means = json_object_get(json_object_get(json_object_get(row, "oop"), "iter"),
                                              "process_mean_us");
        double ratio;
        int p = slowest_process(means, &ratio);
        if (p < 0)
            continue;
        sized++;
        if (ratio >= LS_STRAGGLER_RATIO && p < 64) {
            counts[p]++;
            if (ratio > worst_ratio)
                worst_ratio = ratio, worst_bytes = ls_json_int(row, "bytes", 0), worst_size_p = p;
        }
    }
    for (int p = 0; p < 64 && sized > 0; p++) {
        if (counts[p] * 2 < sized || counts[p] == 0)
            continue; /* slow at fewer than half the sizes: noise, not a straggler */
        char who[256];
        name_process(e, p, who, sizeof who);
        json_t *ev = json_pack("[s]", ls_json_str(e, "id", ""));
        ls_finding_add(out, "nccl_straggler", LS_SEV_WARNING, LS_ABOUT_WHAT(who), ev,
                       "%s: %s is the slowest at %d of %d sizes, %.0f%% above the other processes' "
                       "median "
                       "time per iteration%s%lld bytes; every rank waits for it: look at that host "
                       "and GPU "
                       "(clocks, throttling, its NIC)",
                       ls_json_str(e, "collective", LS_FAMILY_NCCL), who, counts[p], sized,
                       (worst_ratio - 1) * 100, worst_size_p == p ? " at worst, at " : " at ",
                       worst_bytes);
    }
}

/* A problem that names no rank: each process it names (a dead or missing process), else
   its missing ranks, else the problem itself. */
static void ras_unranked(json_t *out, const json_t *p, const char *ev_id)
{
    const char *kind = ls_json_str(p, "kind", "");
    enum ls_severity sev = !strcmp(kind, "error")  ? LS_SEV_ERROR
                           : !strcmp(kind, "info") ? LS_SEV_INFO
                                                   : LS_SEV_WARNING;
    const char *state = ls_json_str(p, "state", "?"), *comm = ls_json_str(p, "comm", "?");
    const char *why = json_string_value(json_array_get(json_object_get(p, "lines"), 0));
    size_t k;
    const json_t *x;
    json_array_foreach(json_object_get(p, "processes"), k, x) {
        char subject[320];
        snprintf(subject, sizeof subject, "process %lld on %s, GPU %lld", ls_json_int(x, "pid", -1),
                 ls_json_str(x, "host", "unknown"), ls_json_int(x, "gpu", -1));
        ls_finding_add(out, "nccl_ras_problem", sev, LS_ABOUT_WHAT(subject),
                       json_pack("[s]", ev_id), "NCCL RAS %s (%s): %s%s%s", state,
                       strcmp(comm, "job") == 0 ? "the job" : comm, subject, why ? ": " : "",
                       why ? why : "");
    }
    if (json_array_size(json_object_get(p, "processes")))
        return;
    char ranks[256] = "";
    size_t used = 0;
    json_array_foreach(json_object_get(p, "missing_ranks"), k, x) {
        if (used < sizeof ranks)
            used += (size_t)snprintf(ranks + used, sizeof ranks - used, "%s%lld", k ? ", " : "",
                                     (long long)json_integer_value(x));
    }
    char subject[320];
    snprintf(subject, sizeof subject, strcmp(comm, "job") == 0 ? "NCCL job" : "communicator %s",
             comm);
    ls_finding_add(out, "nccl_ras_problem", sev, LS_ABOUT_WHAT(subject), json_pack("[s]", ev_id),
                   "NCCL RAS %s on %s%s%s%s%s", state, subject, used ? ": missing rank " : "",
                   ranks, why ? ": " : "", why ? why : "");
}

static void ras_one(json_t *out, const json_t *ras, size_t idx)
{
    char ev_id[48];
    snprintf(ev_id, sizeof ev_id, "nccl_ras[%zu]", idx);
    size_t i;
    const json_t *g;
    json_array_foreach(json_object_get(ras, "groups"), i, g) {
        const char *st = ls_json_str(g, "status", "unknown"),
                   *er = ls_json_str(g, "errors", "unknown");
        if (strcmp(st, "RUNNING") == 0 && strcmp(er, "OK") == 0)
            continue;
        if (strcmp(st, "INIT") == 0 &&
            strcmp(er, "OK") == 0) { /* a communicator being created (RAS's docs) */
            ls_finding_add(out, "nccl_ras_state", LS_SEV_INFO, LS_ABOUT_WHAT("NCCL job"),
                           json_pack("[s]", ev_id),
                           "NCCL RAS: communicator group %lld (%lld communicators, %lld ranks) is "
                           "still initializing: "
                           "query again to see it RUNNING",
                           ls_json_int(g, "group", -1), ls_json_int(g, "comms", -1),
                           ls_json_int(g, "ranks", -1));
            continue;
        }
        ls_finding_add(out, "nccl_ras_state", strcmp(er, "OK") != 0 ? LS_SEV_ERROR : LS_SEV_WARNING,
                       LS_ABOUT_WHAT("NCCL job"), json_pack("[s]", ev_id),
                       "NCCL RAS: communicator group %lld (%lld communicators, %lld ranks) is %s "
                       "with %s: the job "
                       "is not healthy",
                       ls_json_int(g, "group", -1), ls_json_int(g, "comms", -1),
                       ls_json_int(g, "ranks", -1), st, er);
    }
    const json_t *p;
    json_array_foreach(json_object_get(ras, "problems"), i, p) {
        size_t k;
        const json_t *r;
        if (json_array_size(json_object_get(p, "ranks")) == 0)
            ras_unranked(out, p, ev_id);
        json_array_foreach(json_object_get(p, "ranks"), k, r) {
            char subject[320];
            snprintf(subject, sizeof subject, "rank %lld on %s, GPU %lld",
                     ls_json_int(r, "rank", -1), ls_json_str(r, "host", "unknown"),
                     ls_json_int(r, "gpu", -1));
            const char *why = json_string_value(json_array_get(json_object_get(p, "lines"), 0));
            ls_finding_add(out, "nccl_ras_problem",
                           strcmp(ls_json_str(p, "kind", ""), "error") == 0 ? LS_SEV_ERROR
                                                                            : LS_SEV_WARNING,
                           LS_ABOUT_WHAT(subject), json_pack("[s]", ev_id),
                           "NCCL RAS %s on communicator %s: %s (process %lld)%s%s",
                           ls_json_str(p, "state", "?"), ls_json_str(p, "comm", "?"), subject,
                           ls_json_int(r, "pid", -1), why ? ": " : "", why ? why : "");
        }
    }
}

/* A row's busbw (out-of-place; in-place when that is all it has); 0 when none. */
static double row_busbw(const json_t *row)
{
    const json_t *res = json_object_get(row, "oop") ? json_object_get(row, "oop")
                                                    : json_object_get(row, "ip");
    return ls_json_num(res, "busbw", 0);
}

/* The measured busbw of collective coll at bytes over nranks ranks: the row of that size
   of an nccl entry, else, between the two measured sizes around it, the busbw
   interpolated on a log scale of size (*between set; never beyond the sizes measured);
   0 when none. */
static double measured_at(const json_t *doc, const char *coll, long long bytes, long long nranks,
                          const char **id, int *between)
{
    *between = 0;
    for (long i = ls_doc_next_measurement(doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        long long er = ls_json_int(e, "nranks",
                                   (long long)json_array_size(json_object_get(e, "gpus")));
        if (strcmp(ls_json_str(e, "collective", ""), coll) != 0 || (nranks > 0 && er != nranks))
            continue;
        size_t k;
        const json_t *row, *lo = NULL, *hi = NULL;
        json_array_foreach(json_object_get(e, "rows"), k, row) {
            long long b = ls_json_int(row, "bytes", -1);
            if (row_busbw(row) <= 0 || b <= 0)
                continue;
            if (b == bytes) {
                *id = ls_json_str(e, "id", "");
                return row_busbw(row);
            }
            if (b < bytes && (!lo || b > ls_json_int(lo, "bytes", 0)))
                lo = row;
            if (b > bytes && (!hi || b < ls_json_int(hi, "bytes", 0)))
                hi = row;
        }
        if (lo && hi && bytes > 0) {
            double x0 = log((double)ls_json_int(lo, "bytes", 1)),
                   x1 = log((double)ls_json_int(hi, "bytes", 1));
            double f = (log((double)bytes) - x0) / (x1 - x0);
            *id = ls_json_str(e, "id", "");
            *between = 1;
            return row_busbw(lo) + f * (row_busbw(hi) - row_busbw(lo));
        }
    }
    return 0;
}

static void size_text(long long bytes, char *out, size_t len)
{
    if (bytes >= (1LL << 30) && bytes % (1LL << 30) == 0)
        snprintf(out, len, "%lld GiB", bytes >> 30);
    else if (bytes >= (1LL << 20) && bytes % (1LL << 20) == 0)
        snprintf(out, len, "%lld MiB", bytes >> 20);
    else
        snprintf(out, len, "%lld bytes", bytes);
}

static void add_unique(json_t *ids, const char *id)
{
    size_t i;
    const json_t *v;
    json_array_foreach(ids, i, v) {
        if (strcmp(json_string_value(v), id) == 0)
            return;
    }
    json_array_append_new(ids, json_string(id));
}

/* One finding per (collective, ranks): the job's ratio at every size measured here. */
static void job_vs_measured(json_t *out, const json_t *doc)
{
    const json_t *list = json_object_get(doc, "inspector");
    size_t n = json_array_size(list);
    char *done = calloc(n ? n : 1, 1);
    if (!done)
        return;
    for (size_t i = 0; i < n; i++) {
        const json_t *a = json_array_get(list, i);
        const char *coll = ls_json_str(a, "collective", "");
        long long nranks = ls_json_int(a, "nranks", -1);
        char text[768] = "";
        size_t used = 0;
        int low = 0, compared = 0;
        json_t *ev = json_array();
        for (size_t j = i; j < n; j++) {
            const json_t *b = json_array_get(list, j);
            if (done[j] || strcmp(ls_json_str(b, "collective", ""), coll) != 0 ||
                ls_json_int(b, "nranks", -1) != nranks)
                continue;
            done[j] = 1;
            const char *id = NULL;
            long long bytes = ls_json_int(b, "bytes", 0);
            int between;
            double here = measured_at(doc, coll, bytes, nranks, &id, &between);
            if (here <= 0)
                continue;
            double ratio = ls_json_num(b, "busbw", 0) / here;
            low |= ratio < LS_JOB_VS_MEASURED_RATIO && bytes >= LS_CEILING_NCCL_MIN_BYTES;
            compared++;
            char size[48];
            size_text(bytes, size, sizeof size);
            if (used < sizeof text)
                used += (size_t)snprintf(text + used, sizeof text - used,
                                         "%s%.0f%% at %s (%.1f of %.1f GB/s%s)",
                                         compared > 1 ? "; " : "", ratio * 100, size,
                                         ls_json_num(b, "busbw", 0), here,
                                         between ? ", between the sizes measured" : "");
            add_unique(ev, id);
        }
        if (compared == 0) {
            json_decref(ev);
            continue;
        }
        char subject[96];
        snprintf(subject, sizeof subject, "%s over %lld ranks", coll, nranks);
        ls_finding_add(out, "job_vs_measured", low ? LS_SEV_WARNING : LS_SEV_INFO,
                       LS_ABOUT_WHAT(subject), ev,
                       "this job's %s got %s of what this machine measured busbw at the same size "
                       "and rank count%s",
                       coll, text,
                       low ? ": look at the job's algorithm and protocol, its placement, and what "
                             "ran beside it"
                           : "");
    }
    free(done);
}

void ls_rules_tools(const json_t *doc, json_t *out)
{
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(doc, "dcgm"), i, d)
        dcgm_one(out, d);
    for (long k = ls_doc_next_measurement(doc, LS_FAMILY_NCCL, 0); k >= 0;
         k = ls_doc_next_measurement(doc, LS_FAMILY_NCCL, k + 1))
        straggler_entry(out, json_array_get(json_object_get(doc, "measurements"), (size_t)k));
    json_array_foreach(json_object_get(doc, "nccl_ras"), i, d)
        ras_one(out, d, i);
    job_vs_measured(out, doc);
    ls_rules_dcgm_health(doc, out);
    ls_rules_nvloom(doc, out);
    ls_rules_simple_p2p(doc, out);
}
