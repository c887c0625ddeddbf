/* What linkscope import says of each file (import.h: ls_import_note), moved from
   cli/cmd_import.c. */
#include "import.h"
#include "model/doc.h"

#include <stdio.h>
#include <string.h>

/* "NCCL 2.21.5, 16 ranks, hosts a b, 24 connections" of the log just imported. */
static void nccl_log_note(const json_t *doc, char *note, size_t notelen)
{
    const json_t *logs = json_object_get(doc, "nccl_logs");
    const json_t *f = json_array_get(logs, json_array_size(logs) - 1);
    const char *v = json_string_value(json_object_get(f, "nccl_version"));
    size_t used = strlen(note);
    used += (size_t)snprintf(note + used, notelen - used, ", NCCL %s", v ? v : "version unknown");
    if (json_object_get(f, "nranks") && used < notelen)
        used += (size_t)snprintf(note + used, notelen - used, ", %lld ranks",
                                 (long long)json_integer_value(json_object_get(f, "nranks")));
    if (used < notelen)
        used += (size_t)snprintf(note + used, notelen - used,
                                 ", %zu host(s) in the log, %zu connections",
                                 json_array_size(json_object_get(f, "hosts")),
                                 json_array_size(json_object_get(f, "transports")));
    size_t warns = json_array_size(json_object_get(f, "warnings"));
    if (warns && used < notelen)
        used += (size_t)snprintf(note + used, notelen - used, ", %zu distinct WARN line(s)", warns);
    size_t trails = json_array_size(json_object_get(f, "error_trails")),
           graphs = json_array_size(json_object_get(f, "graphs"));
    if (trails && used < notelen) /* what a log without connections holds (nccl_log_extras.h) */
        used += (size_t)snprintf(note + used, notelen - used,
                                 ", %zu failed call(s) (return-code trail)", trails);
    if (graphs && used < notelen)
        used += (size_t)snprintf(note + used, notelen - used, ", %zu graph search result(s)",
                                 graphs);
    if (json_object_get(f, "allocations") && used < notelen)
        snprintf(note + used, notelen - used, ", %lld allocation line(s)",
                 (long long)json_integer_value(
                     json_object_get(json_object_get(f, "allocations"), "count")));
}

/* "3 timeout line(s), 4 progress line(s)" of the watchdog text just imported (not of
   ProcessGroupNCCL's set-up warnings alone), their kinds of set-up warning, then what its
   NCCL lines held when the log reader kept them too (same file). */
static void watchdog_note(const json_t *doc, const char *name, int warnings_only, char *note,
                          size_t notelen)
{
    const json_t *list = json_object_get(doc, "torch_watchdog");
    const json_t *w = json_array_get(list, json_array_size(list) - 1);
    size_t used = strlen(note);
    if (!warnings_only)
        used += (size_t)snprintf(note + used, notelen - used,
                                 ", %zu timeout line(s), %zu progress line(s)",
                                 json_array_size(json_object_get(w, "timeouts")),
                                 json_array_size(json_object_get(w, "progress")));
    size_t warns = json_array_size(json_object_get(w, "warnings"));
    if (warns && used < notelen) /* set-up warnings: said only where there are some */
        used += (size_t)snprintf(note + used, notelen - used, ", %zu kind(s) of set-up warning",
                                 warns);
    const json_t *logs = json_object_get(doc, "nccl_logs");
    const json_t *f = json_array_get(logs, json_array_size(logs) - 1);
    const char *file = json_string_value(json_object_get(f, "file"));
    if (file && strcmp(file, name) == 0 && used < notelen)
        nccl_log_note(doc, note, notelen);
}

/* "8 GPU(s), driver 550.54.15, 1 failure line(s)" of the plain nvidia-smi text just
   imported. */
static void smi_table_note(const json_t *doc, const char *name, char *note, size_t notelen)
{
    const json_t *list = json_object_get(doc, "smi");
    const json_t *s = json_array_get(list, json_array_size(list) - 1);
    const char *driver = json_string_value(json_object_get(s, "driver"));
    int used = snprintf(note, notelen, "%s: %s, %lld GPU(s), driver %s", name,
                        ls_import_format_name(LS_FMT_SMI_TABLE),
                        (long long)json_integer_value(json_object_get(s, "gpus_shown")),
                        driver ? driver : "not in the text");
    size_t fails = json_array_size(json_object_get(s, "failures"));
    if (fails && used > 0 && (size_t)used < notelen)
        snprintf(note + used, notelen - (size_t)used, ", %zu failure line(s)", fails);
    else if (!json_integer_value(json_object_get(s, "gpus_shown")) && !driver && used > 0 &&
             (size_t)used < notelen && !json_array_size(json_object_get(s, "mig_devices")))
        snprintf(note + used, notelen - (size_t)used, ", its Processes table only%s",
                 json_is_true(json_object_get(s, "processes_none")) ? ": no running process" : "");
}

/* "12 NVRM message(s), 8 Xid event(s), 2 driver failure record(s), driver 570.148.06" of
   the kernel log just imported. */
static void kernel_log_note(const json_t *doc, char *note, size_t notelen)
{
    const json_t *list = json_object_get(doc, "kernel_logs");
    const json_t *k = json_array_get(list, json_array_size(list) - 1);
    size_t used = strlen(note);
    used += (size_t)snprintf(note + used, notelen - used,
                             ", %lld NVRM message(s), %zu Xid event(s), %zu driver failure "
                             "record(s), %zu GPU(s) by bus id",
                             (long long)json_integer_value(json_object_get(k, "nvrm_messages")),
                             json_array_size(json_object_get(k, "events")),
                             json_array_size(json_object_get(k, "failures")),
                             json_array_size(json_object_get(k, "gpus")));
    size_t sx = json_array_size(json_object_get(k, "sxids"));
    if (sx && used < notelen) /* NVSwitch lines: said only where there are some */
        used += (size_t)snprintf(note + used, notelen - used, ", %zu NVSwitch SXid record(s)", sx);
    const char *v = json_string_value(json_object_get(k, "driver"));
    if (v && used < notelen)
        snprintf(note + used, notelen - used, ", driver %s", v);
}

/* "2 distinct error(s) in 5 line(s)" of the CUDA error lines of the file just imported. */
static void cuda_errors_note(const json_t *doc, const char *name, char *note, size_t notelen)
{
    size_t i, n = 0;
    long long lines = 0;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "cuda_errors"), i, e) {
        if (strcmp(ls_json_str(e, "file", ""), name))
            continue;
        n++;
        lines += ls_json_int(e, "count", 0);
    }
    size_t used = strlen(note);
    if (used < notelen)
        snprintf(note + used, notelen - used, ", %zu distinct error(s) in %lld line(s)", n, lines);
}

/* "Fabric Manager, version 535.104.05, service failed, 2 failure record(s), 1 NVSwitch
   error(s)" of the Fabric Manager text just imported. */
static void fabric_manager_note(const json_t *doc, char *note, size_t notelen)
{
    const json_t *list = json_object_get(doc, "fabric_managers");
    const json_t *f = json_array_get(list, json_array_size(list) - 1);
    size_t used = strlen(note);
    const char *v = json_string_value(json_object_get(f, "version"));
    const char *svc = json_string_value(json_object_get(f, "service"));
    used += (size_t)snprintf(note + used, notelen - used, ", version %s, service %s",
                             v ? v : "not in the text", svc ? svc : "not in the text");
    if (used < notelen)
        snprintf(note + used, notelen - used, ", %zu failure record(s), %zu NVSwitch error(s)",
                 json_array_size(json_object_get(f, "failures")),
                 json_array_size(json_object_get(f, "sxids")));
}

/* What the file just imported lacked: its "imports" record's "missing" (a partial
   paste of any format, even one without entries: a topology, GPU inventory), else the
   first note of an entry added since `from` that is flagged incomplete. */
static void incomplete_warning(const json_t *doc, size_t from, const char *name, char *warn,
                               size_t warnlen)
{
    const json_t *imports = json_object_get(doc, "imports");
    const json_t *last = json_array_get(imports, json_array_size(imports) - 1);
    const char *missing = json_string_value(json_object_get(last, "missing"));
    if (missing) {
        int said = strncmp(missing, "incomplete paste", 16) == 0;
        snprintf(warn, warnlen, "%s: %s%s", name, said ? "" : "incomplete paste: ", missing);
        return;
    }
    const json_t *ms = json_object_get(doc, "measurements");
    for (size_t i = from; i < json_array_size(ms) && !warn[0]; i++) {
        const json_t *e = json_array_get(ms, i);
        size_t k;
        const json_t *f;
        json_array_foreach(json_object_get(e, "flags"), k, f) {
            if (strcmp(json_string_value(f), "incomplete") != 0)
                continue;
            const char *why = json_string_value(json_array_get(json_object_get(e, "notes"), 0));
            snprintf(warn, warnlen, "%s: %s", name, why ? why : "incomplete paste");
            break;
        }
    }
}

void ls_import_note(const json_t *doc, size_t before, enum ls_import_format fmt, int n,
                    const char *name, char *note, size_t notelen, char *warn, size_t warnlen)
{
    incomplete_warning(doc, before, name, warn, warnlen);
    if (fmt == LS_FMT_NCCL_LOG) {
        snprintf(note, notelen, "%s: %s", name, ls_import_format_name(fmt));
        nccl_log_note(doc, note, notelen);
    } else if (fmt == LS_FMT_TORCH_WATCHDOG || fmt == LS_FMT_TORCH_PG_WARNING) {
        snprintf(note, notelen, "%s: %s", name, ls_import_format_name(fmt));
        watchdog_note(doc, name, fmt == LS_FMT_TORCH_PG_WARNING, note, notelen);
    } else if (fmt == LS_FMT_KERNEL_LOG) {
        snprintf(note, notelen, "%s: %s", name, ls_import_format_name(fmt));
        kernel_log_note(doc, note, notelen);
    } else if (fmt == LS_FMT_CUDA_ERROR) {
        snprintf(note, notelen, "%s: %s", name, ls_import_format_name(fmt));
        cuda_errors_note(doc, name, note, notelen);
    } else if (fmt == LS_FMT_FABRIC_MANAGER) {
        snprintf(note, notelen, "%s: %s", name, ls_import_format_name(fmt));
        fabric_manager_note(doc, note, notelen);
    } else if (fmt == LS_FMT_FRAMEWORK_LOG) {
        const json_t *logs = json_object_get(doc, "framework_logs");
        const json_t *last = json_array_get(logs, json_array_size(logs) - 1);
        snprintf(note, notelen, "%s: %s (%s), %lld lines, nothing judged", name,
                 ls_import_format_name(fmt), ls_json_str(last, "framework", "unknown"),
                 ls_json_int(last, "lines", 0));
    } else if (fmt == LS_FMT_TOPO || fmt == LS_FMT_TOPO_P2P)
        snprintf(note, notelen, "%s: %s, topology", name, ls_import_format_name(fmt));
    else if (fmt == LS_FMT_SMI_TABLE)
        smi_table_note(doc, name, note, notelen);
    else if (fmt == LS_FMT_SMI_NVLINK || fmt == LS_FMT_SMI_QUERY)
        snprintf(note, notelen, "%s: %s, GPU inventory", name, ls_import_format_name(fmt));
    else
        snprintf(note, notelen, "%s: %s, %d entr%s", name, ls_import_format_name(fmt), n,
                 n == 1 ? "y" : "ies");
}
