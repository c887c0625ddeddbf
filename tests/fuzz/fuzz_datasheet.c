/* The datasheet TSV (analyze/spec.c, check --spec --datasheet FILE): parse, then look up
   every row by name and PCI id and check a two-GPU document against it (issue 25). */
#include "fuzz.h"
#include "analyze/spec.h"
#include "model/doc.h"

static json_t *two_gpus(void)
{
    json_t *doc = ls_doc_new();
    json_array_append_new(json_object_get(doc, "gpus"),
                          json_pack("{s:i, s:s, s:s, s:I, s:{s:i, s:i, s:i, s:i}}", "index", 0, "name", "NVIDIA H200",
                                    "pci_device_id", "0x2335", "memory_total_bytes", (json_int_t)150754820096LL,
                                    "pcie", "gen_current", 5, "gen_max", 5, "width_current", 16, "width_max", 16));
    json_array_append_new(json_object_get(doc, "gpus"),
                          json_pack("{s:i, s:s}", "index", 1, "name", "NVIDIA A100-SXM4-80GB"));
    return doc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ls_fuzz_text(data, size);
    if (!text)
        return 0;
    char err[512];
    ls_datasheet_t ds = {0};
    if (ls_datasheet_parse(text, &ds, err, sizeof err) == 0) {
        for (int i = 0; i < ds.n; i++) {
            (void)ls_datasheet_find(&ds, ds.rows[i].names);
            (void)ls_datasheet_find(&ds, ds.rows[i].key);
            (void)ls_datasheet_find_pci(&ds, ds.rows[i].pci_ids);
        }
        json_t *doc = two_gpus(), *findings = json_array();
        json_decref(ls_spec_check(doc, &ds, findings));
        json_decref(findings);
        json_decref(doc);
        ls_datasheet_free(&ds);
    }
    free(text);
    return 0;
}
