#include "annotate.h"
#include "translog.h"
#include "model/doc.h"

#include <stdio.h>
#include <string.h>

/* An id not yet in the document: "nccl-all_reduce-default", then "-2", "-3". */
static void unique_id(json_t *doc, json_t *entry)
{
    const char *base = ls_json_str(entry, "id", "nccl");
    char id[256];
    snprintf(id, sizeof id, "%s", base);
    for (int k = 2;; k++) {
        int clash = 0;
        size_t i;
        json_t *m;
        json_array_foreach(json_object_get(doc, "measurements"), i, m)
        {
            if (strcmp(ls_json_str(m, "id", ""), id) == 0)
                clash = 1;
        }
        if (!clash)
            break;
        snprintf(id, sizeof id, "%s-%d", base, k);
    }
    json_object_set_new(entry, "id", json_string(id));
}

void ls_nccl_add_entry(json_t *doc, json_t *entry)
{
    unique_id(doc, entry);
    ls_doc_add_measurement(doc, entry);
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
    json_array_foreach(json_object_get(entry, "gpus"), i, g)
    {
        json_array_foreach(json_object_get(doc, "gpus"), j, gi)
        {
            double v = ls_json_num(gi, "nvlink_theoretical_gbps", 0);
            if (ls_json_int(gi, "index", -1) == json_integer_value(g) && v > 0 &&
                (peak == 0 || v < peak))
                peak = v;
        }
    }
    if (peak > 0 && strcmp(ls_json_str(entry, "mode", ""), "mpi") != 0)
        json_object_set_new(entry, "theoretical", json_real(peak));
}
