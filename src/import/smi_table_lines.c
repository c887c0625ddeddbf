/* The lines of plain nvidia-smi output outside its GPU rows (smi_table.h): the failure
   texts NVML's errors give (nvmlErrorString's words after nvidia-smi's own sentence),
   the Processes table and the MIG devices table. */
#include "smi_table.h"
#include "import_util.h"
#include "model/busid.h"
#include "model/topo.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long ls_smi_mib_bytes(const char *tok)
{
    char *end;
    errno = 0;
    long long mib = strtoll(tok, &end, 10);
    /* nvidia-smi printed "MB" for MiB before driver 331: the same GTX 680 shows
       "4095MB" under 325.15 and "4095MiB" under 331.62 (cBio/cbio-cluster#38, #39) */
    if (errno || end == tok || mib < 0 || (strcmp(end, "MiB") && strcmp(end, "MB")) ||
        mib > LLONG_MAX / (1024LL * 1024LL))
        return -1;
    return mib * 1024LL * 1024LL;
}

/* The words after "PREFIX" up to the line's end, trailing blanks and a period dropped. */
static void rest_of(const char *from, char *buf, size_t len)
{
    while (*from == ' ')
        from++;
    snprintf(buf, len, "%s", from);
    size_t n = strlen(buf);
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == '.' || buf[n - 1] == '`'))
        buf[--n] = '\0';
}

static json_t *failures(json_t *smi)
{
    json_t *list = json_object_get(smi, "failures");
    if (!list) {
        list = json_array();
        json_object_set_new(smi, "failures", list);
    }
    return list;
}

/* A kind already recorded with the same text is not added twice (a paste repeating it). */
static void add_failure(json_t *smi, json_t *f)
{
    size_t i;
    json_t *g;
    json_array_foreach(failures(smi), i, g) {
        if (json_equal(g, f)) {
            json_decref(f);
            return;
        }
    }
    json_array_append_new(failures(smi), f);
}

/* Where line says nvidia-smi could not get a GPU's handle: "Unable to determine the
   device handle for GPU", or the Windows build's "Unable to detect the device handle for
   GPU"; the text after "for GPU", else NULL. */
static const char *handle_failure(const char *line)
{
    /* the lower-case "gpu" of a line retyped by hand (gpustat#125) reads the same */
    static const char *const words[] = {"Unable to determine the device handle for GPU",
                                        "Unable to detect the device handle for GPU",
                                        "Unable to determine the device handle for gpu"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        const char *at = strstr(line, words[i]);
        if (at)
            return at + strlen(words[i]);
    }
    return NULL;
}

/* "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error", the same
   without the blank ("for GPU0000:65:00.0"), and from driver 570 with the index
   ("for GPU1: 0000:34:00.0: Unknown Error"); p: the text after "for GPU". */
static void device_handle(json_t *smi, const char *p)
{
    while (*p == ' ')
        p++;
    json_t *f = json_pack("{s:s}", "kind", "device_handle");
    const char *q = p;
    while (isdigit((unsigned char)*q))
        q++;
    if (q > p && q - p <= 3 && q[0] == ':' && q[1] == ' ') { /* "GPU1: BUS" */
        json_object_set_new(f, "gpu", json_integer(atoi(p)));
        p = q + 2;
    }
    size_t n = strcspn(p, " ");
    while (n && p[n - 1] == ':') /* the bus id ends at ": REASON" */
        n--;
    char bus[48], norm[32];
    snprintf(bus, sizeof bus, "%.*s", (int)(n < 47 ? n : 47), p);
    if (strchr(bus, ':') && ls_busid_normalize(bus, norm, sizeof norm) == 0)
        json_object_set_new(f, "bus_id", json_string(norm));
    else if (strchr(bus, ':')) /* a masked or cut id ("000:BA:80.0"): as printed */
        json_object_set_new(f, "bus_id", json_string(bus));
    const char *reason = strstr(p, ": ");
    char r[160];
    rest_of(reason ? reason + 2 : "", r, sizeof r);
    if (r[0])
        json_object_set_new(f, "reason", json_string(r));
    add_failure(smi, f);
}

/* NVML_ERROR_GPU_IS_LOST as another program prints it: nvmlErrorString's "GPU is lost"
   after the NVML call or exception that got it (Slurm's gpu/nvml plugin: "slurmstepd:
   error: NVML: Failed to get usage(15): GPU is lost"; pynvml: "NVMLError_GpuIsLost: GPU
   is lost"). */
static int nvml_lost(const char *line)
{
    return strstr(line, "GPU is lost") && (strstr(line, "NVML") || strstr(line, "nvml"));
}

int ls_smi_failure_text(const char *line)
{
    return strstr(line, "NVIDIA-SMI has failed because it couldn") ||
           strstr(line, "Failed to initialize NVML:") ||
           strstr(line, "NVIDIA-SMI couldn't find libnvidia-ml.so") ||
           strstr(line, "No devices were found") || handle_failure(line) || nvml_lost(line);
}

int ls_smi_failure_line(json_t *smi, const char *line)
{
    const char *at;
    char r[160];
    if ((at = strstr(line, "NVML library version:"))) {
        rest_of(at + strlen("NVML library version:"), r, sizeof r);
        if (r[0])
            json_object_set_new(smi, "nvml_library_version", json_string(r));
        return 1;
    }
    if (!ls_smi_failure_text(line))
        return 0;
    if ((at = handle_failure(line)))
        device_handle(smi, at);
    else if (nvml_lost(line)) /* which GPU the line does not say */
        add_failure(smi, json_pack("{s:s,s:s,s:s}", "kind", "device_handle", "reason",
                                   "GPU is lost", "via", "nvml"));
    else if ((at = strstr(line, "Failed to initialize NVML:"))) {
        rest_of(at + strlen("Failed to initialize NVML:"), r, sizeof r);
        add_failure(smi, json_pack("{s:s,s:s}", "kind", "nvml_init", "reason", r));
    } else if (strstr(line, "No devices were found"))
        add_failure(smi, json_pack("{s:s}", "kind", "no_devices"));
    else if (strstr(line, "libnvidia-ml.so"))
        add_failure(smi, json_pack("{s:s}", "kind", "no_library"));
    else
        add_failure(smi, json_pack("{s:s}", "kind", "no_driver"));
    return 1;
}

/* Splits a cell into blank-separated words (in place, at most max). */
static int words(char *s, char **w, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
        w[n++] = t;
    return n;
}

static int whole(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 0)
        return 0;
    *out = v;
    return 1;
}

/* "N/A" or a number, into key of obj when a number. */
static void optional_int(json_t *obj, const char *key, const char *word)
{
    long long v;
    if (whole(word, &v))
        json_object_set_new(obj, key, json_integer(v));
}

/* "|    0   N/A  N/A            6194      C   VLLM::Worker_TP1   88438MiB |" (450+),
   "|    0      1568    G   /usr/lib/xorg/Xorg     1850MiB |" (384), the 325-era
   "Compute processes" row without a type. The name may hold blanks (a Windows path):
   it is every word between the type (or pid) and the last word, the memory. */
int ls_smi_process_row(json_t *doc, const char *cell, int has_type, int has_gi)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", cell);
    char *w[32];
    int n = words(buf, w, 32), k = 0;
    long long gpu, pid;
    int first_name = 2 + (has_gi ? 2 : 0) + (has_type ? 1 : 0);
    if (n < first_name + 1 || !whole(w[0], &gpu) || gpu >= LS_MAX_GPUS)
        return 0;
    k = 1 + (has_gi ? 2 : 0);
    if (!whole(w[k], &pid))
        return 0;
    json_t *p = json_pack("{s:I}", "pid", (json_int_t)pid);
    if (has_gi) {
        optional_int(p, "gi", w[1]);
        optional_int(p, "ci", w[2]);
    }
    if (has_type)
        json_object_set_new(p, "type", json_string(w[k + 1]));
    long long bytes = ls_smi_mib_bytes(w[n - 1]);
    int last_name = n - 1; /* the memory word ("N/A" on Windows and WSL) */
    if (bytes >= 0)
        json_object_set_new(p, "memory_bytes", json_integer(bytes));
    char name[200] = "";
    for (int i = first_name; i < last_name; i++) {
        size_t used = strlen(name);
        snprintf(name + used, sizeof name - used, "%s%s", used ? " " : "", w[i]);
    }
    if (name[0])
        json_object_set_new(p, "name", json_string(name));
    json_t *g = ls_import_gpu(doc, (int)gpu);
    json_t *list = json_object_get(g, "processes");
    if (!json_is_array(list)) {
        list = json_array();
        json_object_set_new(g, "processes", list);
    }
    json_array_append_new(list, p);
    return 1;
}

/* "|  1    3   0   0  |  14366MiB / 19968MiB | 28      0 |  2   0    1    0    0 |" */
int ls_smi_mig_row(json_t *doc, json_t *list, char cells[][256], int ncells)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", cells[0]);
    char *w[8];
    long long v[4];
    if (ncells < 1 || words(buf, w, 8) != 4)
        return 0;
    for (int i = 0; i < 4; i++)
        if (!whole(w[i], &v[i]))
            return 0;
    if (v[0] >= LS_MAX_GPUS)
        return 0;
    json_t *d = json_pack("{s:I,s:I,s:I,s:I}", "gpu", (json_int_t)v[0], "gi", (json_int_t)v[1],
                          "ci", (json_int_t)v[2], "mig_dev", (json_int_t)v[3]);
    if (ncells > 1) {
        snprintf(buf, sizeof buf, "%s", cells[1]);
        int n = words(buf, w, 8);
        long long used = n == 3 ? ls_smi_mib_bytes(w[0]) : -1,
                  total = n == 3 ? ls_smi_mib_bytes(w[2]) : -1;
        if (used >= 0 && total >= 0 && strcmp(w[1], "/") == 0) {
            json_object_set_new(d, "memory_used_bytes", json_integer(used));
            json_object_set_new(d, "memory_total_bytes", json_integer(total));
        }
    }
    json_array_append_new(list, d);
    /* a MIG device exists only where MIG mode is on */
    ls_set_if_absent(ls_import_gpu(doc, (int)v[0]), "mig_mode", "Enabled");
    return 1;
}
