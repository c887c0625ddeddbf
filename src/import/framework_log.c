/* Framework logs (import/framework_log.h). The line forms, from what each prints:

     2019-08-26 11:51:18.215580: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1326] ...
     W0826 11:51:18.218294 140208701863744 deprecation_wrapper.py:119] ...
     INFO 06-22 02:54:36 [backends.py:193] ...          (vLLM; older: "metrics.py:411] ")
     (VllmWorker rank=0 pid=123) INFO 06-22 ...          (a vLLM worker's prefix)

   TensorFlow's and absl's prefix carries the level letter (I, W, E, F) before the source
   file; glog's opens the line with it and the date. vLLM's opens with the level word.
   Such a log reaches this reader only when none of its lines is another reader's (a CUDA
   error, an NCCL line, a watchdog timeout, an NVRM line, an nvidia-smi table), so the one
   answer it gives is that: nothing linkscope judges is in it. It keeps the GPUs
   TensorFlow lists ("Created TensorFlow device ... -> physical GPU (device: 7, name:
   Tesla M40 24GB, pci bus id: 0000:89:00.0, ...)", "Found device 0 with properties:"
   with its name and pciBusID lines) and counts the lines at an error level and Python
   tracebacks, named in the import's note as not judged. */
#include "framework_log.h"
#include "import_note.h"
#include "import_util.h"
#include "model/busid.h"
#include "model/doc.h"
#include "model/topo.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum framework { FW_NONE, FW_TENSORFLOW, FW_GLOG, FW_VLLM };

static const char *const framework_names[] = {
    [FW_NONE] = "unknown",
    [FW_TENSORFLOW] = "TensorFlow",
    [FW_GLOG] = "glog (C++)",
    [FW_VLLM] = "vLLM",
};

/* n digits at s. */
static int digits(const char *s, int n)
{
    for (int i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* "HH:MM:SS" at s. */
static int clock_at(const char *s)
{
    return digits(s, 2) && s[2] == ':' && digits(s + 3, 2) && s[5] == ':' && digits(s + 6, 2);
}

/* "file.ext:N] " at s (a source file and line, glog's and vLLM's closing bracket). */
static int source_at(const char *s)
{
    const char *colon = s;
    while (*colon && *colon != ':' && *colon != ' ')
        colon++;
    if (*colon != ':' || colon == s || !strchr(s, '.') || strchr(s, '.') > colon)
        return 0;
    const char *n = colon + 1;
    if (!isdigit((unsigned char)*n))
        return 0;
    while (isdigit((unsigned char)*n))
        n++;
    return *n == ']';
}

/* TensorFlow / absl: "YYYY-MM-DD HH:MM:SS.ffffff: L path/file.cc:N] ", its level L. */
static int tensorflow_line(const char *s, char *level)
{
    if (!(digits(s, 4) && s[4] == '-' && digits(s + 5, 2) && s[7] == '-' && digits(s + 8, 2) &&
          s[10] == ' ' && clock_at(s + 11)))
        return 0;
    const char *p = s + 19;
    if (*p == '.')
        p += 1 + strspn(p + 1, "0123456789");
    if (p[0] != ':' || p[1] != ' ' || !strchr("IWEF", p[2]) || p[2] == '\0' || p[3] != ' ')
        return 0;
    *level = p[2];
    return source_at(p + 4);
}

/* glog: "LMMDD HH:MM:SS.ffffff THREAD file:N] ", its level L. */
static int glog_line(const char *s, char *level)
{
    if (!s[0] || !strchr("IWEF", s[0]) || !digits(s + 1, 4) || s[5] != ' ' || !clock_at(s + 6))
        return 0;
    const char *p = s + 14;
    if (*p == '.')
        p += 1 + strspn(p + 1, "0123456789");
    p += strspn(p, " ");
    if (!isdigit((unsigned char)*p))
        return 0;
    p += strspn(p, "0123456789");
    p += strspn(p, " ");
    *level = s[0];
    return source_at(p);
}

/* vLLM: "[(...) ]LEVEL MM-DD HH:MM:SS [file.py:N] " or "... file.py:N] ", its level's
   first letter (I, W, E, C, D). */
static int vllm_line(const char *s, char *level)
{
    if (*s == '(') { /* a worker's "(VllmWorker rank=0 pid=123) " */
        const char *close = strchr(s, ')');
        if (!close || close[1] != ' ')
            return 0;
        s = close + 2;
    }
    static const char *const levels[] = {"INFO ", "WARNING ", "ERROR ", "CRITICAL ", "DEBUG "};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        size_t n = strlen(levels[i]);
        if (strncmp(s, levels[i], n))
            continue;
        const char *d = s + n;
        if (!(digits(d, 2) && d[2] == '-' && digits(d + 3, 2) && d[5] == ' ' && clock_at(d + 6)))
            return 0;
        const char *p = d + 14;
        if (*p == '.')
            p += 1 + strspn(p + 1, "0123456789");
        p += strspn(p, " ");
        if (*p == '[')
            p++;
        *level = s[0];
        return source_at(p);
    }
    return 0;
}

/* The framework of one line (FW_NONE when it is none's), its level letter. */
static enum framework line_form(const char *line, char *level)
{
    const char *s = line + strspn(line, " \t");
    if (tensorflow_line(s, level))
        return FW_TENSORFLOW;
    if (glog_line(s, level))
        return FW_GLOG;
    if (vllm_line(s, level))
        return FW_VLLM;
    return FW_NONE;
}

int ls_framework_log_detect(const char *text)
{
    const char *pos = text;
    ls_line_t line;
    int seen[4] = {0};
    char level;
    while (ls_next_line(&pos, &line)) {
        enum framework f = line_form(line.buf, &level);
        if (f != FW_NONE && ++seen[f] >= 3)
            return 1;
    }
    return 0;
}

/* "pci bus id: 0000:89:00.0" / "pciBusID: 0000:04:00.0" after key in s, normalized. */
static int bus_after(const char *s, const char *key, char *bus, size_t len)
{
    const char *p = strstr(s, key);
    char raw[32];
    if (!p || sscanf(p + strlen(key), " %31[0-9a-fA-F:.]", raw) != 1)
        return -1;
    return ls_busid_normalize(raw, bus, len);
}

/* "name: NAME" in s, up to ", " or a following "key:" word (TensorFlow 1: "name: Tesla
   M40 24GB major: 5 minor: 2 ..."; 2: "... name: Tesla T4 computeCapability: 7.5"). */
static int name_after(const char *s, char *name, size_t len)
{
    const char *p = strstr(s, "name: ");
    if (!p)
        return -1;
    p += 6;
    size_t n = 0;
    while (p[n] && p[n] != ',') {
        if (p[n] == ' ') { /* the next word ends in ':' (a key): the name stops here */
            const char *w = p + n + 1;
            size_t wl = strcspn(w, " ");
            if (wl && w[wl - 1] == ':')
                break;
        }
        n++;
    }
    while (n && p[n - 1] == ' ')
        n--;
    if (!n)
        return -1;
    snprintf(name, len, "%.*s", (int)n, p);
    return 0;
}

/* index as the line printed it: a GPU the machine view holds (LS_MAX_GPUS), else none (a
   document with a larger index is one linkscope refuses to read back). */
static void keep_gpu(json_t *doc, long index, const char *name, const char *bus)
{
    if (index < 0 || index >= LS_MAX_GPUS)
        return;
    json_t *g = ls_import_gpu(doc, (int)index);
    if (*name)
        ls_set_if_absent(g, "name", name);
    if (*bus)
        ls_set_if_absent(g, "pci_bus_id", bus);
}

/* TensorFlow's device lines: "Created TensorFlow device (...) -> physical GPU (device: N,
   name: X, pci bus id: B, ...)" on one line; "Found device N with properties:" with its
   name and bus on the same line or the two after it. */
static void tensorflow_gpus(json_t *doc, const char *text)
{
    const char *pos = text;
    ls_line_t line;
    long found = -1;
    int after = 0;
    char name[128] = "", bus[32] = "";
    while (ls_next_line(&pos, &line)) {
        const char *s = line.buf;
        const char *dev = strstr(s, "physical GPU (device: ");
        const char *props = strstr(s, "Found device ");
        if (dev) {
            name[0] = bus[0] = '\0';
            name_after(dev, name, sizeof name);
            bus_after(dev, "pci bus id:", bus, sizeof bus);
            keep_gpu(doc, strtol(dev + strlen("physical GPU (device: "), NULL, 10), name, bus);
        }
        if (props && strstr(props, "with properties")) {
            if (found >= 0)
                keep_gpu(doc, found, name, bus);
            found = strtol(props + strlen("Found device "), NULL, 10);
            name[0] = bus[0] = '\0';
            after = 0;
        }
        if (found >= 0 && after <= 2) {
            if (!name[0])
                name_after(s, name, sizeof name);
            if (!bus[0])
                bus_after(s, "pciBusID:", bus, sizeof bus);
            after++;
        }
    }
    if (found >= 0)
        keep_gpu(doc, found, name, bus);
}

/* 1 when a line of form f at level is an error: level E, F or ERROR/CRITICAL, or a Python
   traceback's first line. */
static int error_line(const char *line, enum framework f, char level)
{
    return (f != FW_NONE && (level == 'E' || level == 'F' || level == 'C')) ||
           strstr(line, "Traceback (most recent call last)") != NULL;
}

int ls_framework_log_has_errors(const char *text)
{
    const char *pos = text;
    ls_line_t line;
    char level;
    while (ls_next_line(&pos, &line)) {
        enum framework f = line_form(line.buf, &level);
        if (error_line(line.buf, f, level))
            return 1;
    }
    return 0;
}

int ls_import_framework_log(json_t *doc, const char *text, const char *name, char *err,
                            size_t errlen)
{
    (void)err;
    (void)errlen;
    const char *pos = text;
    ls_line_t line;
    int count[4] = {0}, lines = 0, errors = 0;
    char level;
    while (ls_next_line(&pos, &line)) {
        enum framework f = line_form(line.buf, &level);
        count[f]++;
        lines += f != FW_NONE;
        errors += error_line(line.buf, f, level);
    }
    enum framework most = FW_TENSORFLOW;
    for (int f = FW_TENSORFLOW; f <= FW_VLLM; f++)
        if (count[f] > count[most])
            most = (enum framework)f;
    if (count[FW_TENSORFLOW])
        tensorflow_gpus(doc, text);
    json_array_append_new(ls_json_array_at(doc, "framework_logs"),
                          json_pack("{s:s, s:s, s:i, s:i}", "file", name, "framework",
                                    framework_names[most], "lines", lines, "error_lines", errors));
    if (errors)
        ls_import_note_missing("a %s log with no CUDA error, NCCL, watchdog, driver or nvidia-smi "
                               "line: its %d error line%s (level E/F/ERROR, Python tracebacks) "
                               "and the rest are not judged",
                               framework_names[most], errors, errors == 1 ? "" : "s");
    else
        ls_import_note_missing("a %s log with no CUDA error, NCCL, watchdog, driver or nvidia-smi "
                               "line: nothing in it that linkscope judges",
                               framework_names[most]);
    return 0;
}
