/* linkscope health's NVSwitch fabric rules (health/rules_fabric.c, health/services.c):
   Fabric Manager's process read from a /proc laid out under a temporary root (found,
   absent, and the cases where the list cannot show it), the fabric_manager rule on states
   with and without NVSwitches, and the sxid rule on kernel logs, each event's action the
   one model/sxid.c gives linkscope plan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "health/health.h"
#include "helpers.h"
#include "model/sxid.h"

/* The host's initial PID namespace as /proc/self/ns/pid names it (PROC_PID_INIT_INO). */
#define HOST_NS "pid:[4026531836]"

static void put(const char *root, const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = strchr(path + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", text);
    fclose(f);
}

/* A fake /proc under a fresh root: pid 1 (unless no_init), the processes given as
   "PID=COMM", and self/ns/pid linking to ns (NULL: none). */
static const char *fake_proc(const char *name, const char *ns, int no_init, const char *procs[])
{
    const char *root = ls_tmp_path(name);
    mkdir(root, 0755);
    if (!no_init)
        put(root, "proc/1/comm", "systemd");
    for (int i = 0; procs && procs[i]; i++) {
        char rel[128], pid[32];
        const char *eq = strchr(procs[i], '=');
        snprintf(pid, sizeof pid, "%.*s", (int)(eq - procs[i]), procs[i]);
        snprintf(rel, sizeof rel, "proc/%s/comm", pid);
        put(root, rel, eq + 1);
    }
    char dir[512], link[600];
    snprintf(dir, sizeof dir, "%s/proc/self/ns", root);
    put(root, "proc/self/status", "Name:\tlinkscope");
    mkdir(dir, 0755);
    snprintf(link, sizeof link, "%s/pid", dir);
    if (ns)
        assert_int_equal(symlink(ns, link), 0);
    return root;
}

static void fm_found_by_its_cut_name(void **state)
{
    (void)state;
    const char *procs[] = {"812=sshd", "2311=nv-fabricmanage", NULL};
    json_t *fm = ls_health_fm_process(fake_proc("fm-on", HOST_NS, 0, procs));
    assert_true(json_is_true(json_object_get(fm, "running")));
    assert_int_equal(json_integer_value(json_object_get(fm, "pid")), 2311);
    json_decref(fm);
}

static void fm_absent_from_the_host_list(void **state)
{
    (void)state;
    const char *procs[] = {"812=sshd", "900=nvidia-persiste", NULL};
    json_t *fm = ls_health_fm_process(fake_proc("fm-off", HOST_NS, 0, procs));
    assert_true(json_is_false(json_object_get(fm, "running")));
    json_decref(fm);
}

/* A list that cannot show every process leaves it unknown, never "not running". */
static void fm_unknown_where_the_list_is_partial(void **state)
{
    (void)state;
    const char *procs[] = {"812=sshd", NULL};
    json_t *fm = ls_health_fm_process(fake_proc("fm-ns", "pid:[4026532999]", 0, procs));
    assert_true(json_is_null(json_object_get(fm, "running")));
    assert_non_null(strstr(json_string_value(json_object_get(fm, "why")), "PID namespace"));
    json_decref(fm);
    fm = ls_health_fm_process(fake_proc("fm-hidepid", HOST_NS, 1, procs));
    assert_true(json_is_null(json_object_get(fm, "running")));
    assert_non_null(strstr(json_string_value(json_object_get(fm, "why")), "hidepid"));
    json_decref(fm);
    fm = ls_health_fm_process(ls_tmp_path("no-proc-here"));
    assert_true(json_is_null(json_object_get(fm, "running")));
    json_decref(fm);
}

static json_t *fm_findings(int nvswitches, const char *fm_json)
{
    json_t *st = json_pack("{s:i}", "nvswitches", nvswitches);
    if (fm_json)
        json_object_set_new(st, "fabric_manager", json_loads(fm_json, 0, NULL));
    json_t *out = json_array();
    ls_health_rule_fabric_manager(st, out);
    json_decref(st);
    return out;
}

static const char *action_of(const json_t *f)
{
    return json_string_value(json_object_get(f, "action"));
}

static const char *message_of(const json_t *f)
{
    return json_string_value(json_object_get(f, "message"));
}

static void fm_rule(void **state)
{
    (void)state;
    json_t *out = fm_findings(4, "{\"running\": false}");
    assert_int_equal(json_array_size(out), 1);
    assert_string_equal(action_of(json_array_get(out, 0)), "isolate");
    assert_non_null(strstr(message_of(json_array_get(out, 0)), "4 NVSwitches"));
    assert_non_null(strstr(message_of(json_array_get(out, 0)),
                           "802 cudaErrorSystemNotReady (\"system not yet initialized\")"));
    json_decref(out);
    /* running, or no NVSwitch (PCIe cards, a GB200 tray, HGX B200's switches off PCIe): quiet */
    out = fm_findings(4, "{\"running\": true, \"pid\": 2311}");
    assert_int_equal(json_array_size(out), 0);
    json_decref(out);
    out = fm_findings(0, "{\"running\": false}");
    assert_int_equal(json_array_size(out), 0);
    json_decref(out);
    /* unknown: said, action none */
    out = fm_findings(4, NULL);
    assert_int_equal(json_array_size(out), 1);
    assert_string_equal(action_of(json_array_get(out, 0)), "none");
    assert_non_null(strstr(message_of(json_array_get(out, 0)), "unknown"));
    json_decref(out);
}

static json_t *sxid_findings(const char *log)
{
    json_t *st = json_pack("{s:s}", "kernel_log", log), *out = json_array();
    ls_health_rule_sxid(st, out);
    json_decref(st);
    return out;
}

#define SW2 "nvidia-nvswitch2: SXid (PCI:0000:07:00.0): "

/* One finding per switch and SXid: the follow-up lines folded, the count, the links. */
static void sxid_grouped(void **state)
{
    (void)state;
    json_t *out = sxid_findings("[ 1.0] " SW2 "20034, Fatal, Link 24 LTSSM Fault Up\n"
                                "[ 1.1] " SW2 "20034, Severity 5 Engine instance 24\n"
                                "[ 1.2] " SW2 "20034, Data {0x00000018}\n"
                                "[ 2.0] " SW2 "20034, Fatal, Link 25 LTSSM Fault Up\n"
                                "[ 3.0] " SW2 "22013, Non-fatal, Link 01 Minion Link DLREQ\n");
    assert_int_equal(json_array_size(out), 2);
    const json_t *f = json_array_get(out, 0);
    assert_string_equal(action_of(f), "reboot");
    assert_string_equal(message_of(f), "NVSwitch 0000:07:00.0 (nvidia-nvswitch2) SXid 20034 "
                                       "NVLink LTSSM fault (link up): fatal, 2 times on links "
                                       "24, 25");
    assert_null(json_object_get(f, "gpu"));
    assert_string_equal(action_of(json_array_get(out, 1)), "watch");
    json_decref(out);
}

/* The line's own word wins over the catalog (12028 is fatal there); a follow-up line whose
   headline the log lost is counted, its severity not said: the catalog's action. */
static void sxid_line_word_wins(void **state)
{
    (void)state;
    json_t *out = sxid_findings(SW2
                                "12028, Non-fatal, Link 32 egress non-posted PRIV error\n" SW2
                                "24007, Severity 1 Engine instance 12 Sub-engine instance 00\n");
    assert_int_equal(json_array_size(out), 2);
    assert_string_equal(action_of(json_array_get(out, 0)), "watch");
    assert_non_null(strstr(message_of(json_array_get(out, 1)), "severity not in the line"));
    const char *meaning;
    enum ls_sxid_severity sev;
    enum ls_action a;
    ls_sxid_lookup(24007, &meaning, &sev, &a);
    assert_string_equal(action_of(json_array_get(out, 1)), ls_action_name(a));
    json_decref(out);
}

/* A log without SXid lines, or none at all (the kernel_log rule says so): quiet. */
static void sxid_quiet(void **state)
{
    (void)state;
    json_t *out = sxid_findings("[ 5.4] NVRM: loading NVIDIA UNIX Open Kernel Module  570.124.06\n"
                                "[ 5.5] nvidia-nvswitch0: using MSI\n");
    assert_int_equal(json_array_size(out), 0);
    json_decref(out);
    json_t *st = json_pack("{s:n}", "kernel_log"), *none = json_array();
    ls_health_rule_sxid(st, none);
    assert_int_equal(json_array_size(none), 0);
    json_decref(none);
    json_decref(st);
}

/* A live kernel log's bytes need not be UTF-8: a switch name that is not is skipped, the
   other lines still read. */
static void sxid_scan_broken_bytes(void **state)
{
    (void)state;
    json_t *events = json_array();
    ls_sxid_scan("nvidia-nvswitch\xff: SXid (PCI:0000:07:00.0): 20034, Fatal, Link 1 x\n" SW2
                 "20034, Fatal, Link 24 LTSSM Fault Up \xc3\n",
                 events);
    assert_int_equal(json_array_size(events), 1);
    const json_t *e = json_array_get(events, 0);
    assert_string_equal(json_string_value(json_object_get(e, "bus_id")), "00000000:07:00.0");
    assert_true(json_is_true(json_object_get(e, "fatal")));
    assert_int_equal(ls_sxid_event_action(e), LS_ACT_REBOOT);
    json_decref(events);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fm_found_by_its_cut_name),
        cmocka_unit_test(fm_absent_from_the_host_list),
        cmocka_unit_test(fm_unknown_where_the_list_is_partial),
        cmocka_unit_test(fm_rule),
        cmocka_unit_test(sxid_grouped),
        cmocka_unit_test(sxid_line_word_wins),
        cmocka_unit_test(sxid_quiet),
        cmocka_unit_test(sxid_scan_broken_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
