/* nvidia-smi topo -m / -p2p text reader, rendering and run-document export, pair by pair
   on every fixture: the real 2 x H200 output, seed 000's 11-GPU server, seed 001's two
   machines, an HGX H100 with 8 NICs (tabs and spaces), and malformed variants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "import/topo_text.h"
#include "model/doc.h"
#include "model/topo.h"
#include "render/topo_render.h"
#include "util/fileio.h"

/* ---- helpers ----------------------------------------------------------------------- */

static char *fixture_text(const char *relative)
{
    char err[512];
    char *text = ls_read_file(ls_fixture(relative), NULL, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    return text;
}

static ls_topo_t *parse_string(const char *text)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    char err[512] = "";
    if (ls_topo_parse_text(text, topo, err, sizeof err) != 0)
        fail_msg("parse failed: %s", err);
    return topo;
}

static ls_topo_t *parse_fixture(const char *relative)
{
    char *text = fixture_text(relative);
    ls_topo_t *topo = parse_string(text);
    free(text);
    return topo;
}

static void add_p2p(ls_topo_t *topo, const char *relative, int write)
{
    char *text = fixture_text(relative);
    char err[512] = "";
    if (ls_topo_parse_p2p_text(text, write, topo, err, sizeof err) != 0)
        fail_msg("%s: %s", relative, err);
    free(text);
}

static void expect_link(ls_link_t got, enum ls_link_type type, int nvlinks, const char *what, int a,
                        int b)
{
    if (got.type != type || got.nvlinks != nvlinks)
        fail_msg("%s %d-%d: got %s/%d, expected %s/%d", what, a, b, ls_link_class(got.type),
                 got.nvlinks, ls_link_class(type), nvlinks);
}

static char *render(const ls_topo_t *topo, int kind, int color)
{
    /* static: open_memstream keeps the addresses until fclose, and GCC 12's
       -Wdangling-pointer misreads locals whose address a stream holds */
    static char *buf;
    static size_t len;
    buf = NULL;
    len = 0;
    FILE *mem = open_memstream(&buf, &len);
    assert_non_null(mem);
    if (kind == 0)
        ls_topo_render_text(mem, topo, color);
    else
        ls_topo_render_csv(mem, topo);
    fclose(mem);
    return buf;
}

/* The whitespace-separated cell `col` (0 = row label) of the line starting with `label`. */
static void matrix_cell(const char *text, const char *label, int col, char *cell, size_t len)
{
    size_t ll = strlen(label);
    const char *line = text;
    while (line && !(strncmp(line, label, ll) == 0 && (line[ll] == ' ' || line[ll] == '\t')))
        line = (line = strchr(line, '\n')) ? line + 1 : NULL;
    if (!line)
        fail_msg("no row %s in:\n%s", label, text);
    cell[0] = '\0';
    for (int c = 0; c <= col; c++) {
        while (*line == ' ' || *line == '\t')
            line++;
        size_t n = strcspn(line, " \t\n");
        snprintf(cell, len, "%.*s", (int)n, line);
        line += n;
    }
}

static void expect_error(const char *text, const char *needle)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    char err[512] = "";
    assert_int_equal(ls_topo_parse_text(text, topo, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not mention '%s'", err, needle);
    free(topo);
}

/* ---- the real 2 x H200 output -------------------------------------------------------- */

static void h200x2_is_nv18(void **state)
{
    (void)state;
    ls_topo_t *t = parse_fixture("h200x2/nvidia-smi-topo.txt");
    assert_int_equal(t->ngpus, 2);
    assert_int_equal(t->nnics, 0);
    expect_link(t->gpu_gpu[0][1], LS_LINK_NV, 18, "GPU", 0, 1);
    expect_link(t->gpu_gpu[1][0], LS_LINK_NV, 18, "GPU", 1, 0);
    expect_link(t->gpu_gpu[0][0], LS_LINK_X, 0, "GPU", 0, 0);
    assert_string_equal(t->gpu_label[1], "GPU1");
    for (int g = 0; g < 2; g++) {
        assert_string_equal(t->cpu_affinity[g], "0-31");
        assert_string_equal(t->numa_affinity[g], "0");
        assert_string_equal(t->gpu_numa_id[g], "N/A");
    }
    assert_int_equal(t->has_p2p, 0);
    add_p2p(t, "h200x2/nvidia-smi-topo-p2p-r.txt", 0);
    add_p2p(t, "h200x2/nvidia-smi-topo-p2p-w.txt", 1);
    assert_int_equal(t->has_p2p, 1);
    assert_int_equal(t->p2p_read[0][1], LS_P2P_OK);
    assert_int_equal(t->p2p_write[1][0], LS_P2P_OK);
    assert_int_equal(t->p2p_read[1][1], LS_P2P_SELF);
    free(t);
}

/* ---- seed 000: 11 x GV100 ------------------------------------------------------------- */

static ls_link_t seed000_link(int a, int b)
{
    if (a == b)
        return (ls_link_t){LS_LINK_X, 0};
    if ((a == 7 && b == 9) || (a == 9 && b == 7))
        return (ls_link_t){LS_LINK_NV, 4};
    if (a == 10 || b == 10)
        return (ls_link_t){LS_LINK_SYS, 0};
    return (ls_link_t){(a < 5) == (b < 5) ? LS_LINK_PIX : LS_LINK_PHB, 0};
}

static void seed000_islands(void **state)
{
    (void)state;
    ls_topo_t *t = parse_fixture("topo/seed000-gv100x11.txt");
    assert_int_equal(t->ngpus, 11);
    assert_int_equal(t->nnics, 0);
    for (int a = 0; a < 11; a++)
        for (int b = 0; b < 11; b++) {
            ls_link_t want = seed000_link(a, b);
            expect_link(t->gpu_gpu[a][b], want.type, want.nvlinks, "GPU", a, b);
        }
    for (int g = 0; g < 11; g++)
        assert_string_equal(t->numa_affinity[g], g == 10 ? "1" : "0");
    assert_string_equal(t->cpu_affinity[10], "14-27,42-55");
    assert_string_equal(t->gpu_label[10], "GPU10");
    add_p2p(t, "topo/seed000-gv100x11-p2p-r.txt", 0);
    add_p2p(t, "topo/seed000-gv100x11-p2p-w.txt", 1);
    for (int a = 0; a < 11; a++)
        for (int b = 0; b < 11; b++) {
            enum ls_p2p_status want = a == b                 ? LS_P2P_SELF
                                      : (a == 10 || b == 10) ? LS_P2P_TNS
                                                             : LS_P2P_OK;
            assert_int_equal(t->p2p_read[a][b], want);
            assert_int_equal(t->p2p_write[a][b], want);
        }
    free(t);
}

/* ---- seed 001: V100 pair with NVLink bridge, and over PCIe ---------------------------- */

static void seed001_pairs(void **state)
{
    (void)state;
    ls_topo_t *t = parse_fixture("topo/seed001-v100x2-nvlink.txt");
    assert_int_equal(t->ngpus, 2);
    expect_link(t->gpu_gpu[0][1], LS_LINK_NV, 6, "GPU", 0, 1);
    expect_link(t->gpu_gpu[1][0], LS_LINK_NV, 6, "GPU", 1, 0);
    assert_string_equal(t->cpu_affinity[0], "0-23");
    assert_string_equal(t->numa_affinity[1], "N/A");
    add_p2p(t, "topo/seed001-v100x2-nvlink-p2p-r.txt", 0);
    assert_int_equal(t->p2p_read[0][1], LS_P2P_OK);
    assert_int_equal(t->p2p_write[0][1], LS_P2P_UNKNOWN); /* not given */
    free(t);
    t = parse_fixture("topo/seed001-v100x2-pcie.txt");
    expect_link(t->gpu_gpu[0][1], LS_LINK_PHB, 0, "GPU", 0, 1);
    assert_string_equal(t->cpu_affinity[1], "0-11");
    free(t);
}

/* ---- HGX H100: NV18 everywhere, 8 NICs on two NUMA nodes ---------------------------- */

/* NIC n sits behind GPU n's PCIe switch; GPUs and NICs 0-3 on node 0, 4-7 on node 1. */
static enum ls_link_type hgx_pcie(int a, int b, int same_kind)
{
    if (a == b)
        return same_kind ? LS_LINK_X : LS_LINK_PIX;
    return a / 4 == b / 4 ? LS_LINK_NODE : LS_LINK_SYS;
}

static void check_hgx(const ls_topo_t *t)
{
    assert_int_equal(t->ngpus, 8);
    assert_int_equal(t->nnics, 8);
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++) {
            expect_link(t->gpu_gpu[a][b], a == b ? LS_LINK_X : LS_LINK_NV, a == b ? 0 : 18, "GPU",
                        a, b);
            expect_link(t->gpu_nic[a][b], hgx_pcie(a, b, 0), 0, "GPU-NIC", a, b);
            expect_link(t->nic_nic[a][b], hgx_pcie(a, b, 1), 0, "NIC", a, b);
        }
    for (int n = 0; n < 8; n++) {
        char name[16], label[16];
        snprintf(name, sizeof name, "mlx5_%d", n);
        snprintf(label, sizeof label, "NIC%d", n);
        assert_string_equal(t->nic_name[n], name);
        assert_string_equal(t->nic_label[n], label);
        assert_string_equal(t->numa_affinity[n], n < 4 ? "0" : "1");
        assert_string_equal(t->cpu_affinity[n], n < 4 ? "0-55,112-167" : "56-111,168-223");
    }
}

static void hgx_tabs_and_spaces(void **state)
{
    (void)state;
    ls_topo_t *tabs = parse_fixture("topo/hgx-h100x8-nic8.txt");
    ls_topo_t *spaces = parse_fixture("topo/hgx-h100x8-nic8-spaces.txt");
    check_hgx(tabs);
    check_hgx(spaces);
    assert_memory_equal(tabs, spaces, sizeof *tabs);
    add_p2p(tabs, "topo/hgx-h100x8-p2p-r.txt", 0);
    assert_int_equal(tabs->p2p_read[3][6], LS_P2P_OK);
    free(tabs);
    free(spaces);
}

/* ---- variants of the text ------------------------------------------------------------ */

static void accepts_variants(void **state)
{
    (void)state;
    /* prompt before, header without its leading tab, CRLF, old SOC word, old NIC names */
    ls_topo_t *t = parse_string("$ nvidia-smi topo -m\r\n"
                                "GPU0\tGPU1\tmlx5_0\tCPU Affinity\r\n"
                                "GPU0\t X \tSOC\tPXB\t0-7\r\n"
                                "GPU1\tSOC\t X \tSYS\t8-15\r\n"
                                "mlx5_0\tPXB\tSYS\t X \r\n");
    assert_int_equal(t->ngpus, 2);
    assert_int_equal(t->nnics, 1);
    expect_link(t->gpu_gpu[0][1], LS_LINK_SYS, 0, "GPU", 0, 1);
    expect_link(t->gpu_nic[0][0], LS_LINK_PXB, 0, "GPU-NIC", 0, 0);
    assert_string_equal(t->nic_label[0], "NIC0");
    assert_string_equal(t->nic_name[0], "mlx5_0");
    assert_string_equal(t->cpu_affinity[1], "8-15");
    assert_string_equal(t->numa_affinity[1], "");
    free(t);
    /* an empty NUMA Affinity cell between tabs, and a single GPU */
    t = parse_string("\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
                     "GPU0\t X \tPIX\t0-3\t\t\t2\n"
                     "GPU1\tPIX\t X \tN/A\tN/A\t\tN/A\n");
    assert_string_equal(t->cpu_affinity[0], "0-3");
    assert_string_equal(t->numa_affinity[0], "");
    assert_string_equal(t->gpu_numa_id[0], "2");
    assert_string_equal(t->cpu_affinity[1], "N/A");
    free(t);
    t = parse_string("\tGPU0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \t0-63\t0\n");
    assert_int_equal(t->ngpus, 1);
    assert_string_equal(t->numa_affinity[0], "0");
    free(t);
}

/* ---- errors ---------------------------------------------------------------------------- */

static void expect_fixture_error(const char *relative, const char *needle)
{
    char *text = fixture_text(relative);
    expect_error(text, needle);
    free(text);
}

static void rejects_malformed(void **state)
{
    (void)state;
    expect_fixture_error("topo/empty.txt", "line 1: empty input");
    expect_fixture_error("topo/malformed-unknown-word.txt",
                         "line 3: row GPU1, column GPU0: 'NVL18' is not a link type");
    expect_fixture_error("topo/malformed-columns.txt",
                         "line 13: row NIC3 has 15 cells, the header names 16 devices");
    expect_fixture_error("topo/malformed-no-header.txt",
                         "line 1: matrix row before any header row");
    expect_fixture_error("topo/malformed-truncated.txt",
                         "line 2: the matrix ends without a row for GPU1");
    expect_error("some text\nnothing here\n", "line 2: no header row");
    expect_error("   \n\t\n", "empty input");
    expect_error("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-3\t7\nGPU1\tNV4\t X \t0-3\n",
                 "line 2: row GPU0 has 1 more cells than the header has columns");
    expect_error("\tGPU0\tGPU1\nGPU0\tPIX\tPIX\nGPU1\tPIX\t X \n",
                 "line 2: row GPU0, column GPU0: 'PIX' where X");
    expect_error("\tGPU0\tGPU1\nGPU0\t X \t X \nGPU1\tPIX\t X \n", "off the diagonal");
    expect_error("\tGPU0\tGPU1\nGPU0\t X \tPIX\nGPU0\t X \tPIX\n", "line 3: second row for GPU0");
    expect_error("\tGPU0\tGPU1\nGPU0\t X \tPIX\nGPU2\tPIX\t X \n",
                 "line 3: row 'GPU2' is not a column");
    expect_error("\tGPU0\tGPU1\tCPU Mask\nGPU0\t X \tPIX\n",
                 "line 1: unknown header column at 'CPU'");
    expect_error("\tGPU0\tGPU0\nGPU0\t X \tPIX\n", "appears twice");
}

static void rejects_too_many_gpus(void **state)
{
    (void)state;
    char *text = calloc(1, 8192);
    for (int g = 0; g <= LS_MAX_GPUS; g++)
        sprintf(text + strlen(text), "\tGPU%d", g);
    strcat(text, "\n");
    expect_error(text, "more than 64 GPU columns");
    free(text);
}

/* ---- pasted excerpts (the lenient reader of import and topo --from) ---------------- */

static ls_topo_t *parse_partial(const char *text, char *missing, size_t len)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    char err[512] = "";
    if (ls_topo_parse_text_partial(text, topo, missing, len, err, sizeof err) != 0)
        fail_msg("partial parse failed: %s", err);
    return topo;
}

static void expect_partial_error(const char *text, const char *needle)
{
    ls_topo_t *topo = calloc(1, sizeof *topo);
    char err[512] = "", missing[512];
    assert_int_not_equal(ls_topo_parse_text_partial(text, topo, missing, sizeof missing, err,
                                                    sizeof err),
                         0);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not contain '%s'", err, needle);
    free(topo);
}

/* A header name as wide as its column runs into the next one ("NIC1NIC2"): split at the
   labels. The twin: the same matrix with the names apart reads the same. */
static void header_names_run_together(void **state)
{
    (void)state;
    const char *fmt = "\tGPU0\tGPU1\tNIC0\t%s\tCPU Affinity\tNUMA Affinity\n"
                      "GPU0\t X \tNV4\tPIX\tSYS\tSYS\t0-7\t0\n"
                      "GPU1\tNV4\t X \tSYS\tPIX\tSYS\t8-15\t1\n";
    char text[512];
    for (int apart = 0; apart < 2; apart++) {
        snprintf(text, sizeof text, fmt, apart ? "NIC1\tNIC2" : "NIC1NIC2");
        char missing[512];
        ls_topo_t *t = parse_partial(text, missing, sizeof missing); /* no NIC rows */
        assert_int_equal(t->nnics, 3);
        expect_link(t->gpu_nic[1][1], LS_LINK_PIX, 0, "GPU-NIC", 1, 1);
        assert_string_equal(t->numa_affinity[1], "1");
        free(t);
    }
    /* a name that is one label stays one column, whatever its digits */
    ls_topo_t *t = parse_string(
        "\tGPU0\tNIC12\tCPU Affinity\nGPU0\t X \tPIX\t0-7\nNIC12\tPIX\t X \n");
    assert_int_equal(t->nnics, 1);
    free(t);
}

/* Older drivers print the NICs' own names, which run together the same way
   ("mlx5_2mlx5_3", fresh56's Summit node): split where the name's letters begin again.
   The twin: apart, the same; a single name (mlx5_10, mlx5_bond_0) stays one column. */
static void nic_names_run_together(void **state)
{
    (void)state;
    const char *fmt = "        GPU0    GPU1    mlx5_0  %s   CPU Affinity\n"
                      "GPU0     X      NV2     NODE    SYS   SYS      0-83\n"
                      "GPU1    NV2      X      SYS     NODE  NODE     88-171\n";
    char text[512];
    for (int apart = 0; apart < 2; apart++) {
        snprintf(text, sizeof text, fmt, apart ? "mlx5_2 mlx5_3" : "mlx5_2mlx5_3");
        char missing[512];
        ls_topo_t *t = parse_partial(text, missing, sizeof missing);
        assert_int_equal(t->nnics, 3);
        assert_string_equal(t->nic_name[2], "mlx5_3");
        expect_link(t->gpu_nic[1][2], LS_LINK_NODE, 0, "GPU-NIC", 1, 2);
        assert_string_equal(t->cpu_affinity[1], "88-171");
        free(t);
    }
    static const char *const one[] = {"mlx5_10", "mlx5_bond_0"};
    for (size_t i = 0; i < sizeof one / sizeof *one; i++) {
        snprintf(text, sizeof text, "\tGPU0\t%s\tCPU Affinity\nGPU0\t X \tPIX\t0-7\n", one[i]);
        char missing[512];
        ls_topo_t *t = parse_partial(text, missing, sizeof missing);
        assert_int_equal(t->nnics, 1);
        free(t);
    }
}

/* A cell as wide as its column runs into the next one ("NODENODE", "NV18PXB"): split
   where it reads one way only and the row then has one cell per device. The twin: the
   same matrix with the cells apart reads exactly the same. */
static void cells_run_together(void **state)
{
    (void)state;
    const char *fmt = "\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n"
                      "GPU0\t X \t%s\tSYS\t0-7\t0\n"
                      "GPU1\tNV18\t X \t%s\t8-15\t1\n"
                      "NIC0\tPXB\tSYS\t X \tSYS\n"
                      "NIC1\tSYS\tPIX\tSYS\t X \n";
    char text[512];
    ls_topo_t *t[2];
    for (int apart = 0; apart < 2; apart++) {
        snprintf(text, sizeof text, fmt, apart ? "NV18\tPXB" : "NV18PXB",
                 apart ? "SYS\tPIX" : "SYSPIX");
        t[apart] = parse_string(text);
    }
    expect_link(t[0]->gpu_gpu[0][1], LS_LINK_NV, 18, "GPU-GPU", 0, 1);
    expect_link(t[0]->gpu_nic[1][1], LS_LINK_PIX, 0, "GPU-NIC", 1, 1);
    assert_string_equal(t[0]->cpu_affinity[1], "8-15");
    assert_memory_equal(t[0], t[1], sizeof *t[0]);
    free(t[0]);
    free(t[1]);
    /* import's detection reads the first row the same way (vllm#8691's "SYSSYS" in its
       first row was refused as no topology before) */
    assert_int_equal(ls_topo_text_detect("\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\n"
                                         "GPU0\t X \tNV18PXB\tSYS\t0-7\n"
                                         "GPU1\tNV18\n"),
                     1);
    /* one cell too many once split, or a run that is no link words: refused as before */
    snprintf(text, sizeof text, fmt, "NV18PXB", "SYSPIXSYS");
    expect_error(text, "'SYSPIXSYS' is not a link type");
    snprintf(text, sizeof text, fmt, "NV18PXB", "SYSPIY");
    expect_error(text, "'SYSPIY' is not a link type");
}

/* More NIC columns than the model holds (nvidia-smi shows up to 56): an excerpt keeps
   the first LS_MAX_NICS and says how many it did not read; the strict reader refuses. */
static void nic_columns_past_the_limit(void **state)
{
    (void)state;
    int nics = LS_MAX_NICS + 4;
    char *text = calloc(1, 8192);
    strcat(text, "40 NICs found in the topology, only displaying 36 in the matrix.\n\tGPU0\tGPU1");
    for (int n = 0; n < nics; n++)
        sprintf(text + strlen(text), "\tNIC%d", n);
    strcat(text, "\tCPU Affinity\nGPU0\t X \tNV8");
    for (int n = 0; n < nics; n++)
        strcat(text, n == nics - 1 ? "\tPIX" : "\tSYS");
    strcat(text, "\t0-7\n");
    char missing[512];
    ls_topo_t *t = parse_partial(text, missing, sizeof missing);
    assert_int_equal(t->nnics, LS_MAX_NICS);
    assert_non_null(strstr(missing, "4 NIC columns past the first 32 not read"));
    assert_non_null(
        strstr(missing, "40 NICs found in the topology, only displaying 36 in the matrix"));
    expect_link(t->gpu_gpu[0][1], LS_LINK_NV, 8, "GPU-GPU", 0, 1);
    free(t);
    expect_error(text, "more than 32 NIC columns");
    free(text);
}

/* A header column nvidia-smi does not print (an edited paste's "NUMA"): the excerpt
   reads the links and leaves that column's values unread, noted; strict refuses it. */
static void unknown_header_column_in_an_excerpt(void **state)
{
    (void)state;
    const char *text = "        GPU0    GPU1   NUMA \nGPU0     X      SYS      0\nGPU1    SYS      "
                       "X       1 \n";
    char missing[512];
    ls_topo_t *t = parse_partial(text, missing, sizeof missing);
    assert_int_equal(t->ngpus, 2);
    expect_link(t->gpu_gpu[0][1], LS_LINK_SYS, 0, "GPU-GPU", 0, 1);
    assert_string_equal(t->numa_affinity[0], "");
    assert_non_null(strstr(missing, "header column 'NUMA' (not one nvidia-smi prints) not read"));
    free(t);
    expect_error(text, "unknown header column at 'NUMA'");
}

/* Rows without their header, named from the diagonal where it is certain: a NIC row's
   X gives the GPU count; a row for the GPU of the last column makes every column a GPU.
   The twin without either is refused, saying what is missing. */
static void rows_without_header(void **state)
{
    (void)state;
    char missing[512];
    ls_topo_t *t = parse_partial("GPU2\tNV4\tNV4\t X \tPIX\tSYS\t0-7\t0\t\tN/A\n"
                                 "NIC0\tSYS\tSYS\tPIX\t X \tSYS\n"
                                 "NIC1\tPIX\tPIX\tSYS\tSYS\t X\n",
                                 missing, sizeof missing);
    assert_int_equal(t->ngpus, 3);
    assert_int_equal(t->nnics, 2);
    expect_link(t->gpu_nic[2][0], LS_LINK_PIX, 0, "GPU-NIC", 2, 0);
    expect_link(t->gpu_gpu[0][2], LS_LINK_NV, 4, "GPU-GPU", 0, 2); /* from GPU2's row */
    assert_string_equal(t->cpu_affinity[2], "");                   /* not read: unnamed */
    assert_non_null(
        strstr(missing, "no header row: 3 GPU and 2 NIC columns named from the rows' diagonal"));
    free(t);
    t = parse_partial("GPU0\t X \tNV2\t0-7\nGPU1\tNV2\t X \t0-7\n", missing, sizeof missing);
    assert_int_equal(t->ngpus, 2);
    assert_int_equal(t->nnics, 0);
    free(t);
    /* no NIC row, no row for the last column's GPU (sglang#9812, real8 step 3, seen): the
       GPU rows name the columns up to GPU1; the one after is kept unread, not guessed */
    t = parse_partial("GPU0\t X \tNV2\tSYS\t0-7\nGPU1\tNV2\t X \tSYS\t0-7\n", missing,
                      sizeof missing);
    assert_int_equal(t->ngpus, 2);
    assert_int_equal(t->nnics, 0);
    expect_link(t->gpu_gpu[0][1], LS_LINK_NV, 2, "GPU-GPU", 0, 1);
    assert_non_null(strstr(missing, "no header row: 2 GPU columns named from the rows' diagonal "
                                    "(rows up to GPU1); the 1 column after them not read"));
    free(t);
    /* the paste ends inside its last row (fresh55): that row names nothing, the rows
       before it still do; the twin, a short row before the last, contradicts them */
    t = parse_partial("GPU2\tNV4\tNV4\t X \tPIX\tSYS\t0-7\t0\n"
                      "NIC0\tSYS\tSYS\tPIX\t X \tSYS\n"
                      "NIC1\tPIX\tPIX",
                      missing, sizeof missing);
    assert_int_equal(t->ngpus, 3);
    assert_int_equal(t->nnics, 2);
    expect_link(t->gpu_nic[2][0], LS_LINK_PIX, 0, "GPU-NIC", 2, 0);
    assert_non_null(strstr(missing, "row NIC1 cut"));
    free(t);
    expect_partial_error("GPU2\tNV4\tNV4\t X \tPIX\tSYS\t0-7\t0\n"
                         "NIC0\tSYS\tSYS\tPIX\n"
                         "NIC1\tPIX\tPIX\tSYS\tSYS\t X\n",
                         "their diagonal does not name the columns");
    /* a row whose X stands off its own column: the diagonal names nothing */
    expect_partial_error("GPU1\t X \tNV2\t0-7\nNIC0\tSYS\t X\n",
                         "their diagonal does not name the columns");
    /* the strict reader keeps refusing rows before a header */
    expect_error("GPU0\t X \tNV2\t0-7\nGPU1\tNV2\t X \t0-7\n", "matrix row before any header row");
}

/* A terminal copy that kept the command and the header on one line: the header starts
   at GPU0 after `nvidia-smi topo -m` (the excerpt reader); the twin without the command
   word is still no header. */
static void header_after_the_command(void **state)
{
    (void)state;
    const char *text = "nvidia-smi topo -m                   GPU0    GPU1    CPU Affinity    NUMA "
                       "Affinity   GPU NUMA ID\n"
                       "GPU0     X      PHB     0-23    0               N/A\n"
                       "GPU1    PHB      X      0-23    0               N/A\n";
    char missing[512];
    ls_topo_t *t = parse_partial(text, missing, sizeof missing);
    assert_int_equal(t->ngpus, 2);
    expect_link(t->gpu_gpu[0][1], LS_LINK_PHB, 0, "GPU-GPU", 0, 1);
    assert_string_equal(t->numa_affinity[1], "0");
    assert_string_equal(missing, "");
    free(t);
    assert_int_equal(ls_topo_text_detect(text), 1);
    /* words that are not the command: not a header; the row is read without one (its
       diagonal names GPU0 only, the next column kept unread) */
    t = parse_partial("some words here   GPU0    GPU1    CPU Affinity\nGPU0     X      PHB     "
                      "0-23\n",
                      missing, sizeof missing);
    assert_int_equal(t->ngpus, 1);
    assert_non_null(strstr(missing, "no header row: 1 GPU columns named"));
    free(t);
}

static void rejects_malformed_p2p(void **state)
{
    (void)state;
    ls_topo_t *t = parse_fixture("topo/seed000-gv100x11.txt");
    char *h200 = fixture_text("h200x2/nvidia-smi-topo-p2p-r.txt");
    char err[512] = "";
    assert_int_equal(ls_topo_parse_p2p_text(h200, 0, t, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1: the P2P header names 2 GPUs, the topology has 11"));
    free(t);
    t = parse_fixture("h200x2/nvidia-smi-topo.txt");
    assert_int_equal(ls_topo_parse_p2p_text(" \tGPU0\tGPU1\n GPU0\tX\tYES\n GPU1\tOK\tX\n", 1, t,
                                            err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "line 2: row GPU0, column GPU1: 'YES' is not a P2P status"));
    assert_int_equal(ls_topo_parse_p2p_text(" \tGPU0\tGPU1\n GPU0\tX\tOK\n\nLegend:\n", 0, t, err,
                                            sizeof err),
                     -1);
    assert_non_null(strstr(err, "the matrix has 1 rows, the header names 2 GPUs"));
    assert_int_equal(ls_topo_parse_p2p_text(" \tGPU0\tGPU1\n GPU0\tX\tOK\tOK\n", 0, t, err,
                                            sizeof err),
                     -1);
    assert_non_null(strstr(err, "line 2: row GPU0 has 3 cells"));
    assert_int_equal(ls_topo_parse_p2p_text("", 0, t, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1: empty input"));
    assert_int_equal(ls_topo_parse_p2p_text("GPU topology\n", 0, t, err, sizeof err), -1);
    assert_non_null(strstr(err, "no header row"));
    assert_int_equal(t->has_p2p, 0); /* failures leave the topology unchanged */
    free(h200);
    free(t);
}

static void detects_formats(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int topo, p2p;
    } cases[] = {
        {"h200x2/nvidia-smi-topo.txt", 1, 0},
        {"topo/hgx-h100x8-nic8-spaces.txt", 1, 0},
        {"topo/seed000-gv100x11.txt", 1, 0},
        {"h200x2/nvidia-smi-topo-p2p-r.txt", 0, 1},
        {"topo/seed000-gv100x11-p2p-r.txt", 0, 1},
        {"h200x2/nccl-tests-all_reduce.txt", 0, 0},
        {"h200x2/nvidia-smi-q-gpu0.txt", 0, 0},
        {"h200x2/p2pBandwidthLatencyTest.txt", 0, 0},
        {"topo/empty.txt", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = fixture_text(cases[i].file);
        if (ls_topo_text_detect(text) != cases[i].topo ||
            ls_topo_p2p_text_detect(text) != cases[i].p2p)
            fail_msg("%s: detect %d/%d, expected %d/%d", cases[i].file, ls_topo_text_detect(text),
                     ls_topo_p2p_text_detect(text), cases[i].topo, cases[i].p2p);
        free(text);
    }
}

/* ---- rendering ------------------------------------------------------------------------- */

static void render_puts_words_in_cells(void **state)
{
    (void)state;
    ls_topo_t *t = parse_fixture("topo/seed000-gv100x11.txt");
    add_p2p(t, "topo/seed000-gv100x11-p2p-r.txt", 0);
    char *text = render(t, 0, 0), cell[64];
    matrix_cell(text, "GPU7", 10, cell, sizeof cell); /* column GPU9 */
    assert_string_equal(cell, "NV4");
    matrix_cell(text, "GPU7", 9, cell, sizeof cell);
    assert_string_equal(cell, "PIX");
    matrix_cell(text, "GPU0", 6, cell, sizeof cell);
    assert_string_equal(cell, "PHB");
    matrix_cell(text, "GPU10", 1, cell, sizeof cell);
    assert_string_equal(cell, "SYS");
    matrix_cell(text, "GPU10", 12, cell, sizeof cell);
    assert_string_equal(cell, "14-27,42-55");
    matrix_cell(text, "GPU10", 13, cell, sizeof cell);
    assert_string_equal(cell, "1");
    assert_non_null(strstr(text, "CPU Affinity"));
    assert_non_null(strstr(text, "NUMA Affinity"));
    assert_non_null(strstr(text, "NV#  = Connection traversing a bonded set of # NVLinks"));
    const char *p2p = strstr(text, "P2P read status: GPU(row) -> GPU(column)");
    assert_non_null(p2p);
    assert_null(strstr(text, "P2P write status")); /* not given */
    matrix_cell(p2p, "GPU10", 3, cell, sizeof cell);
    assert_string_equal(cell, "TNS");
    matrix_cell(p2p, "GPU3", 4, cell, sizeof cell);
    assert_string_equal(cell, "X");
    assert_non_null(strstr(p2p, "TNS  = Topology not supported"));
    free(text);
    free(t);
}

/* What is rendered reads back into the same topology (colour included: escapes are
   skipped), and the P2P matrix too. */
static void render_reads_back(void **state)
{
    (void)state;
    const char *files[] = {"topo/hgx-h100x8-nic8.txt", "topo/seed000-gv100x11.txt",
                           "h200x2/nvidia-smi-topo.txt", "topo/seed001-v100x2-pcie.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        ls_topo_t *t = parse_fixture(files[i]);
        for (int color = 0; color < 2; color++) {
            char *text = render(t, 0, color);
            assert_int_equal(strstr(text, "\033[") != NULL, color);
            ls_topo_t *back = parse_string(text);
            assert_memory_equal(t, back, sizeof *t);
            free(back);
            free(text);
        }
        free(t);
    }
    ls_topo_t *t = parse_fixture("topo/seed000-gv100x11.txt"),
              *u = parse_fixture("topo/seed000-gv100x11.txt");
    add_p2p(t, "topo/seed000-gv100x11-p2p-w.txt", 1);
    char *text = render(t, 0, 1), err[512];
    assert_int_equal(ls_topo_parse_p2p_text(strstr(text, "P2P write status"), 1, u, err,
                                            sizeof err),
                     0);
    assert_memory_equal(t->p2p_write, u->p2p_write, sizeof t->p2p_write);
    free(text);
    free(t);
    free(u);
}

static void render_csv(void **state)
{
    (void)state;
    ls_topo_t *t = parse_fixture("topo/hgx-h100x8-nic8.txt");
    char *csv = render(t, 1, 0);
    assert_non_null(strstr(csv, "device,name,GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7,NIC0,"));
    assert_non_null(strstr(csv, "NIC7,cpu_affinity,numa_affinity,gpu_numa_id\n"));
    assert_non_null(strstr(csv,
                           "\nGPU5,,NV18,NV18,NV18,NV18,NV18,X,NV18,NV18,SYS,SYS,SYS,SYS,NODE,PIX,"
                           "NODE,NODE,\"56-111,168-223\",1,N/A\n"));
    assert_non_null(strstr(csv,
                           "\nNIC2,mlx5_2,NODE,NODE,PIX,NODE,SYS,SYS,SYS,SYS,NODE,NODE,X,NODE,SYS,"
                           "SYS,SYS,SYS,,,\n"));
    int lines = 0;
    for (const char *c = csv; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 17);
    free(csv);
    free(t);
}

/* ---- run document ----------------------------------------------------------------------- */

static void doc_round_trip(void **state)
{
    (void)state;
    ls_topo_t *t = parse_fixture("topo/hgx-h100x8-nic8.txt"), *u = calloc(1, sizeof *u);
    add_p2p(t, "topo/hgx-h100x8-p2p-r.txt", 0);
    t->p2p_write[2][5] = LS_P2P_CNS;
    json_t *doc = ls_doc_new();
    ls_topo_to_doc(t, doc);
    char *text = ls_doc_dumps(doc), err[512];
    json_t *back = ls_doc_parse(text, "topo.json", err, sizeof err);
    if (!back)
        fail_msg("%s", err);
    assert_int_equal(ls_topo_from_doc(back, u), 0);
    assert_memory_equal(t, u, sizeof *t);
    const json_t *link = json_array_get(json_object_get(back, "links"), 0);
    assert_string_equal(ls_json_str(link, "type", ""), "NV18");
    assert_int_equal(ls_json_int(link, "nvlinks", 0), 18);
    assert_string_equal(ls_json_str(json_array_get(json_object_get(back, "nics"), 3), "name", ""),
                        "mlx5_3");
    free(text);
    json_decref(doc);
    json_decref(back);
    free(t);
    free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h200x2_is_nv18),
        cmocka_unit_test(seed000_islands),
        cmocka_unit_test(seed001_pairs),
        cmocka_unit_test(hgx_tabs_and_spaces),
        cmocka_unit_test(accepts_variants),
        cmocka_unit_test(rejects_malformed),
        cmocka_unit_test(rejects_too_many_gpus),
        cmocka_unit_test(rejects_malformed_p2p),
        cmocka_unit_test(detects_formats),
        cmocka_unit_test(render_puts_words_in_cells),
        cmocka_unit_test(render_reads_back),
        cmocka_unit_test(render_csv),
        cmocka_unit_test(doc_round_trip),
        cmocka_unit_test(header_names_run_together),
        cmocka_unit_test(nic_names_run_together),
        cmocka_unit_test(cells_run_together),
        cmocka_unit_test(nic_columns_past_the_limit),
        cmocka_unit_test(unknown_header_column_in_an_excerpt),
        cmocka_unit_test(rows_without_header),
        cmocka_unit_test(header_after_the_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
