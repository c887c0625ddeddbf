/* The variants orchestration of linkscope nccl (variants.h), moved out of the command. */
#include "variants.h"
#include "annotate.h"
#include "mpirt.h"
#include "sweep.h"
#include "variant.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/vocab.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* Every NCCL_* and CUDA_* variable as the user set it (before linkscope adds its own). */
json_t *ls_nccl_env_snapshot(void)
{
    json_t *env = json_object();
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "NCCL_", 5) && strncmp(*e, "CUDA_", 5))
            continue;
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - *e), *e);
        json_object_set_new(env, key, json_string(eq + 1));
    }
    return env;
}

json_t *ls_nccl_skipped_entry(const char *coll, const char *variant, const char *why)
{
    json_t *e = ls_entry_new(LS_FAMILY_NCCL, "busbw", "GB/s");
    char id[160];
    snprintf(id, sizeof id, "nccl-%s-%s", coll, variant ? variant : "default");
    json_object_set_new(e, "id", json_string(id));
    json_object_set_new(e, "collective", json_string(coll));
    json_object_set_new(e, "variant", json_string(variant ? variant : "default"));
    json_object_set_new(e, "source", json_string(LS_SOURCE_LINKSCOPE));
    ls_entry_fail(e, "skipped", why);
    return e;
}

/* Each setting in its own process; entries[v][c] for setting v, collective c. */
int ls_nccl_run_variants(const ls_nccl_variants_t *o, json_t *doc, const ls_nccl_show_t *show)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        ls_error("cannot find this program (/proc/self/exe) to run the variants");
        return LS_EXIT_USAGE;
    }
    exe[n] = '\0';
    char dir[] = "/tmp/linkscope-variant-XXXXXX";
    if (!mkdtemp(dir)) {
        ls_error("cannot make a temporary directory for the variants");
        return LS_EXIT_USAGE;
    }
    char *args[80];
    int nargs = 0;
    args[nargs++] = "nccl";
    for (int c = 0; c < o->ncolls && c < 8; c++)
        args[nargs++] = (char *)o->colls[c];
    for (int k = 0; k < o->nraw; k++)
        args[nargs++] = o->raw[k];
    const char *settings[LS_NCCL_MAX_VARIANTS + 1];
    settings[0] = "default";
    for (int v = 0; v < o->nsettings; v++)
        settings[v + 1] = o->settings[v];
    int nset = o->nsettings + 1, rc = LS_EXIT_OK;
    json_t *got[LS_NCCL_MAX_VARIANTS + 1][8] = {{0}};
    for (int v = 0; v < nset; v++) {
        char out[128], err[600];
        snprintf(out, sizeof out, "%s/setting-%d.json", dir, v);
        char **argv = ls_variant_argv(exe, args, nargs, out);
        int code = 0;
        setenv("LINKSCOPE_NCCL_VARIANT", settings[v], 1);
        double limit = o->timeout_s * 20 + 120;
        json_t *child = ls_variant_run(argv, settings[v], out, limit, &code, err, sizeof err);
        free(argv);
        for (int c = 0; c < o->ncolls; c++) {
            json_t *e = NULL;
            size_t i;
            json_t *m;
            json_array_foreach(json_object_get(child, "measurements"), i, m) {
                if (!e && strcmp(ls_json_str(m, "collective", ""), o->colls[c]) == 0)
                    e = json_incref(m);
            }
            if (!e)
                e = ls_nccl_skipped_entry(o->colls[c], settings[v],
                                          child ? "the child wrote no entry" : err);
            json_object_set_new(e, "variant", json_string(settings[v]));
            char id[200];
            snprintf(id, sizeof id, "nccl-%s-%s", o->colls[c], settings[v]);
            json_object_set_new(e, "id", json_string(id));
            got[v][c] = e;
        }
        const char *nv = json_string_value(
            json_object_get(json_object_get(child, "software"), "nccl"));
        if (nv)
            json_object_set_new(json_object_get(doc, "software"), "nccl", json_string(nv));
        if (code != 0 && rc == LS_EXIT_OK)
            rc = code == LS_EXIT_NOGPU ? LS_EXIT_NOGPU : LS_EXIT_CHECK;
        json_decref(child);
    }
    unsetenv("LINKSCOPE_NCCL_VARIANT");
    rmdir(dir);
    for (int c = 0; c < o->ncolls; c++) {
        json_t *row[LS_NCCL_MAX_VARIANTS + 1];
        for (int v = 0; v < nset; v++) {
            ls_nccl_annotate_entry(doc, got[v][c]);
            row[v] = got[v][c];
        }
        if (show)
            show->variants(show->out, row, nset);
        for (int v = 0; v < nset; v++)
            ls_nccl_add_entry(doc, got[v][c]);
    }
    return rc;
}

static int entry_exit(const json_t *e)
{
    if (strcmp(ls_json_str(e, "status", "ok"), "ok") != 0)
        return LS_EXIT_CHECK;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(e, "rows"), i, row) {
        const char *m[] = {"oop", "ip"};
        for (int k = 0; k < 2; k++)
            if (ls_json_int(json_object_get(row, m[k]), "wrong", 0) > 0)
                return LS_EXIT_CHECK;
    }
    return LS_EXIT_OK;
}

int ls_nccl_run_collectives(ls_nccl_sweep_opts_t *sweep, const char *const *colls, int ncolls,
                            json_t *doc, int writer, const ls_nccl_show_t *show)
{
    int rc = LS_EXIT_OK;
    const char *label = getenv("LINKSCOPE_NCCL_VARIANT");
    sweep->variant = label && *label ? label : "default";
    for (int c = 0; c < ncolls; c++) {
        sweep->collective = colls[c];
        char err[600];
        json_t *e = ls_nccl_sweep(sweep, err, sizeof err);
        if (!e) {
            ls_error("nccl %s: %s", colls[c], err);
            ls_nccl_sweep_finish();
            return strstr(err, "no usable GPU") ? LS_EXIT_NOGPU : LS_EXIT_USAGE;
        }
        if (!writer) {
            json_decref(e);
            continue;
        }
        ls_nccl_annotate_entry(doc, e);
        if (show) {
            show->table(show->out, e);
            fputc('\n', show->out);
            fflush(show->out);
        }
        int erc = entry_exit(e);
        if (erc != LS_EXIT_OK) {
            ls_error("nccl %s: %s", colls[c],
                     strcmp(ls_json_str(e, "status", "ok"), "ok")
                         ? ls_json_str(e, "error", "failed")
                         : "wrong results (#wrong > 0)");
            rc = erc;
        }
        ls_nccl_add_entry(doc, e);
    }
    ls_nccl_sweep_finish();
    return rc;
}
