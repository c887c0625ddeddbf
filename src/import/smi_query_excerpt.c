/* nvidia-smi -q pasted in part: a few sections of a GPU's block, with or without the
   "GPU 00000000:BB:DD.F" line that opens it (`nvidia-smi -q -d PERFORMANCE`, a
   `grep -A8 'Clocks Throttle'`, an `-a` cut to its PCI section with "..." lines, a
   screen's worth). Recognized by the section names and keys nvidia-smi prints in a GPU
   block (its -q layout, drivers 450 to 610), read from the paste's common indent (a
   Markdown code block indents it all); the text form only: `-q -x` XML is named and
   refused by the caller. */
#include "smi_query_excerpt.h"
#include "import_util.h"

#include <string.h>

/* Section lines of a GPU block (no " : " on the line). */
static const char *const sections[] = {
    "Clocks Throttle Reasons",
    "Clocks Event Reasons",
    "Clocks",
    "Max Clocks",
    "Applications Clocks",
    "Default Applications Clocks",
    "Max Customer Boost Clocks",
    "Clock Policy",
    "GPU Link Info",
    "PCIe Generation",
    "Link Width",
    "PCI",
    "Power Readings",
    "GPU Power Readings",
    "Module Power Readings",
    "ECC Mode",
    "ECC Errors",
    "Remapped Rows",
    "Retired Pages",
    "Temperature",
    "FB Memory Usage",
    "BAR1 Memory Usage",
    "Inforom Version",
    "GPU Reset Status",
    "GPU Operation Mode",
    "GPU Virtualization Mode",
    "Utilization",
    "Driver Model",
    "Performance",
    "Bridge Chip",
    "Processes",
    "Voltage",
    "Fabric",
    "Health", /* the Fabric section's block (drivers 550 on) */
    /* the other section and sub-section lines -q prints in a GPU block (the full -q
       outputs of tests/fixtures/real, drivers 340 to 610) */
    "Ecc Mode", /* "ECC Mode" spelled so by older drivers (smi-q-gls-gtx680, 2080 Ti) */
    "Encoder Stats",
    "FBC Stats",
    "Volatile",  /* under ECC Errors */
    "Aggregate", /* under ECC Errors */
    "Single Bit",
    "Double Bit", /* under Retired Pages and the old ECC Errors */
    "Aggregate Uncorrectable SRAM Sources",
    "Bank Remap Availability Histogram",
    "MIG Mode",
    "IBMNPU",
    "Deferred Clocks",
    "Inforom BBX Object Flush",
    "Conf Compute Protected Memory Usage",
    "GPU Memory Power Readings",
    "Clocks Event Reasons Counters",
    "Capabilities",
    "Platform Info",
    "Workload Power Profiles",
    "DRAM Encryption Mode",
};

/* Keys of the log's head, above the first GPU block; drivers from 610 add "KMD Version"
   and "CUDA UMD Version" (the old two then say they are deprecated). */
static const char *const head_keys[] = {"Timestamp",     "Driver Version", "CUDA Version",
                                        "Attached GPUs", "KMD Version",    "CUDA UMD Version"};

/* Keys of a GPU block that no other tool's text carries in " : " form. */
static const char *const keys[] = {
    "Product Name", "GPU UUID",          "VBIOS Version",    "Minor Number",     "MultiGPU Board",
    "Board ID",     "Performance State", "Persistence Mode", "GPU Current Temp", "Power Draw",
    "Bus Id",       "Device Id",         "Sub System Id",    "Tx Throughput",    "Rx Throughput",
    "CliqueId",     "ClusterUUID",
};

static int in_list(const char *const *list, size_t n, const char *s, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == len && strncmp(list[i], s, len) == 0)
            return 1;
    return 0;
}

/* The trimmed length of s (trailing blanks and a '\r' dropped). */
static size_t trimmed(const char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    return n;
}

typedef struct {
    int kv, known, other;
} tally_t;

/* Lines that neither speak for -q nor against it: the "..." of an elision, grep's "--"
   between the groups of a grep -A / -B / -C, the shell's line that ran nvidia-smi, and the
   block's opening "GPU 00000000:2D:00.0" at the margin. */
static int neutral(const char *s, size_t indent)
{
    return strncmp(s, "...", 3) == 0 || strcmp(s, "--") == 0 ||
           ((s[0] == '#' || s[0] == '$') && strstr(s, "nvidia-smi")) ||
           (indent == 0 && strncmp(s, "GPU 0", 5) == 0 && strchr(s, ':'));
}

static void tally_line(const char *line, size_t base, tally_t *t)
{
    size_t indent = strspn(line, " ");
    const char *s = line + indent;
    size_t len = trimmed(s);
    if (len == 0 || neutral(s, indent - base))
        return;
    indent -= base;
    const char *colon = strstr(s, " : ");
    size_t k = colon ? (size_t)(colon - s) : 0;
    while (k && s[k - 1] == ' ')
        k--;
    if (colon && indent == 0 && in_list(head_keys, sizeof head_keys / sizeof head_keys[0], s, k)) {
        t->known++;
    } else if (colon && indent > 0) {
        t->kv++;
        t->known += in_list(keys, sizeof keys / sizeof keys[0], s, k);
    } else if (!colon && in_list(sections, sizeof sections / sizeof sections[0], s, len)) {
        t->known++;
    } else {
        t->other++;
    }
}

/* A line nvidia-smi starts at its margin: the banner, a key of the log's head, or the
   "GPU 00000000:2D:00.0" that opens a block. */
static int margin_line(const char *s)
{
    const char *colon = strstr(s, " : ");
    size_t k = colon ? (size_t)(colon - s) : 0;
    while (k && s[k - 1] == ' ')
        k--;
    return strstr(s, "NVSMI LOG") || (strncmp(s, "GPU 0", 5) == 0 && strchr(s, ':') && !colon) ||
           (colon && in_list(head_keys, sizeof head_keys / sizeof head_keys[0], s, k));
}

size_t ls_smi_query_margin(const char *text)
{
    size_t base = (size_t)-1;
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line)) {
        size_t n = strspn(line.buf, " ");
        if (trimmed(line.buf + n) && n < base)
            base = n;
    }
    if (base == (size_t)-1 || base == 0)
        return 0;
    p = text;
    while (ls_next_line(&p, &line))
        if (strspn(line.buf, " ") == base && margin_line(line.buf + base))
            return base;
    return 0; /* a block's own sections, four spaces in under a GPU line not pasted */
}

int ls_smi_query_section_name(const char *s)
{
    return in_list(sections, sizeof sections / sizeof sections[0], s, trimmed(s));
}

int ls_smi_query_excerpt_detect(const char *text)
{
    tally_t t = {0};
    size_t base = ls_smi_query_margin(text);
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line))
        tally_line(line.buf, base, &t);
    /* indented "Key : value" lines under -q's own section names or keys, and little
       else (a command line, a code fence) */
    return t.kv >= 3 && t.known >= 1 && t.other <= 3 && t.other * 4 <= t.kv;
}

int ls_smi_query_is_xml(const char *text)
{
    return strstr(text, "<nvidia_smi_log>") || strstr(text, "<clocks_event_reasons>") ||
           strstr(text, "<clocks_throttle_reasons>") || strstr(text, "<product_name>") ||
           strstr(text, "<power_readings>") || strstr(text, "<gpu_power_readings>");
}
