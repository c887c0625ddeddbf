/* One pasted matrix, no repeats: a direction of a GPU pair far below its mirror
   (one_way_low). The samples-based asymmetry rule (rules_links.c) needs a spread to
   compare with; a single figure each way cannot give one, so only a gap no noise makes
   is named (LS_ONE_WAY_RATIO, rules.h), and the wording says how much the text supports. */
#include "rules.h"

#include <stdio.h>

static void one_way(const ls_machine_t *m, int a, int b, json_t *out)
{
    const ls_pair_bw_t *ab = &m->uni[a][b], *ba = &m->uni[b][a];
    if (ab->value <= 0 || ba->value <= 0 || ab->direct != ba->direct)
        return;
    if (ab->n >= 2 && ba->n >= 2)
        return; /* with samples both ways, asymmetry judges the gap against their spread */
    int lo = ab->value < ba->value ? a : b, hi = lo == a ? b : a;
    const ls_pair_bw_t *slow = &m->uni[lo][hi], *fast = &m->uni[hi][lo];
    double ratio = slow->value / fast->value;
    if (ratio >= LS_ONE_WAY_RATIO)
        return;
    char subject[48], causes[512];
    ls_about_t about = LS_ABOUT_PAIR(lo, hi);
    ls_about_text(&about, subject, sizeof subject);
    ls_pair_causes(m, lo, hi, causes, sizeof causes);
    /* a quarter or less of the mirror is beyond any lane-count mismatch of one link */
    const char *strength = ratio < LS_ONE_WAY_RATIO / 2 ? "far below" : "below";
    ls_finding_add(out, "one_way_low", LS_SEV_WARNING, about,
                   json_pack("[s,s]", slow->id ? slow->id : "", fast->id ? fast->id : ""),
                   "%s %s %.1f GB/s is %s its mirror GPU%d->GPU%d %.1f GB/s (%.0f%%); the link is "
                   "full duplex, "
                   "so one direction should match the other; this rests on %s, so rerun to "
                   "confirm; likely: %s; next: `nvidia-smi topo -m`, "
                   "`nvidia-smi -q | grep -A3 'Link Width'`, `lspci -vvv | grep ACSCtl`",
                   subject, slow->direct ? "P2P" : "staged", slow->value, strength, hi, lo,
                   fast->value, 100 * ratio,
                   slow->n >= 2 || fast->n >= 2 ? "one direction without repeats"
                                                : "one figure each way (no repeats in the paste)",
                   causes);
}

void ls_rules_matrix(const ls_machine_t *m, json_t *out)
{
    for (int a = 0; a < m->ngpus; a++)
        for (int b = a + 1; b < m->ngpus; b++)
            one_way(m, a, b, out);
}
