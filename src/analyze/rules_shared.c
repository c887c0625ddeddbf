/* The shared_path rule (issue 14): P2P pairs measured at the same time came out slower
   than one of them alone, beyond the spread, so their paths share something the
   topology does not show (a link, a switch uplink, an NVSwitch plane or trunk). The run
   then measured that link class one pair at a time; the finding says so. Reads each
   entry's "concurrency_check" (model/concurrency.h, docs/schema.md). */
#include "rules.h"
#include "model/doc.h"

#include <stdio.h>
#include <string.h>

/* One finding per link class: the first lower entry of each class names it, every lower
   entry of the class is evidence. */
static void class_finding(const ls_machine_t *m, const char *word, json_t *out)
{
    json_t *evidence = json_array();
    const json_t *first = NULL;
    for (size_t i = 0; i < json_array_size(json_object_get(m->doc, "measurements")); i++) {
        const json_t *e = ls_measurement(m, i);
        const json_t *check = json_object_get(e, "concurrency_check");
        const json_t *g = json_object_get(e, "gpus");
        char w[16] = "?";
        if (!json_is_true(json_object_get(check, "lower")) || json_array_size(g) != 2)
            continue;
        ls_machine_link_word(m, (int)json_integer_value(json_array_get(g, 0)),
                             (int)json_integer_value(json_array_get(g, 1)), w, sizeof w);
        if (strcmp(w, word) != 0)
            continue;
        first = first ? first : e;
        json_array_append_new(evidence, json_string(ls_json_str(e, "id", "?")));
    }
    if (!first) {
        json_decref(evidence);
        return;
    }
    const json_t *c = json_object_get(json_object_get(first, "concurrency_check"), "concurrent");
    const json_t *a = json_object_get(json_object_get(first, "concurrency_check"), "alone");
    char subject[48];
    snprintf(subject, sizeof subject, "%s pairs", word);
    ls_finding_add(out, "shared_path", LS_SEV_WARNING, LS_ABOUT_WHAT(subject), evidence,
                   "%s %s: %.1f GB/s beside %lld other pair(s), %.1f GB/s alone: these pairs "
                   "share a path the topology does not show (link, switch uplink, NVSwitch "
                   "plane); the run measured them one pair at a time",
                   ls_json_str(first, "id", "?"), word, ls_json_num(c, "value", 0),
                   ls_json_int(c, "pairs", 1) - 1, ls_json_num(a, "value", 0));
}

void ls_rules_shared_path(const ls_machine_t *m, json_t *out)
{
    char seen[16][16];
    int nseen = 0;
    for (size_t i = 0; i < json_array_size(json_object_get(m->doc, "measurements")); i++) {
        const json_t *e = ls_measurement(m, i);
        const json_t *g = json_object_get(e, "gpus");
        if (!json_is_true(json_object_get(json_object_get(e, "concurrency_check"), "lower")) ||
            json_array_size(g) != 2)
            continue;
        char w[16] = "?";
        ls_machine_link_word(m, (int)json_integer_value(json_array_get(g, 0)),
                             (int)json_integer_value(json_array_get(g, 1)), w, sizeof w);
        int known = 0;
        for (int k = 0; k < nseen; k++)
            known |= strcmp(seen[k], w) == 0;
        if (known || nseen == 16)
            continue;
        snprintf(seen[nseen++], sizeof seen[0], "%s", w);
        class_finding(m, w, out);
    }
}
