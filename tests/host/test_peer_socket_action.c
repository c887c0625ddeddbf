/* NCCL WARN lines about a TCP connection to another rank (refused, closed, reset, timed
   out, retries used up) carry node action none: the line is about the peer or the network
   between, not this node (rules_nccl_log.c, gaps12); other WARN lines carry none at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"
#include "import/import.h"
#include "model/doc.h"

static void refused_retries_is_none(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("node6:3996242:3996242 [2] misc/socket.cc:578 NCCL WARN "
                                      "socketPollConnect: connect to "
                                      "10.82.101.249<54709> returned Connection refused, exceeded "
                                      "error retry count after 35 "
                                      "attempts\n",
                                      LS_FMT_NCCL_LOG);
    ls_test_fires(doc, "nccl_warn", "error", "none", "Connection refused");
    json_decref(doc);
}

static void closed_by_peer_is_none(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("node6:11:11 [0] misc/socket.cc:47 NCCL WARN Net : "
                                      "Connection closed by remote peer 10.0.0.2<45678>\n",
                                      LS_FMT_NCCL_LOG);
    ls_test_fires(doc, "nccl_warn", "error", "none", NULL);
    json_decref(doc);
}

/* A NIC's own fault is not the peer's: no node action is claimed for it here. */
static void nic_event_has_no_action(void **state)
{
    (void)state;
    json_t *doc = ls_test_import_text("node6:11:12 [0] transport/net_ib.cc:100 NCCL WARN NET/IB : "
                                      "Got async event : port error\n",
                                      LS_FMT_NCCL_LOG);
    ls_test_fires(doc, "nccl_warn", "error", "", NULL);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_retries_is_none),
        cmocka_unit_test(closed_by_peer_is_none),
        cmocka_unit_test(nic_event_has_no_action),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
