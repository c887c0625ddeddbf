/* The pseudo-random data pattern every buffer is filled with: word i of a buffer
   filled with seed s is ls_pattern(s, i). Never zero (bit 0 set), so an unwritten
   buffer (zeros) never verifies. Cheap enough (a few 32-bit operations per word) that
   a write kernel producing it stays bound by memory bandwidth. */
#ifndef LS_MEASURE_PATTERN_H
#define LS_MEASURE_PATTERN_H

#ifdef __CUDACC__
#define LS_HD __host__ __device__ __forceinline__
#else
#define LS_HD static inline
#endif

LS_HD unsigned ls_pattern(unsigned seed, unsigned long long index)
{
    unsigned x = (unsigned)index * 0x9E3779B1u + seed + (unsigned)(index >> 32) * 0x85EBCA77u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return x | 1u;
}

#endif
