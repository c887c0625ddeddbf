/* cuda-samples' simpleP2P. What its main() prints and does (Samples/0_Introduction/
   simpleP2P/simpleP2P.cu; the 2012-era form in its comments):
   - "> Peer access from NAME (GPUi) -> NAME (GPUj) : Yes|No" for every ordered pair:
     cudaDeviceCanAccessPeer, as discovery records it in links[].cuda_peer_access; older
     samples first print "> GPUi = "NAME" IS |NOT capable of Peer-to-Peer (P2P)";
   - it takes the first pair that can, "Enabling peer access between GPUa and GPUb...",
     or waives the test ("Peer to Peer access is not available amongst GPUs in the
     system, waiving test."; older: "... between GPUa <-> GPUb, waiving test.");
   - "cudaMemcpyPeer / cudaMemcpy between GPUa and GPUb: X.XXGB/s": 100 cudaMemcpy of one
     64 MiB buffer, alternately a -> b and b -> a, timed by events; X = bytes / s / 2^30
     (GiB/s, printed as GB/s), an average over both directions;
   - a kernel on GPUb reads GPUa's buffer over P2P and writes its own, then a kernel on
     GPUa reads GPUb's; the host checks every element, printing "Verification error @
     element I: val = V, ref = R" for each wrong one (at most 12);
   - "Test passed" / "Test failed!" (older: "PASSED" / "FAILED", `&&&& simpleP2P
     PASSED`), failed only when some element was wrong. */
#include "simple_p2p.h"
#include "cuda_error.h"
#include "import_note.h"
#include "import_util.h"
#include "model/doc.h"
#include "model/topo.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_ERRORS 3 /* verification errors kept in the record */

typedef struct {
    json_t *doc, *rec, *first_errors;
    int access_lines, pair[2], errors, verify_started, seen;
    char result[16], waived[160];
} simple_p2p_t;

int ls_simple_p2p_detect(const char *text)
{
    static const char *const marks[] = {"simpleP2P] - Starting...",
                                        "Checking GPU(s) for support of peer to peer memory access",
                                        "cudaMemcpyPeer / cudaMemcpy between GPU",
                                        "capable of Peer-to-Peer (P2P)"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(text, marks[i]))
            return 1;
    /* a paste cut above them: the kernel lines ("Run kernel on GPU1, taking source data from
       GPU0 and writing to GPU1...") or the check's own line with its reference value */
    const char *v = strstr(text, "Verification error @ element ");
    const char *veol = v ? strchr(v, '\n') : NULL;
    if (strstr(text, ", taking source data from GPU") ||
        (v && strstr(v, ", ref = ") && (!veol || strstr(v, ", ref = ") < veol)))
        return 1;
    const char *p = strstr(text, "> Peer access from ");
    const char *eol = p ? strchr(p, '\n') : NULL;
    return p && strstr(p, "(GPU") && (!eol || strstr(p, "(GPU") < eol);
}

static void set_access(simple_p2p_t *s, int a, int b, int yes)
{
    ls_import_gpu(s->doc, a);
    ls_import_gpu(s->doc, b);
    json_t *link = ls_json_find_or_add(ls_json_array_at(s->doc, "links"),
                                       json_pack("{s:i, s:i, s:s, s:s}", "a", a, "b", b, "type",
                                                 "?", "class", "?"),
                                       "a", "b");
    json_object_set_new(link, "cuda_peer_access", json_boolean(yes));
    s->access_lines++;
}

/* The GPU's name before " (GPUn)" ending at end (exclusive), set where absent; none
   when the line prints none there ("from (GPU0)"). */
static void name_gpu(simple_p2p_t *s, int g, const char *from, const char *end)
{
    char name[128];
    if (end <= from)
        return;
    snprintf(name, sizeof name, "%.*s", (int)(end - from), from);
    ls_set_if_absent(ls_import_gpu(s->doc, g), "name", name);
}

/* "> Peer access from A (GPUi) -> B (GPUj) : Yes" (also "Peer-to-Peer (P2P) access"). */
static int parse_access(simple_p2p_t *s, const char *t)
{
    const char *p = strstr(t, " access from ");
    if (!p || strncmp(t, "> ", 2) != 0)
        return 0;
    p += strlen(" access from ");
    const char *arrow = strstr(p, " -> ");
    const char *ga = arrow ? strstr(p, " (GPU") : NULL;
    const char *gb = arrow ? strstr(arrow, " (GPU") : NULL;
    const char *colon = gb ? strstr(gb, ") : ") : NULL;
    int a, b;
    if (!ga || ga > arrow || !colon || sscanf(ga, " (GPU%d)", &a) != 1 ||
        sscanf(gb, " (GPU%d)", &b) != 1 || a < 0 || b < 0 || a >= LS_MAX_GPUS || b >= LS_MAX_GPUS ||
        a == b)
        return 0;
    const char *word = colon + 4;
    int yes = !strncmp(word, "Yes", 3), no = !strncmp(word, "No", 2);
    if (!yes && !no)
        return 0;
    name_gpu(s, a, p, ga);
    name_gpu(s, b, arrow + 4, gb);
    set_access(s, a, b, yes);
    return 1;
}

/* Older samples: "> GPU0 = "      Tesla K80" IS  capable of Peer-to-Peer (P2P)". */
static int parse_capable(simple_p2p_t *s, const char *t)
{
    int g;
    char name[128];
    if (sscanf(t, "> GPU%d = \"%127[^\"]\"", &g, name) != 2 || g < 0 || g >= LS_MAX_GPUS ||
        !strstr(t, "capable of Peer-to-Peer"))
        return 0;
    const char *n = name + strspn(name, " "); /* "%15s": the name right-aligned */
    ls_set_if_absent(ls_import_gpu(s->doc, g), "name", n);
    return 1;
}

static void add_error(simple_p2p_t *s, const char *t)
{
    long long el;
    char val[32], ref[32];
    s->errors++;
    if (json_array_size(s->first_errors) >= FIRST_ERRORS ||
        sscanf(t, "Verification error @ element %lld: val = %31[^,], ref = %31s", &el, val, ref) !=
            3)
        return;
    json_array_append_new(s->first_errors,
                          json_pack("{s:I, s:s, s:s}", "element", el, "val", val, "ref", ref));
}

/* "Test passed" / "Test failed!" and the older QA lines. */
static int parse_result(simple_p2p_t *s, const char *t)
{
    static const struct {
        const char *text, *result;
    } forms[] = {{"Test passed", "passed"},   {"Test failed!", "failed"},
                 {"PASSED", "passed"},        {"FAILED", "failed"},
                 {"Result = PASS", "passed"}, {"Result = FAIL", "failed"}};
    const char *u = !strncmp(t, "&&&& ", 5) && strchr(t + 5, ' ') ? strchr(t + 5, ' ') + 1 : t;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (!strcmp(u, forms[i].text)) {
            if (strcmp(s->result, "waived") != 0) /* older samples print PASSED after waiving */
                snprintf(s->result, sizeof s->result, "%s", forms[i].result);
            return 1;
        }
    return 0;
}

/* The pair the sample tested, GPU indices of the machine view only (the record's gpus
   name the finding's GPUs). */
static void set_pair(simple_p2p_t *s, int a, int b)
{
    if (a >= 0 && b >= 0 && a < LS_MAX_GPUS && b < LS_MAX_GPUS && a != b)
        s->pair[0] = a, s->pair[1] = b;
}

static void parse_line(simple_p2p_t *s, const char *t)
{
    int a, b;
    double gib;
    const char *m = strstr(t, "cudaMemcpyPeer / cudaMemcpy between GPU");
    if (parse_access(s, t) || parse_capable(s, t) || parse_result(s, t))
        return;
    if (sscanf(t, "CUDA-capable device count: %d", &a) == 1) {
        json_object_set_new(s->rec, "device_count", json_integer(a));
    } else if (sscanf(t, "Enabling peer access between GPU%d and GPU%d", &a, &b) == 2) {
        set_pair(s, a, b);
    } else if (m && sscanf(m, "cudaMemcpyPeer / cudaMemcpy between GPU%d and GPU%d: %lfGB/s", &a,
                           &b, &gib) == 3) {
        set_pair(s, a, b);
        json_object_set_new(s->rec, "memcpy_gibps", json_real(gib));
    } else if (sscanf(t, "Run kernel on GPU%d, taking source data from GPU%d", &b, &a) == 2) {
        if (s->pair[0] < 0) /* the pair of a paste cut above its Enabling line */
            set_pair(s, a < b ? a : b, a < b ? b : a);
    } else if (sscanf(t, "Allocating buffers (%dMB", &a) == 1) {
        json_object_set_new(s->rec, "buffer_mib", json_integer(a));
    } else if (strstr(t, "and verify results")) {
        s->verify_started = 1;
    } else if (!strncmp(t, "Verification error @ element ", 29)) {
        add_error(s, t);
    } else if (strstr(t, "waiving test") || strstr(t, "Waiving test")) {
        snprintf(s->result, sizeof s->result, "waived");
        if (!s->waived[0])
            snprintf(s->waived, sizeof s->waived, "%s", t);
    } else
        return;
    s->seen = 1;
}

/* The record: what the text showed; a run cut before its result is noted. */
static void finish(simple_p2p_t *s, const char *name)
{
    json_object_set_new(s->rec, "file", json_string(name));
    if (s->pair[0] >= 0)
        json_object_set_new(s->rec, "gpus", json_pack("[i, i]", s->pair[0], s->pair[1]));
    json_object_set_new(s->rec, "verification_errors", json_integer(s->errors));
    if (json_array_size(s->first_errors))
        json_object_set(s->rec, "first_errors", s->first_errors);
    if (s->result[0])
        json_object_set_new(s->rec, "result", json_string(s->result));
    if (s->waived[0])
        json_object_set_new(s->rec, "waived", json_string(s->waived));
    if (!s->result[0])
        ls_import_note_missing("no result line ('Test passed' / 'Test failed!'): the paste stops "
                               "%s",
                               s->verify_started ? "inside the verification"
                                                 : "before the verification");
    json_array_append(ls_json_array_at(s->doc, "simple_p2p"), s->rec);
}

/* AMD's HIP port of the sample (ROCm's hip-tests / HIP samples): the same lines with HIP's
   words where CUDA's stand, "HIP-capable device count: N" for "CUDA-capable ...",
   "hipMemcpyPeer / hipMemcpy between GPU0 and GPU1" for "cudaMemcpyPeer / cudaMemcpy ...".
   Its GPUs are AMD's: no NVIDIA link class, ceiling or rule holds for them. The mark, or
   NULL. */
static const char *hip_port(const char *text)
{
    static const char *const marks[] = {"HIP-capable device count", "hipMemcpyPeer / hipMemcpy"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(text, marks[i]))
            return marks[i];
    /* a peer-access line naming an AMD part ("> Peer access from AMD Instinct MI250X
       (GPU0) -> ..."): the same sample run on AMD's GPUs */
    static const char *const amd[] = {"AMD Instinct", "Radeon"};
    for (const char *p = strstr(text, "> Peer access from "); p;
         p = strstr(p + 1, "> Peer access from ")) {
        char line[256]; /* the line alone: a name past its end is another line's */
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        for (size_t i = 0; i < sizeof amd / sizeof amd[0]; i++)
            if (strstr(line, amd[i]))
                return amd[i];
    }
    return NULL;
}

int ls_import_simple_p2p(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    const char *hip = hip_port(text);
    if (hip)
        return ls_seterr(err, errlen,
                         "%s: AMD HIP's port of simpleP2P ('%s'): not read; linkscope reads "
                         "NVIDIA's CUDA tools only",
                         name, hip);
    simple_p2p_t s = {.doc = doc,
                      .rec = json_object(),
                      .first_errors = json_array(),
                      .pair = {-1, -1}};
    ls_line_t line;
    const char *pos = text;
    while (ls_next_line(&pos, &line)) {
        char *t = line.buf + strspn(line.buf, " \t");
        t[strcspn(t, "\r")] = '\0';
        for (size_t n = strlen(t); n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'); n--)
            t[n - 1] = '\0';
        parse_line(&s, t);
    }
    int ok = s.seen || s.access_lines > 0;
    if (ok)
        finish(&s, name);
    json_decref(s.rec);
    json_decref(s.first_errors);
    if (!ok)
        return ls_seterr(err, errlen,
                         "%s: no simpleP2P peer-access, bandwidth or result line found "
                         "(expected lines such as '> Peer access from NAME (GPU0) -> NAME (GPU1) "
                         ": Yes' or 'cudaMemcpyPeer / cudaMemcpy between GPU0 and GPU1: "
                         "25.12GB/s')",
                         name);
    char ignored[256]; /* a checkCudaErrors line ("CUDA error at simpleP2P.cu:N code=...") */
    ls_import_cuda_errors(doc, text, name, ignored, sizeof ignored);
    return 0;
}
