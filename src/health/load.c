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

void ls_health_add_host(json_t *state, const char *root, const char *kernel_log)
{
    json_object_set_new(state, "root", json_string(root));
    int n = gpus_on_pci(root);
    json_object_set_new(state, "gpus_on_pci", n >= 0 ? json_integer(n) : json_null());
    json_object_set_new(state, "kernel_log", kernel_log ? json_string(kernel_log) : json_null());
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
    snprintf(path, sizeof path, "%s/kernel.log", dir);
    char ferr[256];
    char *log = ls_read_file(path, NULL, ferr, sizeof ferr);
    ls_health_add_host(state, dir, log);
    free(log);
    return state;
}
