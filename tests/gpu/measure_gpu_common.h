/* Shared checks of the measuring GPU tests (included by each test_measure_*.c). */
#ifndef LS_TEST_MEASURE_GPU_COMMON_H
#define LS_TEST_MEASURE_GPU_COMMON_H

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "model/theory.h"
#include "measure/figures.h"
#include "measure/gpu.h"
#include "measure/measure.h"
#include "model/doc.h"

/* Theoretical HBM bandwidth of device 0 from CUDA attributes (an upper bound for any
   copy on the machine, P2P included). */
static inline double hbm_peak(int dev)
{
    int khz = 0, bits = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev);
    cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, dev);
    return ls_hbm_theoretical_gbps((unsigned)(khz / 1000), (unsigned)bits);
}

static inline int gpus_or_skip(void)
{
    char err[256];
    int n = ls_gpu_count(err, sizeof err);
    if (n <= 0)
        fprintf(stderr, "skipped: %s\n", err);
    return n;
}

/* Every entry of family: status ok, verified, lo < value < hi. Returns the count. */
static inline int check_entries(const json_t *doc, const char *family, double lo, double hi)
{
    int count = 0;
    long i = -1;
    while ((i = ls_doc_next_measurement(doc, family, i + 1)) >= 0) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        const char *status = ls_json_str(e, "status", "?");
        if (strcmp(status, "skipped") == 0)
            continue;
        double v = ls_json_num(e, "value", -1);
        printf("%-40s %-7s %12.3f %s\n", ls_json_str(e, "id", "?"), status, v, ls_json_str(e, "unit", ""));
        assert_string_equal(status, "ok");
        assert_true(json_is_true(json_object_get(e, "verified")));
        assert_true(v > lo);
        assert_true(v < hi);
        assert_true(json_array_size(json_object_get(e, "samples")) > 0);
        assert_non_null(json_object_get(e, "telemetry"));
        count++;
    }
    return count;
}

/* Entries of the family whose telemetry ran (NVML there) that hold NVML's sampled PCIe
   throughput: it is read only in the host copies' windows (sample/telemetry.h,
   LS_TELEMETRY_PCIE). Returns how many entries had a running window; *with_pcie how many
   of them held pcie_tx_gbps. */
static inline int pcie_windows(const json_t *doc, const char *family, int *with_pcie)
{
    int ran = 0;
    long i = -1;
    *with_pcie = 0;
    while ((i = ls_doc_next_measurement(doc, family, i + 1)) >= 0) {
        const json_t *e = json_array_get(json_object_get(doc, "measurements"), (size_t)i);
        const json_t *t = json_object_get(e, "telemetry");
        if (!json_is_true(json_object_get(t, "available")))
            continue;
        ran++;
        *with_pcie += json_object_get(t, "pcie_tx_gbps") != NULL;
    }
    return ran;
}

#endif
