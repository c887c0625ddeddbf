/* ProcessGroupNCCL's set-up warnings (import/torch_watchdog.c, torch_watchdog[].warnings)
   as torch_pg_warning, an info with node action none: each kind once over the document's
   files, with its count and ranks. They say how the program set PyTorch up (a GPU it had
   to guess, a group not destroyed at exit, a variable set by its old name), not that
   anything failed: a healthy node that
   runs such a program stays in service (docs/analysis.md "torch_pg_warning"). */
#include "rules.h"
#include "tools_rules.h"
#include "model/doc.h"
#include "model/xid.h"

#include <stdio.h>
#include <string.h>

/* What each kind means, after its count and ranks. */
static const struct {
    const char *kind, *says;
} meanings[] = {
    {.kind = "barrier_device_guess",
     .says = "barrier() used a GPU it guessed from the rank (the process group was not told "
             "which GPU the rank uses and no collective had run yet); it hangs only if that "
             "guess is not the rank's GPU. A program setting (device_ids in barrier(), or "
             "device_id in init_process_group()), not a fault of a GPU, NCCL or the network"},
    {.kind = "device_id_guess",
     .says = "PyTorch guessed the rank's GPU from its global rank (init_process_group() without "
             "device_id); it hangs only if ranks and GPUs are mapped otherwise. A program "
             "setting (device_id in init_process_group()), not a fault of a GPU, NCCL or the "
             "network"},
    {.kind = "env_deprecated",
     .says = "the program (or its launcher) set a c10d environment variable by its old name; "
             "PyTorch 2.2 renamed them (NCCL_ASYNC_ERROR_HANDLING to "
             "TORCH_NCCL_ASYNC_ERROR_HANDLING, ...) and still reads the old one. A naming "
             "change: rename the variable to silence it; not a fault of a GPU, NCCL or the "
             "network, and the job runs"},
    {.kind = "not_destroyed",
     .says = "the program exited without destroy_process_group(): PyTorch 2.4 and later say so "
             "at exit (the constraint is older than the warning); NCCL work still pending could "
             "be cut short. A program setting (call destroy_process_group() at the end), not a "
             "failed collective and nothing about a GPU or the network"},
};

static void add_ints(json_t *into, const json_t *from)
{
    size_t i;
    const json_t *x;
    json_array_foreach(from, i, x) {
        ls_json_add_int_once(into, json_integer_value(x));
    }
}

/* The document's warnings of one kind, over its files: {count, ranks, gpus}, or NULL. */
static json_t *gathered(const json_t *doc, const char *kind)
{
    json_t *g = NULL;
    size_t i, j;
    const json_t *w, *o;
    json_array_foreach(json_object_get(doc, "torch_watchdog"), i, w) {
        json_array_foreach(json_object_get(w, "warnings"), j, o) {
            if (strcmp(ls_json_str(o, "kind", ""), kind))
                continue;
            if (!g)
                g = json_pack("{s:i, s:[], s:[]}", "count", 0, "ranks", "gpus");
            json_object_set_new(g, "count",
                                json_integer(ls_json_int(g, "count", 0) +
                                             ls_json_int(o, "count", 0)));
            add_ints(json_object_get(g, "ranks"), json_object_get(o, "ranks"));
            add_ints(json_object_get(g, "gpus"), json_object_get(o, "gpus"));
        }
    }
    return g;
}

/* " (rank 0, 5)" / " (GPU 0)": a list of at most 8, "and N more" after. */
static void put_list(ls_text_t *t, const char *what, const json_t *list)
{
    size_t n = json_array_size(list), i;
    const json_t *x;
    json_array_foreach(list, i, x) {
        if (i == 8) {
            ls_text_put(t, " and %zu more", n - 8);
            break;
        }
        ls_text_put(t, "%s%lld", i ? ", " : what, (long long)json_integer_value(x));
    }
}

static void one(json_t *out, const json_t *g, const char *says)
{
    ls_text_t t = {.used = 0};
    long long n = ls_json_int(g, "count", 0);
    ls_text_put(&t, "ProcessGroupNCCL's warning, %lld line%s", n, n == 1 ? "" : "s");
    put_list(&t, json_array_size(json_object_get(g, "ranks")) > 1 ? ", ranks " : ", rank ",
             json_object_get(g, "ranks"));
    put_list(&t,
             json_array_size(json_object_get(g, "gpus")) > 1 ? ", guessed GPUs " : ", guessed GPU ",
             json_object_get(g, "gpus"));
    ls_text_put(&t, ": %s. Node action: none: %s", says, ls_action_words(LS_ACT_NONE));
    ls_finding_add(out, "torch_pg_warning", LS_SEV_INFO, LS_ABOUT_WHAT("PyTorch ProcessGroupNCCL"),
                   json_pack("[s]", "torch_watchdog"), "%s", t.buf);
    json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                        json_string(ls_action_name(LS_ACT_NONE)));
}

void ls_rules_pg_warnings(const json_t *doc, json_t *out)
{
    for (size_t i = 0; i < sizeof meanings / sizeof *meanings; i++) {
        json_t *g = gathered(doc, meanings[i].kind);
        if (g)
            one(out, g, meanings[i].says);
        json_decref(g);
    }
}
