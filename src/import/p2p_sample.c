/* p2pBandwidthLatencyTest output. Facts from the sample's source that decide what a
   figure means:
   - each matrix cell [i][j] is timed on GPU i's stream; with P2P writes (default) the
     data goes i -> j, with --p2p_read it goes j -> i (GPU i pulls);
   - the diagonal copies within one GPU and counts the bytes twice (read + write), so
     it is HBM traffic, recorded as an `hbm` "copy_ce" entry, not as P2P;
   - bidirectional cells count the bytes of both directions (the sum);
   - latency is 100 back-to-back 16-byte (one int4) copies: the GPU matrix is timed by
     events on the device, the CPU matrix by a stopwatch around issuing the copies;
   - "P2P=Enabled" falls back to a copy through the host where peer access is
     unavailable ("Device=i CANNOT Access Peer Device=j").
   busGrind (the CUDA toolkit's extras/demo_suite) prints the same kinds of matrix under
   other titles, read here as well, its entries named "busGrind":
   - "P2P Bandwidth Matrix (GB/s) - Unidirectional, P2P=Enabled" (or Bidirectional,
     P2P=Disabled), a "D\D" column line and rows as above;
   - "Host/Device Bandwidth Matrix (GB/s), memory=Pinned" (or Pageable): a "Dir\D" column
     line of GPU indices and one row a direction, "D2H", "H2D", "BiDir" (both at once,
     the sum: about twice D2H on a healthy link), each GPU timed alone; the "Concurrent"
     matrix times every GPU at once ("under": "all_gpus"), its "Total" column dropped. */
#include "p2p_sample.h"
#include "import_note.h"
#include "import_util.h"
#include "model/vocab.h"
#include "model/busid.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/topo.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum section { SEC_NONE, SEC_CONNECTIVITY, SEC_UNI, SEC_BIDIR, SEC_LATENCY, SEC_HOST };

typedef struct {
    enum section section;
    int p2p_enabled, read_mode;
    int cpu_timed;  /* latency: the "CPU" sub-matrix */
    int concurrent; /* busGrind's host matrix with every GPU at once */
    int pageable;   /* busGrind's host matrix of pageable memory */
    int cols[LS_MAX_GPUS], ncols;
    int rows;       /* rows read under the current column line */
    char title[96]; /* the sample's title of the matrix, as printed */
} matrix_t;

typedef struct {
    json_t *doc;
    const char *name, *source;            /* the tool: p2pBandwidthLatencyTest or busGrind */
    int access[LS_MAX_GPUS][LS_MAX_GPUS]; /* 1 CAN, 0 CANNOT, -1 not said */
    double diag[LS_MAX_GPUS][4];          /* local-copy samples per GPU (HBM traffic) */
    int ndiag[LS_MAX_GPUS];
    int ngpus_seen, access_lines;
    int added, bandwidth, latency; /* entries, and of them bandwidth / latency ones */
    matrix_t m;
    int titled;                                            /* a matrix title has been read */
    char lead[LS_MAX_GPUS][sizeof(((ls_line_t *)0)->buf)]; /* rows before any title */
    int nlead;
} p2p_parser_t;

/* Any part the sample prints: its title, the peer-access lines, a matrix title. */
int ls_p2p_sample_detect(const char *text)
{
    static const char *const marks[] = {"P2P (Peer-to-Peer) GPU Bandwidth Latency Test",
                                        "Unidirectional P2P=",
                                        "Bidirectional P2P=",
                                        "P2P=Enabled Latency",
                                        "P2P=Disabled Latency",
                                        "Access Peer Device=",
                                        "P2P Connectivity Matrix",
                                        "P2P Bandwidth Matrix (GB/s) - ",
                                        "Host/Device Bandwidth Matrix (GB/s)"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(text, marks[i]))
            return 1;
    return 0;
}

int ls_busgrind_detect(const char *text)
{
    return strstr(text, "P2P Bandwidth Matrix (GB/s) - ") ||
           strstr(text, "Host/Device Bandwidth Matrix (GB/s)") || strstr(text, "busGrind -");
}

/* "Device: 0, NVIDIA H200, pciBusID: 0, pciDeviceID: 6, pciDomainID:0" (hex). */
static void parse_device_line(p2p_parser_t *p, const char *text)
{
    int index;
    char name[128];
    unsigned bus, dev, dom;
    if (sscanf(text, "Device: %d, %127[^,], pciBusID: %x, pciDeviceID: %x, pciDomainID:%x", &index,
               name, &bus, &dev, &dom) != 5 ||
        index < 0 || index >= LS_MAX_GPUS)
        return;
    char bus_id[32] = "";
    if (bus <= 0xff && dev <= 0x1f) /* PCI: 8-bit bus, 5-bit device */
        ls_busid_format(&(ls_busid_t){dom, bus, dev, 0}, bus_id, sizeof bus_id);
    json_t *gpu = ls_import_gpu(p->doc, index);
    ls_set_if_absent(gpu, "name", name);
    ls_set_if_absent(gpu, "pci_bus_id", bus_id);
    if (index + 1 > p->ngpus_seen)
        p->ngpus_seen = index + 1;
}

static void parse_access_line(p2p_parser_t *p, const char *text)
{
    int a, b;
    char word[16];
    if (sscanf(text, "Device=%d %15s Access Peer Device=%d", &a, word, &b) == 3 && a >= 0 &&
        b >= 0 && a < LS_MAX_GPUS && b < LS_MAX_GPUS) {
        p->access[a][b] = strcmp(word, "CAN") == 0;
        p->access_lines++;
    }
}

/* Section titles, as printed by the sample's main(). */
static void end_matrix(matrix_t *m)
{
    if (m->ncols > 0 && m->section != SEC_NONE && m->section != SEC_HOST && m->rows < m->ncols)
        ls_import_note_missing("'%s%s' cut after %d of %d rows", m->title,
                               m->cpu_timed ? " (CPU)" : "", m->rows, m->ncols);
    /* busGrind's host matrices: a row a direction (D2H, H2D, BiDir) */
    if (m->ncols > 0 && m->section == SEC_HOST && m->rows < 3)
        ls_import_note_missing("'%s' cut after %d of its 3 rows (D2H, H2D, BiDir)", m->title,
                               m->rows);
    m->ncols = 0;
    m->rows = 0;
}

static int parse_title(matrix_t *m, const char *text)
{
    enum section s = SEC_NONE;
    if (strstr(text, "P2P Connectivity Matrix"))
        s = SEC_CONNECTIVITY;
    else if (strstr(text, "Unidirectional P2P=") && strstr(text, "Bandwidth"))
        s = SEC_UNI;
    else if (strstr(text, "Bidirectional P2P=") && strstr(text, "Bandwidth"))
        s = SEC_BIDIR;
    else if (strstr(text, "P2P=") && strstr(text, "Latency") && strstr(text, "Matrix"))
        s = SEC_LATENCY;
    else if (strstr(text, "P2P Bandwidth Matrix") && strstr(text, "Unidirectional"))
        s = SEC_UNI; /* busGrind */
    else if (strstr(text, "P2P Bandwidth Matrix") && strstr(text, "Bidirectional"))
        s = SEC_BIDIR;
    else if (strstr(text, "Host/Device Bandwidth Matrix"))
        s = SEC_HOST;
    if (s == SEC_NONE)
        return 0;
    end_matrix(m);
    memset(m, 0, sizeof *m);
    m->section = s;
    snprintf(m->title, sizeof m->title, "%.95s", text);
    size_t n = strlen(m->title);
    while (n && (m->title[n - 1] == ' ' || m->title[n - 1] == '\t'))
        m->title[--n] = '\0';
    m->p2p_enabled = strstr(text, "P2P=Enabled") != NULL;
    m->read_mode = strstr(text, "P2P Reads") != NULL;
    m->concurrent = strstr(text, "Concurrent") != NULL;
    m->pageable = strstr(text, "Pageable") != NULL;
    return 1;
}

/* "D\D 0 1", "GPU 0 1", "CPU 0 1": the column indices of the matrix that follows. */
static int parse_column_line(matrix_t *m, ls_line_t *line)
{
    if (line->ntok < 2)
        return 0;
    const char *head = line->tok[0];
    if (strcmp(head, "D\\D") != 0 && strcmp(head, "GPU") != 0 && strcmp(head, "CPU") != 0 &&
        strcmp(head, "Dir\\D") != 0)
        return 0;
    end_matrix(m);
    m->cpu_timed = strcmp(head, "CPU") == 0;
    m->ncols = 0;
    for (int i = 1; i < line->ntok && m->ncols < LS_MAX_GPUS; i++) {
        long long c;
        if (m->section == SEC_HOST && strcmp(line->tok[i], "Total") == 0)
            break; /* busGrind's concurrent matrix: the sum of its row */
        if (ls_tok_long(line->tok[i], &c) != 0 || c < 0 || c >= LS_MAX_GPUS) {
            m->ncols = 0; /* not a usable header: no row is read against it */
            return 0;
        }
        m->cols[m->ncols++] = (int)c;
    }
    return 1;
}

static int pair_has_p2p(const p2p_parser_t *p, int i, int j)
{
    return p->m.p2p_enabled && p->access[i][j] != 0;
}

static void add_pair_entry(p2p_parser_t *p, int row, int col, double value)
{
    const matrix_t *m = &p->m;
    int p2p = pair_has_p2p(p, row, col);
    /* write: GPU row pushes to col; read: GPU row pulls from col */
    int src = m->read_mode ? col : row, dst = m->read_mode ? row : col;
    int latency = m->section == SEC_LATENCY;
    json_t *e = latency ? ls_import_entry(LS_FAMILY_LATENCY, "latency", "us", value)
                        : ls_import_entry(LS_FAMILY_P2P, "bandwidth", "GB/s", value);
    const char *method = latency ? (m->cpu_timed ? LS_LAT_CPU_COPY : LS_LAT_GPU_COPY) : LS_P2P_CE;
    json_object_set_new(e, "method", json_string(method));
    if (m->read_mode)
        json_object_set_new(e, "mode", json_string("read"));
    json_object_set_new(e, "gpus", json_pack("[i, i]", src, dst));
    json_object_set_new(e, "src", json_integer(src));
    json_object_set_new(e, "dst", json_integer(dst));
    if (!latency)
        json_object_set_new(e, "direction",
                            json_string(m->section == SEC_BIDIR ? LS_DIR_BIDIR : LS_DIR_UNI));
    else
        json_object_set_new(e, "bytes", json_integer(16)); /* one int4 per copy */
    json_object_set_new(e, "p2p", json_boolean(p2p));
    /* the matrix it came from: P2P=Enabled (falls back to the host where peer access is
       missing) or P2P=Disabled (always through the host) */
    json_object_set_new(e, "p2p_setting", json_string(m->p2p_enabled ? "enabled" : "disabled"));
    json_object_set_new(e, "matrix", json_string(m->title));
    json_object_set_new(e, "verified", json_false()); /* the sample checks no data */
    /* "P2P=Enabled" on a pair the sample said CANNOT Access Peer: no peer access */
    int denied = m->p2p_enabled && p->access[row][col] == 0;
    json_object_set_new(e, "flags",
                        p2p      ? json_array()
                        : denied ? json_pack("[s, s]", LS_FLAG_THROUGH_HOST, LS_FLAG_NO_P2P)
                                 : json_pack("[s]", LS_FLAG_THROUGH_HOST));
    char id[96];
    if (latency)
        snprintf(id, sizeof id, "latency-%s%s-%d-%d%s", method, m->read_mode ? "-read" : "", src,
                 dst, p2p ? "" : "-nop2p");
    else
        snprintf(id, sizeof id, "p2p-ce%s-%s-%d-%d%s", m->read_mode ? "-read" : "",
                 m->section == SEC_BIDIR ? LS_DIR_BIDIR : LS_DIR_UNI, src, dst,
                 p2p ? "" : "-nop2p");
    ls_import_add(p->doc, e, p->source, id);
    p->added++;
    if (latency)
        p->latency++;
    else
        p->bandwidth++;
}

/* busGrind's host row "D2H 56.83 57.12 ...": one host entry a GPU of the column line. */
static void parse_host_row(p2p_parser_t *p, ls_line_t *line, int last)
{
    matrix_t *m = &p->m;
    if (line->ntok < 1)
        return; /* a line of blanks: no direction word */
    const char *dir = strcmp(line->tok[0], "D2H") == 0     ? LS_DIR_D2H
                      : strcmp(line->tok[0], "H2D") == 0   ? LS_DIR_H2D
                      : strcmp(line->tok[0], "BiDir") == 0 ? LS_DIR_BIDIR
                                                           : NULL;
    if (!dir || m->ncols == 0)
        return;
    m->rows++;
    int cells = line->ntok - 1 < m->ncols ? line->ntok - 1 : m->ncols;
    /* a row cut short: its last cell may be cut (a "Total" after the GPUs' cells keeps
       them whole) */
    if (line->ntok - 1 < m->ncols || (last && line->ntok - 1 == m->ncols)) {
        ls_import_note_missing("'%s' row %s cut after %d of %d cells", m->title, line->tok[0],
                               cells - 1 > 0 ? cells - 1 : 0, m->ncols);
        cells--;
    }
    for (int c = 0; c < cells; c++) {
        double v;
        if (ls_tok_double(line->tok[c + 1], &v) != 0)
            return;
        int g = m->cols[c];
        json_t *e = ls_import_entry(LS_FAMILY_HOST, "bandwidth", "GB/s", v);
        json_object_set_new(e, "method", json_string(LS_P2P_CE));
        json_object_set_new(e, "gpus", json_pack("[i]", g));
        json_object_set_new(e, "gpu", json_integer(g));
        json_object_set_new(e, "direction", json_string(dir));
        json_object_set_new(e, "memory",
                            json_string(m->pageable ? LS_MEM_PAGEABLE : LS_MEM_PINNED));
        if (m->concurrent)
            json_object_set_new(e, "under", json_string("all_gpus"));
        json_object_set_new(e, "matrix", json_string(m->title));
        json_object_set_new(e, "verified", json_false());
        char id[96];
        snprintf(id, sizeof id, "host-ce-%s-%s-%d%s", m->pageable ? "pageable" : "pinned", dir, g,
                 m->concurrent ? "-all_gpus" : "");
        ls_import_gpu(p->doc, g);
        ls_import_add(p->doc, e, p->source, id);
        p->added++;
        p->bandwidth++;
    }
}

/* last = the row is the last line of the paste: a figure at its end may be cut short
   ("375.6" of 375.65) and cannot be told from a whole one, so it is dropped. */
static void parse_matrix_row(p2p_parser_t *p, ls_line_t *line, int last)
{
    matrix_t *m = &p->m;
    long long row;
    if (m->ncols == 0 || line->ntok < 2 || line->ntok > m->ncols + 1 ||
        ls_tok_long(line->tok[0], &row) != 0 || row < 0 || row >= LS_MAX_GPUS)
        return;
    int cells = line->ntok - 1;
    m->rows++;
    if (cells < m->ncols || last) { /* a row cut short: its last cell may be cut too */
        ls_import_note_missing("'%s' row %lld cut after %d of %d cells", m->title, row, cells - 1,
                               m->ncols);
        cells--;
    }
    for (int c = 0; c < cells; c++) {
        double v;
        if (ls_tok_double(line->tok[c + 1], &v) != 0)
            return;
        int col = m->cols[c];
        if (m->section == SEC_CONNECTIVITY) {
            if (row != col && p->access[row][col] < 0)
                p->access[row][col] = v != 0;
        } else if (row == col) {
            /* local copies of the unidirectional matrices: HBM read + write */
            if (m->section == SEC_UNI && !m->read_mode && p->ndiag[row] < 4)
                p->diag[row][p->ndiag[row]++] = v;
        } else {
            add_pair_entry(p, (int)row, col, v);
        }
    }
}

static void add_hbm_entries(p2p_parser_t *p)
{
    for (int g = 0; g < LS_MAX_GPUS; g++) {
        if (p->ndiag[g] == 0)
            continue;
        json_t *e = ls_import_entry(LS_FAMILY_HBM, "bandwidth", "GB/s", 0);
        /* several matrices time the same local copy: keep each as a sample */
        ls_entry_set_samples(e, p->diag[g], (size_t)p->ndiag[g]);
        /* cudaMemcpyPeerAsync within one GPU: the copy engine (the default mechanism) */
        json_object_set_new(e, "method", json_string(LS_HBM_COPY_CE));
        json_object_set_new(e, "gpus", json_pack("[i]", g));
        json_object_set_new(e, "gpu", json_integer(g));
        json_object_set_new(e, "copied_gbps", json_real(ls_json_num(e, "value", 0) / 2));
        json_object_set_new(e, "verified", json_false());
        /* the sample's buffers are cudaMemset to zero before copying */
        json_object_set_new(e, "flags", json_pack("[s]", "zero_filled"));
        char id[48];
        snprintf(id, sizeof id, "hbm-copy_ce-%d", g);
        ls_import_add(p->doc, e, p->source, id);
        p->added++;
    }
}

/* The link object a -> b of doc's "links" (created with type "?" when the document has
   no topology yet). */
static json_t *link_of(json_t *doc, int a, int b)
{
    return ls_json_find_or_add(ls_json_array_at(doc, "links"),
                               json_pack("{s:i, s:i, s:s, s:s}", "a", a, "b", b, "type", "?",
                                         "class", "?"),
                               "a", "b");
}

/* "Device=i CAN / CANNOT Access Peer Device=j": cudaDeviceCanAccessPeer, as discovery
   records it in links[].cuda_peer_access. */
static void add_access_links(p2p_parser_t *p)
{
    for (int a = 0; a < LS_MAX_GPUS; a++)
        for (int b = 0; b < LS_MAX_GPUS; b++)
            if (a != b && p->access[a][b] >= 0) {
                ls_import_gpu(p->doc, a);
                ls_import_gpu(p->doc, b);
                json_object_set_new(link_of(p->doc, a, b), "cuda_peer_access",
                                    json_boolean(p->access[a][b]));
            }
}

/* Rows pasted before the first title are the tail of the matrix the sample printed just
   before it. The sample's order is fixed (its main()): each P2P=Enabled bandwidth matrix
   follows the same matrix with P2P=Disabled, so that predecessor, and only it, is
   inferred, and only rows of the new matrix's width (index + every cell) are read. */
static void read_lead_rows(p2p_parser_t *p)
{
    matrix_t cur = p->m;
    int n = p->nlead;
    p->nlead = 0;
    const char *en = strstr(cur.title, "P2P=Enabled");
    if (n == 0 || !cur.p2p_enabled || cur.read_mode || !en ||
        (cur.section != SEC_UNI && cur.section != SEC_BIDIR))
        return;
    matrix_t *m = &p->m;
    m->p2p_enabled = 0;
    m->rows = 0;
    const char *tail = strstr(en, "Matrix"); /* drops "(P2P Writes)" */
    snprintf(m->title, sizeof m->title, "%.*sP2P=Disabled Bandwidth %s", (int)(en - cur.title),
             cur.title, tail ? tail : "Matrix (GB/s)");
    ls_import_note_missing("'%s' title not in the paste: %d rows before '%s' read as its end",
                           m->title, n, cur.title);
    for (int i = 0; i < n; i++) {
        ls_line_t line;
        snprintf(line.buf, sizeof line.buf, "%s", p->lead[i]);
        ls_tokenize(&line);
        if (line.ntok == m->ncols + 1) /* the first line may be cut at its start */
            parse_matrix_row(p, &line, 0);
    }
    end_matrix(m);
    *m = cur;
}

/* The sample prints every cell as "%6.02f " (a space after each figure), so a last row
   that ends in a space after its last cell was not cut inside that figure. */
static int ends_in_space(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t');
}

static int only_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return *p == '\0';
}

int ls_import_p2p_sample(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    p2p_parser_t *p = calloc(1, sizeof *p);
    if (!p)
        return ls_seterr(err, errlen, "%s: out of memory", name);
    p->doc = doc;
    p->name = name;
    p->source = ls_busgrind_detect(text) ? "busGrind" : "p2pBandwidthLatencyTest";
    memset(p->access, 0xff, sizeof p->access); /* -1: not said */
    ls_line_t line;
    const char *pos = text;
    while (ls_next_line(&pos, &line)) {
        const char *t = line.buf;
        while (*t == ' ' || *t == '\t')
            t++;
        if (strncmp(t, "Device:", 7) == 0) {
            parse_device_line(p, t);
            continue;
        }
        if (strncmp(t, "Device=", 7) == 0) {
            parse_access_line(p, t);
            continue;
        }
        if (parse_title(&p->m, t)) {
            p->titled = 1;
            continue;
        }
        int spaced = ends_in_space(line.buf);
        if (!p->titled && p->nlead < LS_MAX_GPUS)
            snprintf(p->lead[p->nlead++], sizeof p->lead[0], "%s", line.buf);
        ls_tokenize(&line);
        if (p->m.section != SEC_NONE && parse_column_line(&p->m, &line)) {
            read_lead_rows(p);
            continue;
        }
        if (p->m.section == SEC_NONE)
            continue;
        int last = only_blanks(pos) && !(spaced && line.ntok == p->m.ncols + 1);
        if (p->m.section == SEC_HOST)
            parse_host_row(p, &line, last);
        else
            parse_matrix_row(p, &line, last);
    }
    end_matrix(&p->m);
    add_hbm_entries(p);
    add_access_links(p);
    int added = p->added, found = added > 0 || p->access_lines > 0 || p->ngpus_seen > 0;
    const char *source = p->source; /* a string literal: outlives p */
    if (found && p->bandwidth == 0)
        ls_import_note_missing("no bandwidth matrix");
    if (found && p->latency == 0 && strcmp(p->source, "busGrind") != 0)
        ls_import_note_missing("no latency matrix");
    free(p);
    if (!found)
        return ls_seterr(err, errlen,
                         "%s: no %s matrix, device or peer-access line found "
                         "(expected lines such as 'Unidirectional P2P=Enabled Bandwidth (P2P "
                         "Writes) Matrix (GB/s)' or 'Device=0 CAN Access Peer Device=1')",
                         name, source);
    return added;
}
