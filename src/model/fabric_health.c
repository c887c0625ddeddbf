/* NVML's fabric health mask (model/fabric_health.h). The layout is NVML's (nvml.h,
   NVML_GPU_FABRIC_HEALTH_MASK_*): 2-bit fields for degraded bandwidth (bits 0-1), route
   recovery (2-3), route unhealthy (4-5) and access-timeout recovery (6-7), each 0 not
   supported, 1 true, 2 false; a 4-bit incorrect-configuration field (8-11), 0 not
   supported, 1 none, 2 and up the fault. The summary (v3): 0 not supported, 1 healthy,
   2 unhealthy, 3 limited capacity. The words are nvidia-smi -q's for the same fields. */
#include "fabric_health.h"

#include <string.h>

/* A 2-bit true/false field at shift: "True", "False", or NULL (not supported). */
static const char *flag(unsigned mask, int shift)
{
    switch ((mask >> shift) & 0x3) {
    case 1: return "True";
    case 2: return "False";
    default: return NULL;
    }
}

static void put(json_t *h, const char *key, const char *value)
{
    if (value)
        json_object_set_new(h, key, json_string(value));
}

/* The incorrect-configuration field, a word or NULL (not supported); a code nvml.h did
   not name when this was written is kept as its number. */
static json_t *configuration(unsigned mask)
{
    static const char *const words[] = {
        NULL,
        "None",
        "Incorrect SysGuid",
        "Incorrect Chassis Serial Number",
        "No Partition",
        "Insufficient NVLinks",
    };
    unsigned v = (mask >> 8) & 0xf;
    if (v == 0)
        return NULL;
    if (v < sizeof words / sizeof words[0])
        return json_string(words[v]);
    return json_sprintf("Incorrect (code %u)", v);
}

json_t *ls_fabric_health_decode(unsigned mask, int summary_known, unsigned summary)
{
    static const char *const summaries[] = {NULL, "Healthy", "Unhealthy", "Limited Capacity"};
    json_t *h = json_object();
    if (summary_known && summary < 4)
        put(h, "summary", summaries[summary]);
    const char *degraded = flag(mask, 0);
    put(h, "bandwidth", !degraded ? NULL : strcmp(degraded, "True") == 0 ? "Degraded" : "Full");
    put(h, "route_recovery_in_progress", flag(mask, 2));
    put(h, "route_unhealthy", flag(mask, 4));
    put(h, "access_timeout_recovery", flag(mask, 6));
    json_t *config = configuration(mask);
    if (config)
        json_object_set_new(h, "incorrect_configuration", config);
    if (json_object_size(h) == 0) {
        json_decref(h);
        return NULL;
    }
    return h;
}

int ls_fabric_health_flagged(const json_t *health)
{
    const char *summary = json_string_value(json_object_get(health, "summary"));
    const char *bandwidth = json_string_value(json_object_get(health, "bandwidth"));
    /* NVML's summary of the mask is its own call: "Unhealthy", and "Limited Capacity"
       (NVML_GPU_FABRIC_HEALTH_SUMMARY_LIMITED_CAPACITY: the GPU's fabric paths are up
       short of their full capacity, the summary's word for a degraded state) */
    return (summary &&
            (strcmp(summary, "Unhealthy") == 0 || strcmp(summary, "Limited Capacity") == 0)) ||
           (bandwidth && strstr(bandwidth, "Degraded"));
}
