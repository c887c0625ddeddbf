/* The recorded node state: a snapshot folder (docs/health.md "Recorded state"). */
#include "health.h"

#include "discover/sysfs.h"
#include "util/fileio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* NVIDIA GPUs the PCI tree shows under root, or -1 when it cannot be read. */
static int gpus_on_pci(const char *root)
{
    ls_pci_dev_t devs[64];
    return ls_sysfs_gpus(root, devs, 64);
}

/* NVSwitches the PCI tree shows under root, or -1 when it cannot be read. */
static int nvswitches(const char *root)
{
    ls_pci_dev_t devs[64];
    return ls_sysfs_nvswitches(root, devs, 64);
}

void ls_health_add_host(json_t *state, const char *root, const char *kernel_log)
{
    json_object_set_new(state, "root", json_string(root));
    int n = gpus_on_pci(root);
    json_object_set_new(state, "gpus_on_pci", n >= 0 ? json_integer(n) : json_null());
    n = nvswitches(root);
    json_object_set_new(state, "nvswitches", n >= 0 ? json_integer(n) : json_null());
    json_object_set_new(state, "kernel_log", kernel_log ? json_string(kernel_log) : json_null());
}

/* DIR/services.json, where present: {"fabric_manager": {"running": true|false, "pid"?}},
   what the live check reads from the process list (services.c), into state. Absent: not
   recorded (unknown). 0, or -1 with err when it is malformed. */
static int load_services(const char *dir, json_t *state, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/services.json", dir);
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    json_error_t je;
    json_t *s = json_load_file(path, 0, &je);
    const json_t *fm = json_object_get(s, "fabric_manager");
    const json_t *running = json_object_get(fm, "running");
    if (!json_is_object(s) || (fm && !json_is_object(fm)) ||
        (running && !json_is_boolean(running) && !json_is_null(running))) {
        snprintf(err, errlen, "%s: %s", path,
                 s ? "expected {\"fabric_manager\": {\"running\": true|false}} (docs/health.md)"
                   : je.text);
        json_decref(s);
        return -1;
    }
    if (fm)
        json_object_set(state, "fabric_manager", (json_t *)fm);
    json_decref(s);
    return 0;
}

json_t *ls_health_load(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a folder of recorded node state", dir);
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/nvml.json", dir);
    json_error_t je;
    json_t *state = json_load_file(path, 0, &je);
    if (!state || !json_is_object(state) || !json_is_object(json_object_get(state, "driver"))) {
        snprintf(err, errlen, "%s: %s", path,
                 state ? "expected an object with \"driver\" (docs/health.md)" : je.text);
        json_decref(state);
        return NULL;
    }
    if (load_services(dir, state, err, errlen) != 0) {
        json_decref(state);
        return NULL;
    }
    snprintf(path, sizeof path, "%s/kernel.log", dir);
    char ferr[256];
    char *log = ls_read_file(path, NULL, ferr, sizeof ferr);
    ls_health_add_host(state, dir, log);
    free(log);
    return state;
}
