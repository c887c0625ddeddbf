/* Link rules: a pair far below the others of its link class, asymmetry beyond the
   samples' spread, PCIe links trained below their capability, NVLinks down. */
#include "rules.h"
#include "ceiling.h"
#include "uni_index.h"
#include "model/doc.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ratio of a -> b to the median of the other pairs of the same link word and path
   (direct or staged); 0 when there are too few others to compare. */
static double class_ratio(const ls_machine_t *m, int a, int b, double *median, int *peers)
{
    char wa[16], wc[16];
    const ls_pair_bw_t *ab = &m->uni[a][b];
    *peers = 0;
    *median = 0;
    if (!m->has_topo)
        return 0; /* without link words, NVLink and PCIe pairs would be compared */
    if (!strcmp(ls_machine_link_word(m, a, b, wa, sizeof wa), "?"))
        return 0; /* links of no known kind: the same lumping */
    double *vals = malloc((size_t)m->ngpus * (size_t)m->ngpus * sizeof *vals);
    int n = 0;
    for (int c = 0; vals && c < m->ngpus; c++)
        for (int d = 0; d < m->ngpus; d++) {
            const ls_pair_bw_t *cd = &m->uni[c][d];
            if (c == d || cd->value <= 0 || cd->direct != ab->direct || (c == a && d == b) ||
                (c == b && d == a))
                continue;
            if (strcmp(ls_machine_link_word(m, c, d, wc, sizeof wc), wa) == 0)
                vals[n++] = cd->value;
        }
    *peers = n;
    *median = ls_median(vals, n);
    free(vals);
    return n >= LS_DEGRADED_MIN_PEERS && *median > 0 ? ab->value / *median : 0;
}

static void degraded_pair(const ls_machine_t *m, int a, int b, json_t *out)
{
    double med[2] = {0, 0}, ratio[2] = {0, 0};
    int peers[2] = {0, 0}, dirs[2][2] = {{a, b}, {b, a}}, flagged = 0;
    double worst = 1;
    json_t *evidence = json_array();
    for (int k = 0; k < 2; k++) {
        int s = dirs[k][0], d = dirs[k][1];
        if (m->uni[s][d].value <= 0)
            continue;
        ratio[k] = class_ratio(m, s, d, &med[k], &peers[k]);
        if (ratio[k] > 0 && ratio[k] < LS_DEGRADED_RATIO) {
            flagged++;
            json_array_append_new(evidence, json_string(m->uni[s][d].id));
            if (ratio[k] < worst)
                worst = ratio[k];
        }
    }
    if (!flagged) {
        json_decref(evidence);
        return;
    }
    char word[16];
    ls_machine_link_word(m, a, b, word, sizeof word);
    int k = ratio[0] > 0 && ratio[0] < LS_DEGRADED_RATIO ? 0 : 1;
    int s = dirs[k][0], d = dirs[k][1];
    const char *hint = strncmp(word, "NV", 2) == 0
                           ? "NVLink partly down? compare nvidia-smi nvlink -s"
                           : "downtrained or shared PCIe path?";
    ls_finding_add(out, "degraded_link",
                   worst < LS_DEGRADED_ERROR_RATIO ? LS_SEV_ERROR : LS_SEV_WARNING,
                   flagged == 2 ? LS_ABOUT_BOTH(s, d) : LS_ABOUT_PAIR(s, d), evidence,
                   "GPU%d->GPU%d %.1f GB/s is %.0f%% of the median %.1f GB/s of %d other %s %s "
                   "pair directions (%s)",
                   s, d, m->uni[s][d].value, 100 * ratio[k], med[k], peers[k], word,
                   m->uni[s][d].direct ? "P2P" : "staged", hint);
}

static void degraded_pairs(const ls_machine_t *m, json_t *out)
{
    for (int a = 0; a < m->ngpus; a++)
        for (int b = a + 1; b < m->ngpus; b++)
            degraded_pair(m, a, b, out);
}

static double stat_of(const json_t *e, const char *key)
{
    return ls_json_num(json_object_get(e, "stats"), key, 0);
}

/* 1 when the two directions differ by more than the samples' spread explains. */
static int asymmetric(const json_t *e, const json_t *r, int need_samples)
{
    double va = ls_json_num(e, "value", 0), vb = ls_json_num(r, "value", 0);
    double hi = va > vb ? va : vb, diff = fabs(va - vb);
    if (need_samples && (stat_of(e, "n") < 2 || stat_of(r, "n") < 2))
        return 0;
    double spread = LS_ASYM_SPREAD_FACTOR * (stat_of(e, "stddev") + stat_of(r, "stddev"));
    return hi > 0 && diff >= LS_ASYM_MIN_FRACTION * hi && diff > spread;
}

/* A witness: an ok figure whose two directions agree within their spread. */
static int symmetric(const json_t *o, const json_t *r)
{
    return strcmp(ls_json_str(o, "status", ""), "ok") == 0 && !asymmetric(o, r, 0);
}

/* Each pair's two directions of one tool and method (the reverse and another tool's
   witness found through ls_uni_index: linear in entries). */
static void asymmetry(const ls_machine_t *m, json_t *out)
{
    ls_uni_index_t *ix = ls_uni_index_new(m);
    for (size_t i = 0; ix && i < ix->n; i++) {
        const json_t *e = ix->entry[i];
        long long a = ls_json_int(e, "src", -1), b = ls_json_int(e, "dst", -1);
        if (a < 0 || b <= a || strcmp(ls_json_str(e, "direction", LS_DIR_UNI), LS_DIR_UNI) != 0 ||
            strcmp(ls_json_str(e, "status", ""), "ok") != 0)
            continue;
        const json_t *r = ls_uni_reverse(ix, e);
        if (!r || !asymmetric(e, r, 1))
            continue;
        double va = ls_json_num(e, "value", 0), vb = ls_json_num(r, "value", 0);
        double pct = 100 * fabs(va - vb) / (va > vb ? va : vb);
        const json_t *w = ls_uni_witness(ix, e, symmetric);
        char tail[200] = "";
        json_t *evidence = json_pack("[s, s]", ls_json_str(e, "id", ""), ls_json_str(r, "id", ""));
        if (w) {
            json_array_append_new(evidence, json_string(ls_json_str(w, "id", "")));
            snprintf(tail, sizeof tail,
                     "; %s %s finds both directions alike: the method, not the link",
                     ls_json_str(w, "source", "?"), ls_json_str(w, "method", "?"));
        }
        ls_finding_add(out, "asymmetry", w ? LS_SEV_INFO : LS_SEV_WARNING, LS_ABOUT_BOTH(a, b),
                       evidence,
                       "GPU%lld->GPU%lld %.1f GB/s vs GPU%lld->GPU%lld %.1f GB/s (%s %s, %d and %d "
                       "samples): "
                       "%.0f%% apart, beyond the samples' spread%s",
                       a, b, va, b, a, vb, ls_json_str(e, "source", "?"),
                       ls_json_str(e, "method", "?"), (int)stat_of(e, "n"), (int)stat_of(r, "n"),
                       pct, tail);
    }
    ls_uni_index_free(ix);
}

static void pcie_training(const ls_machine_t *m, json_t *out)
{
    for (int g = 0; g < m->ngpus; g++) {
        const json_t *p = json_object_get(m->gpu[g], "pcie");
        long long gc = ls_json_int(p, "gen_current", 0), gm = ls_json_int(p, "gen_max", 0);
        long long wc = ls_json_int(p, "width_current", 0), wm = ls_json_int(p, "width_max", 0);
        char path[48];
        snprintf(path, sizeof path, "gpus[%d].pcie", g);
        if (wc > 0 && wm > 0 && wc < wm)
            ls_finding_add(out, "pcie_downtrained", LS_SEV_WARNING, LS_ABOUT_GPU(g),
                           json_pack("[s]", path),
                           "GPU%d PCIe link trained at x%lld of x%lld lanes: reseat the card, "
                           "check the slot, "
                           "riser and BIOS lane setting (a laptop or a board that wires the GPU at "
                           "x%lld "
                           "reports this too)",
                           g, wc, wm, wc);
        if (gc > 0 && gm > 0 && gc < gm)
            ls_finding_add(out, "pcie_downtrained", LS_SEV_INFO, LS_ABOUT_GPU(g),
                           json_pack("[s]", path),
                           "GPU%d PCIe at Gen%lld of Gen%lld (an idle GPU lowers its link speed to "
                           "save "
                           "power; read it again under load)",
                           g, gc, gm);
    }
}

static size_t active_nvlinks(const json_t *gpu)
{
    size_t i, active = 0;
    const json_t *l;
    json_array_foreach(json_object_get(gpu, "nvlinks"), i, l) {
        active += json_is_true(json_object_get(l, "active"));
    }
    return active;
}

/* down of total NVLink ports inactive on GPU g. The part's datasheet says how many
   links its board wires (an H100 PCIe or NVL shows 18 ports, its bridges wire 12; an RTX
   A6000 or 3090 wires 4): ports beyond those are not connected, not down, so that is
   info (nvlink_unwired); fewer active than wired is an error naming how many wired links are down.
   A part not in the datasheet keeps the plain count. */
static void inactive_against_part(const ls_machine_t *m, int g, size_t down, size_t total,
                                  const char *list, json_t *out)
{
    char path[48];
    snprintf(path, sizeof path, "gpus[%d].nvlinks", g);
    const ls_spec_row_t *part = ls_part_of(m, g);
    size_t active = total - down;
    if (part && part->nvlinks > 0 && active >= (size_t)part->nvlinks)
        ls_finding_add(out, "nvlink_unwired", LS_SEV_INFO, LS_ABOUT_GPU(g), json_pack("[s]", path),
                       "GPU%d: %zu of %zu NVLink ports inactive (links %s), %zu active: the part "
                       "(%s) wires %d, "
                       "so the others are not connected, not down",
                       g, down, total, list, active, part->key, part->nvlinks);
    else if (part && part->nvlinks > 0)
        ls_finding_add(out, "nvlink_inactive", LS_SEV_ERROR, LS_ABOUT_GPU(g),
                       json_pack("[s]", path),
                       "GPU%d: %zu of the %d NVLinks its part (%s) wires are down (%zu of %zu "
                       "ports inactive: links "
                       "%s); next: reseat the bridge or check the cable, `nvidia-smi nvlink -e` "
                       "for errors",
                       g, (size_t)part->nvlinks - active, part->nvlinks, part->key, down, total,
                       list);
    else
        ls_finding_add(out, "nvlink_inactive", LS_SEV_ERROR, LS_ABOUT_GPU(g),
                       json_pack("[s]", path), "GPU%d: %zu of %zu NVLinks inactive (links %s)", g,
                       down, total, list);
}

/* GPU g printed "all links are inactive" (NVML reads none). What the part wires says
   what that means: an SXM or superchip part whose datasheet lists NVLinks reaches its
   peers through them (on HGX boards through the NVSwitches), so every one down is an
   error; a PCIe card's NVLinks go through a bridge fitted on top, so all of them
   inactive is a card without a bridge (info), and a PCIe part without NVLink says
   nothing. A part not in the datasheet is judged by its name (an "SXM" name) or, beside
   GPUs whose links are up, warned about with the bridge named as the likely reason. */
static void all_inactive(const ls_machine_t *m, int g, int others_active, json_t *out)
{
    char path[48];
    snprintf(path, sizeof path, "gpus[%d].nvlinks_all_inactive", g);
    const ls_spec_row_t *part = ls_part_of(m, g);
    int pcie_card = part && strcmp(part->form, "PCIe") == 0;
    if (pcie_card && part->nvlinks > 0)
        ls_finding_add(out, "nvlink_unwired", LS_SEV_INFO, LS_ABOUT_GPU(g), json_pack("[s]", path),
                       "GPU%d (%s): every NVLink port inactive: no NVLink bridge is fitted (the "
                       "part, %s, wires %d "
                       "links through a bridge); its traffic to other GPUs goes over PCIe",
                       g, ls_machine_gpu_name(m, g), part->key, part->nvlinks);
    if (pcie_card || (part && part->nvlinks <= 0))
        return;
    if (part || strstr(ls_machine_gpu_name(m, g), "SXM"))
        ls_finding_add(out, "nvlink_inactive", LS_SEV_ERROR, LS_ABOUT_GPU(g),
                       json_pack("[s]", path),
                       "GPU%d %s: every NVLink is inactive (NVML cannot read them): its traffic to "
                       "other GPUs "
                       "falls back to PCIe or host memory; next: `nvidia-smi nvlink -s`, and on "
                       "NVSwitch systems "
                       "`systemctl status nvidia-fabricmanager`; drain the node if a reset does "
                       "not bring them up",
                       g, ls_machine_gpu_name(m, g));
    else if (others_active)
        ls_finding_add(out, "nvlink_inactive", LS_SEV_WARNING, LS_ABOUT_GPU(g),
                       json_pack("[s]", path),
                       "GPU%d %s: every NVLink is inactive while other GPUs have theirs up; the "
                       "part is not in the "
                       "datasheet: if it is a PCIe card, it has no bridge fitted; else its links "
                       "are down "
                       "(`nvidia-smi nvlink -s`, `nvidia-smi nvlink -e`)",
                       g, ls_machine_gpu_name(m, g));
}

/* Some links of a GPU down; or all of them while another GPU has active NVLinks (a
   board whose links are all down on an NVLink machine is the worst case, not a PCIe
   card: its traffic falls back to PCIe or host memory). */
static void nvlinks_inactive(const ls_machine_t *m, json_t *out)
{
    for (int g = 0; g < m->ngpus; g++) {
        const json_t *links = json_object_get(m->gpu[g], "nvlinks");
        size_t i, down = 0;
        const json_t *l;
        char list[128] = "";
        json_array_foreach(links, i, l) {
            if (json_is_false(json_object_get(l, "active"))) {
                size_t len = strlen(list);
                snprintf(list + len, sizeof list - len, "%s%lld", down ? "," : "",
                         ls_json_int(l, "link", (long long)i));
                down++;
            }
        }
        int others_active = 0;
        for (int o = 0; o < m->ngpus; o++)
            others_active |= o != g && active_nvlinks(m->gpu[o]) > 0;
        if (!json_array_size(links) &&
            json_is_true(json_object_get(m->gpu[g], "nvlinks_all_inactive"))) {
            all_inactive(m, g, others_active, out);
            continue;
        }
        if (!down || (down == json_array_size(links) && !others_active))
            continue;
        inactive_against_part(m, g, down, json_array_size(links), list, out);
    }
}

void ls_rules_links(const ls_machine_t *m, json_t *out)
{
    degraded_pairs(m, out);
    asymmetry(m, out);
    pcie_training(m, out);
    nvlinks_inactive(m, out);
}
