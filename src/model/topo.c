#include "topo.h"
#include "doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *class_names[] = {"?", "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS"};

const char *ls_link_class(enum ls_link_type type)
{
    if ((unsigned)type >= sizeof class_names / sizeof class_names[0])
        return "?";
    return class_names[type];
}

int ls_link_parse(const char *word, ls_link_t *link)
{
    link->nvlinks = 0;
    if (strncmp(word, "NV", 2) == 0 && word[2] >= '0' && word[2] <= '9') {
        char *end;
        long n = strtol(word + 2, &end, 10);
        if (*end || n <= 0 || n > 1000)
            return -1;
        link->type = LS_LINK_NV;
        link->nvlinks = (int)n;
        return 0;
    }
    for (int t = LS_LINK_X; t <= LS_LINK_SYS; t++) {
        if (t != LS_LINK_NV && strcmp(word, class_names[t]) == 0) {
            link->type = (enum ls_link_type)t;
            return 0;
        }
    }
    return -1;
}

void ls_link_format(ls_link_t link, char *buf, size_t buflen)
{
    if (link.type == LS_LINK_NV)
        snprintf(buf, buflen, "NV%d", link.nvlinks);
    else
        snprintf(buf, buflen, "%s", ls_link_class(link.type));
}

static const char *p2p_words[] = {"U", "X", "OK", "CNS", "GNS", "TNS", "NS", "DR"};

int ls_p2p_parse(const char *word, enum ls_p2p_status *status)
{
    for (int s = 0; s <= LS_P2P_DR; s++) {
        if (strcmp(word, p2p_words[s]) == 0) {
            *status = (enum ls_p2p_status)s;
            return 0;
        }
    }
    return -1;
}

const char *ls_p2p_word(enum ls_p2p_status status)
{
    if ((unsigned)status > LS_P2P_DR)
        return "U";
    return p2p_words[status];
}

static json_t *gpu_object(json_t *gpus, int index)
{
    return ls_json_find_or_add(gpus, json_pack("{s:i}", "index", index), "index", NULL);
}

static json_t *link_json(const char *ka, int a, const char *kb, int b, ls_link_t link)
{
    char word[16];
    ls_link_format(link, word, sizeof word);
    json_t *obj = json_pack("{s:i, s:i, s:s, s:s}", ka, a, kb, b, "type", word, "class",
                            ls_link_class(link.type));
    if (link.type == LS_LINK_NV)
        json_object_set_new(obj, "nvlinks", json_integer(link.nvlinks));
    return obj;
}

/* The GPUs seen from NIC n, grouped by the link word ("PIX": [0, 1], "SYS": [4, 5]), in
   the order the words first occur: which GPUs can use the NIC without crossing the CPU. */
static json_t *nic_gpus_json(const ls_topo_t *topo, int n)
{
    json_t *by = json_object();
    for (int g = 0; g < topo->ngpus; g++) {
        char word[16] = "unknown"; /* a partial paste: the GPU's row was cut */
        if (topo->gpu_nic[g][n].type != LS_LINK_NONE)
            ls_link_format(topo->gpu_nic[g][n], word, sizeof word);
        json_t *list = ls_json_array_at(by, word);
        json_array_append_new(list, json_integer(g));
    }
    return by;
}

/* Ordered NIC pairs (a != b), as the NIC rows of nvidia-smi topo -m. */
static json_t *nic_nic_json(const ls_topo_t *topo)
{
    json_t *list = json_array();
    for (int a = 0; a < topo->nnics; a++)
        for (int b = 0; b < topo->nnics; b++)
            if (a != b)
                json_array_append_new(list, link_json("a", a, "b", b, topo->nic_nic[a][b]));
    return list;
}

void ls_topo_to_doc(const ls_topo_t *topo, json_t *doc)
{
    json_t *gpus = json_object_get(doc, "gpus");
    for (int g = 0; g < topo->ngpus; g++) {
        json_t *gpu = gpu_object(gpus, g);
        json_object_set_new(gpu, "label", json_string(topo->gpu_label[g]));
        json_object_set_new(gpu, "cpu_affinity", json_string(topo->cpu_affinity[g]));
        json_object_set_new(gpu, "numa_affinity", json_string(topo->numa_affinity[g]));
        json_object_set_new(gpu, "gpu_numa_id", json_string(topo->gpu_numa_id[g]));
    }
    json_t *links = json_array();
    for (int a = 0; a < topo->ngpus; a++)
        for (int b = 0; b < topo->ngpus; b++) {
            if (a == b)
                continue;
            json_t *l = link_json("a", a, "b", b, topo->gpu_gpu[a][b]);
            if (topo->has_p2p) {
                json_object_set_new(l, "p2p_read", json_string(ls_p2p_word(topo->p2p_read[a][b])));
                json_object_set_new(l, "p2p_write",
                                    json_string(ls_p2p_word(topo->p2p_write[a][b])));
            }
            json_array_append_new(links, l);
        }
    json_object_set_new(doc, "links", links);
    json_t *nics = json_object_get(doc, "nics");
    for (int n = 0; n < topo->nnics; n++) {
        json_t *nic = json_array_get(nics, (size_t)n);
        if (!nic) {
            nic = json_object();
            json_array_append_new(nics, nic);
        }
        json_object_set_new(nic, "index", json_integer(n));
        json_object_set_new(nic, "label", json_string(topo->nic_label[n]));
        if (topo->nic_name[n][0]) /* a name not known is left out, never empty */
            json_object_set_new(nic, "name", json_string(topo->nic_name[n]));
        json_object_set_new(nic, "gpus_by_link", nic_gpus_json(topo, n));
    }
    json_t *gnl = json_array();
    for (int g = 0; g < topo->ngpus; g++)
        for (int n = 0; n < topo->nnics; n++)
            json_array_append_new(gnl, link_json("gpu", g, "nic", n, topo->gpu_nic[g][n]));
    json_object_set_new(doc, "gpu_nic_links", gnl);
    if (topo->nnics > 0)
        json_object_set_new(doc, "nic_nic_links", nic_nic_json(topo));
}

static void read_link(const json_t *obj, ls_link_t *link)
{
    if (ls_link_parse(ls_json_str(obj, "type", "?"), link) != 0)
        link->type = LS_LINK_NONE;
}

static void read_nic_nic(const json_t *doc, ls_topo_t *topo)
{
    size_t i;
    const json_t *v;
    for (int n = 0; n < topo->nnics; n++)
        topo->nic_nic[n][n].type = LS_LINK_X;
    json_array_foreach(json_object_get(doc, "nic_nic_links"), i, v) {
        long long a = ls_json_int(v, "a", -1), b = ls_json_int(v, "b", -1);
        if (a >= 0 && b >= 0 && a < topo->nnics && b < topo->nnics)
            read_link(v, &topo->nic_nic[a][b]);
    }
}

int ls_topo_from_doc(const json_t *doc, ls_topo_t *topo)
{
    memset(topo, 0, sizeof *topo);
    const json_t *gpus = json_object_get(doc, "gpus");
    size_t i;
    const json_t *v;
    json_array_foreach(gpus, i, v) {
        long long g = ls_json_int(v, "index", -1);
        if (g < 0 || g >= LS_MAX_GPUS)
            continue;
        if (g + 1 > topo->ngpus)
            topo->ngpus = (int)g + 1;
        snprintf(topo->gpu_label[g], sizeof topo->gpu_label[g], "%s", ls_json_str(v, "label", ""));
        if (!topo->gpu_label[g][0])
            snprintf(topo->gpu_label[g], sizeof topo->gpu_label[g], "GPU%lld", g);
        snprintf(topo->cpu_affinity[g], sizeof topo->cpu_affinity[g], "%s",
                 ls_json_str(v, "cpu_affinity", ""));
        snprintf(topo->numa_affinity[g], sizeof topo->numa_affinity[g], "%s",
                 ls_json_str(v, "numa_affinity", ""));
        snprintf(topo->gpu_numa_id[g], sizeof topo->gpu_numa_id[g], "%s",
                 ls_json_str(v, "gpu_numa_id", ""));
    }
    for (int g = 0; g < topo->ngpus; g++) {
        if (!topo->gpu_label[g][0]) /* an index the document skips: a GPU it says nothing of */
            snprintf(topo->gpu_label[g], sizeof topo->gpu_label[g], "GPU%d", g);
        topo->gpu_gpu[g][g].type = LS_LINK_X,
        topo->p2p_read[g][g] = topo->p2p_write[g][g] = LS_P2P_SELF;
    }
    json_array_foreach(json_object_get(doc, "links"), i, v) {
        long long a = ls_json_int(v, "a", -1), b = ls_json_int(v, "b", -1);
        if (a < 0 || b < 0 || a >= topo->ngpus || b >= topo->ngpus)
            continue;
        read_link(v, &topo->gpu_gpu[a][b]);
        const char *r = ls_json_str(v, "p2p_read", NULL), *w = ls_json_str(v, "p2p_write", NULL);
        if (r && w) {
            topo->has_p2p = 1;
            ls_p2p_parse(r, &topo->p2p_read[a][b]);
            ls_p2p_parse(w, &topo->p2p_write[a][b]);
        }
    }
    json_array_foreach(json_object_get(doc, "nics"), i, v) {
        if (i >= LS_MAX_NICS)
            break;
        topo->nnics = (int)i + 1;
        snprintf(topo->nic_name[i], sizeof topo->nic_name[i], "%s", ls_json_str(v, "name", ""));
        snprintf(topo->nic_label[i], sizeof topo->nic_label[i], "%s", ls_json_str(v, "label", ""));
        if (!topo->nic_label[i][0])
            snprintf(topo->nic_label[i], sizeof topo->nic_label[i], "NIC%zu", i);
    }
    json_array_foreach(json_object_get(doc, "gpu_nic_links"), i, v) {
        long long g = ls_json_int(v, "gpu", -1), n = ls_json_int(v, "nic", -1);
        if (g >= 0 && n >= 0 && g < topo->ngpus && n < topo->nnics)
            read_link(v, &topo->gpu_nic[g][n]);
    }
    read_nic_nic(doc, topo);
    return topo->ngpus > 0 ? 0 : -1;
}
