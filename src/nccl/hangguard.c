#include "hangguard.h"
#include "util/log.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double beat_at, limit;
static const char *beat_what = "";
static int started;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *watch(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec pause = {0, 200 * 1000 * 1000};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&lock);
        int fired = limit > 0 && now_s() - beat_at > limit;
        double l = limit;
        const char *what = beat_what;
        pthread_mutex_unlock(&lock);
        if (fired) {
            fprintf(stderr,
                    "linkscope: error: nccl %s: blocked inside NCCL or CUDA for %.0f s, beyond "
                    "the collective watchdog's reach: exiting, no document written\n",
                    what, l);
            _exit(LS_EXIT_CHECK);
        }
    }
    return NULL;
}

void ls_hang_guard_beat(const char *what)
{
    pthread_mutex_lock(&lock);
    beat_at = now_s();
    if (what)
        beat_what = what;
    pthread_mutex_unlock(&lock);
}

void ls_hang_guard_arm(double limit_s, const char *what)
{
    ls_hang_guard_beat(what);
    pthread_mutex_lock(&lock);
    limit = limit_s;
    int start = !started;
    started = 1;
    pthread_mutex_unlock(&lock);
    if (start) {
        pthread_t t;
        if (pthread_create(&t, NULL, watch, NULL) == 0)
            pthread_detach(t);
    }
}

void ls_hang_guard_disarm(void)
{
    pthread_mutex_lock(&lock);
    limit = 0;
    pthread_mutex_unlock(&lock);
}
