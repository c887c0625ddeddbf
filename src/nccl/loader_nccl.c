/* dlopen of NCCL: the binary runs where NCCL is absent, and picks up whichever
   libnccl.so.2 the machine has (its ABI is stable within major version 2). */
#include "nccl_lib.h"
#include "capture.h"
#include "sweep.h"
#include "util/log.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ls_nccl_lib_t lib;
static int loaded; /* 1 ok, -1 failed */
static char load_err[768];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define LS_NCCL_INSTALL                                                                            \
    "install it (apt install libnccl2, or NVIDIA's nccl package) or point LINKSCOPE_NCCL at "      \
    "libnccl.so.2"

static void *open_library(char *tried, size_t triedlen)
{
    const char *chosen = getenv("LINKSCOPE_NCCL");
    void *h = NULL;
    tried[0] = '\0';
    if (chosen && *chosen) {
        h = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
        snprintf(tried, triedlen, "LINKSCOPE_NCCL=%s (%s)", chosen, h ? "ok" : dlerror());
        if (h)
            snprintf(lib.path, sizeof lib.path, "%s", chosen);
        return h; /* an explicit choice is not second-guessed */
    }
    static const char *names[] = {"libnccl.so.2", "libnccl.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++) {
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h)
            snprintf(lib.path, sizeof lib.path, "%s", names[i]);
    }
    snprintf(tried, triedlen,
             "libnccl.so.2 and libnccl.so through LD_LIBRARY_PATH and the system paths");
    return h;
}

#define SYM(field, name, required)                                                                 \
    do {                                                                                           \
        *(void **)&lib.field = dlsym(lib.handle, name);                                            \
        if (!lib.field && (required)) {                                                            \
            snprintf(load_err, sizeof load_err, "NCCL at %s lacks %s (too old?)", lib.path, name); \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

static int resolve(void)
{
    ncclResult_t (*get_version)(int *) = NULL;
    *(void **)&get_version = dlsym(lib.handle, "ncclGetVersion");
    if (!get_version || get_version(&lib.version) != ncclSuccess) {
        snprintf(load_err, sizeof load_err, "NCCL at %s: ncclGetVersion failed", lib.path);
        return -1;
    }
    /* Codes since 2.9: major*10000 + minor*100 + patch; before: major*1000 + minor*100. */
    int v = lib.version;
    if (v >= 10000)
        snprintf(lib.version_str, sizeof lib.version_str, "%d.%d.%d", v / 10000, v / 100 % 100,
                 v % 100);
    else
        snprintf(lib.version_str, sizeof lib.version_str, "%d.%d.%d", v / 1000, v / 100 % 10,
                 v % 100);
    SYM(GetErrorString, "ncclGetErrorString", 1);
    SYM(GetUniqueId, "ncclGetUniqueId", 1);
    SYM(CommInitAll, "ncclCommInitAll", 1);
    SYM(CommInitRank, "ncclCommInitRank", 1);
    SYM(CommDestroy, "ncclCommDestroy", 1);
    SYM(CommAbort, "ncclCommAbort", 1);
    SYM(CommGetAsyncError, "ncclCommGetAsyncError", 1);
    SYM(AllReduce, "ncclAllReduce", 1);
    SYM(AllGather, "ncclAllGather", 1);
    SYM(ReduceScatter, "ncclReduceScatter", 1);
    SYM(Broadcast, "ncclBroadcast", 1);
    SYM(Reduce, "ncclReduce", 1);
    SYM(Send, "ncclSend", 1);
    SYM(Recv, "ncclRecv", 1);
    SYM(AlltoAll, "ncclAlltoAll", 0);
    SYM(MemAlloc, "ncclMemAlloc", 0);
    SYM(MemFree, "ncclMemFree", 0);
    SYM(GroupStart, "ncclGroupStart", 1);
    SYM(GroupEnd, "ncclGroupEnd", 1);
    return 0;
}

const ls_nccl_lib_t *ls_nccl_lib(char *err, size_t errlen)
{
    pthread_mutex_lock(&lock);
    if (!loaded) {
        /* NCCL reads NCCL_DEBUG* once, at its first log line: set them first. */
        ls_nccl_capture_setup();
        char tried[600];
        lib.handle = open_library(tried, sizeof tried);
        if (!lib.handle) {
            snprintf(load_err, sizeof load_err, "NCCL not found (tried %s): %s", tried,
                     LS_NCCL_INSTALL);
            loaded = -1;
        } else {
            loaded = resolve() == 0 ? 1 : -1;
        }
    }
    pthread_mutex_unlock(&lock);
    if (loaded < 0) {
        ls_seterr(err, errlen, "%s", load_err);
        return NULL;
    }
    return &lib;
}

int ls_nccl_probe(char *version, size_t vlen, char *err, size_t errlen)
{
    const ls_nccl_lib_t *l = ls_nccl_lib(err, errlen);
    if (!l)
        return -1;
    if (version)
        snprintf(version, vlen, "%s", l->version_str);
    return 0;
}
