/* ECC off and the row remapper, judged alike by linkscope plan (analyze/rules_gpus.c) and
   linkscope health (health/rules.c) (gaps12): ecc_off only on parts whose memory is HBM
   (ECC there costs nothing), node action none; a pending remap reset, a failed one isolate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analyze/spec.h"
#include "health/health.h"
#include "helpers.h"
#include "import/import.h"
#include "model/doc.h"
#include "model/memory_repair.h"

/* A one-GPU document: the GPU named name, ECC mode enabled (1), disabled (0) or not read. */
static json_t *doc_with(const char *name, int enabled)
{
    json_t *doc = ls_import_doc_new();
    json_t *g = json_pack("{s:i, s:s, s:s}", "index", 0, "name", name, "pci_bus_id",
                          "00000000:18:00.0");
    if (enabled >= 0)
        json_object_set_new(g, "ecc", json_pack("{s:b}", "enabled", enabled));
    json_array_append_new(json_object_get(doc, "gpus"), g);
    return doc;
}

static void plan_ecc_off_on_hbm(void **state)
{
    (void)state;
    json_t *doc = doc_with("NVIDIA H800", 0);
    ls_test_fires(doc, "ecc_off", "warning", "none", "GPU0 (NVIDIA H800, HBM3 memory): ECC is off");
    json_decref(doc);
    doc = doc_with("NVIDIA A100-SXM4-80GB", 0);
    ls_test_fires(doc, "ecc_off", "warning", "none", "HBM2e");
    json_decref(doc);
}

/* Quiet: ECC on, not read, a GDDR part (ECC off there is a trade, the RTX A6000's default),
   a part not in the datasheet (its memory unknown). */
static void plan_ecc_off_quiet(void **state)
{
    (void)state;
    const struct {
        const char *name;
        int enabled;
    } quiet[] = {{"NVIDIA H800", 1},
                 {"NVIDIA H800", -1},
                 {"NVIDIA RTX A6000", 0},
                 {"NVIDIA GeForce RTX 4090", 0},
                 {"Some Future GPU", 0}};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        json_t *doc = doc_with(quiet[i].name, quiet[i].enabled);
        ls_test_silent(doc, "ecc_off");
        json_decref(doc);
    }
}

/* nvidia-smi -q prints the section "Ecc Mode" (driver 525) as well as "ECC Mode". */
static void smi_q_ecc_mode_either_case(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("==============NVSMI LOG==============\n\n"
                                      "Attached GPUs                             : 1\n"
                                      "GPU 00000000:18:00.0\n"
                                      "    Product Name                          : NVIDIA H800\n"
                                      "    Ecc Mode\n"
                                      "        Current                           : Disabled\n"
                                      "        Pending                           : Disabled\n",
                                      LS_FMT_SMI_QUERY);
    const json_t *ecc = json_object_get(ls_test_gpu(doc, 0), "ecc");
    assert_true(json_is_false(json_object_get(ecc, "enabled")));
    ls_test_fires(doc, "ecc_off", "warning", "none", NULL);
    json_decref(doc);
}

static void plan_remap_actions(void **state)
{
    (void)state;
    json_t *doc = doc_with("NVIDIA A100-SXM4-80GB", 1);
    json_t *ecc = json_object_get(json_array_get(json_object_get(doc, "gpus"), 0), "ecc");
    json_object_set_new(ecc, "remapped_rows",
                        json_pack("{s:i, s:i, s:b, s:b}", "correctable", 0, "uncorrectable", 4,
                                  "pending", 1, "failure", 0));
    ls_test_fires(doc, "ecc", "warning", "reset", "row remap pending");
    json_object_set_new(json_object_get(ecc, "remapped_rows"), "failure", json_true());
    ls_test_fires(doc, "ecc", "error", "isolate", "row remapping failed");
    json_decref(doc);
}

/* health: the same meaning, the same action. */
static const json_t *health_finding(json_t *found, const char *rule)
{
    size_t i;
    const json_t *f;
    json_array_foreach(found, i, f) {
        if (!strcmp(ls_json_str(f, "rule", ""), rule))
            return f;
    }
    return NULL;
}

static json_t *health_state(const char *name, int enabled)
{
    json_t *g = json_pack("{s:i, s:s, s:s, s:{s:b}}", "index", 0, "name", name, "pci_bus_id",
                          "00000000:18:00.0", "ecc", "enabled", enabled);
    return json_pack("{s:{s:b}, s:[o], s:s, s:n}", "driver", "ok", 1, "gpus", g, "root",
                     "/nonexistent-root", "kernel_log");
}

static void health_ecc_off_agrees(void **state)
{
    (void)state;
    json_t *st = health_state("NVIDIA H800", 0);
    json_t *found = ls_health_rules(st);
    const json_t *f = health_finding(found, "ecc_off");
    assert_non_null(f);
    assert_string_equal(ls_json_str(f, "action", ""), "none");
    json_decref(found);
    json_decref(st);
    st = health_state("NVIDIA RTX A6000", 0);
    found = ls_health_rules(st);
    assert_null(health_finding(found, "ecc_off"));
    json_decref(found);
    json_decref(st);
}

/* Pages pending retirement (V100 and earlier): plan and health one meaning, one action.
   NVML: pending pages "need a reboot to fully retire"; the driver's Xid 63 says "reboot to
   activate" (gaps15: plan said reboot with no action, health reset). */
static void retire_pending_agrees(void **state)
{
    (void)state;
    json_t *doc = doc_with("Tesla V100-SXM2-16GB", 1);
    json_t *ecc = json_object_get(json_array_get(json_object_get(doc, "gpus"), 0), "ecc");
    json_object_set_new(ecc, "retired_pages",
                        json_pack("{s:i, s:i, s:b}", "single_bit", 2, "double_bit", 1, "pending",
                                  1));
    ls_test_fires(doc, "ecc", "warning", ls_action_name(ls_retire_pending.action),
                  "pending retirement");
    ls_test_fires(doc, "ecc", "warning", "reboot", "a reboot (or a reload of the driver)");
    json_decref(doc);
    json_t *st = health_state("Tesla V100-SXM2-16GB", 1);
    json_object_set_new(json_array_get(json_object_get(st, "gpus"), 0), "retired_pages",
                        json_pack("{s:b}", "pending", 1));
    json_t *found = ls_health_rules(st);
    const json_t *f = health_finding(found, "retire_pending");
    assert_non_null(f);
    assert_string_equal(ls_json_str(f, "action", ""), ls_action_name(ls_retire_pending.action));
    assert_non_null(strstr(ls_json_str(f, "message", ""), ls_retire_pending.applied));
    json_decref(found);
    json_decref(st);
}

static void datasheet_memory_type(void **state)
{
    (void)state;
    ls_datasheet_t ds;
    char err[160];
    assert_int_equal(ls_datasheet_builtin(&ds, err, sizeof err), 0);
    assert_true(ls_part_ecc_free(ls_datasheet_find(&ds, "NVIDIA H100 80GB HBM3")));
    assert_false(ls_part_ecc_free(ls_datasheet_find(&ds, "NVIDIA A10")));
    assert_false(ls_part_ecc_free(NULL));
    ls_datasheet_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_ecc_off_on_hbm),        cmocka_unit_test(plan_ecc_off_quiet),
        cmocka_unit_test(smi_q_ecc_mode_either_case), cmocka_unit_test(plan_remap_actions),
        cmocka_unit_test(health_ecc_off_agrees),      cmocka_unit_test(retire_pending_agrees),
        cmocka_unit_test(datasheet_memory_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
