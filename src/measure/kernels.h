/* GPU kernels of the measuring half, exposed to C. Each launcher enqueues one kernel
   on the given stream and returns the launch status (cudaGetLastError).
   Buffers handed to the copy, read, write, fill and verify kernels must be 16-byte
   aligned and their byte counts multiples of 16 (cudaMalloc gives 256-byte alignment;
   callers round sizes with ls_round16). */
#ifndef LS_MEASURE_KERNELS_H
#define LS_MEASURE_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Gate: one thread spins until ctl[0] != 0 (ctl is host-mapped pinned memory), or
   until timeout_ms passed, when it sets ctl[1] = 1. Work queued behind it on the
   same stream (or on streams waiting on an event recorded after it) starts together
   when the host releases the flag. */
cudaError_t ls_k_gate(volatile int *ctl, unsigned timeout_ms, cudaStream_t stream);

/* Fills buf with the pseudo-random non-zero 32-bit pattern of seed (word i gets
   ls_pattern(seed, i), the same formula on host and device). */
cudaError_t ls_k_fill(void *buf, size_t bytes, unsigned seed, int grid, cudaStream_t stream);

/* Counts the words of buf that differ from the pattern of seed into *wrong (device or
   mapped memory, zeroed by the caller) and XORs every word into *xor_out. */
cudaError_t ls_k_verify(const void *buf, size_t bytes, unsigned seed, unsigned long long *wrong,
                        unsigned *xor_out, int grid, cudaStream_t stream);

/* dst <- src, 16-byte loads and stores, grid-stride, four loads in flight per thread.
   Either pointer may be a peer GPU's memory (P2P enabled) or mapped host memory. */
cudaError_t ls_k_copy(void *dst, const void *src, size_t bytes, int grid, int block,
                      cudaStream_t stream);

/* Reads every 16-byte vector of src; XOR of all words goes to *xor_out (so the reads
   cannot be optimized away and the result can be checked). */
cudaError_t ls_k_read(const void *src, size_t bytes, unsigned *xor_out, int grid, int block,
                      cudaStream_t stream);

/* Writes the pattern of seed over dst (streaming stores). */
cudaError_t ls_k_write(void *dst, size_t bytes, unsigned seed, int grid, int block,
                       cudaStream_t stream);

/* Ping-pong between two single-thread kernels. mine is polled, peer is written (each
   in the other side's memory, or both in mapped host memory). The responder
   (initiator = 0) first writes -1 into peer to say it runs; the initiator waits for
   it, then times iters round trips with the global timer: result[0] = elapsed ns,
   result[1] = 1 when a wait gave up after timeout_ms. Flags must start at 0. */
cudaError_t ls_k_pingpong(volatile int *mine, volatile int *peer, int iters, int initiator,
                          unsigned long long *result, unsigned timeout_ms, cudaStream_t stream);

/* One thread (of block target in a grid of blocks one-thread blocks, so that samples
   can run on different SMs) follows the chain (next index at chain[i]) for steps
   dependent loads; result[0] = elapsed ns, result[1] = last index. mode: 0 volatile
   loads (no L1), 1 L2-only loads (ld.cg), 2 default loads. The chain may live in peer
   GPU memory or in mapped host memory. */
cudaError_t ls_k_chase(const unsigned long long *chain, int steps, int mode, int blocks, int target,
                       unsigned long long *result, cudaStream_t stream);

/* Tuning of the copy, read and write kernels: loads in flight per thread (2, 4, 8, 12)
   and the evict-first cache hint on (1) or off (0). Applies to later launches. */
void ls_k_set_variant(int unroll, int streaming);

#ifdef __cplusplus
}
#endif

#endif
