/* cuda-samples' simpleP2P (import/simple_p2p.c): a kernel on each GPU of the pair read the
   other GPU's buffer over P2P and the host checked every element. A wrong element means
   the data that crossed the P2P path came back wrong: the path corrupts data. The sample
   fails only then ("Test failed!" when its error count is not 0), so a failed result is
   that evidence even where the paste left the error lines out. */
#include "rules.h"
#include "tools_rules.h"
#include "model/doc.h"

#include <stdio.h>
#include <string.h>

/* A value as printf's %f wrote it; "nan" / "-nan" said in words (the data read back was
   not a number: the report's "nan" stands for an unknown elsewhere). */
static const char *value_words(const char *v)
{
    return !strcmp(v, "nan") || !strcmp(v, "-nan") ? "NaN (not a number)" : v;
}

/* "12 wrong elements printed (element 0: nan where 0.000000 was expected)". */
static void put_errors(ls_text_t *t, const json_t *r)
{
    long long n = ls_json_int(r, "verification_errors", 0);
    const json_t *e = json_array_get(json_object_get(r, "first_errors"), 0);
    if (n <= 0) {
        ls_text_put(t, "the test failed (its wrong-element lines not in the paste)");
        return;
    }
    /* the sample stops printing after its 12th wrong element */
    ls_text_put(t, "%lld wrong element%s printed%s", n, n == 1 ? "" : "s",
                n >= 12 ? " (the sample stops at 12)" : "");
    if (e)
        ls_text_put(t, ", element %lld read %s where %s was expected", ls_json_int(e, "element", 0),
                    value_words(ls_json_str(e, "val", "")), ls_json_str(e, "ref", ""));
}

static void corrupt(json_t *out, const json_t *r, size_t i)
{
    const json_t *g = json_object_get(r, "gpus");
    int paired = json_array_size(g) == 2;
    long long a = json_integer_value(json_array_get(g, 0));
    long long b = json_integer_value(json_array_get(g, 1));
    ls_text_t t = {.used = 0};
    if (paired)
        ls_text_put(&t, "GPU%lld<->GPU%lld: ", a, b);
    ls_text_put(&t, "simpleP2P's kernels read the peer GPU's memory over P2P and the data came "
                    "back wrong (");
    put_errors(&t, r);
    ls_text_put(&t,
                "): the P2P path between the pair corrupts data, so whatever uses it "
                "(NCCL's P2P transport, CUDA IPC, cudaMemcpyPeer) computes on wrong data "
                "without an error. Likely: a platform where P2P is not really supported "
                "(IOMMU / VT-d or PCIe ACS redirecting peer traffic, a virtual machine, a "
                "GPU whose driver exposes peer access it does not support); rarely a "
                "failing link. Next: NCCL_P2P_DISABLE=1 for jobs here until it passes; "
                "`nvidia-smi topo -p2p r`, `lspci -vvv | grep ACSCtl`, `dmesg | grep -i -e "
                "DMAR -e IOMMU`, then rerun simpleP2P and p2pBandwidthLatencyTest. Node "
                "action: isolate: %s (no reset or reboot is known to mend it)",
                ls_action_words(LS_ACT_ISOLATE));
    char path[48];
    snprintf(path, sizeof path, "simple_p2p[%zu]", i);
    ls_finding_add(out, "p2p_corrupt", LS_SEV_ERROR,
                   paired ? LS_ABOUT_BOTH(a, b) : LS_ABOUT_WHAT("the GPU pair simpleP2P tested"),
                   json_pack("[s]", path), "%s", t.buf);
    json_object_set_new(json_array_get(out, json_array_size(out) - 1), "node_action",
                        json_string(ls_action_name(LS_ACT_ISOLATE)));
}

void ls_rules_simple_p2p(const json_t *doc, json_t *out)
{
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(doc, "simple_p2p"), i, r) {
        if (ls_json_int(r, "verification_errors", 0) > 0 ||
            !strcmp(ls_json_str(r, "result", ""), "failed"))
            corrupt(out, r, i);
    }
}
