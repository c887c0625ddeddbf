/* NVML backend: libnvidia-ml.so.1 loaded with dlopen. The types and entry points below
   are declared from NVML's documented API (nvml.h is not on the build machine); every
   entry point but init/count/handle is optional, so an older driver degrades field by
   field instead of failing. */
#include "nvml.h"
#include "model/busid.h"
#include "model/topo.h"
#include "model/theory.h"
#include "util/log.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* ---- NVML's types, as documented ---------------------------------------------- */
typedef struct nvml_device_st *nvml_dev_t;
typedef int nvml_ret_t; /* nvmlReturn_t */
enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_DRIVER_NOT_LOADED = 9
};

/* nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v3 / nvmlDeviceGetNvLinkRemotePciInfo_v2 */
typedef struct {
    char bus_id_legacy[16];
    unsigned domain, bus, device;
    unsigned pci_device_id; /* device id << 16 | vendor id */
    unsigned pci_subsystem_id;
    char bus_id[32]; /* "00000000:3B:00.0" */
} nvml_pci_info_t;

typedef struct { /* nvmlProcessInfo_v2_t, as nvmlDeviceGetComputeRunningProcesses_v2 fills it */
    unsigned pid;
    unsigned long long used_memory; /* bytes; NVML_VALUE_NOT_AVAILABLE when hidden */
    unsigned gpu_instance, compute_instance;
} nvml_process_t;
typedef struct { /* nvmlMemory_t (v1), bytes */
    unsigned long long total, free, used;
} nvml_memory_t;

typedef union { /* nvmlValue_t */
    double d;
    unsigned ui;
    unsigned long ul;
    unsigned long long ull;
    long long sll;
} nvml_value_t;

typedef struct { /* nvmlFieldValue_t */
    unsigned field_id;
    unsigned scope_id;
    long long timestamp;
    long long latency_us;
    int value_type; /* nvmlValueType_t: 0 double, 1 uint, 2 ulong, 3 ull, 4 sll */
    nvml_ret_t ret;
    nvml_value_t value;
} nvml_field_value_t;

enum { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 }; /* nvmlClockType_t */
enum { NVML_TEMPERATURE_GPU = 0 }; /* nvmlTemperatureSensors_t */
enum { NVML_MEMORY_ERROR_CORRECTED = 0, NVML_MEMORY_ERROR_UNCORRECTED = 1 };
enum { NVML_VOLATILE_ECC = 0 }; /* nvmlEccCounterType_t */
enum { NVML_PCIE_UTIL_TX_BYTES = 0, NVML_PCIE_UTIL_RX_BYTES = 1 };
enum {
    NVML_P2P_CAPS_INDEX_READ = 0,
    NVML_P2P_CAPS_INDEX_WRITE = 1,
    NVML_P2P_CAPS_INDEX_NVLINK = 2
};
enum { /* nvmlIntNvLinkDeviceType_t */
       NVML_NVLINK_DEVICE_TYPE_GPU = 0,
       NVML_NVLINK_DEVICE_TYPE_IBMNPU = 1,
       NVML_NVLINK_DEVICE_TYPE_SWITCH = 2
};
enum { /* nvmlNvLinkErrorCounter_t */
       NVML_NVLINK_ERROR_DL_REPLAY = 0,
       NVML_NVLINK_ERROR_DL_RECOVERY = 1,
       NVML_NVLINK_ERROR_DL_CRC_FLIT = 2,
       NVML_NVLINK_ERROR_DL_CRC_DATA = 3
};
/* Field ids (nvmlDeviceGetFieldValues) */
enum {
    NVML_FI_DEV_NVLINK_SPEED_MBPS_L0 = 84,       /* ... L5 = 89 */
    NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON = 90,   /* common speed of the active links, MBps */
    NVML_FI_DEV_NVLINK_SPEED_MBPS_L6 = 132,      /* ... L11 = 137 */
    NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX = 138, /* KiB, cumulative; scopeId = link */
    NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX = 139,
    NVML_FI_DEV_NVLINK_GET_SPEED = 164,       /* MBps, scopeId = link */
    NVML_FI_DEV_GET_GPU_RECOVERY_ACTION = 230 /* nvmlDeviceGpuRecoveryAction_t, drivers 570+ */
};
/* NVLink links a GPU can have: 18 on Hopper and Blackwell (NVML_NVLINK_MAX_LINKS); we
   probe further and stop at the first link NVML calls invalid. */
#define NVML_PROBE_LINKS 32

typedef nvml_ret_t (*fn_void)(void);
typedef nvml_ret_t (*fn_uint_p)(unsigned *);
typedef nvml_ret_t (*fn_handle)(unsigned, nvml_dev_t *);
typedef nvml_ret_t (*fn_str)(nvml_dev_t, char *, unsigned);
typedef nvml_ret_t (*fn_dev_uint)(nvml_dev_t, unsigned *);
typedef nvml_ret_t (*fn_dev_clock)(nvml_dev_t, int, unsigned *);
typedef nvml_ret_t (*fn_dev_ull)(nvml_dev_t, unsigned long long *);
typedef nvml_ret_t (*fn_dev_link_uint)(nvml_dev_t, unsigned, unsigned *);

static struct {
    pthread_mutex_t lock;
    int state; /* 0 not tried, 1 open, -1 failed */
    char why[256];
    void *lib;
    unsigned count;
    nvml_dev_t dev[LS_MAX_GPUS];
    char bus[LS_MAX_GPUS][32]; /* normalized */

    fn_void init, shutdown;
    const char *(*error_string)(nvml_ret_t);
    fn_uint_p get_count;
    fn_handle get_handle;
    nvml_ret_t (*system_driver_version)(char *, unsigned);
    nvml_ret_t (*system_cuda_version)(int *);
    nvml_ret_t (*pci_info)(nvml_dev_t, nvml_pci_info_t *);
    fn_str name, uuid;
    nvml_ret_t (*memory_info)(nvml_dev_t, nvml_memory_t *);
    fn_dev_uint bus_width;
    fn_dev_clock clock_info, app_clock, max_clock;
    fn_dev_uint pcie_gen_cur, pcie_gen_max, pcie_gen_gpu_max, pcie_width_cur, pcie_width_max;
    fn_dev_uint power_usage, power_limit, power_default;
    nvml_ret_t (*temperature)(nvml_dev_t, int, unsigned *);
    nvml_ret_t (*ecc_mode)(nvml_dev_t, int *, int *);
    nvml_ret_t (*ecc_total)(nvml_dev_t, int, int, unsigned long long *);
    nvml_ret_t (*persistence)(nvml_dev_t, int *);
    fn_dev_ull event_reasons;
    nvml_ret_t (*nvlink_state)(nvml_dev_t, unsigned, int *);
    fn_dev_link_uint nvlink_version;
    nvml_ret_t (*nvlink_remote_pci)(nvml_dev_t, unsigned, nvml_pci_info_t *);
    nvml_ret_t (*nvlink_remote_type)(nvml_dev_t, unsigned, int *);
    nvml_ret_t (*nvlink_errors)(nvml_dev_t, unsigned, int, unsigned long long *);
    nvml_ret_t (*field_values)(nvml_dev_t, int, nvml_field_value_t *);
    nvml_ret_t (*pcie_throughput)(nvml_dev_t, int, unsigned *);
    nvml_ret_t (*p2p_status)(nvml_dev_t, nvml_dev_t, int, int *);
    nvml_ret_t (*common_ancestor)(nvml_dev_t, nvml_dev_t, int *);
    nvml_ret_t (*compute_procs)(nvml_dev_t, unsigned *, nvml_process_t *);
} nv = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* First symbol found among the names given (newest version first). */
static void *sym(const char *a, const char *b)
{
    void *p = dlsym(nv.lib, a);
    if (!p && b)
        p = dlsym(nv.lib, b);
    return p;
}

/* dlsym returns an object pointer; POSIX guarantees it converts to a function pointer. */
#define LOAD(field, a, b)                                                                          \
    do {                                                                                           \
        void *p_ = sym(a, b);                                                                      \
        memcpy(&nv.field, &p_, sizeof p_);                                                         \
    } while (0)

static void load_symbols(void)
{
    LOAD(init, "nvmlInit_v2", "nvmlInit");
    LOAD(shutdown, "nvmlShutdown", NULL);
    LOAD(error_string, "nvmlErrorString", NULL);
    LOAD(get_count, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
    LOAD(get_handle, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
    LOAD(system_driver_version, "nvmlSystemGetDriverVersion", NULL);
    LOAD(system_cuda_version, "nvmlSystemGetCudaDriverVersion_v2",
         "nvmlSystemGetCudaDriverVersion");
    LOAD(pci_info, "nvmlDeviceGetPciInfo_v3", NULL);
    LOAD(name, "nvmlDeviceGetName", NULL);
    LOAD(uuid, "nvmlDeviceGetUUID", NULL);
    LOAD(memory_info, "nvmlDeviceGetMemoryInfo", NULL);
    LOAD(bus_width, "nvmlDeviceGetMemoryBusWidth", NULL);
    LOAD(clock_info, "nvmlDeviceGetClockInfo", NULL);
    LOAD(app_clock, "nvmlDeviceGetApplicationsClock", NULL);
    LOAD(max_clock, "nvmlDeviceGetMaxClockInfo", NULL);
    LOAD(pcie_gen_cur, "nvmlDeviceGetCurrPcieLinkGeneration", NULL);
    LOAD(pcie_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration", NULL);
    LOAD(pcie_gen_gpu_max, "nvmlDeviceGetGpuMaxPcieLinkGeneration", NULL);
    LOAD(pcie_width_cur, "nvmlDeviceGetCurrPcieLinkWidth", NULL);
    LOAD(pcie_width_max, "nvmlDeviceGetMaxPcieLinkWidth", NULL);
    LOAD(power_usage, "nvmlDeviceGetPowerUsage", NULL);
    LOAD(power_limit, "nvmlDeviceGetEnforcedPowerLimit", "nvmlDeviceGetPowerManagementLimit");
    LOAD(power_default, "nvmlDeviceGetPowerManagementDefaultLimit", NULL);
    LOAD(temperature, "nvmlDeviceGetTemperature", NULL);
    LOAD(ecc_mode, "nvmlDeviceGetEccMode", NULL);
    LOAD(ecc_total, "nvmlDeviceGetTotalEccErrors", NULL);
    LOAD(persistence, "nvmlDeviceGetPersistenceMode", NULL);
    /* Renamed in driver 535 ("clocks event reasons"); same bits. */
    LOAD(event_reasons, "nvmlDeviceGetCurrentClocksEventReasons",
         "nvmlDeviceGetCurrentClocksThrottleReasons");
    LOAD(nvlink_state, "nvmlDeviceGetNvLinkState", NULL);
    LOAD(nvlink_version, "nvmlDeviceGetNvLinkVersion", NULL);
    LOAD(nvlink_remote_pci, "nvmlDeviceGetNvLinkRemotePciInfo_v2", NULL);
    LOAD(nvlink_remote_type, "nvmlDeviceGetNvLinkRemoteDeviceType", NULL);
    /* _v2 only: _v3 fills a larger struct, v1 a smaller one */
    LOAD(compute_procs, "nvmlDeviceGetComputeRunningProcesses_v2", NULL);
    LOAD(nvlink_errors, "nvmlDeviceGetNvLinkErrorCounter", NULL);
    LOAD(field_values, "nvmlDeviceGetFieldValues", NULL);
    LOAD(pcie_throughput, "nvmlDeviceGetPcieThroughput", NULL);
    LOAD(p2p_status, "nvmlDeviceGetP2PStatus", NULL);
    LOAD(common_ancestor, "nvmlDeviceGetTopologyCommonAncestor", NULL);
}

static const char *nvml_error(nvml_ret_t rc)
{
    static char buf[32];
    if (nv.error_string)
        return nv.error_string(rc);
    snprintf(buf, sizeof buf, "NVML error %d", rc);
    return buf;
}

static int fail_open(const char *why)
{
    snprintf(nv.why, sizeof nv.why, "%s", why);
    if (nv.lib)
        dlclose(nv.lib);
    nv.lib = NULL;
    nv.state = -1;
    return -1;
}

static int enumerate_devices(void)
{
    unsigned count = 0;
    nvml_ret_t rc = nv.get_count(&count);
    if (rc != NVML_SUCCESS) {
        char why[200];
        snprintf(why, sizeof why, "NVML: cannot count GPUs: %s", nvml_error(rc));
        nv.shutdown();
        return fail_open(why);
    }
    if (count > LS_MAX_GPUS)
        count = LS_MAX_GPUS;
    for (unsigned i = 0; i < count; i++) {
        nv.dev[i] = NULL;
        nv.bus[i][0] = '\0';
        if (nv.get_handle(i, &nv.dev[i]) != NVML_SUCCESS)
            continue;
        nvml_pci_info_t pci;
        memset(&pci, 0, sizeof pci);
        if (nv.pci_info && nv.pci_info(nv.dev[i], &pci) == NVML_SUCCESS)
            ls_busid_normalize(pci.bus_id, nv.bus[i], sizeof nv.bus[i]);
    }
    nv.count = count;
    nv.state = 1;
    return 0;
}

static int open_locked(void)
{
    if (nv.state != 0)
        return nv.state > 0 ? 0 : -1;
    /* The driver installs libnvidia-ml.so.1 (no unversioned name without the dev package). */
    nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nv.lib)
        return fail_open("NVML: libnvidia-ml.so.1 not found (no NVIDIA driver installed?)");
    load_symbols();
    if (!nv.init || !nv.shutdown || !nv.get_count || !nv.get_handle)
        return fail_open("NVML: libnvidia-ml.so.1 lacks nvmlInit/nvmlDeviceGetCount");
    nvml_ret_t rc = nv.init();
    if (rc != NVML_SUCCESS) {
        char why[200];
        snprintf(why, sizeof why, "NVML: initialization failed: %s%s", nvml_error(rc),
                 rc == NVML_ERROR_DRIVER_NOT_LOADED ? " (the NVIDIA kernel driver is not loaded)"
                                                    : "");
        return fail_open(why);
    }
    return enumerate_devices();
}

int ls_nvml_open(char *err, size_t errlen)
{
    pthread_mutex_lock(&nv.lock);
    int rc = open_locked();
    if (rc != 0)
        ls_seterr(err, errlen, "%s", nv.why);
    pthread_mutex_unlock(&nv.lock);
    return rc;
}

void ls_nvml_close(void)
{
    pthread_mutex_lock(&nv.lock);
    if (nv.state > 0) {
        nv.shutdown();
        dlclose(nv.lib);
        nv.lib = NULL;
    }
    nv.state = 0;
    nv.count = 0;
    pthread_mutex_unlock(&nv.lock);
}

int ls_nvml_count(void)
{
    return nv.state > 0 ? (int)nv.count : 0;
}

static nvml_dev_t device(int index)
{
    if (nv.state <= 0 || index < 0 || (unsigned)index >= nv.count)
        return NULL;
    return nv.dev[index];
}

int ls_nvml_index_by_bus_id(const char *pci_bus_id)
{
    for (int i = 0; i < ls_nvml_count(); i++)
        if (nv.bus[i][0] && ls_busid_equal(nv.bus[i], pci_bus_id))
            return i;
    return -1;
}

const char *ls_nvml_bus_id(int index)
{
    if (!device(index) || !nv.bus[index][0])
        return NULL;
    return nv.bus[index];
}

/* ---- live values -------------------------------------------------------------- */

static unsigned clock_of(fn_dev_clock fn, nvml_dev_t d, int type)
{
    unsigned mhz = 0;
    if (!fn || fn(d, type, &mhz) != NVML_SUCCESS)
        return 0;
    return mhz;
}

int ls_nvml_live(int index, ls_nvml_live_t *out)
{
    nvml_dev_t d = device(index);
    memset(out, 0, sizeof *out);
    out->power_w = -1;
    out->temp_c = -1;
    if (!d)
        return -1;
    out->sm_mhz = clock_of(nv.clock_info, d, NVML_CLOCK_SM);
    out->mem_mhz = clock_of(nv.clock_info, d, NVML_CLOCK_MEM);
    out->sm_app_mhz = clock_of(nv.app_clock, d, NVML_CLOCK_SM);
    if (!out->sm_app_mhz)
        out->sm_app_mhz = clock_of(nv.app_clock, d, NVML_CLOCK_GRAPHICS);
    out->mem_app_mhz = clock_of(nv.app_clock, d, NVML_CLOCK_MEM);
    unsigned mw = 0, temp = 0;
    if (nv.power_usage && nv.power_usage(d, &mw) == NVML_SUCCESS)
        out->power_w = mw / 1000.0; /* NVML reports milliwatts */
    if (nv.temperature && nv.temperature(d, NVML_TEMPERATURE_GPU, &temp) == NVML_SUCCESS)
        out->temp_c = (int)temp;
    unsigned long long mask = 0;
    if (nv.event_reasons && nv.event_reasons(d, &mask) == NVML_SUCCESS)
        out->throttle_mask = mask;
    return 0;
}

/* nvmlClocksEventReasons bits (nvml.h, "Clocks Event Reasons"). */
static const struct {
    unsigned long long bit;
    const char *name;
    int lowers_clocks;
} reasons[] = {
    {0x1ULL, "gpu_idle", 0},
    {0x2ULL, "applications_clocks_setting", 0},
    {0x4ULL, "sw_power_cap", 1},
    {0x8ULL, "hw_slowdown", 1},
    {0x10ULL, "sync_boost", 0},
    {0x20ULL, "sw_thermal_slowdown", 1},
    {0x40ULL, "hw_thermal_slowdown", 1},
    {0x80ULL, "hw_power_brake_slowdown", 1},
    {0x100ULL, "display_clock_setting", 0},
};

void ls_nvml_throttle_names(unsigned long long mask, json_t *array)
{
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        if (!(mask & reasons[i].bit))
            continue;
        /* Idle and the application-clock setting are states, not throttling. */
        if (reasons[i].bit == 0x1ULL || reasons[i].bit == 0x2ULL)
            continue;
        json_array_append_new(array, json_string(reasons[i].name));
    }
}

int ls_nvml_is_throttling(unsigned long long mask)
{
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if ((mask & reasons[i].bit) && reasons[i].lowers_clocks)
            return 1;
    return 0;
}

/* ---- NVLink ------------------------------------------------------------------- */

/* Number of links NVML knows for the device (active or not), 0 without NVLink. */
static int link_count(nvml_dev_t d)
{
    if (!nv.nvlink_state)
        return 0;
    int n = 0;
    for (unsigned l = 0; l < NVML_PROBE_LINKS; l++) {
        int state = 0;
        nvml_ret_t rc = nv.nvlink_state(d, l, &state);
        if (rc == NVML_ERROR_INVALID_ARGUMENT)
            break;
        if (rc == NVML_SUCCESS)
            n = (int)l + 1;
        else if (rc == NVML_ERROR_NOT_SUPPORTED && l == 0)
            break;
    }
    return n;
}

static int link_active(nvml_dev_t d, unsigned link)
{
    int state = 0;
    return nv.nvlink_state(d, link, &state) == NVML_SUCCESS && state == 1;
}

int ls_nvml_nvlink_errors(int index, ls_nvlink_errors_t *out)
{
    nvml_dev_t d = device(index);
    memset(out, 0, sizeof *out);
    int links = d && nv.nvlink_errors ? link_count(d) : 0;
    if (links == 0)
        return -1;
    for (int l = 0; l < links; l++) {
        if (!link_active(d, (unsigned)l))
            continue;
        unsigned long long v;
        if (nv.nvlink_errors(d, (unsigned)l, NVML_NVLINK_ERROR_DL_CRC_FLIT, &v) == NVML_SUCCESS)
            out->crc_flit += v;
        if (nv.nvlink_errors(d, (unsigned)l, NVML_NVLINK_ERROR_DL_CRC_DATA, &v) == NVML_SUCCESS)
            out->crc_data += v;
        if (nv.nvlink_errors(d, (unsigned)l, NVML_NVLINK_ERROR_DL_REPLAY, &v) == NVML_SUCCESS)
            out->replay += v;
        if (nv.nvlink_errors(d, (unsigned)l, NVML_NVLINK_ERROR_DL_RECOVERY, &v) == NVML_SUCCESS)
            out->recovery += v;
    }
    return 0;
}

int ls_nvml_compute_processes(int index, unsigned self_pid, json_t *list)
{
    nvml_dev_t d = device(index);
    nvml_process_t procs[64];
    unsigned n = sizeof procs / sizeof *procs;
    if (!d || !nv.compute_procs || nv.compute_procs(d, &n, procs) != NVML_SUCCESS)
        return -1;
    for (unsigned i = 0; i < n && i < sizeof procs / sizeof *procs; i++) {
        if (procs[i].pid == self_pid)
            continue;
        json_t *p = json_pack("{s:I}", "pid", (json_int_t)procs[i].pid);
        if (procs[i].used_memory != ~0ULL) /* NVML_VALUE_NOT_AVAILABLE */
            json_object_set_new(p, "used_bytes", json_integer((json_int_t)procs[i].used_memory));
        json_array_append_new(list, p);
    }
    return 0;
}

int ls_nvml_pcie_throughput(int index, double *tx_gbps, double *rx_gbps)
{
    nvml_dev_t d = device(index);
    unsigned tx = 0, rx = 0;
    if (!d || !nv.pcie_throughput ||
        nv.pcie_throughput(d, NVML_PCIE_UTIL_TX_BYTES, &tx) != NVML_SUCCESS ||
        nv.pcie_throughput(d, NVML_PCIE_UTIL_RX_BYTES, &rx) != NVML_SUCCESS)
        return -1;
    /* NVML reports KB/s (1024 bytes) over its last 20 ms sample. */
    *tx_gbps = tx * 1024.0 / 1e9;
    *rx_gbps = rx * 1024.0 / 1e9;
    return 0;
}

static unsigned long long field_as_ull(const nvml_field_value_t *f)
{
    switch (f->value_type) {
    case 0: return f->value.d > 0 ? (unsigned long long)f->value.d : 0;
    case 1: return f->value.ui;
    case 2: return f->value.ul;
    case 4: return f->value.sll > 0 ? (unsigned long long)f->value.sll : 0;
    default: return f->value.ull;
    }
}

int ls_nvml_nvlink_bytes(int index, unsigned long long *tx_bytes, unsigned long long *rx_bytes)
{
    nvml_dev_t d = device(index);
    int links = d && nv.field_values ? link_count(d) : 0;
    if (links == 0)
        return -1;
    nvml_field_value_t f[2 * NVML_PROBE_LINKS];
    int n = 0;
    for (int l = 0; l < links; l++) {
        if (!link_active(d, (unsigned)l))
            continue;
        /* The data counters are per link (scopeId = link), cumulative, in KiB. */
        memset(&f[n], 0, 2 * sizeof f[0]);
        f[n].field_id = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX;
        f[n + 1].field_id = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX;
        f[n].scope_id = f[n + 1].scope_id = (unsigned)l;
        n += 2;
    }
    if (n == 0 || nv.field_values(d, n, f) != NVML_SUCCESS)
        return -1;
    unsigned long long tx = 0, rx = 0;
    for (int i = 0; i < n; i += 2) {
        if (f[i].ret != NVML_SUCCESS || f[i + 1].ret != NVML_SUCCESS)
            return -1;
        tx += field_as_ull(&f[i]);
        rx += field_as_ull(&f[i + 1]);
    }
    *tx_bytes = tx * 1024ULL;
    *rx_bytes = rx * 1024ULL;
    return 0;
}

int ls_nvml_recovery_action(int index, unsigned *code)
{
    nvml_dev_t d = device(index);
    if (!d || !nv.field_values)
        return -1;
    nvml_field_value_t f;
    memset(&f, 0, sizeof f);
    f.field_id = NVML_FI_DEV_GET_GPU_RECOVERY_ACTION;
    if (nv.field_values(d, 1, &f) != NVML_SUCCESS || f.ret != NVML_SUCCESS)
        return -1; /* an older driver: NVML_ERROR_NOT_SUPPORTED on the field */
    *code = (unsigned)field_as_ull(&f);
    return 0;
}

/* NVLink speed of one link in GB/s per direction from the field values API: the
   per-link speed field (scopeId = link, drivers since R520), else the legacy per-link
   fields (links 0-11), else the common speed of the active links. 0 if none answers. */
static double nvlink_speed_gbps(nvml_dev_t d, unsigned link)
{
    if (!nv.field_values)
        return 0;
    nvml_field_value_t f[3];
    memset(f, 0, sizeof f);
    f[0].field_id = NVML_FI_DEV_NVLINK_GET_SPEED;
    f[0].scope_id = link;
    f[1].field_id = link < 6    ? NVML_FI_DEV_NVLINK_SPEED_MBPS_L0 + link
                    : link < 12 ? NVML_FI_DEV_NVLINK_SPEED_MBPS_L6 + (link - 6)
                                : NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON;
    f[2].field_id = NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON;
    if (nv.field_values(d, 3, f) != NVML_SUCCESS)
        return 0;
    for (int i = 0; i < 3; i++) {
        unsigned long long mbps = f[i].ret == NVML_SUCCESS ? field_as_ull(&f[i]) : 0;
        if (mbps > 0)
            return mbps / 1000.0; /* MBps (1e6 B/s) -> GB/s: H100/H200 report 26562 */
    }
    return 0;
}

static const char *remote_name(int type)
{
    switch (type) {
    case NVML_NVLINK_DEVICE_TYPE_GPU: return "gpu";
    case NVML_NVLINK_DEVICE_TYPE_SWITCH: return "nvswitch";
    case NVML_NVLINK_DEVICE_TYPE_IBMNPU: return "cpu"; /* POWER9's NVLink to the CPU */
    default: return "unknown";
    }
}

/* One link's object: link, active, version, remote, remote_pci_bus_id, gbps. Returns the
   link's speed when active, else 0. */
static double describe_link(nvml_dev_t d, unsigned link, json_t *links)
{
    int active = link_active(d, link);
    json_t *o = json_pack("{s:i, s:b}", "link", (int)link, "active", active);
    unsigned version = 0;
    if (nv.nvlink_version && nv.nvlink_version(d, link, &version) == NVML_SUCCESS &&
        ls_nvlink_generation(version) > 0)
        json_object_set_new(o, "version", json_integer(ls_nvlink_generation(version)));
    double gbps = 0;
    if (active) {
        int type = -1;
        if (nv.nvlink_remote_type && nv.nvlink_remote_type(d, link, &type) == NVML_SUCCESS)
            json_object_set_new(o, "remote", json_string(remote_name(type)));
        nvml_pci_info_t pci;
        char bus[32];
        memset(&pci, 0, sizeof pci);
        if (nv.nvlink_remote_pci && nv.nvlink_remote_pci(d, link, &pci) == NVML_SUCCESS &&
            ls_busid_normalize(pci.bus_id, bus, sizeof bus) == 0)
            json_object_set_new(o, "remote_pci_bus_id", json_string(bus));
        gbps = nvlink_speed_gbps(d, link);
        if (gbps <= 0)
            gbps = ls_nvlink_rate_by_version(ls_nvlink_generation(version));
        if (gbps > 0)
            json_object_set_new(o, "gbps", json_real(gbps));
    }
    json_array_append_new(links, o);
    return gbps;
}

int ls_nvml_nvlink_summary(int index, int *active, int *to_switch, int *peer_links)
{
    nvml_dev_t d = device(index);
    *active = *to_switch = 0;
    for (int g = 0; g < LS_MAX_GPUS; g++)
        peer_links[g] = 0;
    int links = d ? link_count(d) : 0;
    if (links == 0)
        return -1;
    for (int l = 0; l < links; l++) {
        if (!link_active(d, (unsigned)l))
            continue;
        (*active)++;
        int type = -1;
        if (!nv.nvlink_remote_type || nv.nvlink_remote_type(d, (unsigned)l, &type) != NVML_SUCCESS)
            continue;
        if (type == NVML_NVLINK_DEVICE_TYPE_SWITCH) {
            (*to_switch)++;
            continue;
        }
        nvml_pci_info_t pci;
        memset(&pci, 0, sizeof pci);
        if (type == NVML_NVLINK_DEVICE_TYPE_GPU && nv.nvlink_remote_pci &&
            nv.nvlink_remote_pci(d, (unsigned)l, &pci) == NVML_SUCCESS) {
            int peer = ls_nvml_index_by_bus_id(pci.bus_id);
            if (peer >= 0 && peer != index)
                peer_links[peer]++;
        }
    }
    return 0;
}

/* ---- the static description (docs/schema.md gpus[]) ------------------------------ */

static void set_uint(json_t *o, const char *key, fn_dev_uint fn, nvml_dev_t d)
{
    unsigned v = 0;
    if (fn && fn(d, &v) == NVML_SUCCESS)
        json_object_set_new(o, key, json_integer(v));
}

static void describe_identity(nvml_dev_t d, int index, json_t *gpu)
{
    char buf[128];
    if (nv.name && nv.name(d, buf, sizeof buf) == NVML_SUCCESS)
        json_object_set_new(gpu, "name", json_string(buf));
    if (nv.uuid && nv.uuid(d, buf, sizeof buf) == NVML_SUCCESS)
        json_object_set_new(gpu, "uuid", json_string(buf));
    if (nv.bus[index][0])
        json_object_set_new(gpu, "pci_bus_id", json_string(nv.bus[index]));
    nvml_pci_info_t pci;
    memset(&pci, 0, sizeof pci);
    if (nv.pci_info && nv.pci_info(d, &pci) == NVML_SUCCESS && pci.pci_device_id) {
        /* the PCI device id is the upper 16 bits, NVIDIA's vendor id (0x10de) the lower */
        snprintf(buf, sizeof buf, "0x%04x", pci.pci_device_id >> 16);
        json_object_set_new(gpu, "pci_device_id", json_string(buf));
    }
}

static void describe_memory_and_clocks(nvml_dev_t d, json_t *gpu)
{
    nvml_memory_t mem;
    if (nv.memory_info && nv.memory_info(d, &mem) == NVML_SUCCESS)
        json_object_set_new(gpu, "memory_total_bytes", json_integer((json_int_t)mem.total));
    unsigned width = 0;
    if (nv.bus_width && nv.bus_width(d, &width) == NVML_SUCCESS)
        json_object_set_new(gpu, "memory_bus_width_bits", json_integer(width));
    json_t *c = json_object();
    const struct {
        const char *key;
        fn_dev_clock fn;
        int type;
    } clocks[] = {
        {"sm_mhz", nv.clock_info, NVML_CLOCK_SM},    {"mem_mhz", nv.clock_info, NVML_CLOCK_MEM},
        {"sm_app_mhz", nv.app_clock, NVML_CLOCK_SM}, {"mem_app_mhz", nv.app_clock, NVML_CLOCK_MEM},
        {"sm_max_mhz", nv.max_clock, NVML_CLOCK_SM}, {"mem_max_mhz", nv.max_clock, NVML_CLOCK_MEM},
    };
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
        unsigned mhz = clock_of(clocks[i].fn, d, clocks[i].type);
        /* Some boards answer application and max clocks for the graphics domain only;
           on NVIDIA data-center GPUs the graphics and SM clocks are the same clock. */
        if (!mhz && clocks[i].type == NVML_CLOCK_SM)
            mhz = clock_of(clocks[i].fn, d, NVML_CLOCK_GRAPHICS);
        if (mhz)
            json_object_set_new(c, clocks[i].key, json_integer(mhz));
    }
    json_object_set_new(gpu, "clocks", c);
    /* The peak uses the highest memory clock the board runs at. */
    unsigned mem_mhz = clock_of(nv.max_clock, d, NVML_CLOCK_MEM);
    if (!mem_mhz)
        mem_mhz = clock_of(nv.app_clock, d, NVML_CLOCK_MEM);
    if (!mem_mhz)
        mem_mhz = clock_of(nv.clock_info, d, NVML_CLOCK_MEM);
    double hbm = ls_hbm_theoretical_gbps(mem_mhz, width);
    if (hbm > 0)
        json_object_set_new(gpu, "hbm_theoretical_gbps", json_real(hbm));
}

static void describe_pcie(nvml_dev_t d, json_t *gpu)
{
    json_t *p = json_object();
    unsigned gen_max = 0, width_max = 0;
    set_uint(p, "gen_current", nv.pcie_gen_cur, d);
    /* nvmlDeviceGetMaxPcieLinkGeneration: the most the GPU and the system allow together;
       the GPU's own maximum when the host side is unknown (virtual machines). */
    if (!(nv.pcie_gen_max && nv.pcie_gen_max(d, &gen_max) == NVML_SUCCESS && gen_max))
        if (nv.pcie_gen_gpu_max)
            nv.pcie_gen_gpu_max(d, &gen_max);
    if (gen_max)
        json_object_set_new(p, "gen_max", json_integer(gen_max));
    set_uint(p, "width_current", nv.pcie_width_cur, d);
    if (nv.pcie_width_max && nv.pcie_width_max(d, &width_max) == NVML_SUCCESS)
        json_object_set_new(p, "width_max", json_integer(width_max));
    double peak = ls_pcie_theoretical_gbps((int)gen_max, (int)width_max);
    if (peak > 0)
        json_object_set_new(p, "theoretical_gbps", json_real(peak));
    json_object_set_new(gpu, "pcie", p);
}

static void describe_power_thermal(nvml_dev_t d, json_t *gpu)
{
    json_t *p = json_object();
    unsigned mw;
    /* NVML reports power in milliwatts. */
    if (nv.power_usage && nv.power_usage(d, &mw) == NVML_SUCCESS)
        json_object_set_new(p, "draw_w", json_real(mw / 1000.0));
    if (nv.power_limit && nv.power_limit(d, &mw) == NVML_SUCCESS)
        json_object_set_new(p, "limit_w", json_real(mw / 1000.0));
    if (nv.power_default && nv.power_default(d, &mw) == NVML_SUCCESS)
        json_object_set_new(p, "default_limit_w", json_real(mw / 1000.0));
    json_object_set_new(gpu, "power", p);
    unsigned temp;
    if (nv.temperature && nv.temperature(d, NVML_TEMPERATURE_GPU, &temp) == NVML_SUCCESS)
        json_object_set_new(gpu, "temperature_c", json_integer(temp));
}

static void describe_ecc_modes(nvml_dev_t d, json_t *gpu)
{
    int cur = 0, pending = 0;
    if (nv.ecc_mode && nv.ecc_mode(d, &cur, &pending) == NVML_SUCCESS) {
        json_t *e = json_pack("{s:b}", "enabled", cur == 1);
        unsigned long long n;
        if (cur == 1 && nv.ecc_total &&
            nv.ecc_total(d, NVML_MEMORY_ERROR_UNCORRECTED, NVML_VOLATILE_ECC, &n) == NVML_SUCCESS)
            json_object_set_new(e, "volatile_uncorrected", json_integer((json_int_t)n));
        if (cur == 1 && nv.ecc_total &&
            nv.ecc_total(d, NVML_MEMORY_ERROR_CORRECTED, NVML_VOLATILE_ECC, &n) == NVML_SUCCESS)
            json_object_set_new(e, "volatile_corrected", json_integer((json_int_t)n));
        json_object_set_new(gpu, "ecc", e);
    }
    int persist = 0;
    if (nv.persistence && nv.persistence(d, &persist) == NVML_SUCCESS)
        json_object_set_new(gpu, "persistence_mode", json_boolean(persist == 1));
    unsigned long long mask = 0;
    if (nv.event_reasons && nv.event_reasons(d, &mask) == NVML_SUCCESS) {
        json_t *r = json_array();
        ls_nvml_throttle_names(mask, r);
        json_object_set_new(gpu, "throttle_reasons", r);
    }
}

static void describe_nvlinks(nvml_dev_t d, json_t *gpu)
{
    int links = link_count(d);
    if (links == 0) {
        /* NVML answers for links and the GPU has none: recorded as no NVLink (an SXM
           part on a PCIe adapter, seed 003), not left unknown */
        if (nv.nvlink_state)
            json_object_set_new(gpu, "nvlinks", json_array());
        return;
    }
    json_t *arr = json_array();
    double total = 0;
    for (int l = 0; l < links; l++)
        total += describe_link(d, (unsigned)l, arr);
    json_object_set_new(gpu, "nvlinks", arr);
    json_object_set_new(gpu, "nvlink_theoretical_gbps", json_real(total));
}

int ls_nvml_describe(int index, json_t *gpu)
{
    nvml_dev_t d = device(index);
    if (!d)
        return -1;
    describe_identity(d, index, gpu);
    describe_memory_and_clocks(d, gpu);
    describe_pcie(d, gpu);
    describe_power_thermal(d, gpu);
    describe_ecc_modes(d, gpu);
    describe_nvlinks(d, gpu);
    return 0;
}

/* ---- pairs ---------------------------------------------------------------------- */

const char *ls_nvml_p2p_status(int a, int b, int write)
{
    nvml_dev_t da = device(a), db = device(b);
    int status = -1;
    if (!da || !db || !nv.p2p_status)
        return NULL;
    if (a == b)
        return "X";
    if (nv.p2p_status(da, db, write ? NVML_P2P_CAPS_INDEX_WRITE : NVML_P2P_CAPS_INDEX_READ,
                      &status) != NVML_SUCCESS)
        return NULL;
    /* nvmlGpuP2PStatus_t in nvidia-smi topo -p2p's words. */
    switch (status) {
    case 0: return "OK";
    case 1: return "CNS"; /* chipset not supported */
    case 2: return "GNS"; /* GPU not supported */
    case 3: return "TNS"; /* IOH topology not supported */
    case 4: return "NS";  /* disabled by registry key */
    case 5: return "NS";  /* not supported */
    default: return "U";
    }
}

int ls_nvml_p2p_nvlink(int a, int b)
{
    nvml_dev_t da = device(a), db = device(b);
    int status = -1;
    if (!da || !db || !nv.p2p_status || a == b)
        return -1;
    if (nv.p2p_status(da, db, NVML_P2P_CAPS_INDEX_NVLINK, &status) != NVML_SUCCESS)
        return -1;
    return status == 0;
}

const char *ls_nvml_topology_word(int a, int b)
{
    nvml_dev_t da = device(a), db = device(b);
    int level = -1;
    if (!da || !db || !nv.common_ancestor || a == b)
        return NULL;
    if (nv.common_ancestor(da, db, &level) != NVML_SUCCESS)
        return NULL;
    /* nvmlGpuTopologyLevel_t */
    switch (level) {
    case 0:                /* INTERNAL: same board */
    case 10: return "PIX"; /* SINGLE: one PCIe switch */
    case 20: return "PXB"; /* MULTIPLE: several switches, no host bridge */
    case 30: return "PHB"; /* HOSTBRIDGE */
    case 40: return "NODE";
    case 50: return "SYS";
    default: return NULL;
    }
}

int ls_nvml_driver_version(char *buf, size_t buflen)
{
    char v[96];
    if (nv.state <= 0 || !nv.system_driver_version ||
        nv.system_driver_version(v, sizeof v) != NVML_SUCCESS)
        return -1;
    snprintf(buf, buflen, "%s", v);
    return 0;
}

int ls_nvml_cuda_driver_version(char *buf, size_t buflen)
{
    int v = 0;
    if (nv.state <= 0 || !nv.system_cuda_version || nv.system_cuda_version(&v) != NVML_SUCCESS ||
        v <= 0)
        return -1;
    /* 13000 -> "13.0", 12040 -> "12.4" */
    snprintf(buf, buflen, "%d.%d", v / 1000, (v % 1000) / 10);
    return 0;
}
