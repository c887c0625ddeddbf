/* NVLink error counters since the driver loaded, as a pasted `nvidia-smi nvlink -e` shows
   them (gpus[].nvlinks[].errors, import/smi_nvlink.c): the rule nvlink_errors on a
   snapshot. Replays and recoveries are 0 on a sound link, but a count since the driver
   loaded is not a rise (model/nvlink_errors.h): a warning, node action watch, until a
   second reading under load shows it climb (that rise is what isolates); CRC counts alone
   were corrected in the link layer and a snapshot has no time base to rate them (DCGM's
   limit is 100 a second), so they are information. */
#include "rules.h"
#include "model/doc.h"
#include "model/nvlink_errors.h"

#include <stdio.h>

/* One GPU's counters summed over its links, and how many links showed counters. */
typedef struct {
    long long replay, recovery, crc;
    int links;
} counts_t;

static long long crc_of(const json_t *e)
{
    return ls_json_int(e, "crc", 0) + ls_json_int(e, "crc_flit", 0) + ls_json_int(e, "crc_data", 0);
}

/* " 65535 CRC (a counter's ceiling: at least that many)" for one counter of one link, a
   comma before all but the first (*first). */
static void put_count(ls_text_t *t, long long n, const char *what, int *first)
{
    if (n <= 0)
        return;
    ls_text_put(t, "%s %lld %s%s", *first ? "" : ",", n, what,
                ls_nvlink_counter_saturated(n) ? " (a counter's ceiling: at least that many)" : "");
    *first = 0;
}

/* "link 0: 2 replays 65535 CRC; " for every link whose counters are not all 0; returns how
   many. */
static int put_links(ls_text_t *t, const json_t *gpu)
{
    size_t i;
    const json_t *l;
    int listed = 0;
    json_array_foreach(json_object_get(gpu, "nvlinks"), i, l) {
        const json_t *e = json_object_get(l, "errors");
        long long rp = ls_json_int(e, "replay", 0), rc = ls_json_int(e, "recovery", 0),
                  crc = crc_of(e);
        if (rp + rc + crc <= 0)
            continue;
        int first = 1;
        ls_text_put(t, "link %lld:", ls_json_int(l, "link", -1));
        put_count(t, rp, rp == 1 ? "replay" : "replays", &first);
        put_count(t, rc, rc == 1 ? "recovery" : "recoveries", &first);
        put_count(t, crc, "CRC", &first);
        ls_text_put(t, "; ");
        listed++;
    }
    return listed;
}

static counts_t count_gpu(const json_t *gpu)
{
    counts_t c = {0};
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(gpu, "nvlinks"), i, l) {
        const json_t *e = json_object_get(l, "errors");
        if (!json_is_object(e))
            continue;
        c.links++;
        c.replay += ls_json_int(e, "replay", 0);
        c.recovery += ls_json_int(e, "recovery", 0);
        c.crc += crc_of(e);
    }
    return c;
}

static void finding(int g, const json_t *gpu, const counts_t *c, json_t *out)
{
    enum ls_action a = ls_nvlink_count_action(c->replay, c->recovery);
    ls_text_t t = {.used = 0};
    ls_text_put(&t,
                "GPU%d NVLink error counters since the driver loaded (nvidia-smi nvlink -e): ", g);
    int listed = put_links(&t, gpu);
    ls_text_put(&t, "its other %d link%s 0. ", c->links - listed,
                c->links - listed == 1 ? "" : "s");
    if (a != LS_ACT_NONE)
        ls_text_put(&t,
                    "A replay resends flits the far end received corrupted, a recovery "
                    "retrains the link: both stay 0 on a sound link, but a count since the "
                    "driver loaded has no time base and may be history (a GPU reset or reboot "
                    "clears it, not the fault). %sNext: `nvidia-smi nvlink -e` again under "
                    "NVLink load (nccl-tests all_reduce_perf for a minute): a replay or "
                    "recovery that climbs is what DCGM fails a GPU on (isolate: take the node "
                    "out for service, NCCL_P2P_DISABLE=1 keeps jobs off NVLink until then)",
                    listed < c->links ? "Errors on some links while the others stay at 0 "
                                        "point at those links' hardware (connector, board "
                                        "trace or module). "
                                      : "");
    else
        ls_text_put(&t, "CRC counts with no replay or recovery were corrected in the link "
                        "layer, and a count since the driver loaded has no time base to rate "
                        "(DCGM fails only 100 a second or more): watch whether they climb, "
                        "`nvidia-smi nvlink -e` twice a minute apart under load");
    char path[48];
    snprintf(path, sizeof path, "gpus[%d].nvlinks", g);
    ls_finding_add(out, "nvlink_errors", a != LS_ACT_NONE ? ls_action_severity(a) : LS_SEV_INFO,
                   LS_ABOUT_GPU(g), json_pack("[s]", path), "%s", t.buf);
    if (a != LS_ACT_NONE)
        json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                            json_string(ls_action_name(a)));
}

void ls_rule_nvlink_counts(const ls_machine_t *m, json_t *out)
{
    for (int g = 0; g < m->ngpus; g++) {
        if (!m->gpu[g])
            continue;
        counts_t c = count_gpu(m->gpu[g]);
        if (c.replay + c.recovery + c.crc > 0)
            finding(g, m->gpu[g], &c, out);
    }
}
