/* Fabric Manager's texts (fabric_manager.h). The message texts are the ones NVIDIA's Fabric
   Manager prints and its user guide and public outputs show:
     fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver
       version 530.41.03. Please update with matching NVIDIA driver package.   (later
       "doesn't match ... with the matching ...")
     request to query NVSwitch device information from NVSwitch driver failed with
       error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]        (no NVSwitch seen)
     Connected to 1 node.
     Successfully configured all the available NVSwitches to route GPU NVLink traffic. ...
     detected NVSwitch non-fatal error 12028 on NVSwitch pci bus id 00000000:86:00.0
       physical id 3 port 33                                  (also "fatal error")
     fabric manager config file item: FABRIC_NODE_CONFIG_FILE has an invalid value
     [ERROR] not all local fabric manager instances finished their configuration
     [ERROR] failed to configure all the available GPUs or NVSwitches
   (its lines also without their date and tid, after a host's or a launcher's tag), the
   NVLink5 start script's 'Kernel module "ib_umad" has not been loaded, fabric manager
   cannot be started' and "Detected NVL5+ system";
   systemd's and systemctl's: "Job for nvidia-fabricmanager.service failed ...",
   "nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE",
   "Unit nvidia-fabricmanager.service could not be found.", "Active: active (running)",
   "Active: failed (Result: exit-code)", "Active: inactive (dead)", systemd 250's unit
   glyphs before the unit's name ("x nvidia-fabricmanager.service - ..."); the start script's
   ("Detected Pre-NVL5 system", '"/usr/bin/nv-fabricmanager -c ..." failed! Exit code: 1',
   its usage text when it refuses its arguments). */
#include "fabric_manager.h"
#include "import_note.h"
#include "import_util.h"
#include "model/busid.h"
#include "model/doc.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Words of a line that Fabric Manager, its service or its start script printed (its
   process tag, its unit, its script, its command line, its version-mismatch text): a line
   that only names it ("is nvidia-fabricmanager running?") is not one. */
static const char *const names[] = {"nv-fabricmanager[", "nvidia-fabricmanager.service",
                                    "nvidia-fabricmanager-start.sh", "nv-fabricmanager -c",
                                    "fabric manager NVIDIA GPU driver interface version"};

static const char *const levels[] = {"INFO", "ERROR", "WARNING", "WARN", "FATAL", "DEBUG"};

/* A level tag "[ERROR]" at p: the level (into level) and the message after it, a "[tid N]"
   that follows skipped (*tid set), else NULL. */
static const char *level_tag(const char *p, char *level, size_t len, int *tid)
{
    const char *end = p[0] == '[' ? strchr(p, ']') : NULL;
    if (!end)
        return NULL;
    size_t n = (size_t)(end - p - 1);
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        if (n == strlen(levels[i]) && !strncmp(p + 1, levels[i], n)) {
            snprintf(level, len, "%s", levels[i]);
            const char *m = end + 1 + strspn(end + 1, " ");
            const char *t = !strncmp(m, "[tid ", 5) ? strchr(m, ']') : NULL;
            *tid = t != NULL;
            return t ? t + 1 + strspn(t + 1, " ") : m;
        }
    return NULL;
}

/* FM's log form anywhere in the line: "[May 16 2025 15:10:21] [INFO] [tid 30042] message",
   the same without its date or its tid ("[ERROR] message", as some pastes and FM's
   stderr show it), after whatever prefix a journal or a launcher put before it. The
   message (level into level), else NULL; *tid says whether its "[tid N]" was there. */
static const char *log_form(const char *line, char *level, size_t len, int *tid)
{
    for (const char *b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
        const char *m = level_tag(b, level, len, tid);
        if (m)
            return m;
    }
    return NULL;
}

/* FM's own vocabulary: its messages name it in lower case ("fabric manager config file
   item", "not all local fabric manager instances finished their configuration"), its start
   script in capitals ("before starting Fabric Manager"), and the switches as NVIDIA spells
   them ("NVSwitch", "NVSwitches"). */
static int fm_words(const char *msg)
{
    return strstr(msg, "fabric manager") || strstr(msg, "Fabric Manager") ||
           strstr(msg, "Fabric manager") || strstr(msg, "NVSwitch");
}

/* A syslog / journalctl prefix "Jul 20 16:15:36 HOST[ TAG[PID]]: " at the start of line:
   the message after it, else NULL (the host may be elided, "edge-...:"; the tag is not
   the kernel's). */
static const char *journal_msg(const char *line)
{
    int at = 0;
    unsigned hh, mm, ss;
    char mon[4];
    if (sscanf(line, "%3[A-Za-z] %*d %u:%u:%u %n", mon, &hh, &mm, &ss, &at) < 4 || !at)
        return NULL;
    const char *colon = strstr(line + at, ": ");
    if (!colon)
        return NULL;
    const char *k = strstr(line + at, " kernel");
    if (k && k < colon) /* the kernel's lines are the kernel-log reader's */
        return NULL;
    return colon + 2 + strspn(colon + 2, " ");
}

/* FM's message opening with its name in lower case, at the line's start or after a
   launcher's or host's tag ("10.0.0.7: ", "<node ip>: "): its own wording ("fabric manager
   config file item: ...", "fabric manager NVIDIA GPU driver interface version ..."); a
   sentence that only names it starts in capitals or says more before it. */
static const char *tagged_msg(const char *line)
{
    const char *m = line + strspn(line, " \t");
    if (!strncmp(m, "fabric manager ", 15))
        return m;
    const char *colon = strstr(m, ": ");
    if (!colon || colon - m > 64)
        return NULL;
    m = colon + 2 + strspn(colon + 2, " ");
    return !strncmp(m, "fabric manager ", 15) ? m : NULL;
}

/* The message of a line of FM's in one of its forms, its level into level ("" for none):
   its log form with its tid; a level tag, a journal prefix or a host's tag before FM's own
   wording. NULL when the line is not in those forms. */
static const char *fm_message(const char *line, char *level, size_t len)
{
    int tid = 0;
    level[0] = '\0';
    const char *m = log_form(line, level, len, &tid);
    if (m && (tid || fm_words(m)))
        return m;
    level[0] = '\0';
    m = journal_msg(line);
    if (m && fm_words(m))
        return m;
    return tagged_msg(line);
}

/* A line Fabric Manager, systemd or systemctl printed about it: its words above, its
   message forms, a journal line ("HOST PROC[PID]: "), systemctl status's fields and tree. */
static int fm_line(const char *line)
{
    static const char *const status[] = {"Loaded:",   "Active:",  "Drop-In:",     "Docs:",
                                         "Main PID:", "Process:", "Tasks:",       "Memory:",
                                         "CPU:",      "CGroup:",  "\u2514\u2500", "\u251c\u2500",
                                         "\u25cf",    "\u00d7",   "\u25cb"};
    char level[16];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strstr(line, names[i]))
            return 1;
    if (fm_message(line, level, sizeof level))
        return 1;
    for (const char *b = strchr(line, '['); b; b = strchr(b + 1, '['))
        if (strstr(b, "]: "))
            return 1;
    const char *t = line + strspn(line, " \t");
    static const char *const commands[] = {"$ systemctl ", "# systemctl ", "$ sudo ",
                                           "# sudo ",      "$ nvidia-smi", "# nvidia-smi",
                                           "$ journalctl", "# journalctl"};
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) /* a shell prompt's line */
        if (strstr(line, commands[i]))
            return 1;
    for (size_t i = 0; i < sizeof status / sizeof *status; i++)
        if (!strncmp(t, status[i], strlen(status[i])))
            return 1;
    return 0;
}

char *ls_fabric_manager_others(const char *text)
{
    size_t len = strlen(text), used = 0;
    char *out = malloc(len + 2); /* each kept line gets its '\n', the last one's too */
    if (!out)
        return NULL;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < 1023 ? n : 1023), p);
        if (!fm_line(line)) {
            memcpy(out + used, p, n);
            used += n;
            out[used++] = '\n';
        }
        p += n + (p[n] == '\n');
    }
    out[used] = '\0';
    return out;
}

int ls_fabric_manager_detect(const char *text)
{
    const char *pos = text;
    ls_line_t line;
    char level[16];
    while (ls_next_line(&pos, &line)) {
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            if (strstr(line.buf, names[i]))
                return 1;
        if (fm_message(line.buf, level, sizeof level))
            return 1;
    }
    return 0;
}

/* What one file's lines add up to. */
typedef struct {
    json_t *fm, *failures, *sxids, *hosts, *keys;
    int line, last_failure, last_up, last_down;
    int cut, last_text; /* the line of a cut version message; the last line with text */
} ctx_t;

/* The failures, by what the line says (fabric_managers[].failures[].kind). */
static const struct {
    const char *kind, *says;
} failure_words[] = {
    {.kind = "version_mismatch", .says = "match with driver version"},
    {.kind = "no_nvswitch", .says = "Nothing to do [NV_WARN_NOTHING_TO_DO]"},
    {.kind = "not_installed", .says = "nvidia-fabricmanager.service could not be found"},
    {.kind = "not_installed", .says = "Unit nvidia-fabricmanager.service not found"},
    {.kind = "config_invalid", .says = "has an invalid value"},
    /* the mirror of its "Successfully configured all the available ..." and the multi-node
       wait before it: the fabric was not brought up */
    {.kind = "config_failed", .says = "failed to configure all the available"},
    {.kind = "config_failed", .says = "fabric manager instances finished their configuration"},
    /* the start script declining to start it (NVLink5: a kernel module, an InfiniBand
       device or the NVLink Subnet Manager missing) */
    {.kind = "start_blocked", .says = "cannot be started"},
    {.kind = "training_failed", .says = "training failed"},
    {.kind = "training_failed", .says = "failed to train"},
    {.kind = "start_failed", .says = "Job for nvidia-fabricmanager.service failed"},
    {.kind = "start_failed", .says = "nvidia-fabricmanager.service: Control process exited"},
    {.kind = "start_failed", .says = "nvidia-fabricmanager.service: Failed with result"},
    {.kind = "start_failed", .says = "Failed to start NVIDIA fabric manager"},
    {.kind = "start_failed", .says = "Failed to start nvidia-fabricmanager.service"},
    {.kind = "start_failed",
     .says = "nvidia-fabricmanager.service: Main process exited, code=exited"},
    {.kind = "service_failed", .says = "Active: activating (auto-restart)"},
    {.kind = "start_script", .says = "Usage: /usr/bin/nvidia-fabricmanager-start.sh"},
    /* the start script's '"/usr/bin/nv-fabricmanager -c CFG" failed! Exit code: 1' (its
       command line alone, as in systemctl's CGroup tree, is no failure) */
    {.kind = "start_failed", .says = "\" failed! Exit code"},
    {.kind = "service_failed", .says = "Active: failed"},
    {.kind = "not_running", .says = "Active: inactive (dead)"},
};

/* Lines that say it runs (or came up). */
static const char *const up_words[] = {
    "Active: active (running)",
    "Successfully configured all the available NVSwitches",
    "Started \"Nvidia Fabric Manager\"",
    "Started NVIDIA fabric manager service",
    "Started nvidia-fabricmanager.service",
};

/* What says the service went down after it ran (systemd's and the start script's lines):
   a start before them no longer counts as the service running. */
static const char *const down_words[] = {
    "Stopping nvidia-fabricmanager",         "Stopped nvidia-fabricmanager",
    "Stopped \"Nvidia Fabric Manager\"",     "Stopping NVIDIA fabric manager service",
    "Stopped NVIDIA fabric manager service",
};

/* The version after key in s ("535.104.05"), into out; 0 or -1. */
static int version_after(const char *s, const char *key, char *out, size_t len)
{
    const char *p = strstr(s, key);
    if (!p)
        return -1;
    p += strlen(key);
    p += strspn(p, " :");
    size_t n = strspn(p, "0123456789.");
    while (n && p[n - 1] == '.')
        n--;
    if (!n || !memchr(p, '.', n))
        return -1;
    snprintf(out, len, "%.*s", (int)n, p);
    return 0;
}

/* The host of a journal line: the word before "nv-fabricmanager[", "systemd[" or the start
   script's tag, where a time ("14:15:47") comes before it. */
static void host_of(const char *line, char *out, size_t len)
{
    static const char *const tags[] = {" nv-fabricmanager[", " nvidia-fabricmanager-start.sh[",
                                       " systemd["};
    out[0] = '\0';
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
        const char *t = strstr(line, tags[i]);
        if (!t)
            continue;
        const char *h = t;
        while (h > line && h[-1] != ' ')
            h--;
        const char *before = h > line ? h - 1 : line;
        while (before > line && before[-1] != ' ')
            before--;
        if (h > line && memchr(before, ':', (size_t)(h - before)) && t > h)
            snprintf(out, len, "%.*s", (int)(t - h), h);
        return;
    }
}

/* Adds a failure of kind, or counts it again (same kind and text). */
static void add_failure(ctx_t *c, const char *kind, const char *text, const char *host)
{
    char key[1200];
    snprintf(key, sizeof key, "%s|%s|%s", kind, host, text);
    json_t *seen = json_object_get(c->keys, key);
    c->last_failure = c->line;
    if (seen) {
        json_object_set_new(seen, "count", json_integer(ls_json_int(seen, "count", 1) + 1));
        return;
    }
    json_t *f = json_pack("{s:s, s:s, s:i}", "kind", kind, "text", text, "count", 1);
    if (*host)
        json_object_set_new(f, "host", json_string(host));
    json_object_set(c->keys, key, f);
    json_array_append_new(c->failures, f);
}

/* "... version A don't match with driver version B": FM's version and the driver's. */
static void read_mismatch(ctx_t *c, json_t *doc, const char *msg)
{
    char v[32];
    if (version_after(msg, "driver interface version", v, sizeof v) == 0)
        ls_set_if_absent(c->fm, "version", v);
    if (version_after(msg, "with driver version", v, sizeof v) == 0) {
        ls_set_if_absent(c->fm, "driver", v);
        ls_set_if_absent(ls_json_object_at(doc, "software"), "driver", v);
    }
}

/* "detected NVSwitch [non-]fatal error N on NVSwitch pci bus id X physical id P port Q" */
static int read_switch_error(ctx_t *c, const char *msg, const char *host)
{
    const char *d = strstr(msg, "detected NVSwitch ");
    if (!d)
        return 0;
    int fatal = strncmp(d + 18, "fatal error ", 12) == 0;
    if (!fatal && strncmp(d + 18, "non-fatal error ", 16) != 0)
        return 0;
    const char *n = d + 18 + (fatal ? 12 : 16), *bus = strstr(msg, "pci bus id ");
    json_t *o = json_pack("{s:i, s:b}", "sxid", atoi(n), "fatal", fatal);
    char b[32], raw[32];
    if (bus && sscanf(bus + 11, "%31s", raw) == 1) {
        if (ls_busid_normalize(raw, b, sizeof b) != 0)
            snprintf(b, sizeof b, "%s", raw);
        json_object_set_new(o, "bus_id", json_string(b));
    }
    const char *pid = strstr(msg, "physical id "), *port = strstr(msg, " port ");
    if (pid)
        json_object_set_new(o, "physical_id", json_integer(atoi(pid + 12)));
    if (port)
        json_object_set_new(o, "port", json_integer(atoi(port + 6)));
    if (*host)
        json_object_set_new(o, "host", json_string(host));
    json_object_set_new(o, "text", json_string(msg));
    json_array_append_new(c->sxids, o);
    return 1;
}

/* The service state systemctl printed (fabric_managers[].service). */
/* systemctl status's first line, "X nvidia-fabricmanager.service - ...": systemd 250 and
   later mark a failed unit with a cross (U+00D7) and an inactive one with a white circle
   (U+25CB); its black circle (U+25CF) is active, activating or deactivating there, and
   every state before 250, so it says nothing alone. 1 when read. */
static int read_glyph(ctx_t *c, const char *msg)
{
    static const char *const glyphs[][3] = {{"\u00d7 ", "failed", "service_failed"},
                                            {"\u25cb ", "inactive", "not_running"}};
    for (size_t i = 0; i < sizeof glyphs / sizeof *glyphs; i++) {
        size_t n = strlen(glyphs[i][0]);
        if (!strncmp(msg, glyphs[i][0], n) && !strncmp(msg + n, "nvidia-fabricmanager", 20)) {
            json_object_set_new(c->fm, "service", json_string(glyphs[i][1]));
            add_failure(c, glyphs[i][2], msg, "");
            return 1;
        }
    }
    return 0;
}

static void read_service(ctx_t *c, const char *msg)
{
    static const char *const states[][2] = {{"Active: active (running)", "running"},
                                            {"Active: failed", "failed"},
                                            {"Active: inactive", "inactive"},
                                            {"could not be found", "not_found"},
                                            {"service not found", "not_found"}};
    for (size_t i = 0; i < sizeof states / sizeof *states; i++)
        if (strstr(msg, states[i][0]))
            json_object_set_new(c->fm, "service", json_string(states[i][1]));
}

/* FM's version-mismatch message cut before its driver's version: its opening words
   ("fabric manager NVIDIA GPU driver interface version 535.183.01 don'"), which FM prints
   in no other message (its user guide's text: "... version A don't match with driver
   version B. Please update with matching NVIDIA driver package."), without the rest. */
static int mismatch_cut(const char *msg)
{
    static const char head[] = "fabric manager NVIDIA GPU driver interface version ";
    return !strncmp(msg, head, sizeof head - 1) && !strstr(msg, "match with driver version");
}

static void read_words(ctx_t *c, json_t *doc, const char *msg, const char *level, const char *host)
{
    char v[32];
    if (version_after(msg, "Fabric Manager version", v, sizeof v) == 0)
        ls_set_if_absent(c->fm, "version", v);
    if (strstr(msg, "Detected Pre-NVL5 system"))
        json_object_set_new(c->fm, "nvlink5", json_false());
    if (strstr(msg, "fabric manager daemon for NVLink5"))
        json_object_set_new(c->fm, "nvlink5", json_true());
    if (strstr(msg, "Detected NVL5+ system"))
        json_object_set_new(c->fm, "nvlink5", json_true());
    if (read_glyph(c, msg))
        return;
    read_service(c, msg);
    for (size_t i = 0; i < sizeof down_words / sizeof *down_words; i++)
        if (strstr(msg, down_words[i])) {
            c->last_down = c->line;
            return;
        }
    for (size_t i = 0; i < sizeof up_words / sizeof *up_words; i++)
        if (strstr(msg, up_words[i])) {
            c->last_up = c->line;
            json_object_set_new(c->fm, "started", json_true());
            return;
        }
    if (read_switch_error(c, msg, host))
        return;
    if (mismatch_cut(msg)) { /* the driver's version unknown */
        read_mismatch(c, doc, msg);
        add_failure(c, "version_mismatch", msg, host);
        c->cut = c->line;
        return;
    }
    for (size_t i = 0; i < sizeof failure_words / sizeof *failure_words; i++)
        if (strstr(msg, failure_words[i].says)) {
            if (!strcmp(failure_words[i].kind, "version_mismatch"))
                read_mismatch(c, doc, msg);
            add_failure(c, failure_words[i].kind, msg, host);
            return;
        }
    if ((!strcmp(level, "ERROR") || !strcmp(level, "FATAL")) && strstr(msg, "multicast team"))
        add_failure(c, "multicast_failed", msg, host); /* NVLS: "failed to find the GPU handle
                                                          ... in the multicast team ..." */
    else if (!strcmp(level, "ERROR") || !strcmp(level, "FATAL")) /* its own error lines */
        add_failure(c, "error", msg, host);
}

/* A message that says something failed ("failed", "Failed", "error", "ERROR"). */
static int failing(const char *msg)
{
    static const char *const words[] = {"fail", "Fail", "FAIL", "error", "Error", "ERROR"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strstr(msg, words[i]))
            return 1;
    return 0;
}

/* One line: the journal's prefix, the log's "[date] [LEVEL] [tid N]" (or "[LEVEL]" alone)
   and a host's tag taken off. */
static void read_line(ctx_t *c, json_t *doc, const char *line)
{
    char host[64], level[16] = "";
    host_of(line, host, sizeof host);
    if (*host)
        ls_json_add_string_once(c->hosts, host);
    const char *msg = line;
    const char *tag = strstr(line, "]: "); /* "nv-fabricmanager[4177]: " */
    if (tag && (strstr(line, "fabricmanager") || strstr(line, "systemd[")))
        msg = tag + 3;
    int tid;
    const char *m = log_form(msg, level, sizeof level, &tid);
    if (!m)
        m = journal_msg(msg); /* a journal line whose tag was cut ("edge-...:  ...") */
    if (!m)
        m = tagged_msg(msg); /* "10.0.0.7: fabric manager ..." */
    if (m)
        msg = m;
    msg += strspn(msg, " \t");
    if (!*level && strstr(line, "nv-fabricmanager[") && failing(msg))
        snprintf(level, sizeof level, "ERROR"); /* its journal lines carry no level */
    if (*msg)
        read_words(c, doc, msg, level, host);
}

int ls_import_fabric_manager(json_t *doc, const char *text, const char *name, char *err,
                             size_t errlen)
{
    (void)err;
    (void)errlen;
    ctx_t c = {.fm = json_pack("{s:s}", "file", name),
               .failures = json_array(),
               .sxids = json_array(),
               .hosts = json_array(),
               .keys = json_object(),
               .last_failure = -1,
               .last_up = -1,
               .last_down = -1};
    const char *pos = text;
    ls_line_t line;
    while (ls_next_line(&pos, &line)) {
        c.line++;
        if (line.buf[strspn(line.buf, " \t")])
            c.last_text = c.line;
        read_line(&c, doc, line.buf);
    }
    if (c.cut && c.cut == c.last_text) /* a message broken over lines goes on: not cut */
        ls_import_note_missing("the last line is cut inside Fabric Manager's version-mismatch "
                               "message: the driver's version is not in the text");
    if (json_array_size(c.hosts))
        json_object_set(c.fm, "hosts", c.hosts);
    json_object_set(c.fm, "failures", c.failures);
    json_object_set(c.fm, "sxids", c.sxids);
    /* failed, then came up (and did not go down after) */
    if (c.last_up > c.last_failure && c.last_up > c.last_down && c.last_failure >= 0)
        json_object_set_new(c.fm, "recovered", json_true());
    int n = (int)(json_array_size(c.failures) + json_array_size(c.sxids));
    json_array_append_new(ls_json_array_at(doc, "fabric_managers"), c.fm);
    json_decref(c.failures);
    json_decref(c.sxids);
    json_decref(c.hosts);
    json_decref(c.keys);
    return n;
}
