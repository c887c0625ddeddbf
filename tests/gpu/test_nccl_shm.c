/* NCCL_P2P_DISABLE=1 makes NCCL use SHM between the two GPUs, and linkscope records it.
   NCCL reads its environment once per process, so the sweep runs in a child that sets
   the variable before anything touches CUDA or NCCL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/doc.h"
#include "nccl/sweep.h"

static int child(void)
{
    setenv("NCCL_P2P_DISABLE", "1", 1);
    int gpus[2] = {0, 1};
    ls_nccl_sweep_opts_t o;
    memset(&o, 0, sizeof o);
    o.collective = "all_reduce";
    o.gpus = gpus;
    o.ngpus = 2;
    o.min_bytes = 1 << 20;
    o.max_bytes = 64 << 20;
    o.step_factor = 8;
    o.iters = 5;
    o.warmup = 1;
    o.check = 1;
    o.dtype = "float";
    o.redop = "sum";
    o.in_place = 2;
    o.timeout_s = 60;
    o.variant = "NCCL_P2P_DISABLE=1";
    char err[512];
    if (ls_nccl_probe(NULL, 0, err, sizeof err) != 0) {
        fprintf(stderr, "skipped: %s\n", err);
        return 77;
    }
    json_t *e = ls_nccl_sweep(&o, err, sizeof err);
    if (!e) {
        fprintf(stderr, "%s\n", err);
        return strstr(err, "GPU") ? 77 : 1;
    }
    int shm = 0, p2p = 0;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(e, "transports"), i, t)
    {
        const char *cls = ls_json_str(t, "transport", "");
        shm += strcmp(cls, "SHM") == 0;
        p2p += strncmp(cls, "P2P", 3) == 0;
    }
    const json_t *row;
    long long wrong = 0;
    json_array_foreach(json_object_get(e, "rows"), i, row)
        wrong += ls_json_int(json_object_get(row, "oop"), "wrong", 1) +
                 ls_json_int(json_object_get(row, "ip"), "wrong", 1);
    printf("status %s, %d SHM and %d P2P channel connections, #wrong %lld, busbw %.2f GB/s\n",
           ls_json_str(e, "status", "?"), shm, p2p, wrong, ls_json_num(e, "value", 0));
    int ok = strcmp(ls_json_str(e, "status", ""), "ok") == 0 && shm > 0 && p2p == 0 && wrong == 0 &&
             ls_json_num(e, "value", 0) > 0;
    json_decref(e);
    ls_nccl_sweep_finish();
    return ok ? 0 : 1;
}

int main(void)
{
    if (access("/dev/nvidiactl", F_OK) != 0) {
        fprintf(stderr, "skipped: no NVIDIA driver\n");
        return 77;
    }
    pid_t pid = fork();
    if (pid == 0)
        _exit(child());
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
