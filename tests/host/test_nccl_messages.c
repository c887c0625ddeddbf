/* The WARN catalog (data/nccl-messages.tsv, analyze/nccl_messages.c): lines NCCL prints
   are named by the right row, an earlier specific row wins over a general one, and a
   line no row knows is not matched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "analyze/nccl_messages.h"

static void expect_row(const char *text, const char *id, int severity)
{
    ls_nccl_message_t m;
    assert_int_equal(ls_nccl_message_match(text, &m), 0);
    assert_string_equal(m.id, id);
    assert_int_equal(m.severity, severity);
    assert_true(m.subsystem[0] && m.meaning[0] && m.cause[0] && m.next[0]);
}

static void known_lines_named(void **state)
{
    (void)state;
    expect_row("NET/IB : Got completion from peer 10.0.0.2<5> with status=12 opcode=0 len=0 vendor "
               "err 129 (Recv)",
               "ib_completion_error", 2);
    expect_row("NET/IB : Got completion from peer fe80::1%ib0<3> with error 4, opcode 1, len 1, "
               "vendor err 81 (Send)",
               "ib_completion_error", 2);
    expect_row("Call to ibv_reg_mr_iova2 failed with error Invalid argument", "ib_reg_mr", 2);
    expect_row("Error: failed to extend /dev/shm/nccl-abc to 5967876 bytes", "shm_extend", 2);
    /* a missing verbs library alone is normal on one node: net_socket judges the fallback */
    expect_row("Failed to open libibverbs.so[.1]", "ibverbs_missing", 0);
    /* NCCL 2.12-2.18 socket.cc (2.19+: "socketProgressOpt: Call to recv ...") */
    expect_row("Net : Call to recv from 10.200.84.247<58355> failed : Broken pipe",
               "socket_recv_errno", 2);
    expect_row("socketProgressOpt: Call to recv from 10.0.0.2<5> failed : Broken pipe",
               "socket_recv_errno", 2);
    /* socket connects retried until NCCL gave up (2.24+ and 2.21's wording) */
    expect_row("socketPollConnect: connect returned No route to host, exceeded error retry count "
               "(35)",
               "socket_retries_out", 2);
    expect_row("socketPollConnect: exceeded retries (10000)", "socket_retries_out_old", 2);
    /* ncclSocketInit's family check (src/misc/socket.cc): an address never filled in */
    expect_row("ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor "
               "AF_INET6(10)",
               "socket_family", 2);
}

static void specific_before_general(void **state)
{
    (void)state;
    expect_row("Cuda failure 'out of memory'", "cuda_oom", 2);
    expect_row("Cuda failure 'peer access is not supported between these two devices'", "cuda_peer",
               2);
    expect_row("Cuda failure 'invalid argument'", "cuda_failure", 2);
    /* net_ib's async event thread prints every event libibverbs reports, in
       ibv_event_type_str's words: the informational ones (subnet management, a port
       coming up) are info, the error ones and any word the catalog does not know stay
       errors */
    expect_row("NET/IB : Got async event : client reregistration", "ib_async_info", 0);
    expect_row("NET/IB : mlx5_0:1 Got async event : SM change", "ib_async_info", 0);
    expect_row("NET/IB : mlx5_0:1 Got async event : port active", "ib_async_info", 0);
    expect_row("NET/IB : mlx5_0:1 Got async event : port error", "ib_async_event", 2);
    expect_row("NET/IB : Got async event : local catastrophic error", "ib_async_event", 2);
    expect_row("NET/IB : Got async event : path migration request error", "ib_async_event", 2);
    expect_row("NET/IB : Got async event : unknown", "ib_async_event", 2);
    /* nvls.cc's bind failure names a CUDA error (out of memory, 401, invalid argument) but
       is NVLS's: the Fabric Manager or NVSwitches, not a full GPU */
    expect_row("Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error "
               "2 'out of memory'.",
               "nvls_bind_failed", 2);
}

/* A row of one source file ("@nvls.cc:Cuda failure"): the CUDA failures NCCL's NVLS
   transport prints are NVLS's (the fabric's multicast), the same text printed elsewhere
   is the general row's, and the row never matches where the source is not known. */
static void source_rows(void **state)
{
    (void)state;
    ls_nccl_message_t m;
    assert_int_equal(ls_nccl_message_match_at("transport/nvls.cc:598",
                                              "Cuda failure 1 'invalid argument'", &m),
                     0);
    assert_string_equal(m.id, "nvls_cuda_failure");
    assert_int_equal(m.severity, 2);
    assert_int_equal(ls_nccl_message_match_at("nvls.cc:158", "Cuda failure 'invalid argument'", &m),
                     0);
    assert_string_equal(m.id, "nvls_cuda_failure");
    assert_int_equal(ls_nccl_message_match_at("misc/shmutils.cc:103",
                                              "Cuda failure 'invalid argument'", &m),
                     0);
    assert_string_equal(m.id, "cuda_failure");
    /* a file whose name only ends in the row's ("xnvls.cc") is another file */
    assert_int_equal(ls_nccl_message_match_at("xnvls.cc:1", "Cuda failure 'invalid argument'", &m),
                     0);
    assert_string_equal(m.id, "cuda_failure");
    assert_int_equal(ls_nccl_message_match("Cuda failure 'invalid argument'", &m), 0);
    assert_string_equal(m.id, "cuda_failure");
}

static void unknown_line_unmatched(void **state)
{
    (void)state;
    ls_nccl_message_t m;
    assert_int_equal(ls_nccl_message_match("Call to open failed: No such file or directory", &m),
                     -1);
    /* fragments must come in order */
    assert_int_equal(ls_nccl_message_match("failed: ibv_reg_mr", &m), -1);
    assert_int_equal(ls_nccl_message_match("", &m), -1);
    /* healthy twins: the address family named in an INFO line, a recv that is not a failure */
    assert_int_equal(ls_nccl_message_match("NCCL_SOCKET_FAMILY set by environment to AF_INET6", &m),
                     -1);
    assert_int_equal(ls_nccl_message_match("Call to recv from 10.0.0.2<5> returned 0 bytes", &m),
                     -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(known_lines_named),
                                       cmocka_unit_test(specific_before_general),
                                       cmocka_unit_test(source_rows),
                                       cmocka_unit_test(unknown_line_unmatched)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
