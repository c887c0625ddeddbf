/* NCCL WARN lines about a TCP connection to another rank (refused, closed, reset, timed
   out, retries used up) carry node action none: the line is about the peer or the network
   between, not this node (rules_nccl_log.c, gaps12); other WARN lines carry none at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

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

/* The catalog's rows whose every likely cause is the job's set-up (an address never
   filled in, an interface NCCL_SOCKET_IFNAME names missing, two ranks on one GPU, a
   refused setting) carry node action none too, as WARN lines and as NCCL's text pasted
   without its prefix beside PyTorch's NCCL error line (gaps18). */
static void job_setup_is_none(void **state)
{
    (void)state;
    static const char *const says[] = {
        "ncclSocketInit: connecting to address with family 0 is neither AF_INET(2) nor "
        "AF_INET6(10)",
        "Bootstrap : no socket interface found",
        "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1a000",
        /* bootstrap.cc's root: one rank from two processes, world sizes that differ */
        "Bootstrap Root : rank 1 of 8 ranks has already checked in",
        "Bootstrap Root : mismatch in rank count from procs 8 : 16",
    };
    for (size_t i = 0; i < sizeof says / sizeof *says; i++) {
        char text[512];
        snprintf(text, sizeof text, "node6:11:11 [0] misc/socket.cc:466 NCCL WARN %s\n", says[i]);
        json_t *doc = ls_test_import_text(text, LS_FMT_NCCL_LOG);
        ls_test_fires(doc, "nccl_warn", "error", "none", NULL);
        json_decref(doc);
    }
    json_t *doc = ls_test_import_text("ncclSocketInit: connecting to address with family 0 is "
                                      "neither AF_INET(2) nor "
                                      "AF_INET6(10)\n"
                                      "torch.distributed.DistBackendError: NCCL error in: "
                                      "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, "
                                      "internal error\n",
                                      LS_FMT_NCCL_LOG);
    ls_test_fires(doc, "nccl_warn", "error", "none", "neither IPv4 nor IPv6");
    json_decref(doc);
}

/* Beside PyTorch's NCCL error line, a line NCCL's catalog does not know, a traceback's
   source lines and Python's own lines are no WARN: nothing fires from them; without
   PyTorch's error line a bare message is not NCCL's. */
static void beside_torch_unknown_quiet(void **state)
{
    (void)state;
    const char *text = "Traceback (most recent call last):\n"
                       "  File \"train.py\", line 3, in <module>\n"
                       "    dist.init_process_group(\"nccl\")\n"
                       "starting epoch 1 of 3\n"
                       "torch.distributed.DistBackendError: NCCL error in: "
                       "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, internal error\n";
    assert_int_equal(ls_import_detect(text), LS_FMT_NCCL_LOG);
    json_t *doc = ls_test_import_text(text, LS_FMT_NCCL_LOG);
    ls_test_silent(doc, "nccl_warn");
    json_decref(doc);
    assert_int_not_equal(ls_import_detect("ncclSocketInit: connecting to address with family 0 "
                                          "is neither AF_INET(2) nor AF_INET6(10)\n"),
                         LS_FMT_NCCL_LOG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_retries_is_none),    cmocka_unit_test(closed_by_peer_is_none),
        cmocka_unit_test(nic_event_has_no_action),    cmocka_unit_test(job_setup_is_none),
        cmocka_unit_test(beside_torch_unknown_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
