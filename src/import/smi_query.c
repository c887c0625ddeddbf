/* nvidia-smi -q: "Key : value" lines nested by indentation under section lines
   ("PCI", "GPU Link Info", "PCIe Generation"), one block per GPU opened by
   "GPU 00000000:00:06.0". The GPU's index is not printed: it is the GPU of the document
   with that bus id, else the N of a pasted "-i N" when one GPU is shown, else the
   block's position. A paste indented as a whole (a Markdown code block of four spaces)
   is read from its common indent: nvidia-smi starts the banner and the GPU lines at the
   margin. */
#include "smi_text.h"
#include "import_note.h"
#include "import_util.h"
#include "smi_query_health.h"
#include "smi_query_excerpt.h"
#include "model/busid.h"
#include "model/doc.h"
#include "util/log.h"

#include <errno.h>
#include <limits.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH 6

typedef struct {
    json_t *doc, *gpu;
    int blocks, pinned_index; /* pinned_index: from "-i N", -1 when none */
    int ngpu_blocks;
    int indent[DEPTH];
    char section[DEPTH][48];
    int depth;
    size_t base; /* the indent every non-blank line of the paste shares */
    int excerpt; /* no GPU line and no banner: one GPU's sections, read as its block */
} query_t;

int ls_smi_query_detect(const char *text)
{
    if (strstr(text, "==============NVSMI LOG=============="))
        return 1;
    if (strstr(text, "Product Name") && strstr(text, "\nGPU 0000") && strstr(text, " : "))
        return 1;
    return ls_smi_query_excerpt_detect(text); /* a few sections, with or without the GPU line */
}

/* "GPU 00000000:2D:00.0" at the paste's margin: a GPU block opens. */
static int block_line(const char *t, char *bus, size_t buslen)
{
    char b[48];
    if (sscanf(t, "GPU %47s", b) != 1 || !strchr(b, ':'))
        return 0;
    snprintf(bus, buslen, "%s", b);
    return 1;
}

static int count_blocks(const char *text, size_t base)
{
    int n = 0;
    char bus[48];
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line))
        n += strspn(line.buf, " ") == base && block_line(line.buf + base, bus, sizeof bus);
    return n;
}

/* The section path of the current line: drops sections at this indent or deeper. */
static void enter(query_t *q, int indent)
{
    while (q->depth > 0 && q->indent[q->depth - 1] >= indent)
        q->depth--;
}

static int in_section(const query_t *q, const char *a, const char *b)
{
    return q->depth >= 2 && strcmp(q->section[q->depth - 2], a) == 0 &&
           strcmp(q->section[q->depth - 1], b) == 0;
}

/* "143771 MiB": the bytes; a count that is no whole number or past 2^63 bytes (a hostile
   99999999999999999 MiB: atoll times 2^20 overflowed) is left unknown. */
static void set_memory(query_t *q, const char *value)
{
    char *end;
    errno = 0;
    long long mib = strtoll(value, &end, 10);
    if (!errno && end != value && mib >= 0 && mib <= LLONG_MAX / (1024LL * 1024LL))
        json_object_set_new(q->gpu, "memory_total_bytes", json_integer(mib * 1024LL * 1024LL));
}

static void set_pcie(query_t *q, const char *field, const char *value)
{
    json_t *pcie = json_object_get(q->gpu, "pcie");
    if (!json_is_object(pcie)) {
        pcie = json_object();
        json_object_set_new(q->gpu, "pcie", pcie);
    }
    long long v = atoll(value); /* "16x" -> 16 */
    if (v > 0)
        json_object_set_new(pcie, field, json_integer(v));
}

/* The GPU object for the block of bus id bus. */
static void open_gpu(query_t *q, const char *bus)
{
    char bus_id[32];
    if (ls_busid_normalize(bus, bus_id, sizeof bus_id) != 0)
        snprintf(bus_id, sizeof bus_id, "%.31s", bus);
    int index = q->ngpu_blocks == 1 && q->pinned_index >= 0 ? q->pinned_index : q->blocks;
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(q->doc, "gpus"), i, g) {
        if (ls_busid_equal(ls_json_str(g, "pci_bus_id", ""), bus_id))
            index = (int)ls_json_int(g, "index", index);
    }
    q->gpu = ls_import_gpu(q->doc, index);
    ls_set_if_absent(q->gpu, "pci_bus_id", bus_id);
    q->blocks++;
}

static void top_value(query_t *q, const char *key, const char *raw)
{
    json_t *sw = json_object_get(q->doc, "software");
    char value[64]; /* drivers from 610: "610.60 [Deprecated; will be removed in CUDA 14.0. ...]" */
    snprintf(value, sizeof value, "%.*s", (int)(strstr(raw, " [") ? strstr(raw, " [") - raw : 63),
             raw);
    if (strcmp(key, "Driver Version") == 0)
        ls_set_if_absent(sw, "driver", value);
    else if (strcmp(key, "CUDA Version") == 0) /* the driver's CUDA version */
        ls_set_if_absent(sw, "cuda_driver", value);
}

/* A field NVML could not read for an error of the GPU's, not of the field's ("Unknown
   Error": NVML_ERROR_UNKNOWN; "GPU is lost"; "GPU requires reset"): named in the GPU's
   smi_err[] as the table's ERR! cells are ("Not Supported", "N/A" are the field's own). */
static int gpu_error_value(query_t *q, const char *key, const char *value)
{
    if (strcmp(value, "Unknown Error") && strncmp(value, "GPU is lost", 11) &&
        strncmp(value, "GPU requires reset", 18))
        return 0;
    char name[96];
    size_t n = 0;
    for (const char *k = key; *k && n + 1 < sizeof name; k++) /* "Product Brand" -> product_brand */
        name[n++] = isalnum((unsigned char)*k) ? (char)tolower((unsigned char)*k) : '_';
    name[n] = '\0';
    ls_json_add_string_once(ls_json_array_at(q->gpu, "smi_err"), name);
    return 1;
}

static void gpu_value(query_t *q, const char *key, const char *value)
{
    if (gpu_error_value(q, key, value))
        return;
    if (q->depth == 0 && strcmp(key, "Product Name") == 0)
        ls_set_if_absent(q->gpu, "name", value);
    else if (q->depth == 0 && strcmp(key, "GPU UUID") == 0)
        ls_set_if_absent(q->gpu, "uuid", value);
    else if (in_section(q, "GPU Link Info", "PCIe Generation") && strcmp(key, "Max") == 0)
        set_pcie(q, "gen_max", value);
    else if (in_section(q, "GPU Link Info", "PCIe Generation") && strcmp(key, "Current") == 0)
        set_pcie(q, "gen_current", value);
    else if (in_section(q, "GPU Link Info", "Link Width") && strcmp(key, "Max") == 0)
        set_pcie(q, "width_max", value);
    else if (in_section(q, "GPU Link Info", "Link Width") && strcmp(key, "Current") == 0)
        set_pcie(q, "width_current", value);
    else if (q->depth == 1 && strcmp(q->section[0], "FB Memory Usage") == 0 &&
             strcmp(key, "Total") == 0 && strstr(value, "MiB"))
        set_memory(q, value);
    else
        ls_smi_query_health(q->gpu, (const char(*)[48])q->section, q->depth, key, value);
}

static void query_line(query_t *q, const char *line)
{
    int indent = 0;
    while (line[indent] == ' ')
        indent++;
    const char *t = line + indent;
    if (!*t)
        return;
    indent -= (int)q->base; /* every non-blank line has at least base */
    char bus[48];
    if (indent == 0 && block_line(t, bus, sizeof bus)) {
        open_gpu(q, bus);
        q->depth = 0;
        return;
    }
    enter(q, indent);
    const char *colon = strstr(t, " : ");
    /* the banner, a pasted command line or a code fence: no section; in an excerpt
       without its GPU line, a section name at the margin ("Fabric" with its keys four
       spaces in, as `nvidia-smi -q | grep -A4 Fabric` leaves it) opens that section */
    if (!colon && indent == 0 && !(q->excerpt && ls_smi_query_section_name(t)))
        return;
    if (!colon) { /* a section line */
        if (q->depth < DEPTH) {
            q->indent[q->depth] = indent;
            char *s = q->section[q->depth++];
            snprintf(s, sizeof q->section[0], "%.47s", t);
            for (size_t n = strlen(s); n > 0 && s[n - 1] == ' '; n--) /* "Single Bit    " */
                s[n - 1] = '\0';
        }
        return;
    }
    char key[64];
    size_t klen = (size_t)(colon - t);
    while (klen && t[klen - 1] == ' ')
        klen--;
    snprintf(key, sizeof key, "%.*s", (int)(klen < 63 ? klen : 63), t);
    const char *value = colon + 3;
    while (*value == ' ')
        value++;
    if (!q->gpu)
        top_value(q, key, value);
    else
        gpu_value(q, key, value);
}

int ls_import_smi_query(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    query_t q = {.doc = doc, .pinned_index = -1, .base = ls_smi_query_margin(text)};
    const char *i = strstr(text, " -i ");
    if (i)
        q.pinned_index = atoi(i + 4);
    q.ngpu_blocks = count_blocks(text, q.base);
    if (q.ngpu_blocks == 0 && !strstr(text, "NVSMI LOG")) { /* an excerpt: one GPU's sections */
        int index = q.pinned_index >= 0 ? q.pinned_index : 0;
        q.gpu = ls_import_gpu(doc, index);
        q.blocks = 1;
        q.excerpt = 1;
        ls_import_note_missing("nvidia-smi -q sections without their 'GPU 00000000:BB:DD.F' line: "
                               "read as one GPU (GPU%d), its bus id not in the paste",
                               index);
    }
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line))
        query_line(&q, line.buf);
    if (q.blocks == 0)
        return ls_seterr(err, errlen, "%s: no 'GPU 00000000:BB:DD.F' block", name);
    /* Processes: the last section of every GPU block, except where -d (--display)
       chose the sections */
    if (!strstr(text, "Processes") && !strstr(text, "-d ") && !strstr(text, "--display"))
        ls_import_note_missing("the paste stops before the end of the GPU block");
    return 0;
}
