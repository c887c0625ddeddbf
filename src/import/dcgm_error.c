/* dcgmi's and NVVS's refusals. Texts from DCGM's sources (dcgmi/Diag.cpp: "Error: Unable
   to complete diagnostic for group N. Return: (code) <errorString>", "Error: Diagnostic
   could not be run because the Tesla recommended driver is not being used."; dcgmi's
   connection: "Error: unable to establish a connection to the specified host: H",
   "Error: Unable to connect to host engine. Host engine connection invalid/disconnected.";
   dcgmi/Health.cpp: "Error: Health watches not enabled. Please enable watches.";
   nvvs/NvidiaValidationSuite.cpp: "GPU N's MIG configuration is incompatible with the
   diagnostic because it prevents access to the entire GPU.", "Cannot run diagnostic: CUDA
   does not support enumerating GPUs with MIG mode enabled", "MIG is enabled, but no
   compute instances are configured"; dcgm_structs errorString for the Return: codes) and
   posts (NVIDIA/DCGM issue 176, mej/nhc issue 29; tests/fixtures/real/README.md). */
#include "dcgm_error.h"
#include "import_util.h"
#include "model/doc.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *needle; /* DCGM's words, matched within a line */
    int bare;           /* NVVS prints it without "Error:" in front */
    const char *cause, *fault, *meaning;
} dcgm_refusal_t;

/* Specific before generic: a "Return:" line carries the errorString of its code. */
static const dcgm_refusal_t refusals[] = {
    {.needle = "MIG configuration is incompatible with the diagnostic",
     .bare = 1,
     .cause = "mig",
     .fault = "none",
     .meaning = "MIG mode hides the whole GPU from the diagnostic; disable MIG (nvidia-smi -i N "
                "-mig 0, then reset the GPU) to diagnose it, or use the checks supported for "
                "MIG instances"},
    {.needle = "CUDA does not support enumerating GPUs with MIG mode enabled",
     .bare = 1,
     .cause = "mig",
     .fault = "none",
     .meaning = "the diagnostic cannot see GPUs in MIG mode; disable MIG (nvidia-smi -i N -mig 0, "
                "then reset the GPU) to diagnose them"},
    {.needle = "MIG is enabled, but no compute instances are configured",
     .bare = 1,
     .cause = "mig",
     .fault = "none",
     .meaning = "MIG is on without compute instances, so nothing can run on the GPU; create "
                "instances or disable MIG, then run the diagnostic again"},
    {.needle = "Health watches not enabled",
     .cause = "health_watches_off",
     .fault = "none",
     .meaning = "no health watch is set on the group, so DCGM checked nothing; set them with "
                "'dcgmi health -g GROUP -s a', wait, then 'dcgmi health -g GROUP -c'"},
    /* errorString(DCGM_ST_GPU_IS_LOST): the GPU no longer answers the driver */
    {.needle = "GPU is lost",
     .cause = "gpu_lost",
     .fault = "gpu_lost",
     .meaning = "a GPU fell off the bus (the driver lost it): the node needs a reboot, and the "
                "kernel log's Xid 79 lines say which GPU"},
    {.needle = "GPU requires reset",
     .cause = "reset_required",
     .fault = "reset",
     .meaning = "the driver asks for a GPU reset before the GPU can run again"},
    /* errorString(DCGM_ST_NVML_ERROR): the host engine could not use the driver */
    {.needle = "NVML error",
     .cause = "nvml",
     .fault = "driver",
     .meaning = "DCGM's host engine could not talk to the NVIDIA driver through NVML: "
                "nvidia-smi on the node says whether the driver answers"},
    {.needle = "unable to establish a connection to the specified host",
     .cause = "hostengine",
     .fault = "none",
     .meaning = "dcgmi could not reach DCGM's host engine (nv-hostengine not running, or another "
                "host or port); start it (systemctl start nvidia-dcgm, or nv-hostengine) and "
                "run again"},
    {.needle = "Host engine connection invalid/disconnected",
     .cause = "hostengine",
     .fault = "none",
     .meaning = "dcgmi could not reach DCGM's host engine (nv-hostengine not running or gone); "
                "start it (systemctl start nvidia-dcgm, or nv-hostengine) and run again"},
    {.needle = "Tesla recommended driver is not being used",
     .cause = "driver_branch",
     .fault = "none",
     .meaning = "the diagnostic refuses a driver outside NVIDIA's data-center branch; a "
                "configuration, not a fault"},
    {.needle = "A diag instance is already running",
     .cause = "busy",
     .fault = "none",
     .meaning = "another diagnostic was running; run again when it finishes"},
    {.needle = "This GPU is not supported by DCGM",
     .cause = "unsupported",
     .fault = "none",
     .meaning = "DCGM does not diagnose this GPU model"},
    {.needle = "Host engine is running as non-root",
     .cause = "permission",
     .fault = "none",
     .meaning = "the diagnostic needs the host engine run as root"},
    {.needle = "The specified group is empty",
     .cause = "empty_group",
     .fault = "none",
     .meaning = "the group holds no GPU (dcgmi group -l lists the groups), so nothing was "
                "tested; run with -g 0 (every GPU) or -i GPU"},
    {.needle = "Unable to complete diagnostic",
     .cause = "dcgm_error",
     .fault = "none",
     .meaning = "dcgmi diag stopped before a result (DCGM's return code and text above)"},
    {.needle = "Unable to check health watches",
     .cause = "dcgm_error",
     .fault = "none",
     .meaning = "dcgmi health could not read the watches (DCGM's return code and text above)"},
};

enum { NREFUSALS = sizeof refusals / sizeof refusals[0] };

/* The refusal a line shows, or NULL: dcgmi's lines start with "Error:", NVVS's MIG lines
   may stand alone. */
static const dcgm_refusal_t *line_refusal(const char *line, size_t len)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
    const char *s = buf + strspn(buf, " \t");
    int error = strncmp(s, "Error:", 6) == 0 || strncmp(s, "ERROR:", 6) == 0;
    for (int i = 0; i < NREFUSALS; i++)
        if ((error || refusals[i].bare) && strstr(s, refusals[i].needle))
            return &refusals[i];
    return NULL;
}

/* The most specific refusal of the text (the table's order) and its line. */
static const dcgm_refusal_t *text_refusal(const char *text, const char **at, size_t *len)
{
    const dcgm_refusal_t *best = NULL;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        const dcgm_refusal_t *r = line_refusal(p, n);
        if (r && (!best || r < best)) {
            best = r;
            *at = p, *len = n;
        }
        p += n + (p[n] == '\n');
    }
    return best;
}

int ls_dcgm_error_detect(const char *text)
{
    const char *at;
    size_t len;
    return text_refusal(text, &at, &len) != NULL;
}

json_t *ls_dcgm_not_run(const char *text)
{
    for (int i = 0; text && i < NREFUSALS; i++)
        if (strstr(text, refusals[i].needle))
            return json_pack("{s:s, s:s, s:s}", "cause", refusals[i].cause, "fault",
                             refusals[i].fault, "meaning", refusals[i].meaning);
    return NULL;
}

/* "DCGM GPU Diagnostic (version 418)": NVVS's banner. */
static json_t *banner_version(const char *text)
{
    const char *b = strstr(text, "DCGM GPU Diagnostic (version ");
    if (!b)
        return NULL;
    b += strlen("DCGM GPU Diagnostic (version ");
    size_t n = strcspn(b, ")\n");
    return n && n < 32 && b[n] == ')' ? json_stringn(b, n) : NULL;
}

int ls_import_dcgm_error(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    const char *at = NULL;
    size_t len = 0;
    const dcgm_refusal_t *r = text_refusal(text, &at, &len);
    if (!r)
        return ls_seterr(err, errlen, "%s: no dcgmi or DCGM diagnostic error line", name);
    while (len && isspace((unsigned char)at[len - 1]))
        len--;
    while (len && isspace((unsigned char)*at))
        at++, len--;
    if (!strcmp(r->cause, "health_watches_off"))
        return ls_seterr(err, errlen,
                         "%s: dcgmi health's own error '%.*s': %s; no health report "
                         "to read",
                         name, (int)(len > 200 ? 200 : len), at, r->meaning);
    json_t *dcgm = json_pack("{s:s, s:[], s:s%}", "file", name, "tests", "runtime_error", at, len);
    json_object_set_new(dcgm, "not_run", ls_dcgm_not_run(r->needle));
    json_t *v = banner_version(text);
    if (v)
        json_object_set_new(dcgm, "version", v);
    json_array_append_new(ls_json_array_at(doc, "dcgm"), dcgm);
    return 1;
}
