/* Terminal and CSV rendering of the topology, in the words of nvidia-smi topo -m. */
#include "topo_render.h"
#include "format.h"

#include <stdlib.h>
#include <string.h>

#define RESET "\033[0m"

static const char link_legend[] =
    "Legend:\n\n"
    "  X    = Self\n"
    "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes "
    "(e.g., QPI/UPI)\n"
    "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges "
    "within a NUMA node\n"
    "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n"
    "  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host "
    "Bridge)\n"
    "  PIX  = Connection traversing at most a single PCIe bridge\n"
    "  NV#  = Connection traversing a bonded set of # NVLinks\n";

static const char p2p_legend[] = "Legend:\n\n"
                                 "  X    = Self\n"
                                 "  OK   = Status Ok\n"
                                 "  CNS  = Chipset not supported\n"
                                 "  GNS  = GPU not supported\n"
                                 "  TNS  = Topology not supported\n"
                                 "  NS   = Not supported\n"
                                 "  U    = Unknown\n";

static const char *link_color(enum ls_link_type type)
{
    switch (type) {
    case LS_LINK_NV: return "\033[32m";
    case LS_LINK_PIX:
    case LS_LINK_PXB: return "\033[36m";
    case LS_LINK_PHB: return "\033[33m";
    case LS_LINK_NODE: return "\033[35m";
    case LS_LINK_SYS: return "\033[31m";
    default: return "\033[2m";
    }
}

static const char *p2p_color(enum ls_p2p_status status)
{
    switch (status) {
    case LS_P2P_OK: return "\033[32m";
    case LS_P2P_SELF: return "\033[2m";
    case LS_P2P_UNKNOWN: return "\033[33m";
    default: return "\033[31m";
    }
}

/* Pads by the visible length, so that colour codes do not shift the columns. */
static void cell(FILE *out, const char *text, int width, const char *color)
{
    if (color)
        fprintf(out, "%s%s%s", color, text, RESET);
    else
        fputs(text, out);
    int pad = width - (int)strlen(text);
    if (pad > 0)
        fprintf(out, "%*s", pad, "");
}

static int ndevices(const ls_topo_t *topo)
{
    return topo->ngpus + topo->nnics;
}

static const char *device_label(const ls_topo_t *topo, int d)
{
    return d < topo->ngpus ? topo->gpu_label[d] : topo->nic_label[d - topo->ngpus];
}

ls_link_t ls_topo_device_link(const ls_topo_t *topo, int i, int j)
{
    int g = topo->ngpus;
    if (i == j)
        return (ls_link_t){LS_LINK_X, 0};
    if (i < g && j < g)
        return topo->gpu_gpu[i][j];
    if (i < g)
        return topo->gpu_nic[i][j - g];
    if (j < g)
        return topo->gpu_nic[j][i - g];
    return topo->nic_nic[i - g][j - g];
}

/* The word as nvidia-smi prints it in a cell: " X" for self. */
static void link_word(ls_link_t link, char *buf, size_t len)
{
    if (link.type == LS_LINK_X)
        snprintf(buf, len, " X");
    else
        ls_link_format(link, buf, len);
}

static int column_width(const ls_topo_t *topo)
{
    int width = 6;
    for (int d = 0; d < ndevices(topo); d++) {
        int len = (int)strlen(device_label(topo, d));
        width = len > width ? len : width;
    }
    return width + 2;
}

static int any_gpu_numa_id(const ls_topo_t *topo)
{
    for (int g = 0; g < topo->ngpus; g++)
        if (topo->gpu_numa_id[g][0])
            return 1;
    return 0;
}

static int cpu_width(const ls_topo_t *topo)
{
    int width = (int)strlen("CPU Affinity");
    for (int g = 0; g < topo->ngpus; g++) {
        int len = (int)strlen(topo->cpu_affinity[g]);
        width = len > width ? len : width;
    }
    return width + 2;
}

static const char *or_na(const char *value)
{
    return value[0] ? value : "N/A";
}

static void matrix_header(FILE *out, const ls_topo_t *topo, int width)
{
    fprintf(out, "%*s", width, "");
    for (int d = 0; d < ndevices(topo); d++)
        cell(out, device_label(topo, d), width, NULL);
    cell(out, "CPU Affinity", cpu_width(topo), NULL);
    if (any_gpu_numa_id(topo)) {
        cell(out, "NUMA Affinity", 16, NULL);
        fputs("GPU NUMA ID", out);
    } else
        fputs("NUMA Affinity", out);
    fputc('\n', out);
}

static void affinity_cells(FILE *out, const ls_topo_t *topo, int g)
{
    cell(out, or_na(topo->cpu_affinity[g]), cpu_width(topo), NULL);
    if (any_gpu_numa_id(topo)) {
        cell(out, or_na(topo->numa_affinity[g]), 16, NULL);
        fputs(or_na(topo->gpu_numa_id[g]), out);
    } else
        fputs(or_na(topo->numa_affinity[g]), out);
}

static void matrix_row(FILE *out, const ls_topo_t *topo, int d, int width, int color)
{
    cell(out, device_label(topo, d), width, NULL);
    for (int e = 0; e < ndevices(topo); e++) {
        ls_link_t link = ls_topo_device_link(topo, d, e);
        char word[16];
        link_word(link, word, sizeof word);
        /* NIC rows end at their last cell, as nvidia-smi's do */
        if (d >= topo->ngpus && e == ndevices(topo) - 1)
            width = (int)strlen(word);
        cell(out, word, width, color ? link_color(link.type) : NULL);
    }
    if (d < topo->ngpus)
        affinity_cells(out, topo, d);
    fputc('\n', out);
}

/* The NIC names the text gave; a name not known is left out (a cut paste loses the
   NIC legend), and with none known there is no legend. */
static void nic_legend(FILE *out, const ls_topo_t *topo)
{
    int named = 0;
    for (int n = 0; n < topo->nnics; n++)
        named += topo->nic_name[n][0] != '\0';
    if (named == 0)
        return;
    fputs("\nNIC Legend:\n\n", out);
    for (int n = 0; n < topo->nnics; n++)
        if (topo->nic_name[n][0])
            fprintf(out, "  %s: %s\n", topo->nic_label[n], topo->nic_name[n]);
}

/* A link the text does not show (a cut paste) is printed "?": unknown, not absent. */
static int any_unknown_link(const ls_topo_t *topo)
{
    for (int d = 0; d < ndevices(topo); d++)
        for (int e = 0; e < ndevices(topo); e++)
            if (d != e && ls_topo_device_link(topo, d, e).type == LS_LINK_NONE)
                return 1;
    return 0;
}

void ls_topo_render_matrix(FILE *out, const ls_topo_t *topo, int color)
{
    int width = column_width(topo);
    fputs("Topology: link type between devices, row <-> column (nvidia-smi topo -m words)\n", out);
    fputs("GPU numbers: PCI bus order, as nvidia-smi (CUDA_DEVICE_ORDER=PCI_BUS_ID)\n\n", out);
    matrix_header(out, topo, width);
    for (int d = 0; d < ndevices(topo); d++)
        matrix_row(out, topo, d, width, color);
    fputc('\n', out);
    fputs(link_legend, out);
    if (any_unknown_link(topo))
        fputs("  ?    = Not in the given text: unknown, not absent\n", out);
    nic_legend(out, topo);
}

static int p2p_known(const ls_topo_t *topo, int write)
{
    for (int a = 0; a < topo->ngpus; a++)
        for (int b = 0; b < topo->ngpus; b++) {
            enum ls_p2p_status s = write ? topo->p2p_write[a][b] : topo->p2p_read[a][b];
            if (a != b && s != LS_P2P_UNKNOWN)
                return 1;
        }
    return 0;
}

void ls_topo_render_p2p(FILE *out, const ls_topo_t *topo, int write, int color)
{
    if (!topo->has_p2p || !p2p_known(topo, write))
        return;
    int width = column_width(topo);
    fprintf(out, "P2P %s status: GPU(row) -> GPU(column) (nvidia-smi topo -p2p %c)\n\n",
            write ? "write" : "read", write ? 'w' : 'r');
    fprintf(out, "%*s", width, "");
    for (int g = 0; g < topo->ngpus; g++)
        cell(out, topo->gpu_label[g], g + 1 < topo->ngpus ? width : 0, NULL);
    fputc('\n', out);
    for (int a = 0; a < topo->ngpus; a++) {
        cell(out, topo->gpu_label[a], width, NULL);
        for (int b = 0; b < topo->ngpus; b++) {
            enum ls_p2p_status s = a == b  ? LS_P2P_SELF
                                   : write ? topo->p2p_write[a][b]
                                           : topo->p2p_read[a][b];
            const char *word = ls_p2p_word(s);
            cell(out, word, b + 1 < topo->ngpus ? width : (int)strlen(word),
                 color ? p2p_color(s) : NULL);
        }
        fputc('\n', out);
    }
    fputc('\n', out);
}

void ls_topo_render_text(FILE *out, const ls_topo_t *topo, int color)
{
    ls_topo_render_matrix(out, topo, color);
    if (!topo->has_p2p || !(p2p_known(topo, 0) || p2p_known(topo, 1)))
        return;
    fputc('\n', out);
    ls_topo_render_p2p(out, topo, 0, color);
    ls_topo_render_p2p(out, topo, 1, color);
    fputs(p2p_legend, out);
}

/* One row of the CSV export: the device, then its link to every device, then its
   affinities (CPU lists hold commas: "0-55,112-167", quoted by the CSV format). */
static void csv_row(ls_table_t *t, const ls_topo_t *topo, int d)
{
    int gpu = d < topo->ngpus;
    const char *row[2 + LS_MAX_GPUS + LS_MAX_NICS + 3];
    char words[LS_MAX_GPUS + LS_MAX_NICS][16];
    int c = 0;
    row[c++] = device_label(topo, d);
    row[c++] = gpu ? "" : topo->nic_name[d - topo->ngpus];
    for (int e = 0; e < ndevices(topo); e++) {
        ls_link_format(ls_topo_device_link(topo, d, e), words[e], sizeof words[e]);
        row[c++] = words[e];
    }
    row[c++] = gpu ? topo->cpu_affinity[d] : "";
    row[c++] = gpu ? topo->numa_affinity[d] : "";
    row[c++] = gpu ? topo->gpu_numa_id[d] : "";
    ls_table_row(t, row);
}

void ls_topo_render_csv(FILE *out, const ls_topo_t *topo)
{
    const char *header[2 + LS_MAX_GPUS + LS_MAX_NICS + 3];
    int c = 0;
    header[c++] = "device";
    header[c++] = "name";
    for (int d = 0; d < ndevices(topo); d++)
        header[c++] = device_label(topo, d);
    header[c++] = "cpu_affinity";
    header[c++] = "numa_affinity";
    header[c++] = "gpu_numa_id";
    ls_table_t *t = ls_table_new("", c, header);
    for (int d = 0; d < ndevices(topo); d++)
        csv_row(t, topo, d);
    char *csv = ls_format_table(&ls_format_csv, t);
    fputs(csv, out);
    free(csv);
    ls_table_free(t);
}
