#include "ticker.h"

#include <string.h>
#include <time.h>

/* The absolute CLOCK_REALTIME time period_ms from now (pthread_cond_timedwait's clock). */
static struct timespec after_ms(int period_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)period_ms * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    return until;
}

static void *ticker_main(void *arg)
{
    ls_ticker_t *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->stop) {
        pthread_mutex_unlock(&t->lock);
        t->tick(t->arg);
        pthread_mutex_lock(&t->lock);
        struct timespec until = after_ms(t->period_ms);
        /* Returns early only when stopped: a spurious wake-up waits again. */
        while (!t->stop && pthread_cond_timedwait(&t->wake, &t->lock, &until) == 0)
            ;
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

int ls_ticker_start(ls_ticker_t *t, int period_ms, ls_tick_fn tick, void *arg)
{
    memset(t, 0, sizeof *t);
    t->tick = tick;
    t->arg = arg;
    t->period_ms = period_ms > 0 ? period_ms : 1;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    if (pthread_create(&t->thread, NULL, ticker_main, t) != 0) {
        pthread_mutex_destroy(&t->lock);
        pthread_cond_destroy(&t->wake);
        return -1;
    }
    t->running = 1;
    return 0;
}

void ls_ticker_stop(ls_ticker_t *t)
{
    if (!t->running)
        return;
    pthread_mutex_lock(&t->lock);
    t->stop = 1;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->wake);
    t->running = 0;
}
