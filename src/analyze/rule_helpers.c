/* Helpers the rule groups share (rules.h): severities, building a finding, the entries,
   NUMA majority, noisy figures. The driver (findings.c) and the table (rule_table.c) are
   apart. */
#include "rules.h"
#include "model/doc.h"
#include "model/vocab.h"
#include "util/stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *severity_names[] = {"info", "warning", "error"};

const char *ls_severity_name(enum ls_severity sev)
{
    return (unsigned)sev <= LS_SEV_ERROR ? severity_names[sev] : "info";
}

int ls_severity_parse(const char *name, enum ls_severity *sev)
{
    for (int s = LS_SEV_INFO; s <= LS_SEV_ERROR; s++)
        if (strcmp(name, severity_names[s]) == 0) {
            *sev = (enum ls_severity)s;
            return 0;
        }
    return -1;
}

enum ls_severity ls_finding_severity(const json_t *finding)
{
    enum ls_severity sev = LS_SEV_INFO;
    ls_severity_parse(ls_json_str(finding, "severity", "info"), &sev);
    return sev;
}

int ls_findings_count_at_least(const json_t *findings, enum ls_severity sev)
{
    int n = 0;
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        if (ls_finding_severity(f) >= sev)
            n++;
    }
    return n;
}

void ls_finding_vadd(json_t *list, const char *rule, enum ls_severity sev, ls_about_t about,
                     json_t *evidence, const char *fmt, va_list ap)
{
    char message[2048];
    vsnprintf(message, sizeof message, fmt, ap);
    json_t *f = json_pack("{s:s, s:s}", "rule", rule, "severity", ls_severity_name(sev));
    ls_about_set(f, &about);
    json_object_set_new(f, "message", json_string(message));
    json_object_set_new(f, "evidence", evidence ? evidence : json_array());
    json_array_append_new(list, f);
}

void ls_finding_add(json_t *list, const char *rule, enum ls_severity sev, ls_about_t about,
                    json_t *evidence, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ls_finding_vadd(list, rule, sev, about, evidence, fmt, ap);
    va_end(ap);
}

void ls_finding_vabout(json_t *list, const char *rule, enum ls_severity sev, ls_about_t about,
                       const char *subject, const char *evidence, const char *fmt, va_list ap)
{
    char text[2048];
    vsnprintf(text, sizeof text, fmt, ap);
    ls_finding_add(list, rule, sev, about, json_pack("[s]", evidence), "%s: %s", subject, text);
}

void ls_finding_about(json_t *list, const char *rule, enum ls_severity sev, ls_about_t about,
                      const char *subject, const char *evidence, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ls_finding_vabout(list, rule, sev, about, subject, evidence, fmt, ap);
    va_end(ap);
}

const json_t *ls_measurement(const ls_machine_t *m, size_t i)
{
    return json_array_get(json_object_get(m->doc, "measurements"), i);
}

int ls_group_majority(const int *group, int n, int *count)
{
    int counts[LS_MAX_GPUS] = {0}, best = -1, best_count = 0;
    for (int g = 0; g < n; g++)
        if (group[g] >= 0 && group[g] < LS_MAX_GPUS)
            counts[group[g]]++;
    for (int k = 0; k < LS_MAX_GPUS; k++)
        if (counts[k] > best_count)
            best = k, best_count = counts[k];
    if (count)
        *count = best_count;
    return best;
}

int ls_group_minority(const int *group, int n, int g)
{
    int largest;
    if (n < 3 || group[g] < 0 || ls_group_majority(group, n, &largest) < 0)
        return 0;
    int here = 0;
    for (int o = 0; o < n; o++)
        here += group[o] == group[g];
    return here < LS_NUMA_MINORITY * largest;
}

int ls_numa_majority(const ls_machine_t *m, int *count)
{
    return ls_group_majority(m->numa, m->ngpus, count);
}

int ls_numa_minority(const ls_machine_t *m, int g)
{
    return ls_group_minority(m->numa, m->ngpus, g);
}

json_t *ls_gpu_groups(const json_t *doc, ls_gpu_judge_t judge)
{
    json_t *seen = json_object(); /* why -> the group */
    json_t *order = json_array();
    size_t i;
    const json_t *g;
    char why[256];
    json_array_foreach(json_object_get(doc, "gpus"), i, g) {
        enum ls_action a = judge(g, why, sizeof why);
        if (a == LS_ACT_NONE)
            continue;
        json_t *grp = json_object_get(seen, why);
        if (!grp) {
            grp = json_pack("{s:s, s:I, s:i}", "why", why, "mask", (json_int_t)0, "action", a);
            json_object_set_new(seen, why, grp);
            json_array_append(order, grp);
        }
        uint64_t mask = (uint64_t)ls_json_int(grp, "mask", 0) |
                        ls_gpu_bit(ls_json_int(g, "index", -1));
        json_object_set_new(grp, "mask", json_integer((json_int_t)mask));
    }
    json_decref(seen);
    return order;
}

int ls_entry_host_shared(const json_t *e)
{
    int host = !strcmp(ls_json_str(e, "family", ""), LS_FAMILY_HOST);
    int shared = !strcmp(ls_json_str(e, "memory", ""), LS_MEM_PAGEABLE) ||
                 !strcmp(ls_json_str(e, "method", ""), LS_DIR_BIDIR);
    return host && shared;
}

double ls_noisy_limit(const json_t *e)
{
    return ls_entry_host_shared(e) ? LS_NOISY_CV_HOST_SHARED : LS_NOISY_CV;
}

/* The robust spread of entry e's samples (util/stats.h) where it holds at least
   LS_NOISY_MIN_SAMPLES finite numbers; -1 where it does not. */
static double samples_spread(const json_t *e)
{
    const json_t *arr = json_object_get(e, "samples"), *s;
    size_t n = json_array_size(arr), kept = 0, i;
    if (n < LS_NOISY_MIN_SAMPLES)
        return -1;
    double *x = malloc(n * sizeof *x);
    if (!x)
        return -1;
    json_array_foreach(arr, i, s) {
        if (json_is_number(s) && isfinite(json_number_value(s)))
            x[kept++] = json_number_value(s);
    }
    double spread = kept >= LS_NOISY_MIN_SAMPLES ? ls_robust_spread(x, kept) : -1;
    free(x);
    return spread;
}

double ls_view_spread(const ls_view_t *v)
{
    double robust = samples_spread(v->json);
    /* an imported figure may carry only its stats: its CV is all there is */
    return robust >= 0 ? robust : v->cv;
}

int ls_entry_noisy(const json_t *e)
{
    ls_view_t v = ls_view_of(e);
    return ls_view_noisy(&v);
}

int ls_view_noisy(const ls_view_t *v)
{
    if (!v->ok || v->n < LS_NOISY_MIN_SAMPLES)
        return 0;
    /* only a host copy has another limit (ls_entry_host_shared): no lookup for the rest */
    double limit = v->fam == &ls_fam_host ? ls_noisy_limit(v->json) : LS_NOISY_CV;
    return ls_view_spread(v) > limit;
}

void ls_text_put(ls_text_t *t, const char *fmt, ...)
{
    if (t->used >= sizeof t->buf)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->used, sizeof t->buf - t->used, fmt, ap);
    va_end(ap);
    t->used += n > 0 ? (size_t)n : 0;
}

enum ls_severity ls_action_severity(enum ls_action a)
{
    return a == LS_ACT_NONE ? LS_SEV_INFO : a == LS_ACT_WATCH ? LS_SEV_WARNING : LS_SEV_ERROR;
}

const char *ls_action_words(enum ls_action a)
{
    static const char *const words[] = {
        [LS_ACT_NONE] = "no action on the node",
        [LS_ACT_WATCH] = "watch the GPU (the job failed; the node stays in service)",
        [LS_ACT_RESET] = "drain the GPU and reset it",
        [LS_ACT_REBOOT] = "drain the node and reboot it",
        [LS_ACT_ISOLATE] = "take the node out of service for diagnosis",
    };
    return a <= LS_ACT_ISOLATE ? words[a] : "unknown";
}
