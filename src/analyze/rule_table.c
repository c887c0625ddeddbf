/* Every rule group, in the order the findings run them. A new group is its own file
   (rules_NAME.c, its function) and, here, its declaration and its row: two files
   (docs/design.md "Adding a rule"). A rule of an existing group is one file. */
#include "burn_rules.h"
#include "cuda_rules.h"
#include "fabric_rules.h"
#include "kernel_rules.h"
#include "ports.h"
#include "recovery_rules.h"
#include "rules.h"
#include "spec.h"
#include "tools_rules.h"

/* Judged groups (rules_*.c; docs/analysis.md has every rule they give). */
void ls_rules_input(const ls_machine_t *m, json_t *out); /* cut_paste */
void ls_rules_figures(const ls_machine_t *m,
                      json_t *out); /* nothing_measured, impossible_value, suspect_rows */
void ls_rules_status(const ls_machine_t *m,
                     json_t *out); /* statuses, wrong elements, collapse, busy, noisy */
void ls_rules_links(const ls_machine_t *m,
                    json_t *out); /* degraded pair, asymmetry, PCIe, NVLink down */
void ls_rules_matrix(const ls_machine_t *m, json_t *out);  /* one_way_low */
void ls_rules_ceiling(const ls_machine_t *m, json_t *out); /* below_ceiling, implausible */
void ls_rules_p2p(const ls_machine_t *m,
                  json_t *out); /* P2P availability and gain, bidir, sockets */
void ls_rules_gpus(const ls_machine_t *m,
                   json_t *out); /* HBM, power limit, throttling, ECC, NVLink errors */
void ls_rules_smi(const ls_machine_t *m,
                  json_t *out); /* plain nvidia-smi: driver, lost GPUs, ERR! cells */
void ls_rules_placement(const ls_machine_t *m,
                        json_t *out); /* NUMA, NIC distance, P2P unused by NCCL */
void ls_rules_shared_path(const ls_machine_t *m,
                          json_t *out); /* pairs slower together than alone */
void ls_rules_nccl_log(const ls_machine_t *m,
                       json_t *out); /* NCCL's own log: transports, GDR, sockets, WARN */
void ls_rules_net(const ls_machine_t *m, json_t *out); /* a multi-node busbw against its NICs */

/* Groups whose function reads the document alone (also called outside the findings). */
static void port_sweep(const ls_machine_t *m, json_t *out)
{
    ls_port_sweep_findings(m->doc, out);
}
static void burn(const ls_machine_t *m, json_t *out)
{
    ls_rules_burn(m->doc, out);
}
static void tools(const ls_machine_t *m, json_t *out)
{
    ls_rules_tools(m->doc, out);
}
static void watchdog(const ls_machine_t *m, json_t *out)
{
    ls_rules_watchdog(m->doc, out);
}
static void kernel(const ls_machine_t *m, json_t *out) /* an imported kernel log's NVRM lines */
{
    ls_rules_kernel(m->doc, out);
}
static void cuda(const ls_machine_t *m, json_t *out) /* an imported paste's CUDA errors */
{
    ls_rules_cuda(m->doc, out);
}
static void fabric(const ls_machine_t *m, json_t *out) /* Fabric Manager, SXid, -q Fabric */
{
    ls_rules_fabric(m->doc, out);
}
static void recovery(const ls_machine_t *m, json_t *out) /* -q's GPU Recovery Action */
{
    ls_rules_recovery(m->doc, out);
}
static void spec(const ls_machine_t *m, json_t *out)
{
    ls_spec_findings(m->doc, out);
}

const ls_rule_group_t ls_rule_groups[] = {
    {.id = "input", .stage = LS_STAGE_JUDGED, .run = ls_rules_input},
    {.id = "figures", .stage = LS_STAGE_JUDGED, .run = ls_rules_figures},
    {.id = "status", .stage = LS_STAGE_JUDGED, .run = ls_rules_status},
    {.id = "links", .stage = LS_STAGE_JUDGED, .run = ls_rules_links},
    {.id = "matrix", .stage = LS_STAGE_JUDGED, .run = ls_rules_matrix},
    {.id = "ceiling", .stage = LS_STAGE_JUDGED, .run = ls_rules_ceiling},
    {.id = "p2p", .stage = LS_STAGE_JUDGED, .run = ls_rules_p2p},
    {.id = "gpus", .stage = LS_STAGE_JUDGED, .run = ls_rules_gpus},
    {.id = "smi", .stage = LS_STAGE_JUDGED, .run = ls_rules_smi},
    {.id = "placement", .stage = LS_STAGE_JUDGED, .run = ls_rules_placement},
    {.id = "shared_path", .stage = LS_STAGE_JUDGED, .run = ls_rules_shared_path},
    {.id = "port_sweep", .stage = LS_STAGE_JUDGED, .run = port_sweep},
    {.id = "nccl_log", .stage = LS_STAGE_JUDGED, .run = ls_rules_nccl_log},
    {.id = "net", .stage = LS_STAGE_JUDGED, .run = ls_rules_net},
    {.id = "burn", .stage = LS_STAGE_AS_IS, .run = burn},
    {.id = "tools", .stage = LS_STAGE_AS_IS, .run = tools},
    {.id = "watchdog", .stage = LS_STAGE_AS_IS, .run = watchdog},
    {.id = "kernel", .stage = LS_STAGE_AS_IS, .run = kernel},
    {.id = "cuda", .stage = LS_STAGE_AS_IS, .run = cuda},
    {.id = "fabric", .stage = LS_STAGE_AS_IS, .run = fabric},
    {.id = "recovery", .stage = LS_STAGE_AS_IS, .run = recovery},
    {.id = "spec", .stage = LS_STAGE_AS_IS, .run = spec},
};
const size_t ls_rule_group_count = sizeof ls_rule_groups / sizeof *ls_rule_groups;
