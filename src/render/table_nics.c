/* The RDMA NIC table of the reports (inventory section): one row per NIC with its
   firmware, board, PCIe link, ports, the GPUs by link word and what NCCL reported. */
#include "model/doc.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pcie_cell(const json_t *pcie, char *buf, size_t len)
{
    long long gen = ls_json_int(pcie, "gen", 0), width = ls_json_int(pcie, "width", 0);
    if (!gen || !width) {
        snprintf(buf, len, "-");
        return;
    }
    snprintf(buf, len, "Gen%lld x%lld (Gen%lld x%lld)", gen, width,
             ls_json_int(pcie, "gen_max", gen), ls_json_int(pcie, "width_max", width));
}

static void ports_cell(const json_t *ports, ls_buf_t *b)
{
    size_t i;
    const json_t *p;
    json_array_foreach(ports, i, p) {
        ls_buf_printf(b, "%s%lld %s %.0f Gb/s %s", i ? "; " : "", ls_json_int(p, "port", 0),
                      ls_json_str(p, "state", "?"), ls_json_num(p, "rate_gbps", 0),
                      ls_json_str(p, "link_layer", ""));
    }
}

static void gpus_cell(const json_t *by, ls_buf_t *b)
{
    const char *word;
    const json_t *list, *g;
    size_t i;
    int first = 1;
    json_object_foreach((json_t *)by, word, list) {
        ls_buf_printf(b, "%s%s ", first ? "" : "; ", word);
        json_array_foreach(list, i, g)
            ls_buf_printf(b, "%s%lld", i ? "," : "", (long long)json_integer_value(g));
        first = 0;
    }
}

/* "GDR 1 [RO]" as NCCL reported it; "-" without an NCCL log naming the NIC. */
static void nccl_cell(const json_t *v, char *buf, size_t len)
{
    const json_t *gdr = json_object_get(v, "gdr");
    if (!v)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "GDR %s%s",
                 json_is_boolean(gdr) ? (json_is_true(gdr) ? "1" : "0") : "unknown",
                 json_is_true(json_object_get(v, "relaxed_ordering")) ? " [RO]" : "");
}

ls_table_t *ls_table_nics(const json_t *doc)
{
    const json_t *nics = json_object_get(doc, "nics");
    if (json_array_size(nics) == 0)
        return NULL;
    static const char *header[] = {"NIC",          "name",  "PCI bus id",           "NUMA",
                                   "firmware",     "board", "PCIe gen/width (max)", "ports",
                                   "GPUs by link", "NCCL"};
    ls_table_t *t = ls_table_new("RDMA NICs (sysfs; NCCL: what an imported NCCL log reported)", 10,
                                 header);
    /* a narrow terminal keeps the NIC, its ports, GPUs and what NCCL made of it */
    ls_table_drop(t, "board,firmware,PCI bus id,PCIe gen/width (max),NUMA");
    size_t i;
    const json_t *n;
    json_array_foreach(nics, i, n) {
        char numa[16] = "-", pcie[48], nccl[48];
        if (ls_json_int(n, "numa_node", -1) >= 0) /* -1: unknown */
            snprintf(numa, sizeof numa, "%lld", ls_json_int(n, "numa_node", -1));
        pcie_cell(json_object_get(n, "pcie"), pcie, sizeof pcie);
        nccl_cell(json_object_get(n, "nccl"), nccl, sizeof nccl);
        ls_buf_t ports = {0}, gpus = {0};
        ports_cell(json_object_get(n, "ports"), &ports);
        gpus_cell(json_object_get(n, "gpus_by_link"), &gpus);
        char *pt = ls_buf_take(&ports), *gt = ls_buf_take(&gpus);
        const char *row[] = {ls_json_str(n, "label", "-"),
                             ls_json_str(n, "name", "-"),
                             ls_json_str(n, "pci_bus_id", "-"),
                             numa,
                             ls_json_str(n, "firmware", "-"),
                             ls_json_str(n, "board_id", "-"),
                             pcie,
                             pt[0] ? pt : "-",
                             gt[0] ? gt : "-",
                             nccl};
        ls_table_row(t, row);
        free(pt);
        free(gt);
    }
    return t;
}
