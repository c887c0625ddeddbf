/* GPUs against their datasheet (docs/acceptance.md). */
#include "analyze/spec.h"
#include "analyze/burn_rules.h"
#include "analyze/rules.h"
#include "model/doc.h"
#include "model/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SPEC_COLUMNS 17

/* Next tab- or newline-ended field of line (NUL-terminated in place). */
static char *next_field(char **cursor)
{
    char *start = *cursor, *end = start + strcspn(start, "\t");
    *cursor = *end ? end + 1 : end;
    *end = '\0';
    return start;
}

static double num_or_unknown(const char *s)
{
    return *s ? atof(s) : -1;
}
static int int_or_unknown(const char *s)
{
    return *s ? atoi(s) : -1;
}

static int parse_row(char *line, ls_spec_row_t *r)
{
    int tabs = 0;
    for (const char *c = line; *c; c++)
        tabs += *c == '\t';
    if (tabs != SPEC_COLUMNS - 1)
        return -1;
    char *f[SPEC_COLUMNS], *cursor = line;
    for (int n = 0; n < SPEC_COLUMNS; n++)
        f[n] = next_field(&cursor);
    if (!f[0][0] || !f[1][0])
        return -1; /* a row needs its key and its NVML names */
    memset(r, 0, sizeof *r);
    snprintf(r->key, sizeof r->key, "%s", f[0]);
    snprintf(r->names, sizeof r->names, "%s", f[1]);
    snprintf(r->form, sizeof r->form, "%s", f[2]);
    snprintf(r->memory_type, sizeof r->memory_type, "%s", f[4]);
    r->memory_gb = num_or_unknown(f[3]);
    r->memory_gbps = num_or_unknown(f[5]);
    r->nvlink_gen = int_or_unknown(f[6]);
    r->nvlinks = int_or_unknown(f[7]);
    r->nvlink_gbps = num_or_unknown(f[8]);
    r->pcie_gen = int_or_unknown(f[9]);
    r->pcie_width = int_or_unknown(f[10]);
    r->power_w = num_or_unknown(f[11]);
    r->sms = int_or_unknown(f[12]);
    r->boost_mhz = int_or_unknown(f[13]);
    r->base_mhz = int_or_unknown(f[14]);
    snprintf(r->pci_ids, sizeof r->pci_ids, "%s", f[15]);
    snprintf(r->source, sizeof r->source, "%s", f[16]);
    return 0;
}

int ls_part_ecc_free(const ls_spec_row_t *row)
{
    return row && strncmp(row->memory_type, "HBM", 3) == 0;
}

int ls_datasheet_parse(const char *text, ls_datasheet_t *ds, char *err, size_t errlen)
{
    memset(ds, 0, sizeof *ds);
    char *copy = strdup(text), *line, *save = NULL;
    int lineno = 0, header = 0, cap = 0;
    if (!copy)
        return snprintf(err, errlen, "out of memory"), -1;
    for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (!header++)
            continue; /* the column names */
        if (ds->n == cap) {
            cap = cap ? cap * 2 : 64;
            ls_spec_row_t *grown = realloc(ds->rows, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            ds->rows = grown;
        }
        if (parse_row(line, &ds->rows[ds->n]) != 0) {
            snprintf(err, errlen, "datasheet line %d: expected %d tab-separated columns", lineno,
                     SPEC_COLUMNS);
            free(copy);
            ls_datasheet_free(ds);
            return -1;
        }
        ds->n++;
    }
    free(copy);
    return 0;
}

/* data/gpu-datasheet.tsv as a C string, made at build time (cmake/embed.cmake) */
#include "datasheet_text.h"

int ls_datasheet_builtin(ls_datasheet_t *ds, char *err, size_t errlen)
{
    return ls_datasheet_parse(ls_datasheet_tsv, ds, err, errlen);
}

void ls_datasheet_free(ls_datasheet_t *ds)
{
    free(ds->rows);
    memset(ds, 0, sizeof *ds);
}

const ls_spec_row_t *ls_datasheet_find(const ls_datasheet_t *ds, const char *name)
{
    for (int i = 0; name && i < ds->n; i++) {
        char names[256], *save = NULL;
        snprintf(names, sizeof names, "%s", ds->rows[i].names);
        for (char *n = strtok_r(names, ";", &save); n; n = strtok_r(NULL, ";", &save))
            if (strcasecmp(n, name) == 0)
                return &ds->rows[i];
    }
    return NULL;
}

/* Whether list (';'-separated) holds item, case-insensitive. */
static int list_has(const char *list, const char *item)
{
    char copy[256], *save = NULL;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *n = strtok_r(copy, ";", &save); item && n; n = strtok_r(NULL, ";", &save))
        if (strcasecmp(n, item) == 0)
            return 1;
    return 0;
}

const ls_spec_row_t *ls_datasheet_find_pci(const ls_datasheet_t *ds, const char *device_id)
{
    for (int i = 0; device_id && *device_id && i < ds->n; i++)
        if (list_has(ds->rows[i].pci_ids, device_id))
            return &ds->rows[i];
    return NULL;
}

static int active_nvlinks(const json_t *gpu)
{
    const json_t *links = json_object_get(gpu, "nvlinks"), *l;
    size_t i;
    int active = 0;
    if (!json_is_array(links))
        return -1; /* not recorded */
    json_array_foreach(links, i, l)
        active += json_is_true(json_object_get(l, "active"));
    return active;
}

/* The best measured HBM figure of GPU g (GB/s of traffic), 0 when none. */
static double best_hbm(const json_t *doc, long long g, const char **id)
{
    double best = 0;
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        if (strcmp(ls_json_str(e, "family", ""), LS_FAMILY_HBM) != 0 ||
            ls_json_int(e, "gpu", -1) != g || strcmp(ls_json_str(e, "status", ""), "ok") != 0)
            continue;
        double v = ls_json_num(e, "value", 0);
        if (v > best) {
            best = v;
            *id = ls_json_str(e, "id", "");
        }
    }
    return best;
}

static int is_board_with_nvlink(const ls_spec_row_t *r)
{
    /* SXM modules and superchips reach the other GPUs only through NVLink (NVSwitch or
       direct); PCIe cards take it from an optional bridge. */
    return strncmp(r->form, "SXM", 3) == 0 || strcmp(r->form, "Superchip") == 0;
}

/* Active NVLinks from the topology links (nvidia-smi topo -m, or discovery) when the GPU
   object does not list its links: 0 when every recorded link to another GPU is PCIe, the
   links' count when they are NVLink, -1 when no link to another GPU is recorded. */
static int nvlinks_from_topology(const json_t *doc, long long g)
{
    size_t i;
    const json_t *l;
    int seen = 0, links = 0;
    json_array_foreach(json_object_get(doc, "links"), i, l) {
        if (ls_json_int(l, "a", -1) != g || ls_json_int(l, "b", -1) == g)
            continue;
        seen = 1;
        if (strcmp(ls_json_str(l, "class", ""), "NV") == 0)
            links += (int)ls_json_int(l, "nvlinks", 0);
    }
    return seen ? links : -1;
}

static void pcie_words(const json_t *gpu, char *text, size_t len)
{
    const json_t *pcie = json_object_get(gpu, "pcie");
    double pcie_gbps = ls_json_num(pcie, "theoretical_gbps", 0);
    snprintf(text, len, "PCIe");
    if (pcie_gbps > 0)
        snprintf(text, len, "PCIe Gen%lld x%lld at about %.0f GB/s", /* theoretical_gbps: at max */
                 ls_json_int(pcie, "gen_max", 0), ls_json_int(pcie, "width_max", 0), pcie_gbps);
}

/* An SXM module whose NVLinks the document does not record: it cannot be accepted as
   the part until they are seen (seed 003's PCIe conversions carry the SXM name). */
/* A spec finding is about its GPU (by the document's index). */
static ls_about_t gpu_about(const json_t *gpu)
{
    return LS_ABOUT_GPU(ls_json_int(gpu, "index", -1));
}

static void nvlink_unrecorded(const json_t *gpu, const ls_spec_row_t *r, const char *subject,
                              json_t *checks, json_t *findings)
{
    json_array_append_new(checks, json_pack("{s:s, s:i, s:n}", "check", "nvlinks", "spec",
                                            r->nvlinks, "seen"));
    if (is_board_with_nvlink(r))
        ls_finding_add(findings, "spec_nvlink", LS_SEV_WARNING, gpu_about(gpu), NULL,
                       "%s reports \"%s\" (the %s part, %d NVLinks, %.0f GB/s) but the document "
                       "does not record its NVLinks: import `nvidia-smi nvlink -s` or `nvidia-smi "
                       "topo -m` of this machine, or run linkscope on it; a PCIe card under this "
                       "name sends GPU-to-GPU traffic over PCIe",
                       subject, ls_json_str(gpu, "name", ""), r->form, r->nvlinks, r->nvlink_gbps);
}

int ls_spec_active_nvlinks(const json_t *doc, const json_t *gpu)
{
    int active = active_nvlinks(gpu);
    return active >= 0 ? active : nvlinks_from_topology(doc, ls_json_int(gpu, "index", -1));
}

static void check_nvlink(const json_t *doc, const json_t *gpu, const ls_spec_row_t *r,
                         const char *subject, json_t *checks, json_t *findings)
{
    int active = ls_spec_active_nvlinks(doc, gpu);
    if (r->nvlinks <= 0)
        return;
    if (active < 0) {
        nvlink_unrecorded(gpu, r, subject, checks, findings);
        return;
    }
    const char *name = ls_json_str(gpu, "name", "");
    char pcie_text[64];
    pcie_words(gpu, pcie_text, sizeof pcie_text);
    json_array_append_new(checks, json_pack("{s:s, s:i, s:i}", "check", "nvlinks", "spec",
                                            r->nvlinks, "seen", active));
    if (active == 0 && is_board_with_nvlink(r) && json_array_size(json_object_get(doc, "gpus")) < 2)
        ls_finding_add(findings, "spec_nvlink", LS_SEV_INFO, gpu_about(gpu), NULL,
                       "%s reports \"%s\" (the %s part, %d NVLinks) with 0 active NVLinks, but "
                       "it is the only GPU here (a one-GPU VM slice of an NVLink board shows none "
                       "either): no GPU-to-GPU traffic to judge; a box of several must show them",
                       subject, name, r->form, r->nvlinks);
    else if (active == 0 && is_board_with_nvlink(r))
        ls_finding_add(findings, "spec_nvlink", LS_SEV_ERROR, gpu_about(gpu), NULL,
                       "%s reports \"%s\" (the %s part, %d NVLinks, %.0f GB/s) but has 0 active "
                       "NVLinks: GPU-to-GPU traffic such as tensor parallelism goes over %s "
                       "instead of %.0f GB/s each way. Check the part with the seller; "
                       "nvidia-smi nvlink -s shows the links",
                       subject, name, r->form, r->nvlinks, r->nvlink_gbps, pcie_text,
                       r->nvlink_gbps / 2);
    else if (active == 0)
        ls_finding_add(findings, "spec_nvlink", LS_SEV_INFO, gpu_about(gpu), NULL,
                       "%s: no NVLink bridge fitted (the part takes %d links, %.0f GB/s): "
                       "GPU-to-GPU traffic goes over %s",
                       subject, r->nvlinks, r->nvlink_gbps, pcie_text);
    else if (active < r->nvlinks && is_board_with_nvlink(r))
        /* some links up and some not: a partial set is a fault (a link or its cable down),
           never how an SXM module is sold or sliced */
        ls_finding_add(findings, "spec_nvlink", LS_SEV_ERROR, gpu_about(gpu), NULL,
                       "%s: %d of the part's %d NVLinks active (%s, %.0f GB/s with all): the "
                       "pairs through the %d inactive link%s run slower; nvidia-smi nvlink -s "
                       "names them",
                       subject, active, r->nvlinks, r->form, r->nvlink_gbps, r->nvlinks - active,
                       r->nvlinks - active == 1 ? "" : "s");
    else if (active < r->nvlinks) /* a PCIe card: bridges join some of its links */
        ls_finding_add(findings, "spec_nvlink", LS_SEV_INFO, gpu_about(gpu), NULL,
                       "%s: %d of the part's %d NVLinks active", subject, active, r->nvlinks);
}

static void check_memory(const json_t *gpu, const ls_spec_row_t *r, const char *subject,
                         json_t *checks, json_t *findings)
{
    double bytes = ls_json_num(gpu, "memory_total_bytes", 0);
    if (bytes <= 0 || r->memory_gb <= 0)
        return;
    /* The datasheet's "141GB" (H200), "80GB" (A100, H100) are binary sizes: NVML's 143771
       MiB is 140.4 GiB (150.8 in 1e9 bytes), an A100's 81920 MiB 80 GiB. Memory sizes are
       GiB everywhere (issue 27); drivers show a little less or more. */
    double gib = bytes / (1024.0 * 1024 * 1024);
    json_array_append_new(checks, json_pack("{s:s, s:f, s:f}", "check", "memory_gib", "spec",
                                            r->memory_gb, "seen", gib));
    if (gib < 0.9 * r->memory_gb)
        ls_finding_add(findings, "spec_memory", LS_SEV_WARNING, gpu_about(gpu), NULL,
                       "%s: %.1f GiB of memory, the part has %.0f GiB", subject, gib, r->memory_gb);
}

static void check_pcie(const json_t *gpu, const ls_spec_row_t *r, const char *subject,
                       json_t *checks, json_t *findings)
{
    const json_t *pcie = json_object_get(gpu, "pcie");
    long long gen = ls_json_int(pcie, "gen_max", -1), width = ls_json_int(pcie, "width_max", -1);
    if (gen <= 0 || width <= 0 || r->pcie_gen <= 0 || r->pcie_width <= 0)
        return;
    json_array_append_new(checks,
                          json_pack("{s:s, s:i, s:i, s:I, s:I}", "check", "pcie", "spec_gen",
                                    r->pcie_gen, "spec_width", r->pcie_width, "seen_gen",
                                    (json_int_t)gen, "seen_width", (json_int_t)width));
    if (gen < r->pcie_gen || width < r->pcie_width)
        ls_finding_add(findings, "spec_pcie", LS_SEV_WARNING, gpu_about(gpu), NULL,
                       "%s: the PCIe link can reach Gen%lld x%lld at most, the part is Gen%d "
                       "x%d (the slot, a riser or the BIOS setting limits it; "
                       "`lspci -vv | grep LnkCap`)",
                       subject, gen, width, r->pcie_gen, r->pcie_width);
}

static void check_power_sms(const json_t *gpu, const ls_spec_row_t *r, const char *subject,
                            json_t *checks, json_t *findings)
{
    double limit = ls_json_num(json_object_get(gpu, "power"), "default_limit_w", 0);
    if (limit > 0 && r->power_w > 0) {
        json_array_append_new(checks, json_pack("{s:s, s:f, s:f}", "check", "power_w", "spec",
                                                r->power_w, "seen", limit));
        if (limit < 0.95 * r->power_w)
            ls_finding_add(findings, "spec_power", LS_SEV_WARNING, gpu_about(gpu), NULL,
                           "%s: default power limit %.0f W, the part is rated %.0f W: sustained "
                           "clocks will be lower than the datasheet's",
                           subject, limit, r->power_w);
    }
    long long sms = ls_json_int(json_object_get(gpu, "cuda"), "sms", -1);
    if (sms > 0 && r->sms > 0) {
        json_array_append_new(checks, json_pack("{s:s, s:i, s:I}", "check", "sms", "spec", r->sms,
                                                "seen", (json_int_t)sms));
        if (sms < r->sms)
            ls_finding_add(findings, "spec_sms", LS_SEV_ERROR, gpu_about(gpu), NULL,
                           "%s: %lld SMs, the part has %d: a cut-down or mislabelled part", subject,
                           sms, r->sms);
    }
}

static void check_hbm(const json_t *doc, const json_t *gpu, const ls_spec_row_t *r,
                      const char *subject, json_t *checks, json_t *findings)
{
    const char *id = NULL;
    double best = best_hbm(doc, ls_json_int(gpu, "index", -1), &id);
    if (best <= 0 || r->memory_gbps <= 0)
        return;
    json_array_append_new(checks, json_pack("{s:s, s:f, s:f}", "check", "memory_gbps", "spec",
                                            r->memory_gbps, "seen", best));
    if (best < LS_SPEC_HBM_SHARE * r->memory_gbps)
        ls_finding_add(findings, "spec_hbm", LS_SEV_WARNING, gpu_about(gpu), json_pack("[s]", id),
                       "%s: memory bandwidth %.0f GB/s measured, %.0f%% of the datasheet's "
                       "%.0f GB/s (healthy parts reach 86-94%%)",
                       subject, best, 100 * best / r->memory_gbps, r->memory_gbps);
}

const ls_spec_row_t *ls_datasheet_row_of(const ls_datasheet_t *ds, const json_t *gpu)
{
    const ls_spec_row_t *by_name = ls_datasheet_find(ds, ls_json_str(gpu, "name", ""));
    return by_name ? by_name : ls_datasheet_find_pci(ds, ls_json_str(gpu, "pci_device_id", ""));
}

/* The SM clock a sustained load held (linkscope burn) against the part's base clock: a
   check with "spec": null where the datasheet has no sourced base clock. The finding is
   the burn family's (burn_below_base, analyze/rules_burn.c). */
static void check_base_clock(const json_t *doc, const json_t *gpu, const ls_spec_row_t *r,
                             json_t *checks)
{
    double held = ls_burn_sm_mhz_held(doc, ls_json_int(gpu, "index", -1));
    if (held <= 0)
        return;
    json_array_append_new(checks,
                          json_pack("{s:s, s:o, s:f}", "check", "base_mhz", "spec",
                                    r->base_mhz > 0 ? json_integer(r->base_mhz) : json_null(),
                                    "seen", held));
}

/* The GPU's row by its name; its PCI device id (discovery records it) must then be the
   part's where the row lists ids, and names the row when the name is in none. */
static const ls_spec_row_t *identify(const json_t *gpu, const ls_datasheet_t *ds,
                                     const char *subject, json_t *findings)
{
    const char *name = ls_json_str(gpu, "name", ""), *id = ls_json_str(gpu, "pci_device_id", "");
    const ls_spec_row_t *by_name = ls_datasheet_find(ds, name),
                        *by_id = ls_datasheet_find_pci(ds, id);
    if (by_name && *id && by_name->pci_ids[0] && !list_has(by_name->pci_ids, id))
        ls_finding_add(findings, "spec_identity", LS_SEV_WARNING, gpu_about(gpu), NULL,
                       "%s reports \"%s\" but its PCI device id %s is not that part's (%s)%s%s: "
                       "a relabelled or re-flashed board, or a variant the datasheet lacks",
                       subject, name, id, by_name->pci_ids, by_id ? ", it is the " : "",
                       by_id ? by_id->key : "");
    if (!by_name && by_id)
        ls_finding_add(findings, "spec_identity", LS_SEV_INFO, gpu_about(gpu), NULL,
                       "%s: \"%s\" is in no row by name; its PCI device id %s is the %s's", subject,
                       name, id, by_id->key);
    return by_name ? by_name : by_id;
}

json_t *ls_spec_check(const json_t *doc, const ls_datasheet_t *ds, json_t *findings)
{
    json_t *out = json_array();
    size_t i;
    const json_t *gpu;
    json_array_foreach(json_object_get(doc, "gpus"), i, gpu) {
        char subject[32];
        const char *name = ls_json_str(gpu, "name", "");
        snprintf(subject, sizeof subject, "GPU %lld", ls_json_int(gpu, "index", (json_int_t)i));
        const ls_spec_row_t *r = identify(gpu, ds, subject, findings);
        if (!r) {
            ls_finding_add(findings, "spec_unknown", LS_SEV_INFO, gpu_about(gpu), NULL,
                           "%s: \"%s\" is not in linkscope's datasheet (data/gpu-datasheet.tsv): "
                           "judged against clock-derived peaks only",
                           subject, name[0] ? name : "unnamed GPU");
            json_array_append_new(out, json_pack("{s:s, s:I, s:s, s:n}", "gpu", subject, "index",
                                                 ls_json_int(gpu, "index", (json_int_t)i), "name",
                                                 name, "part"));
            continue;
        }
        json_t *checks = json_array();
        check_nvlink(doc, gpu, r, subject, checks, findings);
        check_memory(gpu, r, subject, checks, findings);
        check_pcie(gpu, r, subject, checks, findings);
        check_power_sms(gpu, r, subject, checks, findings);
        check_hbm(doc, gpu, r, subject, checks, findings);
        check_base_clock(doc, gpu, r, checks);
        json_array_append_new(out,
                              json_pack("{s:s, s:I, s:s, s:s, s:s, s:o}", "gpu", subject, "index",
                                        ls_json_int(gpu, "index", (json_int_t)i), "name", name,
                                        "part", r->key, "source", r->source, "checks", checks));
    }
    return json_pack("{s:o}", "gpus", out);
}

void ls_spec_findings(const json_t *doc, json_t *findings)
{
    ls_datasheet_t ds;
    char err[160];
    if (!json_is_object(json_object_get(doc, "spec")) ||
        ls_datasheet_builtin(&ds, err, sizeof err) != 0)
        return;
    json_decref(ls_spec_check(doc, &ds, findings));
    ls_datasheet_free(&ds);
}
