/* Causes of a slow or missing GPU-to-GPU path, ranked by what the document shows about
   the pair: the environment switching P2P off, a GeForce board (its driver gives no peer
   access), the tool's own "no peer access" flag, a NUMA / socket crossing, a PCIe path
   through the CPU (where ACS or the IOMMU redirect peer traffic), an NVLink pair (a link
   or cable down). Each cause the text supports is named with the fact; the generic
   rest follows as "else". */
#include "rules.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/topo.h"
#include "model/vocab.h"

#include <stdio.h>
#include <string.h>

static void add(char *buf, size_t len, int *n, const char *fmt, const char *a, const char *b)
{
    size_t used = strlen(buf);
    if (used + 4 >= len)
        return;
    snprintf(buf + used, len - used, "%s", *n ? "; " : "");
    used = strlen(buf);
    snprintf(buf + used, len - used, fmt, a, b);
    (*n)++;
}

static int flagged_no_p2p(const ls_machine_t *m, int a, int b)
{
    for (long k = ls_doc_next_measurement(m->doc, LS_FAMILY_P2P, 0); k >= 0;
         k = ls_doc_next_measurement(m->doc, LS_FAMILY_P2P, k + 1)) {
        const json_t *e = ls_measurement(m, (size_t)k);
        long long s = ls_json_int(e, "src", -1), d = ls_json_int(e, "dst", -1);
        if (((s == a && d == b) || (s == b && d == a)) && ls_entry_has_flag(e, LS_FLAG_NO_P2P))
            return 1;
    }
    return 0;
}

/* nvidia-smi topo -p2p's words (its legend) and what each says of the pair. */
static const struct {
    enum ls_p2p_status status;
    const char *cause;
} p2p_words[] = {
    {.status = LS_P2P_GNS,
     .cause = "GPU not supported: the driver gives this board no peer access "
              "(GeForce and some workstation boards)"},
    {.status = LS_P2P_CNS,
     .cause = "chipset not supported: the root complex (or a VM's virtual bridge) "
              "does not pass peer traffic"},
    {.status = LS_P2P_TNS,
     .cause = "topology not supported: the driver allows no P2P where the two GPUs "
              "sit (across sockets or root complexes on this platform)"},
    {.status = LS_P2P_DR, .cause = "disabled by a driver registry key"},
    {.status = LS_P2P_NS, .cause = "not supported, without a reason given"},
};

/* The status nvidia-smi topo -p2p gave the pair, from the matrices or a paste whose
   capability was not named; LS_P2P_UNKNOWN when the text has none. */
static enum ls_p2p_status smi_status(const ls_machine_t *m, int a, int b)
{
    enum ls_p2p_status s = LS_P2P_UNKNOWN;
    if (m->has_topo && m->topo->has_p2p && a >= 0 && b >= 0)
        s = m->topo->p2p_read[a][b] > LS_P2P_OK ? m->topo->p2p_read[a][b]
                                                : m->topo->p2p_write[a][b];
    size_t i;
    const json_t *l;
    json_array_foreach(json_object_get(m->doc, "links"), i, l) {
        if (s <= LS_P2P_OK && ls_json_int(l, "a", -1) == a && ls_json_int(l, "b", -1) == b &&
            ls_p2p_parse(ls_json_str(l, "p2p_status", ""), &s) != 0)
            s = LS_P2P_UNKNOWN;
    }
    return s;
}

const char *ls_pair_smi_word_meaning(const ls_machine_t *m, int a, int b)
{
    enum ls_p2p_status s = smi_status(m, a, b);
    for (size_t i = 0; i < sizeof p2p_words / sizeof p2p_words[0]; i++)
        if (p2p_words[i].status == s)
            return p2p_words[i].cause;
    return NULL;
}

static void add_smi_word(const ls_machine_t *m, int a, int b, char *buf, size_t len, int *n)
{
    enum ls_p2p_status s = smi_status(m, a, b);
    for (size_t i = 0; i < sizeof p2p_words / sizeof p2p_words[0]; i++)
        if (p2p_words[i].status == s)
            add(buf, len, n, "nvidia-smi says %s (%s)", ls_p2p_word(s), p2p_words[i].cause);
}

void ls_pair_causes(const ls_machine_t *m, int a, int b, char *buf, size_t len)
{
    int n = 0;
    buf[0] = '\0';
    const json_t *env = json_object_get(m->doc, "env");
    const char *dis = ls_json_str(env, "NCCL_P2P_DISABLE", ""),
               *lvl = ls_json_str(env, "NCCL_P2P_LEVEL", "");
    if (!strcmp(dis, "1"))
        add(buf, len, &n, "the environment sets NCCL_P2P_DISABLE=%s%s", dis, "");
    else if (!strcmp(lvl, "LOC") || !strcmp(lvl, "0"))
        add(buf, len, &n, "the environment sets NCCL_P2P_LEVEL=%s%s", lvl, "");
    add_smi_word(m, a, b, buf, len, &n);
    if (ls_machine_geforce(m, a) || ls_machine_geforce(m, b))
        add(buf, len, &n,
            "%s is a GeForce or TITAN board: NVIDIA's driver gives these cards no PCIe peer "
            "access%s",
            ls_machine_gpu_name(m, ls_machine_geforce(m, a) ? a : b),
            " (only over an NVLink bridge where the card has one; copies marked P2P are then "
            "staged)");
    if (flagged_no_p2p(m, a, b))
        add(buf, len, &n, "the tool reported no peer access for this pair%s%s", "", "");
    enum ls_link_type t = m->has_topo && a >= 0 && b >= 0 ? m->topo->gpu_gpu[a][b].type
                                                          : LS_LINK_NONE;
    int numa_cross = a >= 0 && b >= 0 && m->numa[a] >= 0 && m->numa[b] >= 0 &&
                     m->numa[a] != m->numa[b];
    if (t == LS_LINK_SYS || numa_cross)
        add(buf, len, &n, "the pair crosses CPU sockets (%s): traffic takes the SMP interconnect%s",
            t == LS_LINK_SYS ? "SYS in the topology" : "different NUMA nodes", "");
    else if (t == LS_LINK_PHB || t == LS_LINK_NODE)
        add(buf, len, &n,
            "the pair meets at the CPU (%s), where ACS or the IOMMU can redirect peer traffic%s",
            t == LS_LINK_PHB ? "PHB" : "NODE", "");
    else if (t == LS_LINK_PIX || t == LS_LINK_PXB)
        add(buf, len, &n,
            "the pair shares a PCIe switch (%s): ACS on that switch sends peer traffic up to "
            "the CPU%s",
            t == LS_LINK_PIX ? "PIX" : "PXB", "");
    else if (t == LS_LINK_NV)
        add(buf, len, &n, "the pair is joined by NVLink: a link or cable down or running slow%s%s",
            "", "");
    if (n)
        add(buf, len, &n, "else %s%s",
            n == 1 ? "a VM's virtual bridge, or a downtrained link" : "a downtrained link", "");
    else
        add(buf, len, &n, "%s%s",
            "the text does not show which: ACS or IOMMU redirection, a VM's virtual "
            "bridge, a consumer board without peer access, or a socket crossing",
            "");
}
