#include "import_sniff.h"
#include "import_util.h"
#include "smi_query_excerpt.h"
#include "topo_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* needle in hay, ignoring case ("inActive", "Inactive", "<inactive>"). */
static const char *find_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return hay;
    }
    return NULL;
}

/* nvidia-smi topo -m's link words (its legend). */
static int link_word(const char *w, size_t n)
{
    static const char *const words[] = {"X", "SYS", "NODE", "PHB", "PXB", "PIX"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && strncmp(words[i], w, n) == 0)
            return 1;
    return n >= 3 && w[0] == 'N' && w[1] == 'V' && isdigit((unsigned char)w[2]);
}

/* A "GPU<n>" word followed by two or more link words: a row of the topo -m matrix. */
static int topo_row(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (strncmp(line, "GPU", 3) || !isdigit((unsigned char)line[3]))
        return 0;
    int words = 0;
    const char *p = line + 3;
    while (*p) {
        while (*p && !isspace((unsigned char)*p))
            p++;
        while (*p && isspace((unsigned char)*p))
            p++;
        size_t n = strcspn(p, " \t\r\n");
        if (!n || !link_word(p, n))
            break;
        words++;
        p += n;
    }
    return words >= 2;
}

static int any_line(const char *text, int (*pred)(const char *))
{
    const char *p = text;
    ls_line_t line;
    while (ls_next_line(&p, &line))
        if (pred(line.buf))
            return 1;
    return 0;
}

/* "Link 4: 26.562 GB/s", "Link 4: <inactive>", a health check's "Link 4: Inactive". */
static int nvlink_line(const char *line)
{
    const char *l = strstr(line, "Link ");
    return l && isdigit((unsigned char)l[5]) && strchr(l, ':') &&
           (strstr(l, "GB/s") || find_nocase(l, "inactive"));
}

/* Rows of topo -m without their header that the topo reader could not name (their
   diagonal leaves the GPU count open): its reason, without its line number. */
static int headerless_rows(const char *text, char *buf, size_t len)
{
    char why[256] = "", missing[512];
    ls_topo_t *topo = calloc(1, sizeof *topo);
    if (topo &&
        ls_topo_parse_text_partial(text, topo, missing, sizeof missing, why, sizeof why) == 0)
        why[0] = '\0';
    free(topo);
    const char *rows = strstr(why, "rows of nvidia-smi topo -m");
    if (rows)
        return snprintf(buf, len, "looks like %s", rows) > 0;
    return snprintf(buf, len,
                    "looks like rows of nvidia-smi topo -m without their header row "
                    "('GPU0 GPU1 ... NIC0 ... CPU Affinity'): the columns cannot be named; "
                    "paste from the header line on") > 0;
}

/* A kernel log line ("[   14.521447] ...", "Dec  2 11:49:53 host kernel: ...") about the
   NVIDIA modules ("nvidia: loading out-of-tree module", "nvidia-modeset: ..."). */
static int nvidia_kernel_line(const char *line)
{
    const char *close = line[0] == '[' ? strchr(line, ']') : NULL;
    int stamped = (close && strspn(line + 1, " 0123456789.") == (size_t)(close - line - 1)) ||
                  strstr(line, " kernel: ");
    return stamped && find_nocase(line, "nvidia");
}

/* DCGM's host engine log (nv-hostengine, /var/log/nv-hostengine.log): "2024-04-02
   12:54:06.828 ERROR [1264985:1264994] [[NvSwitch]] message [file:line] [function]". */
static int dcgm_log_line(const char *line)
{
    int at = 0;
    unsigned y, mo, d, h, mi, se, ms, pid, tid;
    char level[16];
    if (sscanf(line, "%u-%u-%u %u:%u:%u.%u %15s [%u:%u] %n", &y, &mo, &d, &h, &mi, &se, &ms, level,
               &pid, &tid, &at) < 10 ||
        !at)
        return 0;
    return !strcmp(level, "ERROR") || !strcmp(level, "WARNING") || !strcmp(level, "INFO") ||
           !strcmp(level, "DEBUG") || !strcmp(level, "VERBOSE");
}

/* Its NVSwitch module's lines ("[[NvSwitch]] Not attached to NvSwitches", "[[NvSwitch]]
   ReadNvSwitchStatusAllSwitches() returned Object is in an undefined state"). */
static int dcgm_nvswitch_line(const char *line)
{
    return dcgm_log_line(line) && strstr(line, "[[NvSwitch]]");
}

/* The host engine's log: not read. Its NvSwitch module's complaints say that DCGM could not
   reach the switches through NSCQ, not that a switch failed (DCGM's issues 159 and 174). */
static int dcgm_log(const char *text, char *buf, size_t len)
{
    if (any_line(text, dcgm_nvswitch_line))
        return snprintf(buf, len,
                        "DCGM host engine log (nv-hostengine): not read; its NvSwitch module's "
                        "lines say DCGM could not read the NVSwitches (none in the machine, "
                        "libnvidia-nscq missing or of another version than the driver, or "
                        "Fabric Manager not running), not that a switch or a GPU failed: "
                        "nvidia-smi -q's Fabric section, systemctl status nvidia-fabricmanager "
                        "and the kernel's SXid lines say that") > 0;
    return snprintf(buf, len,
                    "DCGM host engine log (nv-hostengine): not read; import dcgmi diag or "
                    "dcgmi health output instead") > 0;
}

int ls_import_sniff(const char *text, char *buf, size_t len)
{
    if (ls_smi_query_is_xml(text))
        return snprintf(buf, len,
                        "nvidia-smi -q -x output (XML): not read; import the text form "
                        "(nvidia-smi -q, without -x)") > 0;
    if (strstr(text, "CPU Affinity") && strstr(text, "GPU0") && any_line(text, topo_row))
        return snprintf(buf, len,
                        "looks like nvidia-smi topo -m, but no line starts with its header "
                        "('GPU0 GPU1 ... CPU Affinity' on a line of its own): put the header on "
                        "its own line") > 0;
    if (any_line(text, topo_row))
        return headerless_rows(text, buf, len);
    if (find_nocase(text, "all links are inactive"))
        return snprintf(buf, len,
                        "nvidia-smi nvlink's 'all links are inactive' without its 'GPU N: NAME "
                        "(UUID: ...)' line: which GPU it is about is not in the text, and a part "
                        "without NVLink wired (a PCIe card with no bridge) prints the same") > 0;
    if (any_line(text, nvidia_kernel_line)) /* kernel logs: import/kernel_log.c */
        return snprintf(buf, len,
                        "a kernel log without an NVIDIA driver line ('NVRM: ...'): nothing of the "
                        "driver's state (Xid, failures) to read; paste dmesg or journalctl -k "
                        "with the NVRM lines") > 0;
    if (any_line(text, dcgm_log_line))
        return dcgm_log(text, buf, len);
    if (any_line(text, nvlink_line))
        return snprintf(buf, len,
                        "looks like nvidia-smi nvlink 'Link N:' lines without their 'GPU N: "
                        "NAME (UUID: ...)' line: the GPU they belong to is not in the text") > 0;
    return 0;
}
