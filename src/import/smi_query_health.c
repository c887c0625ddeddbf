/* nvidia-smi -q: the fields of a GPU block beyond its identity and link, into the
   gpus[] fields discovery fills from NVML (docs/schema.md): the PCI device id, power
   readings and limits, the clock-event (throttle) reasons active at the time of the
   reading, ECC mode and volatile error counts, temperature and clocks. The section path
   of the line (outermost first) comes from smi_query.c. */
#include "smi_query_health.h"
#include "import_util.h"
#include "model/doc.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A number at the start of the value ("310.00 W", "1980 MHz", "45 C"); 0 for "N/A". */
static int number(const char *value, double *out)
{
    char *end;
    double v = strtod(value, &end);
    if (end == value || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

/* A count or a clock: a whole number no reading comes near (NVML's counters are 64-bit,
   a clock is MHz); anything else (1e64, inf, nan, negative) is not kept. */
#define COUNT_MAX 1e15
static int count(const char *value, long long *out)
{
    double v;
    if (!number(value, &v) || !(v >= 0 && v < COUNT_MAX))
        return 0;
    *out = (long long)v;
    return 1;
}

/* "0x233010DE": the device id is the upper 16 bits, the vendor (10DE) the lower. */
static void device_id(json_t *gpu, const char *value)
{
    if (strlen(value) != 10 || strncmp(value, "0x", 2) != 0)
        return;
    char id[8] = "0x";
    for (int i = 0; i < 4; i++)
        id[2 + i] = (char)tolower((unsigned char)value[2 + i]);
    ls_set_if_absent(gpu, "pci_device_id", id);
}

/* "GPU Power Readings" (drivers from 535) or "Power Readings"; never "Module Power
   Readings" (the whole Grace Hopper module) or "GPU Memory Power Readings". The enforced
   limit is "Current Power Limit", "Enforced Power Limit" on older drivers. */
static void power(json_t *gpu, const char *key, const char *value)
{
    double v;
    if (!number(value, &v))
        return;
    const char *field = !strcmp(key, "Power Draw")                 ? "draw_w"
                        : !strcmp(key, "Instantaneous Power Draw") ? "draw_w" /* drivers from 570 */
                        : !strcmp(key, "Current Power Limit")      ? "limit_w"
                        : !strcmp(key, "Enforced Power Limit")     ? "limit_w"
                        : !strcmp(key, "Default Power Limit")      ? "default_limit_w"
                                                                   : NULL;
    if (field)
        json_object_set_new(ls_json_object_at(gpu, "power"), field, json_real(v));
}

/* nvidia-smi's words for NVML's clock-event reasons, as src/discover/nvml.c names them. */
static const char *const reasons[][2] = {
    {"Idle", "gpu_idle"},
    {"Applications Clocks Setting", "applications_clocks_setting"},
    {"SW Power Cap", "sw_power_cap"},
    {"HW Slowdown", "hw_slowdown"},
    {"HW Thermal Slowdown", "hw_thermal_slowdown"},
    {"HW Power Brake Slowdown", "hw_power_brake_slowdown"},
    {"Sync Boost", "sync_boost"},
    {"SW Thermal Slowdown", "sw_thermal_slowdown"},
    {"Display Clock Setting", "display_clock_setting"},
};

static void reason(json_t *gpu, const char *key, const char *value)
{
    json_t *list = ls_json_array_at(gpu, "throttle_reasons");
    if (strcmp(value, "Active") != 0)
        return;
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (!strcmp(key, reasons[i][0]))
            json_array_append_new(list, json_string(reasons[i][1]));
}

static void ecc_add(json_t *gpu, const char *field, const char *value)
{
    long long v;
    if (!count(value, &v))
        return;
    json_t *ecc = ls_json_object_at(gpu, "ecc");
    long long before = ls_json_int(ecc, field, 0);
    if (before >= 0 && before < (long long)COUNT_MAX) /* each part below it: no overflow */
        json_object_set_new(ecc, field, json_integer(before + v));
}

/* Volatile counts (since the driver loaded) and aggregate ones (the GPU's life, kept in
   its InfoROM), as NVML's totals: drivers from 525
   split SRAM and DRAM ("DRAM Correctable", "SRAM Uncorrectable Parity", ...); older ones
   print "Single Bit" / "Double Bit" blocks ending in "Total". */
static void ecc_errors(json_t *gpu, const char (*section)[48], int depth, const char *key,
                       const char *value)
{
    const char *cor = NULL, *unc = NULL;
    if (depth >= 2 && !strcmp(section[1], "Volatile"))
        cor = "volatile_corrected", unc = "volatile_uncorrected";
    else if (depth >= 2 && !strcmp(section[1], "Aggregate")) /* over the GPU's life */
        cor = "aggregate_corrected", unc = "aggregate_uncorrected";
    else
        return;
    if (depth == 2 && strstr(key, "Uncorrectable"))
        ecc_add(gpu, unc, value);
    else if (depth == 2 && strstr(key, "Correctable"))
        ecc_add(gpu, cor, value);
    else if (depth == 3 && !strcmp(key, "Total") && !strcmp(section[2], "Single Bit"))
        ecc_add(gpu, cor, value);
    else if (depth == 3 && !strcmp(key, "Total") && !strcmp(section[2], "Double Bit"))
        ecc_add(gpu, unc, value);
}

/* "Remapped Rows" (A100 and later: a bad row is replaced by a spare at the next GPU
   reset) and "Retired Pages" (V100 and earlier: a page is retired at the next driver
   load). "Yes"/"No" flags and counts; "N/A" where the GPU has the other mechanism. */
static void memory_repair(json_t *gpu, const char *block, const char *key, const char *value)
{
    static const char *const fields[][3] = {
        {"remapped_rows", "Correctable Error", "correctable"},
        {"remapped_rows", "Uncorrectable Error", "uncorrectable"},
        {"remapped_rows", "Pending", "pending"},
        {"remapped_rows", "Remapping Failure Occurred", "failure"},
        {"retired_pages", "Single Bit ECC", "single_bit"},
        {"retired_pages", "Double Bit ECC", "double_bit"},
        {"retired_pages", "Pending Page Blacklist", "pending"},
        {"retired_pages", "Pending Page Retirement", "pending"},
    };
    long long v;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (strcmp(block, fields[i][0]) || strcmp(key, fields[i][1]))
            continue;
        if (!strcmp(value, "Yes") || !strcmp(value, "No"))
            json_object_set_new(ls_json_object_at(ls_json_object_at(gpu, "ecc"), block),
                                fields[i][2], json_boolean(!strcmp(value, "Yes")));
        else if (count(value, &v))
            json_object_set_new(ls_json_object_at(ls_json_object_at(gpu, "ecc"), block),
                                fields[i][2], json_integer(v));
    }
}

static void clock(json_t *gpu, const char *field, const char *value)
{
    long long v;
    if (count(value, &v))
        json_object_set_new(ls_json_object_at(gpu, "clocks"), field, json_integer(v));
}

/* The Fabric section (drivers from 535 on NVSwitch / NVLink-fabric GPUs): gpus[].fabric's
   state ("Completed", "In Progress", "Not Started", "Not Supported", "N/A"), status
   ("Success", "N/A" or the error), clique and cluster, and its Health block (drivers 550 on:
   Summary, Bandwidth, Route Recovery in progress, ...), each value as printed. */
static void fabric(json_t *gpu, const char (*section)[48], int depth, const char *key,
                   const char *value)
{
    static const char *const fields[][2] = {{"State", "state"},
                                            {"Status", "status"},
                                            {"CliqueId", "clique_id"},
                                            {"Clique ID", "clique_id"},
                                            {"ClusterUUID", "cluster_uuid"},
                                            {"Cluster UUID", "cluster_uuid"}};
    json_t *f = ls_json_object_at(gpu, "fabric");
    if (depth == 2 && !strcmp(section[1], "Health")) { /* "Route Unhealthy" -> route_unhealthy */
        char k[64];
        size_t n = 0;
        for (; key[n] && n + 1 < sizeof k; n++)
            k[n] = key[n] == ' ' ? '_' : (char)tolower((unsigned char)key[n]);
        k[n] = '\0';
        json_object_set_new(ls_json_object_at(f, "health"), k, json_string(value));
        return;
    }
    for (size_t i = 0; depth == 1 && i < sizeof fields / sizeof *fields; i++)
        if (!strcmp(key, fields[i][0]))
            json_object_set_new(f, fields[i][1], json_string(value));
}

/* The driver's own word on the GPU's recovery (model/recovery.h), as printed: "GPU
   Recovery Action" (drivers from 570: "None", "GPU Reset Required", ...) and the GPU Reset
   Status section before it ("Reset Required", "Drain and Reset Recommended": "No", "Yes",
   or from 570 "Requested functionality has been deprecated"). */
static void recovery(json_t *gpu, int depth, const char *s0, const char *key, const char *value)
{
    if (depth == 0 && !strcmp(key, "GPU Recovery Action"))
        json_object_set_new(gpu, "recovery_action", json_string(value));
    else if (depth == 1 && !strcmp(s0, "GPU Reset Status") && !strcmp(key, "Reset Required"))
        json_object_set_new(ls_json_object_at(gpu, "reset_status"), "reset_required",
                            json_string(value));
    else if (depth == 1 && !strcmp(s0, "GPU Reset Status") &&
             !strcmp(key, "Drain and Reset Recommended"))
        json_object_set_new(ls_json_object_at(gpu, "reset_status"), "drain_and_reset_recommended",
                            json_string(value));
}

void ls_smi_query_health(json_t *gpu, const char (*section)[48], int depth, const char *key,
                         const char *value)
{
    const char *s0 = depth ? section[0] : "";
    double v;
    if ((depth == 0 && !strcmp(key, "GPU Recovery Action")) ||
        (depth == 1 && !strcmp(s0, "GPU Reset Status")))
        recovery(gpu, depth, s0, key, value);
    else if (depth == 1 && !strcmp(s0, "PCI") && !strcmp(key, "Device Id"))
        device_id(gpu, value);
    else if (depth == 1 && (!strcmp(s0, "GPU Power Readings") || !strcmp(s0, "Power Readings")))
        power(gpu, key, value);
    else if (depth == 2 && !strcmp(s0, "GPU Power Readings") &&
             !strcmp(section[1], "GPU Ceiling Power Limit"))
        power(gpu, key, value); /* drivers from 610 nest the limits one level deeper */
    else if (depth == 1 &&
             (!strcmp(s0, "Clocks Event Reasons") || !strcmp(s0, "Clocks Throttle Reasons")))
        reason(gpu, key, value);
    else if (depth == 1 && !strcasecmp(s0, "ECC Mode") && !strcmp(key, "Current") &&
             (!strcmp(value, "Enabled") || !strcmp(value, "Disabled")))
        json_object_set_new(ls_json_object_at(gpu, "ecc"), "enabled",
                            json_boolean(!strcmp(value, "Enabled")));
    else if (depth == 1 && !strcmp(s0, "Remapped Rows"))
        memory_repair(gpu, "remapped_rows", key, value);
    else if (depth == 1 && !strcmp(s0, "Retired Pages"))
        memory_repair(gpu, "retired_pages", key, value);
    else if (!strcmp(s0, "ECC Errors"))
        ecc_errors(gpu, section, depth, key, value);
    else if (!strcmp(s0, "Fabric"))
        fabric(gpu, section, depth, key, value);
    else if (depth == 1 && !strcmp(s0, "Temperature") && !strcmp(key, "GPU Current Temp") &&
             number(value, &v))
        json_object_set_new(gpu, "temperature_c", json_real(v));
    else if (depth == 1 && !strcmp(s0, "Clocks") && !strcmp(key, "SM"))
        clock(gpu, "sm_mhz", value);
    else if (depth == 1 && !strcmp(s0, "Clocks") && !strcmp(key, "Memory"))
        clock(gpu, "mem_mhz", value);
    else if (depth == 1 && !strcmp(s0, "Max Clocks") && !strcmp(key, "SM"))
        clock(gpu, "sm_max_mhz", value);
    else if (depth == 1 && !strcmp(s0, "Max Clocks") && !strcmp(key, "Memory"))
        clock(gpu, "mem_max_mhz", value);
}
