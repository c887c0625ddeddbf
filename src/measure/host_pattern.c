/* Filling and checking host buffers with the pattern, over threads (host_pattern.h). */
#define _GNU_SOURCE
#include "host_pattern.h"
#include "pattern.h"

#include <pthread.h>
#include <sched.h>

#define MAX_THREADS 8
#define MIN_SPLIT_BYTES (64ull << 20) /* below it a thread's start costs more than it saves */

typedef struct {
    unsigned *dst;       /* filled, or NULL when checking */
    const unsigned *src; /* checked */
    size_t first, count; /* word indices of this slice */
    unsigned seed;
    long long wrong;
} slice_t;

static void *run_slice(void *arg)
{
    slice_t *s = arg;
    if (s->dst) {
        for (size_t i = s->first; i < s->first + s->count; i++)
            s->dst[i] = ls_pattern(s->seed, i);
    } else {
        long long wrong = 0;
        for (size_t i = s->first; i < s->first + s->count; i++)
            wrong += s->src[i] != ls_pattern(s->seed, i);
        s->wrong = wrong;
    }
    return NULL;
}

int ls_host_pattern_threads(size_t bytes)
{
    if (bytes < MIN_SPLIT_BYTES)
        return 1;
    cpu_set_t set;
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    return cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : cpus;
}

/* The slices run on threads; a slice whose thread cannot start runs here. */
static long long over_slices(unsigned *dst, const unsigned *src, size_t bytes, unsigned seed)
{
    size_t n = bytes / 4;
    int k = ls_host_pattern_threads(bytes);
    slice_t slice[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (int t = 0; t < k; t++) {
        size_t first = n * (size_t)t / (size_t)k, end = n * (size_t)(t + 1) / (size_t)k;
        slice[t] =
            (slice_t){.dst = dst, .src = src, .first = first, .count = end - first, .seed = seed};
        started[t] = t > 0 && pthread_create(&tid[t], NULL, run_slice, &slice[t]) == 0;
    }
    for (int t = 0; t < k; t++)
        if (!started[t])
            run_slice(&slice[t]);
    long long wrong = 0;
    for (int t = 0; t < k; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        wrong += slice[t].wrong;
    }
    return wrong;
}

void ls_host_fill_pattern(void *buf, size_t bytes, unsigned seed)
{
    over_slices(buf, NULL, bytes, seed);
}

long long ls_host_count_wrong(const void *buf, size_t bytes, unsigned seed)
{
    return over_slices(NULL, buf, bytes, seed);
}
