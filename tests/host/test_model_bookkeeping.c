/* model/'s bookkeeping: unique measurement ids (one function, a hash set), PCI bus ids in
   every form the sources print, and the NCCL channel line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "model/busid.h"
#include "model/doc.h"
#include "model/entry.h"
#include "model/idset.h"
#include "model/nccl_log.h"

static json_t *entry_with_id(const char *id)
{
    json_t *e = ls_entry_new("p2p", "bandwidth", "GB/s");
    json_object_set_new(e, "id", json_string(id));
    return e;
}

static const char *id_at(const json_t *doc, size_t i)
{
    return ls_json_str(json_array_get(json_object_get(doc, "measurements"), i), "id", "");
}

static void ids_get_the_first_free_suffix(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_doc_add_unique(doc, entry_with_id("a"));
    ls_doc_add_unique(doc, entry_with_id("a-3")); /* taken before its turn */
    ls_doc_add_unique(doc, entry_with_id("a"));
    ls_doc_add_unique(doc, entry_with_id("a"));
    ls_doc_add_unique(doc, entry_with_id("a"));
    assert_string_equal(id_at(doc, 2), "a-2");
    assert_string_equal(id_at(doc, 3), "a-4");
    assert_string_equal(id_at(doc, 4), "a-5");
    json_decref(doc);
}

static void ids_follow_entries_added_elsewhere(void **state)
{
    (void)state;
    json_t *doc = ls_doc_new();
    ls_doc_add_unique(doc, entry_with_id("x"));
    /* added without the index (as cmd_tp does): the next call must still see it */
    ls_doc_add_measurement(doc, entry_with_id("x-2"));
    ls_doc_add_unique(doc, entry_with_id("x"));
    assert_string_equal(id_at(doc, 2), "x-3");
    json_t *other = ls_doc_new(); /* another document starts empty */
    ls_doc_add_unique(other, entry_with_id("x"));
    assert_string_equal(id_at(other, 0), "x");
    json_decref(other);
    json_decref(doc);
}

/* A document freed and a new one made: the new one's ids start afresh, even where the
   allocator hands out the same addresses. */
static void ids_of_a_freed_document_are_forgotten(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        json_t *doc = ls_doc_new();
        ls_doc_add_unique(doc, entry_with_id("y"));
        ls_doc_add_unique(doc, entry_with_id("y"));
        assert_string_equal(id_at(doc, 0), "y");
        assert_string_equal(id_at(doc, 1), "y-2");
        json_decref(doc);
    }
}

static void idset_grows_and_finds(void **state)
{
    (void)state;
    ls_idset_t s;
    ls_idset_init(&s);
    char key[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "id-%d", i);
        assert_non_null(ls_idset_add(&s, key));
    }
    assert_int_equal(s.count, 1000);
    assert_non_null(ls_idset_find(&s, "id-999"));
    assert_null(ls_idset_find(&s, "id-1000"));
    ls_idset_free(&s);
}

static void bus_ids_in_every_printed_form(void **state)
{
    (void)state;
    char buf[32];
    assert_int_equal(ls_busid_normalize("0000:07:00", buf, sizeof buf), 0); /* nccl-tests */
    assert_string_equal(buf, "00000000:07:00.0");
    assert_int_equal(ls_busid_normalize("00000000:3B:00.0", buf, sizeof buf), 0);
    assert_string_equal(buf, "00000000:3b:00.0");
    assert_int_equal(ls_busid_normalize("07:00", buf, sizeof buf), -1);
    assert_int_equal(ls_busid_normalize("0000:07:00x", buf, sizeof buf), -1);
    assert_int_equal(ls_busid_normalize("0000:100:00.0", buf, sizeof buf), -1);
}

static void channel_lines(void **state)
{
    (void)state;
    ls_nccl_channel_t c;
    assert_int_equal(ls_nccl_channel_parse("Channel 02/1 : 0[4] -> 1[5] [send] via "
                                           "NET/IB/0/GDRDMA\n",
                                           &c),
                     0);
    assert_int_equal(c.channel, 2);
    assert_int_equal(c.conn, 1);
    assert_true(c.has_conn);
    assert_string_equal(c.from, "4");
    assert_string_equal(c.to, "5");
    assert_string_equal(c.side, "send");
    assert_string_equal(c.via, "NET/IB/0/GDRDMA");
    assert_int_equal(ls_nccl_channel_parse("Channel 00 : 0[60] -> 1[70] via P2P/IPC", &c), 0);
    assert_false(c.has_conn);
    assert_string_equal(c.via, "P2P/IPC");
    assert_int_equal(ls_nccl_channel_parse("Channel 00/24 : 0 1 2 3", &c), -1);
    assert_true(ls_nccl_transport_skips_p2p("SHM/direct/direct"));
    assert_true(ls_nccl_transport_skips_p2p("NET/IB"));
    assert_false(ls_nccl_transport_skips_p2p("P2P/CUMEM"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ids_get_the_first_free_suffix),
        cmocka_unit_test(ids_follow_entries_added_elsewhere),
        cmocka_unit_test(ids_of_a_freed_document_are_forgotten),
        cmocka_unit_test(idset_grows_and_finds),
        cmocka_unit_test(bus_ids_in_every_printed_form),
        cmocka_unit_test(channel_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
