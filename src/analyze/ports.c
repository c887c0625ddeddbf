/* Per-port sweep: plan, table and findings (ports.h). */
#include "ports.h"
#include "model/doc.h"
#include "rules.h"
#include "util/strindex.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HCA_PREFIX "NCCL_IB_HCA="

json_t *ls_port_sweep_plan(const json_t *nics)
{
    json_t *plan = json_array(), *all = json_array();
    double total = 0;
    size_t i, p;
    const json_t *nic, *port;
    json_array_foreach(nics, i, nic) {
        json_array_foreach(json_object_get(nic, "ports"), p, port) {
            double rate = ls_json_num(port, "rate_gbps", 0);
            if (strcmp(ls_json_str(port, "state", ""), "ACTIVE") != 0 || rate <= 0)
                continue;
            char hca[64], setting[96];
            snprintf(hca, sizeof hca, "%s:%lld", ls_json_str(nic, "name", "?"),
                     ls_json_int(port, "port", 1));
            /* "=": exact names; NCCL_IB_HCA matches by prefix, so mlx5_1 alone would
               also select mlx5_10 ... mlx5_19 */
            snprintf(setting, sizeof setting, HCA_PREFIX "=%s", hca);
            json_array_append_new(plan, json_pack("{s:s, s:[s], s:f}", "setting", setting, "hcas",
                                                  hca, "rate_gbps", rate));
            json_array_append_new(all, json_string(hca));
            total += rate;
        }
    }
    if (json_array_size(all) >= 2) {
        char setting[1024] = HCA_PREFIX "=";
        size_t k;
        const json_t *h;
        json_array_foreach(all, k, h) {
            size_t used = strlen(setting);
            snprintf(setting + used, sizeof setting - used, "%s%s", k ? "," : "",
                     json_string_value(h));
        }
        json_array_append_new(plan, json_pack("{s:s, s:O, s:f}", "setting", setting, "hcas", all,
                                              "rate_gbps", total));
    }
    json_decref(all);
    return plan;
}

/* The line rate of port "mlx5_0:1" (":1" optional) in doc's nics; 0 when unknown. */
static double port_rate(const json_t *doc, const char *hca)
{
    char name[64];
    long long want = 1;
    const char *colon = strchr(hca, ':');
    snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - hca) : (int)strlen(hca), hca);
    if (colon)
        sscanf(colon + 1, "%lld", &want);
    size_t i, p;
    const json_t *nic, *port;
    json_array_foreach(json_object_get(doc, "nics"), i, nic) {
        if (strcmp(ls_json_str(nic, "name", ""), name) != 0)
            continue;
        json_array_foreach(json_object_get(nic, "ports"), p, port) {
            if (ls_json_int(port, "port", 0) == want)
                return ls_json_num(port, "rate_gbps", 0);
        }
    }
    return 0;
}

/* "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1" -> ["mlx5_0:1", "mlx5_1:1"] and the summed rate. */
static json_t *hcas_of(const json_t *doc, const char *variant, double *rate)
{
    json_t *hcas = json_array();
    const char *v = variant + strlen(HCA_PREFIX);
    v += *v == '=' || *v == '^' ? 1 : 0; /* exact-match prefix; '^' (exclude) is not a port list */
    *rate = 0;
    int unknown = 0;
    while (*v) {
        size_t len = strcspn(v, ",");
        char hca[64];
        snprintf(hca, sizeof hca, "%.*s", (int)(len < 63 ? len : 63), v);
        json_array_append_new(hcas, json_string(hca));
        double r = port_rate(doc, hca);
        unknown |= r <= 0;
        *rate += r;
        v += len + (v[len] == ',');
    }
    if (unknown)
        *rate = 0; /* one port's rate unknown: the sum would understate the ceiling */
    return hcas;
}

json_t *ls_port_sweep_rows(const json_t *doc)
{
    json_t *rows = json_array();
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "measurements"), i, e) {
        const char *variant = ls_json_str(e, "variant", "");
        if (strcmp(ls_json_str(e, "family", ""), LS_FAMILY_NCCL) != 0 ||
            strncmp(variant, HCA_PREFIX, strlen(HCA_PREFIX)) != 0 ||
            variant[strlen(HCA_PREFIX)] == '^' || strcmp(ls_json_str(e, "status", ""), "ok") != 0)
            continue;
        double rate, busbw = ls_json_num(e, "value", NAN);
        json_t *hcas = hcas_of(doc, variant, &rate);
        double ceiling = rate / 8; /* Gb/s of the line -> GB/s */
        json_array_append_new(rows,
                              json_pack("{s:s, s:s, s:o, s:i, s:f, s:f, s:f, s:o}", "collective",
                                        ls_json_str(e, "collective", ""), "setting", variant,
                                        "hcas", hcas, "ports", (int)json_array_size(hcas),
                                        "rate_gbps", rate, "ceiling_gbs", ceiling, "busbw", busbw,
                                        "fraction",
                                        ceiling > 0 && isfinite(busbw) ? json_real(busbw / ceiling)
                                                                       : json_null()));
    }
    return rows;
}

static const char *hca_text(const json_t *row)
{
    return json_string_value(json_array_get(json_object_get(row, "hcas"), 0));
}

static void far_below(const json_t *r, json_t *out)
{
    double ceiling = ls_json_num(r, "ceiling_gbs", 0), busbw = ls_json_num(r, "busbw", NAN);
    if (ls_json_int(r, "ports", 0) != 1 || ceiling <= 0 || !(busbw < LS_PORT_FAR_BELOW * ceiling))
        return;
    ls_finding_add(out, "port_far_below_rate", LS_SEV_WARNING, LS_ABOUT_PORT(hca_text(r)),
                   json_pack("[s]", ls_json_str(r, "setting", "")),
                   "%s over port %s alone: %.1f GB/s busbw, %.0f%% of the port's %.0f Gb/s (%.1f "
                   "GB/s)",
                   ls_json_str(r, "collective", ""), hca_text(r), busbw, 100 * busbw / ceiling,
                   ls_json_num(r, "rate_gbps", 0), ceiling);
}

/* What the comparisons of two rows read, looked up once per row (the pairs of rows of a
   collective are compared, not the JSON of each pair again). */
typedef struct {
    const json_t *row;
    const char *coll;
    double rate, busbw;
    long long ports;
} port_row_t;

static port_row_t port_row(const json_t *r)
{
    return (port_row_t){r, ls_json_str(r, "collective", ""), ls_json_num(r, "rate_gbps", 0),
                        ls_json_num(r, "busbw", NAN), ls_json_int(r, "ports", 0)};
}

/* Port r rated faster than port s but slower in busbw (seed 002: 400G at 20.4 GB/s, 200G at 30.6).
 */
static void below_slower(const port_row_t *r, const port_row_t *s, json_t *out)
{
    double rr = r->rate, rs = s->rate, br = r->busbw, bs = s->busbw;
    if (r->ports != 1 || s->ports != 1 || rr <= rs || rs <= 0 || !(br < LS_PORT_SLOWER * bs))
        return;
    ls_finding_add(out, "port_below_slower_port", LS_SEV_WARNING, LS_ABOUT_PORT(hca_text(r->row)),
                   json_pack("[s, s]", ls_json_str(r->row, "setting", ""),
                             ls_json_str(s->row, "setting", "")),
                   "%s over port %s (%.0f Gb/s): %.1f GB/s busbw, below port %s (%.0f Gb/s) at "
                   "%.1f GB/s; "
                   "check its PCIe link, firmware and placement",
                   r->coll, hca_text(r->row), rr, br, hca_text(s->row), rs, bs);
}

/* All ports together (the row with most ports) slower than the best single port; the
   rows of the collective through ix (the collectives' index), in order. */
static void together_slower(const port_row_t *p, const ls_strindex_t *ix, const char *coll,
                            json_t *out)
{
    const json_t *all = NULL, *best = NULL;
    for (size_t i = ls_strindex_first(ix, coll); i != LS_STRINDEX_NONE;
         i = ls_strindex_next(ix, i)) {
        const json_t *r = p[i].row;
        long long n = p[i].ports;
        if (n > 1 && (!all || n > ls_json_int(all, "ports", 0)))
            all = r;
        if (n == 1 && (!best || ls_json_num(r, "busbw", 0) > ls_json_num(best, "busbw", 0)))
            best = r;
    }
    if (!all || !best ||
        !(ls_json_num(all, "busbw", NAN) < LS_PORT_SLOWER * ls_json_num(best, "busbw", NAN)))
        return;
    ls_finding_add(out, "ports_together_slower", LS_SEV_WARNING, LS_ABOUT_WHAT(coll),
                   json_pack("[s, s]", ls_json_str(all, "setting", ""),
                             ls_json_str(best, "setting", "")),
                   "%s over all %lld ports together: %.1f GB/s busbw, slower than port %s alone "
                   "(%.1f GB/s); "
                   "the ports may share a PCIe root or NCCL splits channels badly: use one port",
                   coll, ls_json_int(all, "ports", 0), ls_json_num(all, "busbw", 0), hca_text(best),
                   ls_json_num(best, "busbw", 0));
}

/* The rows' collectives in a hash index: each row is compared with the rows of its own
   collective only, and one whose rate is no faster than the slowest rated single port of
   its collective is below no slower port: not compared at all (a sweep repeated many
   times over the same ports stays linear). */
void ls_port_sweep_findings(const json_t *doc, json_t *out)
{
    json_t *rows = ls_port_sweep_rows(doc);
    size_t n = json_array_size(rows);
    port_row_t *p = malloc((n ? n : 1) * sizeof *p);
    const char **colls = malloc((n ? n : 1) * sizeof *colls);
    double *slowest = malloc((n ? n : 1) * sizeof *slowest); /* per collective, at its first */
    ls_strindex_t ix;
    int built = p && colls && slowest;
    for (size_t i = 0; built && i < n; i++)
        p[i] = port_row(json_array_get(rows, i)), colls[i] = p[i].coll;
    built = built && ls_strindex_build(&ix, colls, n) == 0;
    for (size_t i = 0; built && i < n; i++) {
        size_t first = ls_strindex_first(&ix, p[i].coll);
        if (first == i)
            slowest[i] = INFINITY;
        if (p[i].ports == 1 && p[i].rate > 0 && p[i].rate < slowest[first])
            slowest[first] = p[i].rate;
    }
    for (size_t i = 0; built && i < n; i++) {
        size_t first = ls_strindex_first(&ix, p[i].coll);
        far_below(p[i].row, out);
        for (size_t k = first; p[i].rate > slowest[first] && k != LS_STRINDEX_NONE;
             k = ls_strindex_next(&ix, k))
            if (k != i)
                below_slower(&p[i], &p[k], out);
        if (first == i) /* "together" once per collective */
            together_slower(p, &ix, p[i].coll, out);
    }
    if (built)
        ls_strindex_free(&ix);
    free(p), free(colls), free(slowest);
    json_decref(rows);
}
