/* A finding's subject as data, and its text rendered from it (about.h). */
#include "about.h"

#include "machine.h"
#include "model/doc.h"
#include "model/gpuset.h"

#include <stdio.h>
#include <string.h>

static const char *const action_names[] = {[LS_FA_NONE] = "none", [LS_FA_AVOID] = "avoid"};

uint64_t ls_gpu_bit(long long g)
{
    return g >= 0 && g < 64 ? 1ULL << g : 0;
}

/* The index of a one-GPU set. */
static int only_gpu(uint64_t mask)
{
    int g = 0;
    while (g < 63 && !(mask >> g & 1))
        g++;
    return g;
}

void ls_about_text(const ls_about_t *a, char *buf, size_t len)
{
    char set[96];
    ls_format_gpu_mask(a->gpus, set, sizeof set);
    if (a->port)
        snprintf(buf, len, "%s", a->port);
    else if (a->pair)
        snprintf(buf, len, a->both ? "GPU%d<->GPU%d" : "GPU%d->GPU%d", a->from, a->to);
    else if (a->what && a->gpus)
        snprintf(buf, len, "%s on GPUs %s", a->what, set);
    else if (a->what)
        snprintf(buf, len, "%s", a->what);
    else if (!a->gpus) /* a rule that names nothing it knows */
        snprintf(buf, len, "GPU unknown");
    else if (ls_popcount64(a->gpus) == 1)
        snprintf(buf, len, "GPU%d", only_gpu(a->gpus));
    else
        snprintf(buf, len, "GPUs %s%s", set, a->all ? " (all)" : "");
}

static json_t *gpu_list(uint64_t mask)
{
    json_t *list = json_array();
    for (int g = 0; g < 64; g++)
        if (mask >> g & 1)
            json_array_append_new(list, json_integer(g));
    return list;
}

void ls_about_set(json_t *f, const ls_about_t *a)
{
    char subject[256];
    ls_about_text(a, subject, sizeof subject);
    json_object_set_new(f, "subject", json_string(subject));
    /* set in place (a fold keeps the keys' order), removed when a names none */
    json_object_del(f, a->gpus ? "" : "gpus");
    json_object_del(f, a->pair ? "" : "pairs");
    json_object_del(f, a->port ? "" : "port");
    if (a->gpus)
        json_object_set_new(f, "gpus", gpu_list(a->gpus));
    if (a->pair && a->both)
        json_object_set_new(f, "pairs",
                            json_pack("[[i, i], [i, i]]", a->from, a->to, a->to, a->from));
    else if (a->pair)
        json_object_set_new(f, "pairs", json_pack("[[i, i]]", a->from, a->to));
    if (a->port)
        json_object_set_new(f, "port", json_string(a->port));
}

uint64_t ls_finding_gpus(const json_t *finding)
{
    return ls_gpu_mask_of(json_object_get(finding, "gpus"));
}

enum ls_finding_action ls_finding_action(const json_t *finding)
{
    return strcmp(ls_json_str(finding, "action", ""), action_names[LS_FA_AVOID]) ? LS_FA_NONE
                                                                                 : LS_FA_AVOID;
}

const char *ls_finding_action_name(enum ls_finding_action a)
{
    return action_names[a == LS_FA_AVOID ? LS_FA_AVOID : LS_FA_NONE];
}
