#define _GNU_SOURCE /* strcasestr */
/* The CUDA error lines of a pasted text (cuda_error.h). */
#include "cuda_error.h"
#include "nccl_log_bare.h"
#include "nccl_tests.h"
#include "import_util.h"
#include "model/cuda_errors.h"
#include "model/doc.h"
#include "util/log.h"
#include "util/sanitize.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What one line says. */
typedef struct {
    const ls_cuda_error_t *row; /* the catalog's row, NULL when not in it */
    int code;                   /* -1 when the line gives none and the catalog has none */
    char name[64];              /* an enum name the line printed, kept when not in the catalog */
    char text[160];             /* the error's text: the catalog's string, else the line's */
    const char *form;
    char call[80], where[120];
    int gpu, rank;
    long found_version; /* PyTorch's "driver ... too old (found version 11040)" */
    int printed;        /* the code as printed where it is not the catalog's (CUDA < 10.1) */
} hit_t;

/* A catalog string this long is read anywhere in a line ("system not yet initialized",
   "an illegal memory access was encountered"): no other program prints it. Shorter ones
   ("out of memory", "invalid argument", "unknown error") only after "CUDA error" or with
   a code or enum name. */
#define LONG_STRING 24

/* Lines that belong to other readers: NCCL's own log lines (nccl_log.c; their WARN "Cuda
   failure" is read here too, by nccl_cuda_failure), the kernel's NVRM lines and, in a text
   nccl-tests' reader takes (tests_text), its "Cuda failure FILE:LINE '...'" / "Test CUDA
   failure FILE:LINE '...'" (nccl_tests.c: entry_failed). Elsewhere the same words are a
   program's own CUDA check (many copy nccl-tests' macro), read by quoted_failure. */
static int others_line(const char *line, int tests_text)
{
    if (strstr(line, "NCCL WARN") || strstr(line, "NCCL INFO") || strstr(line, "NVRM: "))
        return 1; /* the kernel's NVIDIA driver lines: kernel_log.c's */
    const char *f = strcasestr(line, "Cuda failure ");
    return tests_text && f && strchr(f, ':') && strchr(f, '\'');
}

/* A runtime (cudaErrorX) or driver (CUDA_ERROR_X) enum name in line: its row or NULL,
   the name in h->name; 0 when the line has none. */
static int name_in(const char *line, hit_t *h)
{
    for (const char *p = line; (p = strstr(p, "cudaError")); p++)
        if (isupper((unsigned char)p[9]) && (p == line || !isalnum((unsigned char)p[-1]))) {
            size_t n = 9 + strspn(p + 9, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
            snprintf(h->name, sizeof h->name, "%.*s", (int)n, p);
            h->row = ls_cuda_error_by_name(p, n);
            return 1;
        }
    for (const char *p = line; (p = strstr(p, "CUDA_ERROR_")); p++)
        if (isupper((unsigned char)p[11]) && (p == line || !isalnum((unsigned char)p[-1]))) {
            size_t n = 11 + strspn(p + 11, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
            snprintf(h->name, sizeof h->name, "%.*s", (int)n, p);
            h->row = ls_cuda_error_by_name(p, n);
            return 1;
        }
    return 0;
}

/* The number right after key in line (key's first occurrence), or -1. */
static int number_after(const char *line, const char *key, const char **end)
{
    const char *p = strstr(line, key);
    if (!p || !isdigit((unsigned char)p[strlen(key)]))
        return -1;
    char *e;
    long v = strtol(p + strlen(key), &e, 10);
    if (end)
        *end = e;
    return v > 0 && v < 100000 ? (int)v : -1;
}

/* The forms that print a code: cuda-samples' "code=802(", deviceQuery's "cudaX returned
   802", PyTorch's "Error 802: " (its CUDA initialization warning), old PyTorch's
   "THCudaCheck FAIL ... error=802 : " and "cuda runtime error (802) : ", Caffe's "error ==
   cudaSuccess (35 vs. 0)", a CUDART call's "cudaMemcpyAsync(...) = 700 (", TensorFlow's
   "UNKNOWN ERROR (303)". The code, or -1; the form in h, and in *after where the line goes
   on after the code. */
static int code_in(const char *line, hit_t *h, const char **after)
{
    static const struct {
        const char *key, *next, *form;
    } forms[] = {
        {.key = "code=", .next = "(", .form = "cuda_samples"},
        {.key = "error=", .next = " : ", .form = "thc_check"},
        {.key = "cuda runtime error (", .next = ") :", .form = "thc_check"},
        {.key = "cudaSuccess (", .next = " ", .form = "caffe_check"},
        {.key = "Error ", .next = ":", .form = "torch_init_warning"},
        {.key = ") = ", .next = " (", .form = "cudart_call"},
        {.key = "UNKNOWN ERROR (", .next = ")", .form = "unknown_code"},
    };
    const char *end;
    if (!strcasestr(line, "cuda") && !strstr(line, "cuInit"))
        return -1;
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        int c = number_after(line, forms[i].key, &end);
        if (c > 0 && !strncmp(end, forms[i].next, strlen(forms[i].next))) {
            *after = end;
            return h->form = forms[i].form, c;
        }
    }
    const char *ret = strstr(line, " returned ");
    int c = ret ? number_after(ret, " returned ", &end) : -1;
    if (c > 0 && (*end == '\0' || isspace((unsigned char)*end)) && strcasestr(line, "cuda") &&
        strcasestr(line, "cuda") < ret) {
        const char *w = ret;
        while (w > line && !isspace((unsigned char)w[-1]))
            w--;
        snprintf(h->call, sizeof h->call, "%.*s", (int)(ret - w), w);
        *after = end;
        return h->form = "returned_code", c;
    }
    return -1;
}

/* A code printed with its text ("error=48 : no kernel image is available ..."): the
   text's row where the catalog knows it, so that the numbering of CUDA before 10.1 (48
   then, 209 now) still finds the error; the code as printed in h->printed. */
static const ls_cuda_error_t *row_of_code(int code, const char *after, hit_t *h)
{
    size_t at, len;
    const ls_cuda_error_t *r = after ? ls_cuda_error_in_text(after, LS_CE_STRINGS | LS_CE_ALSO, 0,
                                                             &at, &len)
                                     : NULL;
    if (r && r->code != code)
        h->printed = code;
    return r ? r : ls_cuda_error_by_code(code);
}

/* "CUDA error" (any case) followed by ':' or a blank: what follows, else NULL. */
static const char *after_head(const char *line)
{
    const char *p = strcasestr(line, "CUDA error");
    if (!p || (p[10] != ':' && p[10] != ' '))
        return NULL;
    p += 10;
    while (*p == ':' || *p == ' ')
        p++;
    return p;
}

/* The error's text when the catalog does not know it: after the head, up to its end or
   the first " (" / ". " that starts an explanation. */
static void unknown_text(const char *rest, hit_t *h)
{
    size_t n = strlen(rest);
    const char *cut = strstr(rest, ". ");
    if (cut && (size_t)(cut - rest) < n)
        n = (size_t)(cut - rest);
    while (n && isspace((unsigned char)rest[n - 1]))
        n--;
    snprintf(h->text, sizeof h->text, "%.*s", (int)(n < 150 ? n : 150), rest);
}

/* What the line names beside the error: the call, the source line, the GPU, the rank. */
static void details(const char *line, hit_t *h)
{
    const char *q = strstr(line, ") \"");
    if (!h->call[0] && !strcmp(h->form, "cuda_samples") && q) {
        size_t n = strcspn(q + 3, "\"");
        snprintf(h->call, sizeof h->call, "%.*s", (int)(n < 79 ? n : 79), q + 3);
    }
    const char *p = strstr(line, "failed call to ");
    p = p ? p + 15 : (p = strstr(line, "Unexpected error from ")) ? p + 22 : NULL;
    if (!h->call[0] && p)
        snprintf(h->call, sizeof h->call, "%.*s", (int)strcspn(p, ":( "), p);
    p = strstr(line, "CUDA error at ");
    p = p ? p + 14 : (p = strstr(line, "Triggered internally at ")) ? p + 24 : NULL;
    if (p) {
        size_t n = strcspn(p, " )");
        while (n && p[n - 1] == '.')
            n--;
        snprintf(h->where, sizeof h->where, "%.*s", (int)(n < 119 ? n : 119), p);
    }
    const char *g = strstr(line, "(GPU ");
    g = g ? g + 5 : (g = strstr(line, ". GPU ")) ? g + 6 : NULL;
    if (g && isdigit((unsigned char)*g))
        h->gpu = atoi(g);
    const char *r = strstr(line, "[rank");
    if (r && isdigit((unsigned char)r[5]))
        h->rank = atoi(r + 5);
    const char *v = strstr(line, "(found version ");
    if (v)
        h->found_version = strtol(v + 15, NULL, 10);
}

/* The text of the error once its row is known: the catalog's string. */
static void row_text(hit_t *h)
{
    if (h->row)
        snprintf(h->text, sizeof h->text, "%s", h->row->string);
}

/* text[0..len) is s, ignoring case. */
static int same_text(const char *text, size_t len, const char *s)
{
    return strlen(s) == len && !strncasecmp(text, s, len);
}

/* A kernel's failed assert as the device prints it ("FILE:LINE: FUNC: block: [0,0,0],
   thread: [5,0,0] Assertion `COND` failed."): cudaErrorAssert; glibc's host assert has
   no block and thread. */
static int device_assert(const char *line)
{
    const char *b = strstr(line, "block: [");
    const char *t = b ? strstr(b, "thread: [") : NULL;
    return t && strstr(t, "Assertion `");
}

/* NCCL's CUDACHECK / CUCHECK text from "Cuda failure " on (f): "Cuda failure 802 'system
   not yet initialized'" (CUCHECK, and CUDACHECK in NCCL 2.19 to 2.2x, print the code),
   "Cuda failure 'out of memory'" (CUDACHECK before 2.19 and again in the newest): the
   quoted text is cudaGetErrorString's (cuGetErrorString's for CUCHECK), so the catalog's
   row (and its node action: 802 is the fabric manager's) is the error NCCL met. NCCL's
   catalog explains the WARN itself (nccl_warn); this is the CUDA error under it. 1 when
   read. */
static int cuda_failure_text(const char *f, hit_t *h)
{
    const char *p = f + 13, *q = strchr(p, '\'');
    const char *end = q ? strchr(q + 1, '\'') : NULL;
    /* a paste cut inside the quoted text ("Cuda failure 217 'peer access is not supported
       between these"): the code still names the error */
    int cut = q && !end && isdigit((unsigned char)*p);
    if (cut)
        end = q + 1 + strcspn(q + 1, "\r\n");
    if (!end)
        return 0;
    char *e;
    long c = isdigit((unsigned char)*p) ? strtol(p, &e, 10) : -1;
    if (c > 0 && (e + 1 != q || *e != ' '))
        c = -1; /* not "N '" */
    if (c < 0 && (q != p || cut))
        return 0; /* neither "N '" nor "'": nccl-tests' "Cuda failure FILE:LINE '...'" */
    char quoted[160];
    snprintf(quoted, sizeof quoted, "%.*s", (int)(end - q - 1), q + 1);
    size_t at, len;
    h->form = "nccl_cuda_failure";
    h->row = c > 0 ? row_of_code((int)c, quoted, h)
                   : ls_cuda_error_in_text(quoted, LS_CE_STRINGS, 0, &at, &len);
    if (!h->row && c > 0)
        h->code = (int)c, snprintf(h->text, sizeof h->text, "%s", quoted);
    else if (!h->row)
        unknown_text(quoted, h);
    return 1;
}

/* The text on a WARN line ("NCCL WARN Cuda failure ..."): 1 when read. */
static int nccl_cuda_failure(const char *line, hit_t *h)
{
    const char *w = strstr(line, "NCCL WARN");
    const char *f = w ? strstr(w, "Cuda failure ") : NULL;
    return f && cuda_failure_text(f, h);
}

/* A program's own CUDA check in nccl-tests' and NCCL's wording, "CUDA failure
   test.cu:20 'peer mapping resources exhausted'" ("Cuda failure FILE:LINE 'STRING'"):
   read only where the quoted text is, whole, a string cudaGetErrorString or
   cuGetErrorString prints, so that a short one ("out of memory") is the error and not
   words of a message. 1 when read, the FILE:LINE as where. */
static int quoted_failure(const char *line, hit_t *h)
{
    const char *f = strcasestr(line, "Cuda failure ");
    const char *q = f ? strchr(f, '\'') : NULL;
    const char *end = q ? strchr(q + 1, '\'') : NULL;
    size_t at, len, n = end ? (size_t)(end - q - 1) : 0;
    if (!n)
        return 0;
    char quoted[160];
    snprintf(quoted, sizeof quoted, "%.*s", (int)(n < 159 ? n : 159), q + 1);
    const ls_cuda_error_t *r = ls_cuda_error_in_text(quoted, LS_CE_STRINGS, 0, &at, &len);
    if (!r || at || len != strlen(quoted))
        return 0;
    h->row = r;
    h->form = "cuda_failure_check";
    const char *w = f + 13;
    size_t wn = strcspn(w, " '");
    if (wn && w[wn] == ' ' && memchr(w, ':', wn))
        snprintf(h->where, sizeof h->where, "%.*s", (int)(wn < 119 ? wn : 119), w);
    return 1;
}

/* PyTorch's warnings that its build carries no kernel for a GPU (torch/cuda/__init__.py):
   _check_cubins' "NAME with CUDA capability sm_120 is not compatible with the current
   PyTorch installation." (its next lines list the build's sm_ architectures) and
   _check_capability's "Found GPU0 NAME which is of cuda capability 3.0. / PyTorch no
   longer supports this GPU because it is too old.": what the program runs on that GPU
   fails with cudaErrorNoKernelImageForDevice (209), the error the catalog explains (a
   build without the GPU's architecture). 1 when read. */
static int torch_arch_warning(const char *line, hit_t *h)
{
    const char *cap = strstr(line, " with CUDA capability sm_");
    if (!(cap && strstr(cap, " is not compatible with the current PyTorch installation")) &&
        !strstr(line, "PyTorch no longer supports this GPU because it is too old"))
        return 0;
    h->row = ls_cuda_error_by_code(209);
    h->form = "torch_arch_warning";
    return h->row != NULL;
}

/* Reads one line into h: 1 when it names a CUDA error. */
static int read_hit(const char *line, int tests_text, hit_t *h)
{
    memset(h, 0, sizeof *h);
    h->code = h->gpu = h->rank = -1;
    h->printed = 0;
    h->form = "";
    if (nccl_cuda_failure(line, h)) {
        if (h->row)
            h->code = h->row->code;
        row_text(h);
        return 1;
    }
    if (others_line(line, tests_text))
        return 0;
    size_t at, len;
    const char *rest = after_head(line);
    const char *after = NULL;
    if (name_in(line, h)) {
        h->form = strncmp(h->name, "cudaError", 9) ? "driver_name" : "runtime_name";
        int c = code_in(line, h, &after);
        if (!h->row && c > 0)
            h->row = ls_cuda_error_by_code(c);
        h->code = h->row ? h->row->code : c;
        if (!h->row)
            snprintf(h->text, sizeof h->text, "%s", h->name);
    } else if ((h->code = code_in(line, h, &after)) > 0) {
        h->row = row_of_code(h->code, after, h);
        if (!h->row)
            snprintf(h->text, sizeof h->text, "error %d", h->code);
    } else if (quoted_failure(line, h) || torch_arch_warning(line, h)) {
        /* the form (and the source line) set */
    } else if (rest &&
               (h->row = ls_cuda_error_in_text(rest, LS_CE_STRINGS | LS_CE_ALSO, 0, &at, &len))) {
        h->form = "cuda_error_text";
    } else if ((h->row = ls_cuda_error_in_text(line, LS_CE_STRINGS | LS_CE_ALSO, LONG_STRING, &at,
                                               &len))) {
        /* PyTorch's own texts; a long string alone ("Error (gpu_burn-drv.cpp:298): system
           not yet initialized") */
        h->form = same_text(line + at, len, h->row->string) ||
                          same_text(line + at, len, h->row->driver_string)
                      ? "string"
                      : "message";
    } else if (device_assert(line)) {
        h->form = "device_assert";
        h->row = ls_cuda_error_by_code(710);
    } else if (rest && *rest && strcasestr(line, "CUDA error")[10] == ':') {
        h->form = "cuda_error_text"; /* "CUDA error: TEXT" the catalog does not know */
        unknown_text(rest, h);
    } else {
        h->row = NULL;
        return 0;
    }
    if (h->row)
        h->code = h->row->code;
    row_text(h);
    details(line, h);
    return 1;
}

int ls_cuda_error_detect(const char *text)
{
    int tests_text = ls_nccl_tests_detect(text);
    const char *pos = text;
    ls_line_t line;
    hit_t h;
    while (ls_next_line(&pos, &line)) {
        ls_sanitize_text(line.buf); /* as the reader reads it */
        if (read_hit(line.buf, tests_text, &h))
            return 1;
    }
    return 0;
}

/* The record's key: the error (code, else name or text), the GPU and the rank. */
static void key_of(const hit_t *h, char *key, size_t len)
{
    snprintf(key, len, "%d|%s|%d|%d", h->code, h->code > 0 ? "" : h->text, h->gpu, h->rank);
}

static json_t *record_of(const hit_t *h, const char *line, const char *name, int lineno)
{
    json_t *o = json_pack("{s:s}", "file", name);
    if (h->code > 0)
        json_object_set_new(o, "code", json_integer(h->code));
    if (h->row && h->row->runtime[0])
        json_object_set_new(o, "name", json_string(h->row->runtime));
    else if (h->name[0])
        json_object_set_new(o, "name", json_string(h->name));
    if (h->row && h->row->driver[0])
        json_object_set_new(o, "driver_name", json_string(h->row->driver));
    json_object_set_new(o, "text", json_string(h->text));
    json_object_set_new(o, "form", json_string(h->form));
    if (h->call[0])
        json_object_set_new(o, "call", json_string(h->call));
    if (h->where[0])
        json_object_set_new(o, "where", json_string(h->where));
    if (h->gpu >= 0)
        json_object_set_new(o, "gpu", json_integer(h->gpu));
    if (h->rank >= 0)
        json_object_set_new(o, "rank", json_integer(h->rank));
    if (h->printed > 0)
        json_object_set_new(o, "printed_code", json_integer(h->printed));
    if (h->found_version > 0)
        json_object_set_new(o, "driver_cuda_version", json_integer(h->found_version));
    json_object_set_new(o, "count", json_integer(0));
    json_object_set_new(o, "line", json_integer(lineno));
    const char *s = line + strspn(line, " \t");
    json_object_set_new(o, "first", json_stringn(s, strlen(s) < 240 ? strlen(s) : 240));
    return o;
}

/* NCCL's own message as a framework prints it (PyTorch: its interpretation of the
   ncclResult_t, "Last error:", then ncclGetLastError()'s text, NCCL's last WARN): the NCCL
   log reader's, like NCCL's WARN lines (nccl_log_bare.h). The message's text when line
   holds it, "" when line is its "Last error:" header alone, NULL when neither; *next says whether
   the text follows on the next line. */
static const char *nccl_message(const char *line, int *next)
{
    int was = *next;
    const char *last = ls_nccl_last_error(line);
    const char *text = was ? ls_nccl_last_error_next(line) : NULL;
    *next = ls_nccl_interpretation_line(line) || (last && !*last);
    return last ? last : text;
}

/* The CUDA error under NCCL's message: the last WARN was NCCL's CUDACHECK text ("Cuda
   failure 802 'system not yet initialized'"), the same words as on its WARN line. 1 when
   read into h. */
static int nccl_message_hit(const char *message, hit_t *h)
{
    if (strncmp(message, "Cuda failure ", 13))
        return 0;
    memset(h, 0, sizeof *h);
    h->code = h->gpu = h->rank = -1;
    if (!cuda_failure_text(message, h))
        return 0;
    if (h->row)
        h->code = h->row->code;
    row_text(h);
    return 1;
}

int ls_import_cuda_errors(json_t *doc, const char *text, const char *name, char *err, size_t errlen)
{
    json_t *index = json_object(), *list = json_array();
    const char *pos = text;
    ls_line_t line;
    hit_t h;
    int lineno = 0;
    int before = 0;    /* the line before named an error */
    int nccl_next = 0; /* NCCL's message follows (nccl_message) */
    int tests_text = ls_nccl_tests_detect(text);
    while (ls_next_line(&pos, &line)) {
        lineno++;
        ls_sanitize_text(line.buf); /* broken UTF-8 and controls out of the record's texts */
        const char *message = nccl_message(line.buf, &nccl_next);
        int said_again = before && !strncmp(line.buf + strspn(line.buf, " \t"), "-> ", 3);
        before = message ? 0 : read_hit(line.buf, tests_text, &h);
        if (message ? !nccl_message_hit(message, &h) : !before || said_again)
            continue; /* deviceQuery's "-> TEXT" under "X returned N" said it again */
        char key[256];
        key_of(&h, key, sizeof key);
        json_t *o = json_object_get(index, key);
        if (!o) {
            o = record_of(&h, line.buf, name, lineno);
            json_object_set_new_nocheck(index, key, o); /* a key of any bytes */
            json_array_append(list, o);
        }
        json_object_set_new(o, "count", json_integer(ls_json_int(o, "count", 0) + 1));
    }
    int n = (int)json_array_size(list);
    if (n)
        json_array_extend(ls_json_array_at(doc, "cuda_errors"), list);
    json_decref(list);
    json_decref(index);
    return n ? n : ls_seterr(err, errlen, "%s: no CUDA error line", name);
}
