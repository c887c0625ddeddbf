#include "annotate.h"
#include "model/translog.h"
#include "model/doc.h"
#include "model/vocab.h"

#include <stdio.h>
#include <string.h>

void ls_nccl_add_entry(json_t *doc, json_t *entry)
{
    if (!json_object_get(entry, "id"))
        json_object_set_new(entry, "id", json_string(LS_FAMILY_NCCL));
    ls_doc_add_unique(doc, entry);
}

void ls_nccl_annotate_entry(json_t *doc, json_t *entry)
{
    ls_nccl_annotate_links(json_object_get(entry, "transports"), json_object_get(doc, "links"));
    json_t *findings = json_array();
    ls_nccl_transport_findings(json_object_get(entry, "transports"), findings);
    json_object_set_new(entry, "transport_findings", findings);
    /* theoretical: the smallest NVLink one-direction peak among its GPUs, when known */
    double peak = 0;
    size_t i, j;
    json_t *g, *gi;
    json_array_foreach(json_object_get(entry, "gpus"), i, g) {
        json_array_foreach(json_object_get(doc, "gpus"), j, gi) {
            double v = ls_json_num(gi, "nvlink_theoretical_gbps", 0);
            if (ls_json_int(gi, "index", -1) == json_integer_value(g) && v > 0 &&
                (peak == 0 || v < peak))
                peak = v;
        }
    }
    if (peak > 0 && strcmp(ls_json_str(entry, "mode", ""), "mpi") != 0)
        json_object_set_new(entry, "theoretical", json_real(peak));
}
