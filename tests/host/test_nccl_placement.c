/* Thread placement as recorded with every NCCL sweep: the last CPU (field 39 of
   /proc/.../stat, counted after the last ')' since a thread name may hold spaces and
   parentheses), the name, the allowed CPU list; read from a fake /proc, then live. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nccl/placement.h"

static char root[64];

static void put(const char *rel, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/ls-placement-XXXXXX");
    assert_non_null(mkdtemp(root));
    const char *dirs[] = {"proc", "proc/self", "proc/self/task", "proc/self/task/4242"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        assert_int_equal(mkdir(path, 0755), 0);
    }
    /* fields 3..38 are filler; field 39 (processor) is 13 */
    char stat[1024] = "4242 (NCCL (x) Svc) S";
    for (int f = 4; f <= 38; f++)
        strcat(stat, " 0");
    strcat(stat, " 13 0 0 0\n");
    put("proc/self/task/4242/stat", stat);
    put("proc/self/task/4242/comm", "NCCL (x) Svc\n");
    put("proc/self/task/4242/status",
        "Name:\tNCCL\nCpus_allowed:\tff\nCpus_allowed_list:\t0-3,8\nMems_allowed:\t1\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    return system(cmd);
}

static void reads_a_fake_proc(void **state)
{
    (void)state;
    json_t *list = ls_thread_placement(root);
    assert_int_equal(json_array_size(list), 1);
    json_t *t = json_array_get(list, 0);
    assert_int_equal(json_integer_value(json_object_get(t, "tid")), 4242);
    assert_string_equal(json_string_value(json_object_get(t, "name")), "NCCL (x) Svc");
    assert_int_equal(json_integer_value(json_object_get(t, "cpu")), 13);
    assert_string_equal(json_string_value(json_object_get(t, "allowed")), "0-3,8");
    json_decref(list);
}

static void missing_proc_gives_an_empty_list(void **state)
{
    (void)state;
    json_t *list = ls_thread_placement("/nonexistent-root");
    assert_true(json_is_array(list));
    assert_int_equal(json_array_size(list), 0);
    json_decref(list);
}

static void live_process(void **state)
{
    (void)state;
    json_t *list = ls_thread_placement(NULL);
    int tid = (int)syscall(SYS_gettid), found = 0;
    size_t i;
    json_t *t;
    json_array_foreach(list, i, t) {
        if (json_integer_value(json_object_get(t, "tid")) == tid) {
            found = 1;
            assert_true(json_integer_value(json_object_get(t, "cpu")) >= 0);
            assert_true(strlen(json_string_value(json_object_get(t, "allowed"))) > 0);
        }
    }
    assert_true(found);
    json_decref(list);
    char allowed[256];
    ls_affinity_text(allowed, sizeof allowed);
    assert_true(allowed[0] >= '0' && allowed[0] <= '9');
    assert_true(ls_current_cpu() >= 0);
}

static void pinning_and_restoring(void **state)
{
    (void)state;
    void *saved = NULL;
    char before[256], during[256], after[256];
    ls_affinity_text(before, sizeof before);
    assert_int_equal(ls_pin_self(-1, &saved), -1);
    assert_null(saved);
    int cpu = atoi(before); /* the first allowed CPU */
    assert_int_equal(ls_pin_self(cpu, &saved), 0);
    ls_affinity_text(during, sizeof during);
    char want[16];
    snprintf(want, sizeof want, "%d", cpu);
    assert_string_equal(during, want);
    ls_unpin_self(saved);
    ls_affinity_text(after, sizeof after);
    assert_string_equal(after, before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(reads_a_fake_proc, setup, teardown),
        cmocka_unit_test(missing_proc_gives_an_empty_list),
        cmocka_unit_test(live_process),
        cmocka_unit_test(pinning_and_restoring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
