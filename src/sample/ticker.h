/* The one sampling thread of linkscope: calls a function every period until stopped.
   The telemetry window of each figure (telemetry.c) and the time series of a long load
   (series.c) both run on it; each keeps only what it reads at a tick. */
#ifndef LS_SAMPLE_TICKER_H
#define LS_SAMPLE_TICKER_H

#include <pthread.h>

typedef void (*ls_tick_fn)(void *arg);

typedef struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    ls_tick_fn tick;
    void *arg;
    int period_ms, stop, running;
} ls_ticker_t;

/* Starts a thread that calls tick(arg) at once, then every period_ms (at least 1 ms)
   until ls_ticker_stop. Returns 0, or -1 when the thread could not start (t->running
   is then 0 and nothing needs stopping). */
int ls_ticker_start(ls_ticker_t *t, int period_ms, ls_tick_fn tick, void *arg);

/* Wakes the thread, waits for the tick under way to finish, joins it. After this no tick
   runs; a ticker that never started is left as it is. */
void ls_ticker_stop(ls_ticker_t *t);

#endif
