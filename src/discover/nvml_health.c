/* NVML health facts (nvml_health.h). The entry points nvml.c does not load are looked up
   here in the library nvml.c opened (RTLD_NOLOAD), declared from NVML's documented API;
   each is optional: a field NVML does not give is left out (unknown), never guessed. */
#include "nvml_health.h"
#include "nvml.h"
#include "model/fabric_health.h"
#include "model/recovery.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct nvml_device_st *dev_t_;
typedef int ret_t;
#define OK 0

/* nvmlGpuFabricInfo_t: cluster UUID (16 bytes), status (nvmlReturn_t), clique id,
   state (nvmlGpuFabricState_t, an unsigned char). */
typedef struct {
    unsigned char cluster_uuid[16];
    ret_t status;
    unsigned clique_id;
    unsigned char state;
} fabric_info_t;
/* nvmlGpuFabricInfo_v3_t (nvmlDeviceGetGpuFabricInfoV, drivers from 570; v2 from 550 is
   the same less the summary): a version tag, the v1 fields, the health mask, the health
   summary (model/fabric_health.c decodes both). */
typedef struct {
    unsigned version;
    unsigned char cluster_uuid[16];
    ret_t status;
    unsigned clique_id;
    unsigned char state;
    unsigned health_mask;
    unsigned char health_summary;
} fabric_info_v3_t;
/* NVML_STRUCT_VERSION(GpuFabricInfo, N): the struct's size | N << 24 (nvml.h); v3 is 40
   bytes (0x03000028), v2 36 (0x02000024). */
#define FABRIC_V3_TAG ((unsigned)sizeof(fabric_info_v3_t) | 3u << 24)
#define FABRIC_V2_TAG ((unsigned)offsetof(fabric_info_v3_t, health_summary) | 2u << 24)
_Static_assert(sizeof(fabric_info_v3_t) == 40, "nvmlGpuFabricInfo_v3_t is 40 bytes");
enum {
    FABRIC_NOT_SUPPORTED = 0,
    FABRIC_NOT_STARTED = 1,
    FABRIC_IN_PROGRESS = 2,
    FABRIC_COMPLETED = 3
};

static struct {
    void *lib;
    ret_t (*handle)(unsigned, dev_t_ *);
    ret_t (*remapped)(dev_t_, unsigned *, unsigned *, unsigned *, unsigned *);
    ret_t (*retired)(dev_t_, int, unsigned *, unsigned long long *);
    ret_t (*retired_pending)(dev_t_, int *);
    ret_t (*replays)(dev_t_, unsigned *);
    ret_t (*fabric)(dev_t_, fabric_info_t *);
    ret_t (*fabric_v)(dev_t_, fabric_info_v3_t *);
    const char *(*error_string)(ret_t);
} h;

static void *sym(const char *name)
{
    return h.lib ? dlsym(h.lib, name) : NULL;
}

/* dlsym returns an object pointer; POSIX guarantees it converts to a function pointer. */
#define LOAD(field, name) (*(void **)&h.field = sym(name))

static void load(void)
{
    if (h.lib)
        return;
    h.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_NOLOAD);
    LOAD(handle, "nvmlDeviceGetHandleByIndex_v2");
    LOAD(remapped, "nvmlDeviceGetRemappedRows");
    LOAD(retired, "nvmlDeviceGetRetiredPages");
    LOAD(retired_pending, "nvmlDeviceGetRetiredPagesPendingStatus");
    LOAD(replays, "nvmlDeviceGetPcieReplayCounter");
    LOAD(fabric, "nvmlDeviceGetGpuFabricInfo");
    LOAD(fabric_v, "nvmlDeviceGetGpuFabricInfoV");
    LOAD(error_string, "nvmlErrorString");
}

static void add_remap(dev_t_ d, json_t *g)
{
    unsigned corr, unc, pending, failed;
    if (h.remapped && h.remapped(d, &corr, &unc, &pending, &failed) == OK)
        json_object_set_new(g, "remapped_rows",
                            json_pack("{s:i, s:i, s:b, s:b}", "correctable", (int)corr,
                                      "uncorrectable", (int)unc, "pending", pending != 0, "failed",
                                      failed != 0));
}

static void add_retired(dev_t_ d, json_t *g)
{
    /* causes: 0 multiple single-bit errors, 1 a double-bit error */
    unsigned sbe = 0, dbe = 0;
    int pending = 0;
    if (!h.retired || h.retired(d, 0, &sbe, NULL) != OK || h.retired(d, 1, &dbe, NULL) != OK)
        return;
    json_t *r = json_pack("{s:i, s:i}", "single_bit", (int)sbe, "double_bit", (int)dbe);
    if (h.retired_pending && h.retired_pending(d, &pending) == OK)
        json_object_set_new(r, "pending", json_boolean(pending == 1));
    json_object_set_new(g, "retired_pages", r);
}

/* The fabric info through nvmlDeviceGetGpuFabricInfoV, v3 then v2 (a driver that knows
   only v2 answers v3 with a version mismatch), else the v1 entry point: 0 and *has_mask /
   *has_summary set, or -1. */
static int read_fabric(dev_t_ d, fabric_info_v3_t *v, int *has_mask, int *has_summary)
{
    memset(v, 0, sizeof *v);
    *has_mask = *has_summary = 0;
    const unsigned tags[] = {FABRIC_V3_TAG, FABRIC_V2_TAG};
    for (int i = 0; h.fabric_v && i < 2; i++) {
        v->version = tags[i];
        if (h.fabric_v(d, v) == OK) {
            *has_mask = 1;
            *has_summary = i == 0;
            return 0;
        }
    }
    fabric_info_t f;
    memset(&f, 0, sizeof f);
    if (!h.fabric || h.fabric(d, &f) != OK)
        return -1;
    memcpy(v->cluster_uuid, f.cluster_uuid, sizeof f.cluster_uuid);
    v->status = f.status;
    v->clique_id = f.clique_id;
    v->state = f.state;
    return 0;
}

static void add_fabric(dev_t_ d, json_t *g)
{
    fabric_info_v3_t f;
    int has_mask, has_summary;
    if (read_fabric(d, &f, &has_mask, &has_summary) != 0 || f.state == FABRIC_NOT_SUPPORTED) {
        json_object_set_new(g, "fabric", json_pack("{s:s}", "state", "n/a"));
        return;
    }
    const char *state = f.state == FABRIC_NOT_STARTED   ? "not started"
                        : f.state == FABRIC_IN_PROGRESS ? "in progress"
                                                        : "completed";
    const char *status = f.status == OK   ? "ok"
                         : h.error_string ? h.error_string(f.status)
                                          : "error";
    json_t *fabric = json_pack("{s:s, s:s}", "state", state, "status", status);
    json_t *health = has_mask
                         ? ls_fabric_health_decode(f.health_mask, has_summary, f.health_summary)
                         : NULL;
    if (health)
        json_object_set_new(fabric, "health", health);
    json_object_set_new(g, "fabric", fabric);
}

static void add_processes(int index, json_t *g)
{
    json_t *list = json_array();
    if (ls_nvml_compute_processes(index, (unsigned)getpid(), list) != 0) {
        json_decref(list);
        return;
    }
    size_t i;
    json_t *p;
    json_array_foreach(list, i, p) {
        char path[64], name[64] = "";
        snprintf(path, sizeof path, "/proc/%lld/comm",
                 (long long)json_integer_value(json_object_get(p, "pid")));
        FILE *f = fopen(path, "r");
        if (f) {
            if (fgets(name, sizeof name, f))
                name[strcspn(name, "\n")] = '\0';
            fclose(f);
        }
        json_object_set_new(p, "name", json_string(name));
    }
    json_object_set_new(g, "processes", list);
}

/* recovery_action in nvidia-smi -q's words, its code beside it (a code linkscope does not
   know keeps the code alone: the rule says so). */
static void add_recovery(int index, json_t *g)
{
    unsigned code;
    if (ls_nvml_recovery_action(index, &code) != 0)
        return;
    const ls_recovery_t *r = ls_recovery_of_code(code);
    if (r)
        json_object_set_new(g, "recovery_action", json_string(r->words));
    json_object_set_new(g, "recovery_action_code", json_integer(code));
}

static json_t *describe(int index)
{
    json_t *g = json_pack("{s:i}", "index", index);
    ls_nvml_describe(index, g);
    int active, to_switch, peers[64];
    if (ls_nvml_nvlink_summary(index, &active, &to_switch, peers) == 0)
        json_object_set_new(g, "nvlinks_active", json_integer(active));
    dev_t_ d = NULL;
    if (h.handle && h.handle((unsigned)index, &d) == OK) {
        add_remap(d, g);
        add_retired(d, g);
        add_fabric(d, g);
        unsigned replays;
        if (h.replays && h.replays(d, &replays) == OK)
            json_object_set_new(g, "pcie_replays", json_integer(replays));
    }
    add_recovery(index, g);
    add_processes(index, g);
    return g;
}

/* The PCIe replay counter of GPU index, or -1. */
static long long replay_count(int index)
{
    dev_t_ d = NULL;
    unsigned replays;
    if (!h.replays || !h.handle || h.handle((unsigned)index, &d) != OK ||
        h.replays(d, &replays) != OK)
        return -1;
    return replays;
}

/* The NVLink error counters and the PCIe replay counter read twice, window_s apart: what
   grows while the node stands is a fault now, not one long past. */
static void counter_growth(json_t *gpus, double window_s)
{
    int n = (int)json_array_size(gpus), have[64] = {0};
    ls_nvlink_errors_t before[64];
    long long replays[64];
    for (int i = 0; i < n && i < 64; i++) {
        have[i] = ls_nvml_nvlink_errors(i, &before[i]) == 0;
        replays[i] = replay_count(i);
    }
    struct timespec ts = {.tv_sec = (time_t)window_s,
                          .tv_nsec = (long)((window_s - (double)(time_t)window_s) * 1e9)};
    nanosleep(&ts, NULL);
    for (int i = 0; i < n && i < 64; i++) {
        long long replays_after = replay_count(i);
        if (replays[i] >= 0 && replays_after >= replays[i])
            json_object_set_new(json_array_get(gpus, (size_t)i), "pcie_replay_growth",
                                json_pack("{s:f, s:I}", "seconds", window_s, "count",
                                          (json_int_t)(replays_after - replays[i])));
        ls_nvlink_errors_t after;
        if (!have[i] || ls_nvml_nvlink_errors(i, &after) != 0)
            continue;
        json_object_set_new(json_array_get(gpus, (size_t)i), "nvlink_errors",
                            json_pack("{s:f, s:I, s:I, s:I, s:I}", "seconds", window_s, "replay",
                                      (json_int_t)(after.replay - before[i].replay), "recovery",
                                      (json_int_t)(after.recovery - before[i].recovery), "crc_flit",
                                      (json_int_t)(after.crc_flit - before[i].crc_flit), "crc_data",
                                      (json_int_t)(after.crc_data - before[i].crc_data)));
    }
}

json_t *ls_nvml_health_snapshot(double window_s)
{
    char err[256];
    if (ls_nvml_open(err, sizeof err) != 0)
        return json_pack("{s:{s:b, s:s}, s:[]}", "driver", "ok", 0, "error", err, "gpus");
    load();
    json_t *gpus = json_array();
    for (int i = 0; i < ls_nvml_count(); i++)
        json_array_append_new(gpus, describe(i));
    counter_growth(gpus, window_s);
    char version[64] = "";
    ls_nvml_driver_version(version, sizeof version);
    return json_pack("{s:{s:b, s:s}, s:o}", "driver", "ok", 1, "version", version, "gpus", gpus);
}
