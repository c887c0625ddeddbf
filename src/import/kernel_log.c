/* A pasted kernel log's NVRM lines (kernel_log.h). What the driver prints
   (open-gpu-kernel-modules: kernel-open/nvidia/nv.c, src/nvidia/arch/nvalloc/unix/src/
   osinit.c and osapi.c, src/nvidia/src/kernel/gpu/rc/kernel_rc.c), each after "NVRM: ":
     Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.
     GPU 0000:3b:00.0: RmInitAdapter failed! (0x26:0xffff:1474)     (NV_DEV_PRINTF)
     GPU 0000:3b:00.0: GPU has fallen off the bus.
     The NVIDIA GPU 0000:b3:00.0 / (PCI ID: ...) installed in this system has / fallen off
       the bus and is not responding to commands.                     (three lines)
     The NVIDIA probe routine failed for 1 device(s).
     No NVIDIA GPU found.            (nv.c, module init; before 5xx: "No NVIDIA graphics
                                      adapter found!", then "NVIDIA init module failed!")
     API mismatch: the client has the version A, but / this kernel module has the version
       B.  Please ...                                                  (several lines)
     GPU at PCI:0000:3b:00: GPU-<uuid>                                 (before the first Xid)
     loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  <date>
     GPU6 _kgspIsHeartbeatTimedOut: Heartbeat timed out, ...           (GSP firmware)
   The layouts put a prefix before "NVRM: ": dmesg "[  903.609564] ", dmesg -T "[Fri Aug 30
   11:43:09 2024] ", syslog "Dec  2 11:49:53 HOST kernel: [  885.242168] ", journalctl -k
   "Mar 29 15:38:59 [HOST] kernel: ". A message of several lines continues on lines whose
   prefix is blank or repeats the first one's stamp; rsyslog writes it in one line with
   "#012" for each newline. The NVSwitch driver's lines ("nvidia-nvswitch3: SXid
   (PCI:0000:c5:00.0): 20034, Fatal, Link 24 LTSSM Fault Up", model/sxid.h) are read beside
   them into sxids[], with the same prefixes. NVIDIA's k8s-device-plugin logs the Xid
   events NVML gives it ("XidCriticalError: Xid=69 on Device=GPU-<uuid>, the device will go
   unhealthy." before 0.12, "... on GPU=GPU-<uuid>, ...", "...; marking device as
   unhealthy." from 0.12, "XidCriticalError: Xid=N, All devices will go unhealthy." for an
   event without a device): each is an Xid event of that GPU by UUID (plugin_xid). */
#include "kernel_log.h"
#include "import_note.h"
#include "import_util.h"
#include "model/busid.h"
#include "model/doc.h"
#include "model/nvlink_fail.h"
#include "model/sxid.h"
#include "model/xid.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_MAX 2048

/* One logical NVRM message and where the log put it. */
typedef struct {
    char prefix[256]; /* the raw text before "NVRM: " */
    char time[48], since_boot[24], host[64];
    char body[MSG_MAX];
} msg_t;

/* Whether p, in line, is at a token boundary: a line's start, a blank, ']', ':', /dev/kmsg's
   "6,1234,5678,-;", rsyslog's "#012", or the '"' of another tool quoting the kernel's line
   (gpud's scan prints `[XID found] (54 minutes ago) "NVRM: Xid (...): 119, ..."`). */
static int token_start(const char *line, const char *p)
{
    return p == line || isspace((unsigned char)p[-1]) || p[-1] == ']' || p[-1] == ':' ||
           p[-1] == ';' || p[-1] == '"' || (p - line >= 4 && strncmp(p - 4, "#012", 4) == 0);
}

/* The length of the function name the driver's RmMsg prefix puts after "NVRM " at p, up
   to its ": ", else 0. The resource manager's debug printer (open-gpu-kernel-modules'
   nvDbg_vPrintf and RmMsgPrefix) writes, when the RmMsg registry key asks for a prefix,
   "NVRM" and the function's name in place of the release build's "NVRM: ", then
   the message's own ": ": "NVRM _threadNodeCheckTimeout: ...", "NVRM
   kgspBootstrapRiscvOSEarly_GH100: Timeout waiting for GSP target mask release. ...". A C
   identifier, not /proc/driver/nvidia/version's "NVRM version: NVIDIA UNIX ..." (a file's
   field, no message of the driver's log). */
static size_t rmmsg_function(const char *p)
{
    if (!isalpha((unsigned char)*p) && *p != '_')
        return 0;
    size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (strncmp(p + n, ": ", 2) != 0 || (n == 7 && strncmp(p, "version", 7) == 0))
        return 0;
    return n;
}

/* The "NVRM" of a line's driver message at a token boundary, or NULL: the release form
   "NVRM: " (its body after it) or the RmMsg prefix's "NVRM FUNCTION: " (its body from
   FUNCTION on, as "NVRM: FUNCTION: ..." reads). *body gets where the message begins. */
static const char *nvrm_body(const char *line, const char **body)
{
    for (const char *p = strstr(line, "NVRM"); p; p = strstr(p + 1, "NVRM")) {
        if (!token_start(line, p))
            continue;
        if (strncmp(p, "NVRM: ", 6) == 0) {
            *body = p + 6;
            return p;
        }
        if (p[4] == ' ' && rmmsg_function(p + 5)) {
            *body = p + 5;
            return p;
        }
    }
    return NULL;
}

static const char *nvrm_at(const char *line)
{
    const char *body;
    return nvrm_body(line, &body);
}

/* k8s-device-plugin's Xid line (internal/rm/health.go, its older nvidia.go):
   "XidCriticalError: Xid=N on Device=ID<sep> TEXT" (ID a GPU's or a MIG device's UUID,
   sep ',' or ';'; "on GPU=ID" in some versions) or "XidCriticalError: Xid=N, All devices
   will go unhealthy.": the Xid into *xid, the device into uuid ("" for all devices), the
   plugin's words after it into text; 0, or -1 when the line is none. */
static int plugin_xid(const char *line, int *xid, char *uuid, size_t ulen, char *text, size_t tlen)
{
    static const char head[] = "XidCriticalError: Xid=";
    const char *p = strstr(line, head);
    if (!p || (p > line && !isspace((unsigned char)p[-1]) && p[-1] != ']'))
        return -1;
    char *end;
    long x = strtol(p + sizeof head - 1, &end, 10);
    if (end == p + sizeof head - 1 || x <= 0 || x > 100000)
        return -1;
    const char *dev = strncmp(end, " on Device=", 11) == 0 ? end + 11
                      : strncmp(end, " on GPU=", 8) == 0   ? end + 8
                                                           : NULL;
    if (!dev && strncmp(end, ", All devices", 13) != 0)
        return -1;
    size_t n = dev ? strcspn(dev, ",; \t") : 0;
    if (dev && !n)
        return -1;
    *xid = (int)x;
    snprintf(uuid, ulen, "%.*s", (int)n, dev ? dev : "");
    const char *rest = dev ? dev + n : end;
    rest += strspn(rest, ",; ");
    snprintf(text, tlen, "%s", rest);
    size_t t = strlen(text);
    while (t && isspace((unsigned char)text[t - 1]))
        text[--t] = '\0';
    return 0;
}

/* nvidia-smi's notice of an Xid event while it loops (-l / --loop: "on Linux ECC error or
   Xid error events will print out during the sleep period", its man page; NVML's
   critical-Xid event): "GPU 00000000:04:00.0: Detected Critical Xid Error", at the
   line's start or after a blank. It names the GPU, not the Xid's number. The bus id,
   normalized, into bus; 0, or -1 when the line is none. */
static int smi_xid_notice(const char *line, char *bus, size_t len)
{
    static const char says[] = ": Detected Critical Xid Error";
    const char *p = strstr(line, says);
    if (!p)
        return -1;
    const char *g = p;
    while (g > line && !isspace((unsigned char)g[-1]))
        g--; /* the bus id's start */
    if (g - line < 4 || strncmp(g - 4, "GPU ", 4) != 0 ||
        (g - 4 > line && !isspace((unsigned char)g[-5]) && g[-5] != ']'))
        return -1;
    char raw[48];
    snprintf(raw, sizeof raw, "%.*s", (int)(p - g < 47 ? p - g : 47), g);
    return ls_busid_normalize(raw, bus, len) == 0 ? 0 : -1;
}

/* libnvidia-container's nvidia-container-cli failing on NVML's version mismatch (the
   container runtime's hook; its src/cli/configure.c: warnx("initialization error: %s") and
   its other stages, with src/error.c's "nvml error: " and NVML's nvmlErrorString,
   lower-cased: "nvidia-container-cli: initialization error: nvml error: driver/library
   version mismatch"): the user-space driver and the loaded kernel module differ, the
   same fact as the driver's "API mismatch" line. A paste may break the line anywhere
   (docker's "stderr: nvidia-container-cli: initialization error: / nvml error: ..."):
   the words after "nvidia-container-cli: " are read with every run of blanks and
   newlines as one blank. Into out (the words read, up to the mismatch); the position
   after them, or NULL when the text has none from p on. */
static const char *container_cli_mismatch(const char *p, char *out, size_t len)
{
    static const char cli[] = "nvidia-container-cli: ", nvml[] = " error: nvml error: ",
                      what[] = "driver/library version mismatch";
    for (p = strstr(p, cli); p; p = strstr(p + 1, cli)) {
        char words[160];
        size_t n = 0;
        const char *q = p;
        for (; *q && n + 1 < sizeof words; q++) {
            if (isspace((unsigned char)*q) && n && words[n - 1] == ' ')
                continue;
            words[n++] = isspace((unsigned char)*q) ? ' ' : (char)tolower((unsigned char)*q);
        }
        words[n] = '\0';
        const char *stage = words + sizeof cli - 1, *e = strstr(stage, nvml);
        if (!e || strspn(stage, "abcdefghijklmnopqrstuvwxyz") != (size_t)(e - stage) ||
            strncmp(e + sizeof nvml - 1, what, sizeof what - 1) != 0)
            continue;
        size_t keep = (size_t)(e - words) + sizeof nvml - 1 + sizeof what - 1;
        snprintf(out, len, "%.*s", (int)keep, words);
        return q;
    }
    return NULL;
}

int ls_kernel_log_detect(const char *text)
{
    char said[160];
    if (container_cli_mismatch(text, said, sizeof said))
        return 1;
    const char *pos = text;
    ls_line_t line;
    ls_sxid_event_t e;
    int xid;
    char uuid[96], words[256];
    while (ls_next_line(&pos, &line))
        if (nvrm_at(line.buf) || ls_sxid_parse(line.buf, &e) == 0 ||
            plugin_xid(line.buf, &xid, uuid, sizeof uuid, words, sizeof words) == 0 ||
            smi_xid_notice(line.buf, uuid, sizeof uuid) == 0 ||
            (strstr(line.buf, "nvidia-nvlink: ") &&
             ls_nvlink_fail_says(strstr(line.buf, "nvidia-nvlink: "))))
            return 1;
    return 0;
}

/* "Dec  2 11:49:53" at p (any capitalised three-letter month, as a localised syslog
   writes "Okt"): its length, else 0. */
static size_t syslog_stamp(const char *p)
{
    if (!isupper((unsigned char)p[0]) || !isalpha((unsigned char)p[1]) ||
        !isalpha((unsigned char)p[2]) || p[3] != ' ')
        return 0;
    const char *q = p + 3;
    while (*q == ' ')
        q++;
    if (!isdigit((unsigned char)*q))
        return 0;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q++ != ' ')
        return 0;
    size_t n = strspn(q, "0123456789:");
    return n >= 8 ? (size_t)(q + n - p) : 0;
}

/* After a syslog stamp: "HOST kernel:" names the host, "kernel:" alone none. */
static void host_after(const char *p, msg_t *m)
{
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " ");
    if (strncmp(p + n, " kernel:", 8) == 0 && n && p[n - 1] != ':')
        snprintf(m->host, sizeof m->host, "%.*s", (int)n, p);
}

/* "[  903.609564]" (seconds since boot) or "[Fri Aug 30 11:43:09 2024]" (dmesg -T). */
static void bracket(const char *pre, msg_t *m)
{
    const char *open = strchr(pre, '['), *close = open ? strchr(open, ']') : NULL;
    if (!close)
        return;
    const char *a = open + 1;
    while (*a == ' ')
        a++;
    size_t n = (size_t)(close - a);
    if (n && strspn(a, "0123456789.") == n)
        snprintf(m->since_boot, sizeof m->since_boot, "%.*s", (int)n, a);
    else if (n && !m->time[0] && memchr(a, ':', n))
        snprintf(m->time, sizeof m->time, "%.*s", (int)n, a);
}

/* Time, host and uptime from the prefix: a syslog stamp anywhere in it (after a
   launcher's or a quote's marks), an ISO time starting a token, a bracket. */
static void read_prefix(msg_t *m)
{
    const char *pre = m->prefix;
    const char *stop = strchr(pre, '['); /* "[Fri Aug 30 ...]" is dmesg -T's, not syslog's */
    for (const char *p = pre; *p && (!stop || p < stop); p++) {
        if (p != pre && p[-1] != ' ' && p[-1] != '\t')
            continue;
        size_t n = syslog_stamp(p);
        if (n) {
            snprintf(m->time, sizeof m->time, "%.*s", (int)n, p);
            host_after(p + n, m);
            break;
        }
        if (isdigit((unsigned char)p[0]) && strlen(p) > 19 && p[4] == '-' && p[10] == 'T') {
            snprintf(m->time, sizeof m->time, "%.*s", (int)strcspn(p, " "), p);
            host_after(p + strcspn(p, " "), m);
            break;
        }
    }
    bracket(pre, m);
}

static int blank(const char *s)
{
    return s[strspn(s, " \t")] == '\0';
}

/* A message that starts a record of its own: an Xid, "GPU...", "The NVIDIA ...", a
   function's "name: text" (optionally after "GPUn "), "loading", "API mismatch". */
static int starts_message(const char *b)
{
    static const char *const heads[] = {"Xid (",    "GPU ",         "The NVIDIA",   "No NVIDIA",
                                        "loading ", "API mismatch", "RmInitAdapter"};
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
        if (strncmp(b, heads[i], strlen(heads[i])) == 0)
            return 1;
    if (strncmp(b, "GPU", 3) == 0 && isdigit((unsigned char)b[3]))
        return 1;
    size_t n = strspn(b, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    return n && b[n] == ':';
}

/* Whether the NVRM line (prefix pre, message body) continues the message m. */
static int continues(const msg_t *m, const char *pre, const char *body)
{
    size_t n = strlen(m->body);
    if (!m->body[0] || starts_message(body) || (n && strchr(".!", m->body[n - 1])))
        return 0;
    return blank(pre) || strcmp(pre, m->prefix) == 0;
}

/* What one file's lines add up to, as they are read. */
typedef struct {
    json_t *log, *events, *failures, *gpus, *hosts, *sxids;
    json_t *failure_keys; /* kind|bus|driver GPU|text shape -> its failures[] record */
    json_t *gpu_index;    /* bus id -> its gpus[] object */
    json_t *last_gpu;     /* the GPU of the message before, when it was "GPU at ...: GPU-" */
    json_t *shapes;       /* the distinct messages with their digit runs as '#' (a set): a cut
                             last line is told by being a strict prefix of one (cut_last) */
    char last_shape[MSG_MAX];
    msg_t cur;
    int have, messages;
    char last_raw[1024]; /* the last line of the text, and the last NVRM line's start */
    char last_nvrm_start[512];
} ctx_t;

/* The first bus id of a message ("GPU 0000:3b:00.0:", "GPU at PCI:0000:3b:00:", "The
   NVIDIA GPU 0000:b3:00.0"), in the document's form; 0, or -1 when it names none. The
   Xid form has no function: an NVIDIA GPU's 3D controller is function 0 (its audio
   device is function 1), so "0000:3b:00" is "00000000:3b:00.0". */
static int bus_in(const char *body, char *out, size_t len)
{
    char tok[64];
    for (const char *p = body; *p;) {
        p += strspn(p, " (");
        size_t n = strcspn(p, " ");
        if (!n)
            break;
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), p);
        char *t = strncmp(tok, "PCI:", 4) == 0 ? tok + 4 : tok;
        t[strcspn(t, "),")] = '\0';
        size_t tl = strlen(t);
        if (tl && t[tl - 1] == ':')
            t[tl - 1] = '\0';
        if (strchr(t, ':') && ls_busid_normalize(t, out, len) == 0)
            return 0;
        p += n;
    }
    return -1;
}

/* The GPU of bus id bus in the file's gpus[] (added once; found through gpu_index). */
static json_t *gpu_at(ctx_t *c, const char *bus)
{
    json_t *g = json_object_get(c->gpu_index, bus);
    if (g)
        return g;
    g = json_pack("{s:s}", "bus_id", bus);
    json_array_append_new(c->gpus, g);
    json_object_set(c->gpu_index, bus, g);
    return g;
}

/* time, since_boot and host of m on o, where printed; the host into the file's hosts. */
static void put_where(ctx_t *c, json_t *o, const msg_t *m)
{
    if (m->time[0])
        json_object_set_new(o, "time", json_string(m->time));
    if (m->since_boot[0])
        json_object_set_new(o, "since_boot", json_string(m->since_boot));
    if (m->host[0]) {
        json_object_set_new(o, "host", json_string(m->host));
        ls_json_add_string_once(c->hosts, m->host);
    }
}

/* An Xid message: one events[] record. */
static void read_xid(ctx_t *c, const msg_t *m)
{
    char line[MSG_MAX + 8];
    snprintf(line, sizeof line, "NVRM: %s", m->body);
    ls_xid_event_t e;
    if (ls_xid_parse(line, strlen(line), &e) != 0)
        return;
    json_t *o = json_object();
    put_where(c, o, m);
    char bus[32];
    if (e.bus[0] && ls_busid_normalize(e.bus, bus, sizeof bus) == 0) {
        json_object_set_new(o, "bus_id", json_string(bus));
        gpu_at(c, bus);
    }
    json_object_set_new(o, "xid", json_integer(e.xid));
    if (e.instance[0])
        json_object_set_new(o, "mig", json_string(e.instance));
    if (e.pid >= 0)
        json_object_set_new(o, "pid", json_integer(e.pid));
    if (e.name[0])
        json_object_set_new(o, "process", json_string(e.name));
    json_object_set_new(o, "text", json_string(e.text));
    if (e.cause_xid > 0)
        json_object_set_new(o, "cause_xid", json_integer(e.cause_xid));
    json_array_append_new(c->events, o);
}

/* The driver's failure messages, by what they say (the kind is failures[].kind). */
static const struct {
    const char *kind, *says;
} failure_words[] = {
    {.kind = "off_bus", .says = "fallen off the bus"},
    {.kind = "init_failed", .says = "RmInitAdapter failed"},
    {.kind = "init_failed", .says = "Cannot initialize GSP firmware"},
    {.kind = "init_failed", .says = "No firmware image found"},
    {.kind = "init_failed", .says = "failed to wait for GFW"},
    /* the GSP's boot failing at its steps (kernel_gsp_gh100.c / kernel_gsp_tu102.c
       kgspBootstrap / _kgspBootGspRm, each returning its status to RmInitAdapter): the FSP
       or ACR never released the GSP's target mask or its lockdown, GSP-FMC's mailbox error,
       a WPR2 region left up by an earlier boot ("the GPU is likely in a bad state and may
       need to be reset") */
    {.kind = "init_failed", .says = "Timeout waiting for GSP target mask release"},
    {.kind = "init_failed", .says = "Timeout waiting for lockdown release"},
    {.kind = "init_failed", .says = "reported an error while attempting to boot GSP"},
    {.kind = "init_failed", .says = "cannot proceed with booting GSP"},
    {.kind = "probe_failed", .says = "probe routine failed"},
    {.kind = "probe_not_called", .says = "probe routine was not called"},
    {.kind = "no_gpu", .says = "No NVIDIA GPU found"},
    {.kind = "no_gpu", .says = "No NVIDIA graphics adapter found"},
    {.kind = "api_mismatch", .says = "API mismatch"},
    /* the driver refusing a GPU at probe (osapi.c rm_is_supported_device): "The NVIDIA GPU
       B (PCI ID: V:D) / installed in this system is not supported by the / NVIDIA R
       driver release." (a chip this build does not know; before 4xx "... by the R /
       NVIDIA Linux driver release."), "... is not supported by open / nvidia.ko because
       it does not include the required GPU / System Processor (GSP)." and their vGPU
       forms ("installed in this vGPU host system", "The NVIDIA vGPU ...") */
    {.kind = "unsupported", .says = "installed in this system is not supported by"},
    {.kind = "unsupported", .says = "installed in this vGPU host system is not supported by"},
    /* the open module's refusal by its third line, the one `dmesg | grep nvidia` keeps
       (with "NVRM: www.nvidia.com."): no other driver message says it */
    {.kind = "unsupported", .says = "nvidia.ko because it does not include the required GPU"},
    /* the driver's status NV_ERR_RESET_REQUIRED (0x62, "Reset required"), printed by its
       assertion lines ("nvAssertOkFailedNoLog: Assertion failed: Reset required
       [NV_ERR_RESET_REQUIRED] (0x00000062) returned from ..."): the resource manager
       returns it once the GPU hit a fatal error (GSP fault, bus lost) and refuses work
       until the GPU is reset */
    {.kind = "reset_required", .says = "NV_ERR_RESET_REQUIRED"},
    {.kind = "gsp_timeout", .says = "Heartbeat timed out"},
    {.kind = "gsp_timeout", .says = "heartbeat timed out"},
    {.kind = "gsp_timeout", .says = "Timeout waiting for RPC from GSP"},
    {.kind = "gsp_timeout", .says = "GSP Timeout"},
};

/* The version after key in s ("570.148.06"), into out; 0 or -1. */
static int version_after(const char *s, const char *key, char *out, size_t len)
{
    const char *p = strstr(s, key);
    if (!p)
        return -1;
    p += strlen(key);
    while (*p == ' ')
        p++;
    size_t n = strspn(p, "0123456789.");
    while (n && p[n - 1] == '.')
        n--;
    if (!n || !strchr(p, '.'))
        return -1;
    snprintf(out, len, "%.*s", (int)n, p);
    return 0;
}

/* "GPU6 ..." (the driver's own GPU number, not nvidia-smi's index) into out. */
static void driver_gpu(const char *body, char *out, size_t len)
{
    out[0] = '\0';
    if (strncmp(body, "GPU", 3) == 0 && isdigit((unsigned char)body[3]))
        snprintf(out, len, "%.*s", (int)(3 + strspn(body + 3, "0123456789")), body);
}

static void shape_of(const char *body, char *out, size_t len);

/* Adds the failure, or counts it again when one of the same kind and bus with the same
   text, digit runs alike, was seen ("Heartbeat timed out, currentTimeMs 812751949 ..."
   printed every few seconds is one record): the records stay few however long the log. */
static void add_failure(ctx_t *c, json_t *f)
{
    char shape[MSG_MAX], key[MSG_MAX + 64];
    shape_of(ls_json_str(f, "text", ""), shape, sizeof shape);
    snprintf(key, sizeof key, "%s|%s|%s|%s", ls_json_str(f, "kind", ""),
             ls_json_str(f, "bus_id", ""), ls_json_str(f, "driver_gpu", ""), shape);
    json_t *seen = json_object_get(c->failure_keys, key);
    if (seen) {
        json_object_set_new(seen, "count", json_integer(ls_json_int(seen, "count", 1) + 1));
        json_decref(f);
        return;
    }
    json_object_set_new(f, "count", json_integer(1));
    json_object_set(c->failure_keys, key, f);
    json_array_append_new(c->failures, f);
}

/* A refusal's PCI ID ("(PCI ID: 10de:2330)") and the driver release it names ("by the
   NVIDIA 550.90.07 driver release", before 4xx "by the 304.116 NVIDIA Linux driver
   release"); "open nvidia.ko" for the open module's refusal of a GPU without GSP. */
static void unsupported_facts(json_t *f, const char *body)
{
    char v[32];
    const char *id = strstr(body, "PCI ID: ");
    if (id) {
        size_t n = strspn(id + 8, "0123456789abcdefABCDEF:");
        if (n)
            json_object_set_new(f, "pci_id", json_stringn(id + 8, n));
    }
    if (version_after(body, "supported by the NVIDIA ", v, sizeof v) == 0 ||
        version_after(body, "supported by the ", v, sizeof v) == 0)
        json_object_set_new(f, "release", json_string(v));
    else if (strstr(body, "supported by open nvidia.ko") ||
             strstr(body, "nvidia.ko because it does not include the required GPU"))
        json_object_set_new(f, "release", json_string("open nvidia.ko"));
}

static void read_failure(ctx_t *c, const msg_t *m, const char *kind)
{
    json_t *f = json_pack("{s:s}", "kind", kind);
    char bus[32], gpu[16], v[32];
    int nvlink = strcmp(kind, "nvlink_train_failed") == 0;
    if ((nvlink ? ls_nvlink_fail_bus(m->body, bus, sizeof bus)
                : bus_in(m->body, bus, sizeof bus)) == 0) {
        json_object_set_new(f, "bus_id", json_string(bus));
        gpu_at(c, bus);
    }
    driver_gpu(m->body, gpu, sizeof gpu);
    if (gpu[0])
        json_object_set_new(f, "driver_gpu", json_string(gpu));
    if (strcmp(kind, "api_mismatch") == 0) {
        if (version_after(m->body, "has the version", v, sizeof v) == 0)
            json_object_set_new(f, "client_version", json_string(v));
        if (version_after(m->body, "kernel module has the version", v, sizeof v) == 0)
            json_object_set_new(f, "module_version", json_string(v));
    }
    if (strcmp(kind, "unsupported") == 0)
        unsupported_facts(f, m->body);
    if (nvlink) {
        json_object_set_new(f, "what", json_string(ls_nvlink_fail_says(m->body)));
        if (ls_nvlink_fail_peer(m->body) >= 0)
            json_object_set_new(f, "peer", json_integer(ls_nvlink_fail_peer(m->body)));
    }
    put_where(c, f, m);
    json_object_set_new(f, "text", json_string(m->body));
    add_failure(c, f);
}

/* "GPU at PCI:0000:db:00: GPU-4a28de72-..." names the GPU's UUID. */
static void read_gpu_line(ctx_t *c, const msg_t *m)
{
    char bus[32];
    const char *serial = "GPU Board Serial Number: ";
    if (strncmp(m->body, serial, strlen(serial)) == 0 && c->last_gpu &&
        m->body[strlen(serial)]) { /* printed right after the GPU's "GPU at" line */
        json_object_set_new(c->last_gpu, "serial", json_string(m->body + strlen(serial)));
        return;
    }
    c->last_gpu = NULL;
    if (strncmp(m->body, "GPU at ", 7) != 0 || bus_in(m->body + 7, bus, sizeof bus) != 0)
        return;
    json_t *g = gpu_at(c, bus);
    const char *u = strstr(m->body, " GPU-");
    if (u) {
        json_object_set_new(g, "uuid", json_stringn(u + 1, strcspn(u + 1, " ")));
        c->last_gpu = g;
    }
}

/* The kernel module's version from its loading line ("loading NVIDIA UNIX x86_64 Kernel
   Module  570.148.06  ...", "... Open Kernel Module for x86_64  570.158.01  ..."). */
static void read_loading(ctx_t *c, const msg_t *m)
{
    char v[32];
    const char *k = strstr(m->body, "Kernel Module");
    if (strncmp(m->body, "loading ", 8) != 0 || !k)
        return;
    for (const char *p = k; *p; p++)
        if (isdigit((unsigned char)*p) && p[-1] == ' ' &&
            version_after(p - 1, " ", v, sizeof v) == 0) {
            ls_set_if_absent(c->log, "driver", v);
            return;
        }
}

static void classify(ctx_t *c, const msg_t *m)
{
    c->messages++;
    if (strncmp(m->body, "Xid (", 5) == 0) {
        read_xid(c, m);
        return;
    }
    for (size_t i = 0; i < sizeof failure_words / sizeof *failure_words; i++)
        if (strstr(m->body, failure_words[i].says)) {
            read_failure(c, m, failure_words[i].kind);
            return;
        }
    if (ls_nvlink_fail_says(m->body)) { /* NVLink bring-up failed (model/nvlink_fail.h) */
        read_failure(c, m, "nvlink_train_failed");
        return;
    }
    read_gpu_line(c, m);
    read_loading(c, m);
}

/* m's body with every digit run as one '#'. */
static void shape_of(const char *body, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = body; *p && o + 1 < len; p++) {
        if (isdigit((unsigned char)*p)) {
            out[o++] = '#';
            while (isdigit((unsigned char)p[1]))
                p++;
        } else {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
}

/* The message read so far is complete: classified, and its shape kept. */
static void flush(ctx_t *c)
{
    if (!c->have)
        return;
    classify(c, &c->cur);
    shape_of(c->cur.body, c->last_shape, sizeof c->last_shape);
    json_object_set_new(c->shapes, c->last_shape, json_true());
    c->have = 0;
}

/* rsyslog's "#012NVRM: " (a newline of a message of several lines) as a blank. */
static void append_body(msg_t *m, const char *body)
{
    size_t used = strlen(m->body);
    if (used && used + 1 < sizeof m->body)
        m->body[used++] = ' ';
    for (const char *p = body; *p && used + 1 < sizeof m->body;) {
        if (strncmp(p, "#012", 4) == 0) {
            p += 4;
            if (strncmp(p, "NVRM: ", 6) == 0)
                p += 6;
            m->body[used++] = ' ';
            continue;
        }
        m->body[used++] = *p++;
    }
    m->body[used] = '\0';
}

/* The NVSwitch driver's "nvidia-nvswitchN: SXid (PCI:...): N, ..." line: one sxids[]
   record, its "Severity ..." / "Data {...}" follow-up lines folded into the one before. */
static void read_sxid(ctx_t *c, const char *line, const ls_sxid_event_t *e)
{
    if (ls_sxid_folds(e, json_array_get(c->sxids, json_array_size(c->sxids) - 1)))
        return;
    msg_t m = {.time = ""};
    snprintf(m.prefix, sizeof m.prefix, "%.*s", (int)(e->prefix_len < 255 ? e->prefix_len : 255),
             line);
    read_prefix(&m);
    json_t *o = ls_sxid_record(e);
    if (!o)
        return;
    put_where(c, o, &m);
    json_array_append_new(c->sxids, o);
}

/* The NVLink core library's "nvidia-nvlink: function: text" line (its own prefix, not
   NVRM's) when it says a link failed to come up: a failure record like an NVRM one; 0, or
   -1 when the line is none. */
static int read_nvlink_core(ctx_t *c, const char *line)
{
    const char *at = strstr(line, "nvidia-nvlink: ");
    if (!at || !ls_nvlink_fail_says(at + 15))
        return -1;
    flush(c);
    msg_t m = {.time = ""};
    snprintf(m.prefix, sizeof m.prefix, "%.*s", (int)((size_t)(at - line) < 255 ? at - line : 255),
             line);
    read_prefix(&m);
    snprintf(m.body, sizeof m.body, "%s", at + 15);
    read_failure(c, &m, "nvlink_train_failed");
    return 0;
}

/* k8s-device-plugin's Xid line: one events[] record of the GPU by UUID ("uuid", or
   "all_devices" for an event without a device), "source" the plugin; 0, or -1 when the
   line is none. */
static int read_plugin_xid(ctx_t *c, const char *line)
{
    int xid;
    char uuid[96], words[256];
    if (plugin_xid(line, &xid, uuid, sizeof uuid, words, sizeof words) != 0)
        return -1;
    flush(c);
    char text[300];
    snprintf(text, sizeof text, "k8s-device-plugin: %s", words);
    json_t *o = json_pack("{s:i, s:s, s:s}", "xid", xid, "source", "k8s-device-plugin", "text",
                          text);
    if (uuid[0])
        json_object_set_new(o, "uuid", json_string(uuid));
    else
        json_object_set_new(o, "all_devices", json_true());
    json_array_append_new(c->events, o);
    return 0;
}

/* nvidia-smi's loop notice: one events[] record of the GPU by bus id, its Xid's number
   unknown ("xid_unknown"; no "xid"), "source" nvidia-smi; 0, or -1 when the line is none. */
static int read_smi_notice(ctx_t *c, const char *line)
{
    char bus[32];
    if (smi_xid_notice(line, bus, sizeof bus) != 0)
        return -1;
    flush(c);
    gpu_at(c, bus);
    json_array_append_new(c->events,
                          json_pack("{s:s, s:b, s:s, s:s}", "bus_id", bus, "xid_unknown", 1,
                                    "source", "nvidia-smi", "text", "Detected Critical Xid Error"));
    return 0;
}

static void read_line(ctx_t *c, const char *line)
{
    snprintf(c->last_raw, sizeof c->last_raw, "%s", line);
    ls_sxid_event_t sx;
    if (ls_sxid_parse(line, &sx) == 0) {
        flush(c);
        read_sxid(c, line, &sx);
        return;
    }
    if (read_plugin_xid(c, line) == 0 || read_smi_notice(c, line) == 0)
        return;
    if (read_nvlink_core(c, line) == 0)
        return;
    const char *body;
    const char *at = nvrm_body(line, &body);
    if (!at) {
        flush(c);
        return;
    }
    char pre[256];
    snprintf(pre, sizeof pre, "%.*s", (int)((size_t)(at - line) < 255 ? at - line : 255), line);
    snprintf(c->last_nvrm_start, sizeof c->last_nvrm_start, "%.*s", (int)(at - line + 5), line);
    char unquoted[MSG_MAX];
    if (at > line && at[-1] == '"') { /* a quoted message: its closing quote is no text */
        snprintf(unquoted, sizeof unquoted, "%s", body);
        size_t n = strlen(unquoted);
        while (n && isspace((unsigned char)unquoted[n - 1]))
            n--;
        unquoted[n && unquoted[n - 1] == '"' ? n - 1 : n] = '\0';
        body = unquoted;
    }
    if (c->have && continues(&c->cur, pre, body)) {
        append_body(&c->cur, body);
        return;
    }
    flush(c);
    memset(&c->cur, 0, sizeof c->cur);
    snprintf(c->cur.prefix, sizeof c->cur.prefix, "%s", pre);
    read_prefix(&c->cur);
    append_body(&c->cur, body);
    c->have = 1;
}

/* A strict prefix of b, digit runs alike. */
static int shape_prefix(const char *a, const char *b)
{
    char sa[MSG_MAX], sb[MSG_MAX];
    shape_of(a, sa, sizeof sa);
    shape_of(b, sb, sizeof sb);
    size_t n = strlen(sa);
    return n && n < strlen(sb) && strncmp(sa, sb, n) == 0;
}

/* The last Xid event came from a cut line: what follows its number is not kept. */
static void cut_event(ctx_t *c)
{
    json_t *e = json_array_get(c->events, json_array_size(c->events) - 1);
    if (!e)
        return;
    json_object_del(e, "pid");
    json_object_del(e, "process");
    json_object_set_new(e, "text", json_string(""));
    json_object_set_new(e, "cut", json_true());
}

/* Whether body begins an Xid message that stops before its number ("Xid (PC", "Xid
   (PCI:0000:3b:00): "): the driver prints "Xid (PCI:...): N, ..." whole, so only a cut
   paste leaves one without it. */
static int xid_without_number(const char *body)
{
    if (strncmp(body, "Xid (", 5) != 0)
        return 0;
    char line[MSG_MAX + 8];
    snprintf(line, sizeof line, "NVRM: %s", body);
    ls_xid_event_t e;
    return ls_xid_parse(line, strlen(line), &e) != 0;
}

/* Whether last is the previous NVRM line's start in the RmMsg form ("[   36.07] NVRM ")
   followed by a part of a function's name and nothing else ("[   36.08] NVRM k"): a
   line cut inside its prefix. */
static int cut_in_function(const char *last, const ctx_t *c)
{
    size_t n = strlen(c->last_nvrm_start);
    if (n < 5 || strcmp(c->last_nvrm_start + n - 5, "NVRM ") != 0)
        return 0;
    char sl[1024], ss[1024];
    shape_of(last, sl, sizeof sl);
    shape_of(c->last_nvrm_start, ss, sizeof ss);
    size_t k = strlen(ss);
    if (strncmp(sl, ss, k) != 0 || !sl[k])
        return 0;
    return sl[k + strspn(sl + k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ#_")] == '\0';
}

/* How the text's last line was cut, into why (empty when it was not): a line that only
   begins the previous NVRM line's prefix ("[ 1121", "Dec"), a message that is a strict
   prefix of an earlier one, digit runs alike ("..., pid=35907" under "..., pid=N, Ch
   00000008, ..."), or an Xid message that stops before its number. */
static void cut_last(ctx_t *c, int ended_in_nvrm, char *why, size_t len)
{
    why[0] = '\0';
    char last[1024];
    snprintf(last, sizeof last, "%s", c->last_raw);
    size_t n = strlen(last);
    while (n && isspace((unsigned char)last[n - 1]))
        last[--n] = '\0';
    if (!ended_in_nvrm) {
        if (n && (shape_prefix(last, c->last_nvrm_start) || cut_in_function(last, c)))
            snprintf(why, len, "the last line is cut before its message ('%.40s')", last);
        return;
    }
    const char *shape;
    json_t *v;
    json_object_foreach(c->shapes, shape, v) {
        if (shape_prefix(c->last_shape, shape)) {
            snprintf(why, len, "the last NVRM line is cut ('%.60s')", c->cur.body);
            if (strncmp(c->cur.body, "Xid (", 5) == 0)
                cut_event(c);
            return;
        }
    }
    if (xid_without_number(c->cur.body))
        snprintf(why, len,
                 "the last NVRM line is cut inside an Xid message, before its number "
                 "('%.40s')",
                 c->cur.body);
}

/* nvidia-container-cli's NVML version mismatch: a failure record of kind api_mismatch
   (source nvidia-container-cli), the rule driver_mismatch's as the driver's own line. */
static void read_container_cli(ctx_t *c, const char *text)
{
    char words[160];
    for (const char *p = text; (p = container_cli_mismatch(p, words, sizeof words)) != NULL;)
        add_failure(c, json_pack("{s:s, s:s, s:s}", "kind", "api_mismatch", "source",
                                 "nvidia-container-cli", "text", words));
}

static void read_text(ctx_t *c, const char *text, char *why, size_t len)
{
    const char *pos = text;
    ls_line_t line;
    int ended_in_nvrm = 0;
    while (ls_next_line(&pos, &line)) {
        if (blank(line.buf))
            continue;
        read_line(c, line.buf);
        ended_in_nvrm = nvrm_at(line.buf) != NULL;
    }
    flush(c);
    cut_last(c, ended_in_nvrm, why, len);
    read_container_cli(c, text);
}

/* software.driver: the kernel module's version from its loading line, else from an API
   mismatch's "this kernel module has the version B" (the module running). */
static void driver_version(json_t *doc, ctx_t *c)
{
    const char *v = json_string_value(json_object_get(c->log, "driver"));
    size_t i;
    json_t *f;
    json_array_foreach(c->failures, i, f) {
        if (!v)
            v = json_string_value(json_object_get(f, "module_version"));
    }
    if (v)
        ls_set_if_absent(ls_json_object_at(doc, "software"), "driver", v);
}

int ls_import_kernel_log(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return ls_seterr(err, errlen, "%s: out of memory", name);
    c->log = json_pack("{s:s}", "file", name);
    c->events = json_array();
    c->failures = json_array();
    c->gpus = json_array();
    c->hosts = json_array();
    c->sxids = json_array();
    c->shapes = json_object();
    c->failure_keys = json_object();
    c->gpu_index = json_object();
    char why[160];
    read_text(c, text, why, sizeof why);
    json_object_set_new(c->log, "nvrm_messages", json_integer(c->messages));
    if (json_array_size(c->hosts))
        json_object_set(c->log, "hosts", c->hosts);
    json_object_set(c->log, "gpus", c->gpus);
    json_object_set(c->log, "events", c->events);
    json_object_set(c->log, "failures", c->failures);
    if (json_array_size(c->sxids)) /* NVSwitch lines: absent from a log without any */
        json_object_set(c->log, "sxids", c->sxids);
    if (why[0]) {
        json_object_set_new(c->log, "incomplete", json_string(why));
        ls_import_note_missing("%s", why);
    }
    driver_version(doc, c);
    int n = (int)(json_array_size(c->events) + json_array_size(c->failures) +
                  json_array_size(c->sxids));
    json_array_append_new(ls_json_array_at(doc, "kernel_logs"), c->log);
    json_decref(c->events);
    json_decref(c->failures);
    json_decref(c->gpus);
    json_decref(c->hosts);
    json_decref(c->sxids);
    json_decref(c->shapes);
    json_decref(c->failure_keys);
    json_decref(c->gpu_index);
    free(c);
    return n;
}
