/* The registry of measuring families (family.h). Adding one: its model descriptor
   (model/families.c), its measure function in a *_cuda.c file (built without CUDA,
   MEASURE names measure_nocuda.c's one function), its descriptor here (docs/design.md). */
#include "family.h"
#include "figures.h"
#include "gpu.h"
#include "model/doc.h"
#include "model/view.h"
#include "model/vocab.h"
#include "util/log.h"
#include "util/parse.h"

#include <string.h>
#include <unistd.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Built without CUDA, every family is measured by the function that says so. */
#ifdef LS_HAVE_CUDA
#define MEASURE(fn) fn
#else
#define MEASURE(fn) ls_measure_without_cuda
#endif

/* p2p, latency and hbm methods are model's lists (model/vocab.c); host's are its memories. */
static const char *const host_methods[] = {LS_MEM_PINNED, LS_MEM_PAGEABLE, NULL};

static const ls_family_t families[] = {
    {.name = LS_FAMILY_P2P,
     .summary = "P2P bandwidth for every ordered GPU pair",
     .about = "P2P bandwidth for every ordered pair of GPUs, one direction and both directions\n"
              "at once, by four methods: ce (copy engine, cudaMemcpyPeerAsync), sm_write (copy\n"
              "kernel on the source writing into the peer), sm_read (copy kernel on the\n"
              "destination reading the peer), staged (P2P disabled: through pinned host\n"
              "memory). Every copy is queued behind a gate kernel, timed with events, and\n"
              "verified after. Pairs without P2P are marked and measured through the host.\n"
              "GB/s = 1e9 bytes/s; both directions = sum.\n",
     .notes = "One GPU: says that P2P needs two GPUs and exits 0; --gpus naming fewer than two:\n"
              "exit 2.\n",
     .methods = ls_p2p_methods,
     .pairs = 1,
     .one_gpu = "",
     /* 2 GiB: a copy lasts ~5.4 ms on NVLink 4, so the copy engine's ~4 us start per copy
        is < 0.1% */
     .default_size = 2ull << 30,
     .default_size_text = "2G",
     .size_what = "bytes per copy",
     .size_note = "K/M/G are binary",
     .buffers_per_gpu = 2,
     .host_buffers = 0,
     .measure = MEASURE(ls_measure_p2p)},
    {.name = LS_FAMILY_LATENCY,
     .summary = "GPU-to-GPU and host latency",
     .about = "Latency between every ordered pair of GPUs, in us, by four definitions, each\n"
              "labelled:\n"
              "  gpu_pingpong   a flag written into the peer's memory and polled there, 2000\n"
              "                 round trips per sample, reported per one-way trip; also with\n"
              "                 both flags in pinned host memory (through host)\n"
              "  pointer_chase  dependent 8-byte reads of the peer's memory (row reads\n"
              "                 column's), per access; also of pinned host memory per GPU\n"
              "  gpu_copy       GPU-timed back-to-back 4-byte cudaMemcpyPeerAsync, per copy,\n"
              "                 P2P enabled and disabled (p2pBandwidthLatencyTest's GPU matrix)\n"
              "  cpu_copy       CPU time per cudaMemcpyPeerAsync call of that loop (its CPU\n"
              "                 matrix)\n",
     .notes = "One GPU: measures GPU to host only and says that P2P needs two GPUs (exit 0);\n"
              "--gpus naming fewer than two GPUs: exit 2.\n",
     .methods = ls_latency_methods,
     .pairs = 1,
     .one_gpu = " (measuring GPU to host only)",
     .measure = MEASURE(ls_measure_latency)},
    {.name = LS_FAMILY_HBM,
     .summary = "device-local memory bandwidth per GPU",
     .about = "Device-local memory bandwidth per GPU: read, write and copy kernels (16-byte\n"
              "accesses, non-zero pseudo-random data, buffers far larger than L2) and a\n"
              "copy-engine copy (cudaMemcpyAsync, as nvbandwidth's device_local_copy), reported\n"
              "as HBM traffic = bytes read + bytes written per second (a copy counts each byte\n"
              "twice; its bytes copied per second are shown too), beside the theoretical peak\n"
              "(memory clock x 2 x bus width) and the efficiency. GB/s = 1e9 bytes/s.\n",
     .notes = "",
     .methods = ls_hbm_methods,
     /* 1 GiB: 17x the H200's 60 MB L2 */
     .default_size = 1ull << 30,
     .default_size_text = "1G",
     .size_what = "bytes per buffer",
     .size_note = "two buffers per GPU",
     .buffers_per_gpu = 2,
     .measure = MEASURE(ls_measure_hbm)},
    {.name = LS_FAMILY_HOST,
     .summary = "host <-> device copy bandwidth per GPU and NUMA node",
     .about = "Host-to-device, device-to-host and both at once, per GPU, with pinned and\n"
              "pageable host memory bound to each NUMA node in turn (mbind) and the measuring\n"
              "thread on that node's CPUs; the GPU's own node is marked local, the others\n"
              "remote. Pinned copies are queued behind a gate kernel and timed with events;\n"
              "pageable copies are timed on the CPU. Every copy is verified. GB/s = 1e9\n"
              "bytes/s; both directions = sum.\n",
     .notes = "",
     .methods = host_methods,
     .default_size = 512ull << 20,
     .default_size_text = "512M",
     .size_what = "bytes per copy",
     .size_note = "K/M/G are binary",
     .buffers_per_gpu = 2,
     .host_buffers = 2,
     .measure = MEASURE(ls_measure_host)},
};

const ls_family_t *ls_families(int *count)
{
    *count = COUNT(families);
    return families;
}

const ls_family_t *ls_family_find(const char *name)
{
    for (int i = 0; i < COUNT(families); i++)
        if (strcmp(families[i].name, name) == 0)
            return &families[i];
    return NULL;
}

const ls_fam_t *ls_family_fam(const ls_family_t *f)
{
    return ls_fam_find(f->name);
}

void ls_family_resolve(const ls_family_t *f, ls_measure_opts_t *o)
{
    if (f->default_size)
        o->size = ls_round16(o->size ? o->size : f->default_size);
    if (o->samples <= 0)
        o->samples = LS_DEFAULT_SAMPLES;
}

int ls_methods_include(const char *only, const char *method)
{
    if (!only || !*only)
        return 1;
    size_t len = strlen(method);
    for (const char *p = strstr(only, method); p; p = strstr(p + 1, method))
        if ((p == only || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

int ls_family_measure(const ls_family_t *f, json_t *doc, const ls_measure_opts_t *o, char *err,
                      size_t errlen)
{
    ls_measure_opts_t r = *o;
    ls_family_resolve(f, &r);
    r.fam = ls_family_fam(f);
    return f->measure(doc, &r, err, errlen);
}

int ls_family_check_gpu_memory(const ls_family_t *f, const ls_measure_opts_t *o, char *err,
                               size_t errlen)
{
    for (int i = 0; o->size && f->buffers_per_gpu && i < o->ngpus; i++) {
        uint64_t mem = ls_gpu_memory_bytes(o->gpus[i]);
        if (mem && o->size > mem / (uint64_t)f->buffers_per_gpu) {
            char want[32], have[32];
            ls_format_size(o->size, want, sizeof want);
            ls_format_size(mem, have, sizeof have);
            return ls_seterr(err, errlen, "--size %s: %d buffers of it do not fit in GPU %d's %s",
                             want, f->buffers_per_gpu, o->gpus[i], have);
        }
    }
    return 0;
}

/* Touching more host memory than there is would end in the kernel's out-of-memory
   killer, not in a message. */
int ls_family_check_host_memory(const ls_family_t *f, uint64_t size, char *err, size_t errlen)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (!size || !f->host_buffers || pages <= 0 || page <= 0)
        return 0;
    uint64_t mem = (uint64_t)pages * (uint64_t)page;
    if (size <= mem / (uint64_t)f->host_buffers)
        return 0;
    char want[32], have[32];
    ls_format_size(size, want, sizeof want);
    ls_format_size(mem, have, sizeof have);
    return ls_seterr(err, errlen,
                     "--size %s: %d buffers of it do not fit in this machine's %s of memory", want,
                     f->host_buffers, have);
}

int ls_family_warn_failures(const ls_family_t *f, const json_t *doc, size_t first)
{
    int failed = 0;
    const ls_fam_t *fam = ls_family_fam(f);
    for (ls_view_t v = ls_view_from(doc, fam, first); v.json && fam;
         v = ls_view_from(doc, fam, v.index + 1)) {
        const char *status = ls_json_str(v.json, "status", "ok");
        if (strcmp(status, "ok") != 0 && strcmp(status, "skipped") != 0) {
            ls_warn("%s: %s: %s", ls_json_str(v.json, "id", "?"), status,
                    ls_json_str(v.json, "error", ""));
            failed++;
        }
    }
    if (failed)
        ls_warn("%d %s figure%s failed; the others are recorded", failed, f->name,
                failed == 1 ? "" : "s");
    return failed;
}
