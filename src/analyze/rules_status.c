/* Status rules: what the measurement itself says went wrong. Wrong elements in a
   collective, failed, timed-out and skipped entries and run steps, bus bandwidth that
   collapses above a message size, other processes on a GPU while measuring, and
   figures whose spread is too wide to trust. */
#include "rules.h"
#include "model/doc.h"
#include "nccl_messages.h"
#include "util/parse.h"
#include "model/vocab.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double row_wrong(const json_t *row)
{
    return fmax(0, ls_json_num(json_object_get(row, "oop"), "wrong", 0)) +
           fmax(0, ls_json_num(json_object_get(row, "ip"), "wrong", 0));
}

/* The hosts of an entry's rank table, each once: "ip-a, ip-b" ("" when none). */
static void rank_hosts(const json_t *e, char *out, size_t len)
{
    size_t used = 0, i;
    const json_t *r;
    out[0] = '\0';
    json_array_foreach(json_object_get(e, "ranks"), i, r) {
        const char *h = ls_json_str(r, "host", "");
        char quoted[80];
        snprintf(quoted, sizeof quoted, "%s, ", h);
        if (!h[0] || strstr(out, quoted) || used + strlen(quoted) >= len)
            continue;
        used += (size_t)snprintf(out + used, len - used, "%s", quoted);
    }
    if (used >= 2)
        out[used - 2] = '\0';
}

/* The collective's name, or what stands for it when the paste names none. */
static const char *collective_name(const json_t *e)
{
    const char *c = ls_json_str(e, "collective", "unknown");
    return strcmp(c, "unknown") ? c : "the run (collective not named)";
}

/* What entry e is about (its collective on its GPUs, on its nodes, or its id; what holds
   the text of one that names no GPU) and its subject text. */
static ls_about_t about_of(const json_t *e, char *what, char *subject, size_t len)
{
    uint64_t mask = ls_gpu_mask_of(json_object_get(e, "gpus"));
    char hosts[160];
    rank_hosts(e, hosts, sizeof hosts);
    ls_about_t a = LS_ABOUT_WHAT(what);
    if (!strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL) && ls_json_int(e, "nodes", 1) > 1 &&
        hosts[0])
        snprintf(what, len, "%.40s on %lld nodes (%.70s)", collective_name(e),
                 ls_json_int(e, "nodes", 1), hosts); /* GPU indices repeat on every node */
    else if (!strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL) &&
             !mask) /* no rank line in the paste */
        snprintf(what, len, "%.60s (GPUs not in the paste)", collective_name(e));
    else if (!strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL))
        a = LS_ABOUT_ON(collective_name(e), mask);
    else
        snprintf(what, len, "%s", ls_json_str(e, "id", "?"));
    ls_about_text(&a, subject, len);
    return a;
}

/* A finding about entry e (about_of), the entry its evidence, the message "SUBJECT: "
   and fmt's text. */
static void entry_finding(json_t *out, const char *rule, enum ls_severity sev, const json_t *e,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void entry_finding(json_t *out, const char *rule, enum ls_severity sev, const json_t *e,
                          const char *fmt, ...)
{
    char what[128], subject[128];
    ls_about_t about = about_of(e, what, subject, sizeof subject);
    va_list ap;
    va_start(ap, fmt);
    ls_finding_vabout(out, rule, sev, about, subject, ls_json_str(e, "id", ""), fmt, ap);
    va_end(ap);
}

/* The wrong_elements finding of entry e: what showed the wrong data (detail) and, where
   the rows counted it, what returns wrong data (cause; "" when not said). */
static void wrong_data(const json_t *e, const char *detail, const char *cause, json_t *out)
{
    entry_finding(out, "wrong_elements", LS_SEV_ERROR, e,
                  "%s: the collective returned wrong data%s, so none of its figures counts; next: "
                  "`nvidia-smi -q -d ECC`, `nvidia-smi nvlink -e`, and rerun with -c 1 on subsets "
                  "of the GPUs to find the one",
                  detail, cause);
}

/* The footer's count when no row has a #wrong count (the 2.0-era layout prints the
   largest deviation per row in an "error" column instead; nccl-tests counts the values
   beyond its tolerance into "# Out of bounds values : N FAILED"). */
static void out_of_bounds(const json_t *e, json_t *out)
{
    long long oob = ls_json_int(e, "out_of_bounds", 0);
    if (oob <= 0)
        return;
    double worst = 0, at = -1;
    size_t k;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), k, row) {
        double err = fmax(ls_json_num(json_object_get(row, "oop"), "error", 0),
                          ls_json_num(json_object_get(row, "ip"), "error", 0));
        if (err > worst)
            worst = err, at = ls_json_num(row, "bytes", 0);
    }
    char where[96] = "", detail[192];
    if (at >= 0) {
        char size[32];
        ls_format_size((uint64_t)at, size, sizeof size);
        snprintf(where, sizeof where, "; the largest error column value, %g, is at %s", worst,
                 size);
    }
    snprintf(detail, sizeof detail,
             "nccl-tests counted %lld out-of-bounds values (validation FAILED)%s", oob, where);
    wrong_data(e, detail, "", out);
}

static void wrong_elements(const ls_machine_t *m, json_t *out)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        double total = 0, first = -1;
        int rows = 0;
        size_t k;
        const json_t *row;
        json_array_foreach(json_object_get(e, "rows"), k, row) {
            double w = row_wrong(row);
            if (w <= 0)
                continue;
            total += w, rows++;
            if (first < 0)
                first = ls_json_num(row, "bytes", 0);
        }
        if (total <= 0) {
            out_of_bounds(e, out);
            continue;
        }
        char size[32], detail[128];
        ls_format_size((uint64_t)first, size, sizeof size);
        snprintf(detail, sizeof detail, "%.0f wrong elements in %d size%s, first at %s", total,
                 rows, rows == 1 ? "" : "s", size);
        wrong_data(e, detail, " (a faulty GPU, link or NIC, memory errors, or a library bug)", out);
    }
}

/* Several runs in one test's part of a paste: nccl-tests built without MPI and started
   by mpirun runs one whole test per process, each printing its own header and its own
   rank 0 (with MPI=1 only rank 0 prints, once). A process without MPI holds its GPUs on
   one node, so every such run is a single-node run. */
static void separate_runs(const ls_machine_t *m, json_t *out)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        long long runs = ls_json_int(e, "separate_runs", 1);
        if (runs < 2)
            continue;
        char hosts[256];
        rank_hosts(e, hosts, sizeof hosts);
        entry_finding(out, "separate_runs", LS_SEV_WARNING, e,
                      "the paste holds %lld independent runs (a header per process, or rank 0 "
                      "printed more "
                      "than once)%s%s%s: %lld single-node runs of %lld rank%s each, not a "
                      "%lld-node test, so "
                      "nothing crossed between the nodes; next: build nccl-tests with MPI=1 and "
                      "launch with "
                      "mpirun, one process per GPU (no -g)",
                      runs, hosts[0] ? " on " : "", hosts, hosts[0] ? "" : "", runs,
                      ls_json_int(e, "nranks", 1), ls_json_int(e, "nranks", 1) == 1 ? "" : "s",
                      runs);
    }
}

/* An error nccl-tests printed with its check macros ("Test NCCL failure …", "Test CUDA
   failure …"): its quoted message is NCCL's or CUDA's error string, which the catalog
   (data/nccl-messages.tsv) explains. */
static int failure_line(const char *why)
{
    return strstr(why, "Test NCCL failure") || strstr(why, "Test CUDA failure");
}

/* A failed or timed-out entry's finding (the rest: nothing here; skipped ones are
   grouped by skipped()). */
static void one_status(const ls_view_t *v, json_t *out)
{
    const char *status = v->status;
    if (strcmp(status, "failed") && strcmp(status, "timeout"))
        return;
    const json_t *e = v->json;
    char what[128], subject[128];
    ls_about_t about = about_of(e, what, subject, sizeof subject);
    json_t *ev = json_pack("[s]", ls_json_str(e, "id", ""));
    const char *why = ls_json_str(e, "error", "no reason recorded");
    ls_nccl_message_t msg;
    if (!strcmp(status, "failed") && failure_line(why) && ls_nccl_message_match(why, &msg) == 0)
        ls_finding_add(out, "entry_failed", LS_SEV_ERROR, about, ev,
                       "%s failed: %s; %s; likely: %s; next: %s", ls_json_str(e, "id", "?"), why,
                       msg.meaning, msg.cause, msg.next);
    else if (!strcmp(status, "failed"))
        ls_finding_add(out, "entry_failed", LS_SEV_ERROR, about, ev,
                       "%s failed: %s; its figure counts for nothing (status column: failed); "
                       "next: rerun that "
                       "step alone and read its error",
                       ls_json_str(e, "id", "?"), why);
    else
        ls_finding_add(out, "entry_timeout", LS_SEV_WARNING, about, ev,
                       "%s timed out: %s; a hang usually means a broken P2P or network path or a "
                       "GPU stuck in "
                       "another job; next: rerun with NCCL_DEBUG=INFO and check `nvidia-smi` for "
                       "other processes",
                       ls_json_str(e, "id", "?"), why);
}

/* Skipped entries, grouped by reason: one line per reason, not one per pair. */
static void skipped(const ls_machine_t *m, json_t *out)
{
    json_t *reasons = json_object();
    LS_DOC_FOREACH(v, m->doc, NULL)
    {
        if (strcmp(v.status, "skipped"))
            continue;
        const char *why = ls_json_str(v.json, "error", "no reason recorded");
        json_t *ids = json_object_get(reasons, why);
        if (!ids)
            json_object_set_new(reasons, why, ids = json_array());
        json_array_append_new(ids, json_string(v.id));
    }
    const char *why;
    json_t *ids;
    json_object_foreach(reasons, why, ids) {
        const char *first = json_string_value(json_array_get(ids, 0));
        ls_finding_add(out, "entry_skipped", LS_SEV_INFO,
                       LS_ABOUT_WHAT(json_array_size(ids) == 1 ? first : "measurements"),
                       json_incref(ids), "%zu measurement%s skipped (%s%s): %s",
                       json_array_size(ids), json_array_size(ids) == 1 ? "" : "s", first,
                       json_array_size(ids) > 1 ? ", ..." : "", why);
    }
    json_decref(reasons);
}

/* Run steps that did not finish (docs/run.md), when no entry already says so. */
static void run_steps(const ls_machine_t *m, json_t *out)
{
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(json_object_get(m->doc, "run"), "steps"), i, s) {
        const char *status = ls_json_str(s, "status", "ok"), *step = ls_json_str(s, "step", "?");
        char subject[96], path[48];
        snprintf(subject, sizeof subject, "run step %s", step);
        snprintf(path, sizeof path, "run.steps[%zu]", i);
        const char *why = ls_json_str(s, "error", "no reason recorded");
        if (!strcmp(status, "failed"))
            ls_finding_add(out, "entry_failed", LS_SEV_ERROR, LS_ABOUT_WHAT(subject),
                           json_pack("[s]", path), "run step %s failed: %s", step, why);
        else if (!strcmp(status, "timeout"))
            ls_finding_add(out, "entry_timeout", LS_SEV_WARNING, LS_ABOUT_WHAT(subject),
                           json_pack("[s]", path), "run step %s timed out: %s", step, why);
        else if (!strcmp(status, "skipped"))
            ls_finding_add(out, "entry_skipped", LS_SEV_INFO, LS_ABOUT_WHAT(subject),
                           json_pack("[s]", path), "run step %s skipped: %s", step, why);
    }
}

static void statuses(const ls_machine_t *m, json_t *out)
{
    LS_DOC_FOREACH(v, m->doc, NULL)
    {
        one_status(&v, out);
    }
    skipped(m, out);
    run_steps(m, out);
}

static double row_busbw(const json_t *row)
{
    const json_t *side = json_object_get(row, "oop");
    double v = ls_json_num(json_is_object(side) ? side : json_object_get(row, "ip"), "busbw", -1);
    return v;
}

/* Busbw falling by more than half from one size to the next and staying down at every
   larger size. */
/* A row's size in bytes; 0 (unknown) for a size no uint64_t holds (a forged -1 or 1e300:
   the conversion would be undefined behaviour). */
static uint64_t row_bytes(const json_t *row)
{
    double b = ls_json_num(row, "bytes", 0);
    return b > 0 && b < 1.8e19 ? (uint64_t)b : 0;
}

static void busbw_collapse(const ls_machine_t *m, json_t *out)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        const json_t *rows = json_object_get(e, "rows");
        size_t n = json_array_size(rows);
        for (size_t k = 1; k < n; k++) {
            const json_t *prev = json_array_get(rows, k - 1);
            double before = row_busbw(prev), after = row_busbw(json_array_get(rows, k));
            if (ls_json_num(prev, "bytes", 0) < LS_COLLAPSE_MIN_BYTES || before <= 0 || after < 0 ||
                after >= LS_COLLAPSE_DROP * before)
                continue;
            int stays = 1;
            double worst = after;
            for (size_t j = k + 1; j < n; j++) {
                stays &= row_busbw(json_array_get(rows, j)) < LS_COLLAPSE_DROP * before;
                worst = fmin(worst, row_busbw(json_array_get(rows, j)));
            }
            if (!stays)
                continue;
            char s1[32], s2[32];
            ls_format_size(row_bytes(prev), s1, sizeof s1);
            ls_format_size(row_bytes(json_array_get(rows, k)), s2, sizeof s2);
            entry_finding(out, "busbw_collapse", LS_SEV_WARNING, e,
                          "busbw falls from %.2f GB/s at %s to %.2f at %s and stays down "
                          "(lowest %.2f): "
                          "large messages hit a slower path (a NIC or PCIe link that saturates, "
                          "congestion, a "
                          "protocol or algorithm switch, memory registration); next: rerun with "
                          "NCCL_DEBUG=INFO "
                          "NCCL_DEBUG_SUBSYS=INIT,TUNING and compare NCCL_PROTO=Simple and "
                          "NCCL_ALGO=Ring",
                          before, s1, after, s2, worst);
            break;
        }
    }
}

/* The row of entry e (at LS_ERRATIC_MIN_BYTES or more) whose out-of-place and in-place
   busbw differ most, with that ratio (larger over smaller); NULL below the limit. */
static const json_t *erratic_row(const json_t *e, double *ratio)
{
    const json_t *rows = json_object_get(e, "rows"), *row, *worst = NULL;
    size_t k;
    *ratio = LS_ERRATIC_RATIO;
    json_array_foreach(rows, k, row) {
        double o = ls_json_num(json_object_get(row, "oop"), "busbw", 0),
               i = ls_json_num(json_object_get(row, "ip"), "busbw", 0);
        if (ls_json_num(row, "bytes", 0) < LS_ERRATIC_MIN_BYTES || o <= 0 || i <= 0)
            continue;
        double r = o > i ? o / i : i / o;
        if (r > *ratio)
            *ratio = r, worst = row;
    }
    return worst;
}

/* Out-of-place and in-place are the same collective over the same links, timed one after
   the other: at large sizes their busbw agree (within 1.3 x on every nccl-tests table of
   the real corpus and every run linkscope made). Far apart, the run's figures do not
   repeat. */
static void erratic_rows(const ls_machine_t *m, json_t *out)
{
    for (long i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, LS_FAMILY_NCCL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        double ratio;
        const json_t *row = erratic_row(e, &ratio);
        if (!row)
            continue;
        char size[32];
        ls_format_size(row_bytes(row), size, sizeof size);
        entry_finding(out, "erratic_rows", LS_SEV_WARNING, e,
                      "out-of-place and in-place busbw differ %.1f x at %s (%.2f against %.2f "
                      "GB/s): the same collective over the same links, timed back to back, did "
                      "not repeat, so the run's figures are not the links' own; likely: other "
                      "traffic on the network or the links during the run, congestion, or a link "
                      "that drops and recovers; next: rerun, compare the same test between other "
                      "nodes, and read the NICs' error counters (`ibstat`, `perfquery`, `ethtool "
                      "-S`)",
                      ratio, size, ls_json_num(json_object_get(row, "oop"), "busbw", 0),
                      ls_json_num(json_object_get(row, "ip"), "busbw", 0));
    }
}

/* Other processes seen on a GPU while measuring (telemetry.processes, by GPU index). */
static void busy_gpu(const ls_machine_t *m, json_t *out)
{
    uint64_t gpus = 0;
    json_t *evidence = json_array();
    char pids[160] = "";
    for (long i = ls_doc_next_measurement(m->doc, NULL, 0); i >= 0;
         i = ls_doc_next_measurement(m->doc, NULL, i + 1)) {
        const json_t *e = ls_measurement(m, (size_t)i);
        const char *g;
        const json_t *list;
        int here = 0;
        if (!strcmp(ls_json_str(e, "mode", ""), "mpi"))
            continue; /* under MPI the other ranks of the job are processes on the GPUs too */
        json_object_foreach(json_object_get(json_object_get(e, "telemetry"), "processes"), g,
                            list) {
            size_t k;
            const json_t *p;
            json_array_foreach(list, k, p) {
                char one[32];
                snprintf(one, sizeof one, "%lld on GPU%s", ls_json_int(p, "pid", -1), g);
                if (!strstr(pids, one) && strlen(pids) + strlen(one) + 3 < sizeof pids)
                    snprintf(pids + strlen(pids), sizeof pids - strlen(pids), "%s%s",
                             *pids ? ", " : "", one);
                gpus |= 1ULL << (atoi(g) & 63);
                here = 1;
            }
        }
        if (here)
            json_array_append_new(evidence, json_string(ls_json_str(e, "id", "")));
    }
    if (!gpus) {
        json_decref(evidence);
        return;
    }
    char subject[112];
    ls_about_t about = LS_ABOUT_GPUS(gpus);
    ls_about_text(&about, subject, sizeof subject);
    ls_finding_add(out, "busy_gpu", LS_SEV_WARNING, about, evidence,
                   "Other processes ran on %s during %zu measurements (pid %s): they share the "
                   "GPU's memory "
                   "bandwidth and links, so these figures are low and spread; rerun on an idle "
                   "machine; next: "
                   "`nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv`",
                   subject, json_array_size(evidence), pids);
}

static void noisy(const ls_machine_t *m, json_t *out)
{
    json_t *evidence = json_array();
    double worst = 0, worst_limit = LS_NOISY_CV;
    const char *worst_id = "";
    LS_DOC_FOREACH(v, m->doc, NULL)
    {
        if (!ls_view_noisy(&v))
            continue;
        json_array_append_new(evidence, json_string(v.id));
        double limit = ls_noisy_limit(v.json), spread = ls_view_spread(&v);
        if (spread / limit > worst / worst_limit)
            worst = spread, worst_limit = limit, worst_id = v.id;
    }
    if (!json_array_size(evidence)) {
        json_decref(evidence);
        return;
    }
    ls_finding_add(out, "noisy", LS_SEV_WARNING,
                   LS_ABOUT_WHAT(json_array_size(evidence) == 1 ? worst_id : "measurements"),
                   evidence,
                   "%zu figure%s spread wider than a healthy idle machine's (1.4826 x the "
                   "median absolute deviation / median, the CV where a figure has no samples; "
                   "worst %s at %.1f%%, limit %.0f%%): another process, clock changes or a "
                   "shared path moved them while measuring; findings resting only on them are "
                   "lowered to info; rerun on an idle machine",
                   json_array_size(evidence), json_array_size(evidence) == 1 ? "" : "s", worst_id,
                   100 * worst, 100 * worst_limit);
}

void ls_rules_status(const ls_machine_t *m, json_t *out)
{
    wrong_elements(m, out);
    separate_runs(m, out);
    statuses(m, out);
    busbw_collapse(m, out);
    erratic_rows(m, out);
    busy_gpu(m, out);
    noisy(m, out);
}
