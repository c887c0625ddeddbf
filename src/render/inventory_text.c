/* linkscope inventory's text (inventory_text.h): two GPU tables and the NICs in fixed
   columns (ls_format_columns), the software line; the boards-and-clocks CSV. */
#include "inventory_text.h"
#include "format.h"
#include "model/doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading the document ---------------------------------------------------------- */

static const json_t *get2(const json_t *o, const char *a, const char *b)
{
    const json_t *v = json_object_get(o, a);
    return b ? json_object_get(v, b) : v;
}

/* A number as text, "-" when absent. */
static const char *num(char *buf, size_t len, const json_t *v, const char *fmt)
{
    if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, len, fmt, json_real_value(v));
    else
        snprintf(buf, len, "-");
    return buf;
}

static const char *onoff(const json_t *v)
{
    return json_is_true(v) ? "on" : json_is_false(v) ? "off" : "-";
}

static void memory_mib(char *buf, size_t len, const json_t *gpu)
{
    const json_t *v = json_object_get(gpu, "memory_total_bytes");
    if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)(json_integer_value(v) / (1024 * 1024)));
    else
        snprintf(buf, len, "-");
}

/* Three figures of one object as "a/b/c" ("-" each unknown). */
static void slashed(char *buf, size_t len, const json_t *o, const char *const keys[3],
                    const char *const fmts[3])
{
    char v[3][16];
    for (int k = 0; k < 3; k++)
        num(v[k], sizeof v[k], json_object_get(o, keys[k]), fmts[k]);
    snprintf(buf, len, "%s/%s/%s", v[0], v[1], v[2]);
}

static void sm_clocks(char *buf, size_t len, const json_t *gpu)
{
    static const char *const keys[3] = {"sm_mhz", "sm_app_mhz", "sm_max_mhz"},
                             *const fmts[3] = {"%.0f", "%.0f", "%.0f"};
    slashed(buf, len, json_object_get(gpu, "clocks"), keys, fmts);
}

static void pcie_text(char *buf, size_t len, const json_t *gpu)
{
    const json_t *p = json_object_get(gpu, "pcie");
    char gc[8], wc[8], gm[8], wm[8];
    if (!p || json_object_size(p) == 0) {
        snprintf(buf, len, "-");
        return;
    }
    snprintf(buf, len, "Gen%s x%s / Gen%s x%s",
             num(gc, sizeof gc, json_object_get(p, "gen_current"), "%.0f"),
             num(wc, sizeof wc, json_object_get(p, "width_current"), "%.0f"),
             num(gm, sizeof gm, json_object_get(p, "gen_max"), "%.0f"),
             num(wm, sizeof wm, json_object_get(p, "width_max"), "%.0f"));
}

/* "18 x 26.562" (active links x per-link rate), "-" without NVLink. */
static void nvlink_text(char *buf, size_t len, const json_t *gpu)
{
    const json_t *links = json_object_get(gpu, "nvlinks");
    size_t i;
    const json_t *l;
    int active = 0;
    double rate = 0;
    if (!json_is_array(links)) {
        snprintf(buf, len, "-");
        return;
    }
    json_array_foreach(links, i, l) {
        if (json_is_true(json_object_get(l, "active"))) {
            active++;
            if (ls_json_num(l, "gbps", 0) > rate)
                rate = ls_json_num(l, "gbps", 0);
        }
    }
    if (active == 0)
        snprintf(buf, len, "0 active");
    else
        snprintf(buf, len, "%d x %.3f", active, rate);
}

static void power_text(char *buf, size_t len, const json_t *gpu)
{
    static const char *const keys[3] = {"draw_w", "limit_w", "default_limit_w"},
                             *const fmts[3] = {"%.1f", "%.0f", "%.0f"};
    slashed(buf, len, json_object_get(gpu, "power"), keys, fmts);
}

static void throttle_text(char *buf, size_t len, const json_t *gpu)
{
    const json_t *r = json_object_get(gpu, "throttle_reasons");
    size_t i;
    const json_t *v;
    buf[0] = '\0';
    if (!json_is_array(r)) {
        snprintf(buf, len, "-");
        return;
    }
    json_array_foreach(r, i, v) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? "," : "", json_string_value(v));
    }
    if (!buf[0])
        snprintf(buf, len, "none");
}

/* ---- the table ----------------------------------------------------------------------- */

static void put_gpu_tables(ls_buf_t *b, const json_t *gpus)
{
    static const char *head1[] =
        {"GPU",      "Name",           "Mem MiB",   "SM MHz cur/app/max", "Mem MHz",
         "HBM GB/s", "PCIe cur / max", "PCIe GB/s", "NVLink x GB/s",      "NUMA"};
    static const ls_column_t cols1[] = {{3, 1, 0, 0},  {24, 1, 1, 0}, {9, 0, 0, 0},  {18, 1, 0, 0},
                                        {7, 0, 0, 0},  {8, 0, 0, 0},  {19, 1, 0, 0}, {9, 0, 0, 0},
                                        {14, 1, 0, 0}, {4, 0, 0, 0}};
    static const char *head2[] = {"GPU",         "Power W draw/limit/dflt", "Temp C",     "ECC",
                                  "Persistence", "Throttle reasons",        "PCI bus id", "CC",
                                  "SMs"};
    static const ls_column_t cols2[] = {{3, 1, 0, 0},  {22, 1, 0, 0}, {6, 0, 0, 0},
                                        {4, 1, 0, 0},  {11, 1, 0, 0}, {24, 1, 0, 0},
                                        {17, 1, 0, 0}, {4, 1, 0, 0},  {5, 0, 0, 0}};
    ls_table_t *t1 = ls_table_new("GPUs in PCI bus order (= nvidia-smi and CUDA numbering); "
                                  "bandwidths GB/s "
                                  "(1e9 B/s), one direction, theoretical",
                                  10, head1);
    ls_table_t *t2 = ls_table_new("", 9, head2);
    size_t i;
    const json_t *g;
    json_array_foreach(gpus, i, g) {
        char idx[24], mem[24], sm[48], memclk[16], hbm[24], pcie[48], pciebw[24], nvl[32], numa[16];
        snprintf(idx, sizeof idx, "%lld", ls_json_int(g, "index", -1));
        memory_mib(mem, sizeof mem, g);
        sm_clocks(sm, sizeof sm, g);
        num(memclk, sizeof memclk, get2(g, "clocks", "mem_max_mhz"), "%.0f");
        num(hbm, sizeof hbm, json_object_get(g, "hbm_theoretical_gbps"), "%.1f");
        pcie_text(pcie, sizeof pcie, g);
        num(pciebw, sizeof pciebw, get2(g, "pcie", "theoretical_gbps"), "%.1f");
        nvlink_text(nvl, sizeof nvl, g);
        snprintf(numa, sizeof numa, "%s", ls_json_str(g, "numa_affinity", "-"));
        const char *row1[] = {idx,    ls_json_str(g, "name", "-"),
                              mem,    sm,
                              memclk, hbm,
                              pcie,   pciebw,
                              nvl,    numa};
        ls_table_row(t1, row1);
        char pw[48], temp[16], thr[256], sms[16];
        power_text(pw, sizeof pw, g);
        num(temp, sizeof temp, json_object_get(g, "temperature_c"), "%.0f");
        throttle_text(thr, sizeof thr, g);
        num(sms, sizeof sms, get2(g, "cuda", "sms"), "%.0f");
        const char *row2[] = {idx,
                              pw,
                              temp,
                              onoff(get2(g, "ecc", "enabled")),
                              onoff(json_object_get(g, "persistence_mode")),
                              thr,
                              ls_json_str(g, "pci_bus_id", "-"),
                              ls_json_str(json_object_get(g, "cuda"), "cc", "-"),
                              sms};
        ls_table_row(t2, row2);
    }
    ls_columns_put(b, t1, cols1, 0);
    ls_buf_puts(b, "\n");
    ls_columns_put(b, t2, cols2, 0);
}

/* label, name, bus id, NUMA n, fw version and the ports, as "  port N STATE RATE LAYER" */
/* "Gen5 x16" of a NIC's PCIe link, with "(of Gen5 x16)" when it trained below its best;
   "-" unknown. */
static void nic_pcie_text(const json_t *pcie, char *buf, size_t len)
{
    long long gen = ls_json_int(pcie, "gen", 0), width = ls_json_int(pcie, "width", 0);
    long long gmax = ls_json_int(pcie, "gen_max", 0), wmax = ls_json_int(pcie, "width_max", 0);
    if (!gen || !width) {
        snprintf(buf, len, "-");
        return;
    }
    int n = snprintf(buf, len, "Gen%lld x%lld", gen, width);
    if ((gmax && gmax != gen) || (wmax && wmax != width))
        snprintf(buf + n, len - (size_t)n, " (of Gen%lld x%lld)", gmax ? gmax : gen,
                 wmax ? wmax : width);
}

/* The lines under a NIC's row: its GPUs by link word ("PIX 0,1; PXB 2; SYS 4,5") and
   what NCCL said of it (port, GDR, relaxed ordering). */
static void put_nic_details(ls_buf_t *b, const json_t *n)
{
    const char *word;
    const json_t *list, *g, *v = json_object_get(n, "nccl");
    size_t i;
    ls_buf_t gpus = {0};
    json_object_foreach((json_t *)json_object_get(n, "gpus_by_link"), word, list) {
        ls_buf_printf(&gpus, "%s%s ", gpus.len ? "; " : "", word);
        json_array_foreach(list, i, g)
            ls_buf_printf(&gpus, "%s%lld", i ? "," : "", (long long)json_integer_value(g));
    }
    char *text = ls_buf_take(&gpus);
    if (text && text[0])
        ls_buf_printf(b, "      GPUs: %s\n", text);
    free(text);
    if (v) {
        const json_t *gdr = json_object_get(v, "gdr");
        ls_buf_printf(b, "      NCCL: port %lld %s, GDR %s%s\n", ls_json_int(v, "port", 0),
                      ls_json_str(v, "link_layer", ""),
                      json_is_boolean(gdr) ? (json_is_true(gdr) ? "1" : "0") : "unknown",
                      json_is_true(json_object_get(v, "relaxed_ordering")) ? " [RO]" : "");
    }
}

/* One NIC: its row as fixed columns (firmware, board, PCIe and ports in the last), then
   its detail lines. */
static void put_nic(ls_buf_t *b, const json_t *n)
{
    static const ls_column_t cols[] = {{5, 1, 0, 0}, {10, 1, 0, 0}, {17, 1, 0, 0}, {4, 1, 0, 0},
                                       {3, 1, 0, 0}, {2, 1, 0, 0},  {0, 1, 0, 0}};
    static const char *const header[] = {"label", "name", "PCI bus id", "NUMA",
                                         "node",  "fw",   "firmware"};
    size_t p;
    const json_t *port;
    char numa[16], pcie[48];
    ls_buf_t fw = {0};
    num(numa, sizeof numa, json_object_get(n, "numa_node"), "%.0f");
    nic_pcie_text(json_object_get(n, "pcie"), pcie, sizeof pcie);
    ls_buf_printf(&fw, "%-12s board %-14s PCIe %s", ls_json_str(n, "firmware", "-"),
                  ls_json_str(n, "board_id", "-"), pcie);
    json_array_foreach(json_object_get(n, "ports"), p, port) {
        ls_buf_printf(&fw, "  port %lld %s %.0f %s", ls_json_int(port, "port", 0),
                      ls_json_str(port, "state", "?"), ls_json_num(port, "rate_gbps", 0),
                      ls_json_str(port, "link_layer", ""));
    }
    char *fw_ports = ls_buf_take(&fw);
    ls_table_t *t = ls_table_new("", 7, header);
    const char *row[] = {ls_json_str(n, "label", "-"),
                         ls_json_str(n, "name", "-"),
                         ls_json_str(n, "pci_bus_id", "-"),
                         "NUMA",
                         numa,
                         "fw",
                         fw_ports};
    ls_table_row(t, row);
    free(fw_ports);
    ls_columns_put(b, t, cols, LS_TABLE_NO_HEADER);
    put_nic_details(b, n);
}

static void put_nics(ls_buf_t *b, const json_t *nics)
{
    size_t i;
    const json_t *n;
    if (json_array_size(nics) == 0)
        return;
    ls_buf_puts(b, "\nRDMA NICs (rate in Gb/s as the port reports it)\n");
    json_array_foreach(nics, i, n)
        put_nic(b, n);
}

/* GPUDirect RDMA readiness in words (software.gpudirect_rdma; older documents carry
   only module and possible). */
static const char *gdr_text(const json_t *gdr)
{
    const char *ready = ls_json_str(gdr, "ready", NULL);
    int possible = json_is_true(json_object_get(gdr, "possible"));
    if (possible)
        return ready && strcmp(ready, "dma-buf") == 0
                   ? "dma-buf (kernel >= 5.12, open NVIDIA module)"
                   : ls_json_str(gdr, "module", "?");
    if (json_is_string(json_object_get(gdr, "module")) || (ready && strcmp(ready, "dma-buf") == 0))
        return "ready, no RDMA NIC";
    if (ready && strcmp(ready, "unknown") == 0)
        return "no nvidia_peermem / nv_peer_mem; dma-buf unknown";
    return "no nvidia_peermem / nv_peer_mem, no dma-buf";
}

static void put_software(ls_buf_t *b, const json_t *doc)
{
    const json_t *sw = json_object_get(doc, "software");
    const json_t *gdr = json_object_get(sw, "gpudirect_rdma");
    ls_buf_printf(b,
                  "\nDriver %s, CUDA driver %s, CUDA runtime %s, NCCL %s, NVML %s; GPUDirect RDMA: "
                  "%s\n",
                  ls_json_str(sw, "driver", "-"), ls_json_str(sw, "cuda_driver", "-"),
                  ls_json_str(sw, "cuda_runtime", "-"), ls_json_str(sw, "nccl", "not found"),
                  json_is_true(json_object_get(sw, "nvml")) ? "loaded" : "not loaded",
                  gdr_text(gdr));
}

char *ls_inventory_text(const json_t *doc)
{
    ls_buf_t b = {0};
    put_gpu_tables(&b, json_object_get(doc, "gpus"));
    put_nics(&b, json_object_get(doc, "nics"));
    put_software(&b, doc);
    return ls_buf_take(&b);
}

/* ---- CSV ------------------------------------------------------------------------------- */

char *ls_inventory_csv(const json_t *doc)
{
    const json_t *gpus = json_object_get(doc, "gpus");
    static const char *header[] = {"gpu",
                                   "board",
                                   "memory_mib",
                                   "sm_app_mhz",
                                   "sm_max_mhz",
                                   "mem_max_mhz",
                                   "hbm_theoretical_gbps",
                                   "pcie_gen",
                                   "pcie_width",
                                   "pcie_theoretical_gbps",
                                   "numa_node"};
    ls_table_t *t = ls_table_new("", 11, header);
    size_t i;
    const json_t *g;
    json_array_foreach(gpus, i, g) {
        char idx[24], mem[24], app[16], smax[16], mmax[16], hbm[24], gen[8], width[8], pcie[24],
            numa[8];
        snprintf(idx, sizeof idx, "%lld", ls_json_int(g, "index", -1));
        memory_mib(mem, sizeof mem, g);
        /* nvidia-smi's NUMA affinity (the GPU's node, or the only node); empty if unknown */
        const char *aff = ls_json_str(g, "numa_affinity", "");
        snprintf(numa, sizeof numa, "%s", aff[0] >= '0' && aff[0] <= '9' ? aff : "");
        /* "-" (unknown) is an empty CSV field */
        const char *row[] = {idx,
                             ls_json_str(g, "name", ""),
                             mem,
                             num(app, sizeof app, get2(g, "clocks", "sm_app_mhz"), "%.0f"),
                             num(smax, sizeof smax, get2(g, "clocks", "sm_max_mhz"), "%.0f"),
                             num(mmax, sizeof mmax, get2(g, "clocks", "mem_max_mhz"), "%.0f"),
                             num(hbm, sizeof hbm, json_object_get(g, "hbm_theoretical_gbps"),
                                 "%.1f"),
                             num(gen, sizeof gen, get2(g, "pcie", "gen_max"), "%.0f"),
                             num(width, sizeof width, get2(g, "pcie", "width_max"), "%.0f"),
                             num(pcie, sizeof pcie, get2(g, "pcie", "theoretical_gbps"), "%.1f"),
                             numa};
        ls_table_row(t, row);
    }
    char *csv = ls_format_table(&ls_format_csv, t);
    ls_table_free(t);
    return csv;
}
