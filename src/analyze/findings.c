/* Findings: runs every rule group of the table (rule_table.c) over the condensed
   machine, lowers what rests on noisy figures, folds, sets each finding's action and
   orders the result. The rules' shared helpers are in rule_helpers.c. */
#include "rules.h"
#include "model/doc.h"
#include "util/strindex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stable order: errors, warnings, infos; within one severity the order the rules ran. */
static json_t *by_severity(json_t *found)
{
    json_t *sorted = json_array();
    for (int s = LS_SEV_ERROR; s >= LS_SEV_INFO; s--) {
        size_t i;
        json_t *f;
        json_array_foreach(found, i, f) {
            if ((int)ls_finding_severity(f) == s)
                json_array_append(sorted, f);
        }
    }
    json_decref(found);
    return sorted;
}

/* The ids of the entries, for one hash lookup per piece of evidence (linear in findings
   and entries, not their product). NULL keys when out of memory: nothing is lowered. */
static const char **entry_ids(const ls_machine_t *m, size_t *n)
{
    const json_t *list = json_object_get(m->doc, "measurements");
    const char **ids = calloc(json_array_size(list) + 1, sizeof *ids);
    *n = 0;
    for (size_t i = 0; ids && i < json_array_size(list); i++)
        ids[(*n)++] = ls_json_str(json_array_get(list, i), "id", "");
    return ids;
}

/* 1 when every piece of evidence of f is a noisy figure. */
static int all_noisy(const ls_machine_t *m, const ls_strindex_t *ix, const json_t *f)
{
    size_t k;
    const json_t *id;
    json_array_foreach(json_object_get(f, "evidence"), k, id) {
        size_t at = json_is_string(id) ? ls_strindex_first(ix, json_string_value(id))
                                       : LS_STRINDEX_NONE;
        ls_view_t v = ls_view_at(m->doc, at); /* decoded once while the machine lives */
        if (at == LS_STRINDEX_NONE || !ls_view_noisy(&v))
            return 0;
    }
    return 1;
}

/* A finding whose every piece of evidence is a noisy figure is not trusted beyond info. */
static void lower_noisy(const ls_machine_t *m, json_t *found)
{
    size_t i, n;
    json_t *f;
    const char **ids = entry_ids(m, &n);
    ls_strindex_t ix;
    if (!ids || ls_strindex_build(&ix, ids, n)) {
        free(ids);
        return;
    }
    json_array_foreach(found, i, f) {
        const char *rule = ls_json_str(f, "rule", "");
        if (!json_array_size(json_object_get(f, "evidence")) || !strcmp(rule, "noisy") ||
            !strcmp(rule, "busy_gpu") || ls_finding_severity(f) == LS_SEV_INFO ||
            !all_noisy(m, &ix, f))
            continue;
        char message[2200];
        snprintf(message, sizeof message,
                 "%s (rests only on noisy figures: rerun on an idle machine)",
                 ls_json_str(f, "message", ""));
        json_object_set_new(f, "severity", json_string("info"));
        json_object_set_new(f, "message", json_string(message));
    }
    ls_strindex_free(&ix);
    free(ids);
}

/* "GPU3's clocks ..." -> "GPU#'s clocks ...": a per-GPU message with its index taken out,
   so that the same condition on different GPUs compares equal. */
static void without_index(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 2 < len;) {
        if (!strncmp(p, "GPU", 3) && p[3] >= '0' && p[3] <= '9') {
            memcpy(out + o, "GPU#", 4 < len - o - 1 ? 4 : len - o - 1);
            o += 4 < len - o - 1 ? 4 : len - o - 1;
            p += 3;
            while (*p >= '0' && *p <= '9')
                p++;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
}

/* One GPU's finding: it names that GPU alone (no pair, port or anything else); its
   index, else -1. */
static int single_gpu(const json_t *f)
{
    uint64_t gpus = ls_finding_gpus(f);
    char alone[32];
    if (ls_popcount64(gpus) != 1)
        return -1;
    int g = 0;
    while (!(gpus >> g & 1))
        g++;
    ls_about_t a = LS_ABOUT_GPU(g);
    ls_about_text(&a, alone, sizeof alone);
    return strcmp(ls_json_str(f, "subject", ""), alone) ? -1 : g;
}

/* The same condition on every GPU of the machine (a power brake on all eight, the same
   power limit on all) is one cause of the node (its power supply, chassis, cooling or a
   setting applied to all), not N separate faults: one finding for the node, with every
   GPU's evidence. Only for 2 GPUs or more, and only where every GPU has the finding. */
static void fold_every_gpu(const ls_machine_t *m, json_t *found)
{
    if (m->ngpus < 2)
        return;
    for (size_t i = 0; i < json_array_size(found); i++) {
        json_t *f = json_array_get(found, i);
        char norm[2200], other[2200];
        if (single_gpu(f) < 0)
            continue;
        without_index(ls_json_str(f, "message", ""), norm, sizeof norm);
        uint64_t gpus = 0;
        for (size_t j = i; j < json_array_size(found); j++) {
            const json_t *o = json_array_get(found, j);
            int g = single_gpu(o);
            if (g < 0 || strcmp(ls_json_str(o, "rule", ""), ls_json_str(f, "rule", "")) ||
                strcmp(ls_json_str(o, "severity", ""), ls_json_str(f, "severity", "")))
                continue;
            without_index(ls_json_str(o, "message", ""), other, sizeof other);
            if (!strcmp(norm, other))
                gpus |= 1ULL << g;
        }
        if (ls_popcount64(gpus) != m->ngpus || m->ngpus > 64)
            continue;
        json_t *evidence = json_array();
        for (size_t j = json_array_size(found); j-- > i;) {
            const json_t *o = json_array_get(found, j);
            int g = single_gpu(o);
            without_index(ls_json_str(o, "message", ""), other, sizeof other);
            if (g < 0 || strcmp(ls_json_str(o, "rule", ""), ls_json_str(f, "rule", "")) ||
                strcmp(norm, other) ||
                strcmp(ls_json_str(o, "severity", ""), ls_json_str(f, "severity", "")))
                continue;
            json_array_extend(evidence, json_object_get(o, "evidence"));
            if (j != i)
                json_array_remove(found, j);
        }
        char message[2600], each[2200];
        size_t o = 0;
        for (const char *p = norm; *p && o + 10 < sizeof each;) {
            if (!strncmp(p, "GPU#", 4)) {
                memcpy(each + o, "each GPU", 8);
                o += 8, p += 4;
            } else {
                each[o++] = *p++;
            }
        }
        each[o] = '\0';
        int loud = ls_finding_severity(f) > LS_SEV_INFO;
        snprintf(message, sizeof message, "On every GPU (%d of %d): %s%s", m->ngpus, m->ngpus, each,
                 loud ? "; one condition of the whole node (its power supply, chassis, cooling, or "
                        "a setting "
                        "applied to every GPU) rather than separate faults"
                      : "");
        ls_about_t all = {.gpus = gpus, .all = 1};
        ls_about_set(f, &all);
        json_object_set_new(f, "message", json_string(message));
        json_object_set_new(f, "evidence", evidence);
    }
}

/* A below_ceiling finding on GPUs already flagged busy_gpu says nothing busy_gpu does not
   (another process shares the GPU's memory bandwidth and links, so its figures are low):
   it folds into busy_gpu as evidence (issue 26). A finding of one figure folds when any
   of its GPUs is busy (either end of a copy slows it); a group finding when all are. */
static void fold_into_busy(json_t *found)
{
    json_t *busy = NULL;
    size_t i;
    json_t *f;
    json_array_foreach(found, i, f)
        if (!strcmp(ls_json_str(f, "rule", ""), "busy_gpu"))
            busy = f;
    if (!busy)
        return;
    uint64_t busy_gpus = ls_finding_gpus(busy);
    json_t *evidence = json_object_get(busy, "evidence");
    int folded = 0;
    for (size_t j = json_array_size(found); j-- > 0;) {
        const json_t *o = json_array_get(found, j);
        const json_t *ev = json_object_get(o, "evidence");
        uint64_t gpus = ls_finding_gpus(o);
        int one = json_array_size(ev) == 1;
        if (strcmp(ls_json_str(o, "rule", ""), "below_ceiling") || !gpus ||
            (one ? !(gpus & busy_gpus) : (gpus & ~busy_gpus)))
            continue;
        json_array_extend(evidence, json_object_get(o, "evidence"));
        json_array_remove(found, j);
        folded++;
    }
    if (!folded)
        return;
    char message[2600];
    snprintf(message, sizeof message,
             "%s; %d below-ceiling finding%s on these GPUs folded in as evidence (the "
             "same cause)",
             ls_json_str(busy, "message", ""), folded, folded == 1 ? "" : "s");
    json_object_set_new(busy, "message", json_string(message));
}

/* What the plan does with each finding, once its severity is final (after the noisy
   lowering): an error that names GPUs keeps them out of the best and cleanest choices. */
static void set_actions(json_t *found)
{
    size_t i;
    json_t *f;
    json_array_foreach(found, i, f) {
        int avoid = ls_finding_severity(f) == LS_SEV_ERROR && ls_finding_gpus(f);
        json_object_set_new(f, "action",
                            json_string(ls_finding_action_name(avoid ? LS_FA_AVOID : LS_FA_NONE)));
    }
}

/* Runs the groups of one stage in the table's order. */
static void run_stage(const ls_machine_t *m, enum ls_rule_stage stage, json_t *found)
{
    for (size_t i = 0; i < ls_rule_group_count; i++)
        if (ls_rule_groups[i].stage == stage)
            ls_rule_groups[i].run(m, found);
}

json_t *ls_findings(const json_t *doc)
{
    json_t *found = json_array();
    ls_machine_t *m = ls_machine_new(doc);
    if (!m)
        return found;
    run_stage(m, LS_STAGE_JUDGED, found);
    lower_noisy(m, found);
    fold_into_busy(found);
    fold_every_gpu(m, found);
    run_stage(m, LS_STAGE_AS_IS, found);
    ls_machine_free(m);
    set_actions(found);
    return by_severity(found);
}
