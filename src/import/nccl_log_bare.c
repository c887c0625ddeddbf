#include "nccl_log_bare.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '`')
        s++;
    return s;
}

/* Past blanks and a launcher's rank prefix: "10: " (srun -l, torchrun --tee of old),
   "[rank2]: " (torchrun's prefix from PyTorch 2.2 on, also "[default0]:" before it). */
static const char *skip_launcher(const char *s)
{
    s = skip_blanks(s);
    const char *d = s;
    if (*d == '[') { /* "[" letters digits "]:" */
        d++;
        while (isalpha((unsigned char)*d))
            d++;
        const char *digits = d;
        while (isdigit((unsigned char)*d))
            d++;
        if (d == digits || d == s + 1 || *d++ != ']')
            return s;
    }
    while (isdigit((unsigned char)*d))
        d++;
    if (d > s && d[0] == ':' && (d[1] == ' ' || d[1] == '\t' || d[1] == '\0'))
        s = skip_blanks(d + 1);
    return s;
}

int ls_nccl_bare_net_message(const char *line)
{
    const char *s = skip_blanks(line);
    if (strncmp(s, "NET/", 4) != 0)
        return 0;
    const char *n = s + 4;
    while (isalnum((unsigned char)*n))
        n++;
    return n > s + 4 && (*n == ' ' || *n == ':');
}

const char *ls_nccl_last_error(const char *line)
{
    const char *p = strstr(line, "Last error:");
    return p ? skip_launcher(p + strlen("Last error:")) : NULL;
}

/* Python's and PyTorch's own lines that follow an exception's message: never NCCL's. */
static const char *const framework_lines[] = {
    "Exception raised from",   "Traceback", "During handling of the above exception",
    "The above exception was", "File \"",
};

/* 1 when s starts with a Python exception's class and its colon ("RuntimeError: ",
   "torch.distributed.DistBackendError: "): the program's own next error, never NCCL's
   message (NCCL's start "Error: ..." at most). */
static int exception_line(const char *s)
{
    size_t n = strcspn(s, ": \t");
    if (s[n] != ':' || n < 6)
        return 0;
    return !strncmp(s + n - 5, "Error", 5) || (n >= 9 && !strncmp(s + n - 9, "Exception", 9));
}

const char *ls_nccl_last_error_next(const char *line)
{
    const char *s = skip_launcher(line);
    if (!*s || exception_line(s))
        return NULL;
    for (size_t i = 0; i < sizeof framework_lines / sizeof *framework_lines; i++)
        if (!strncmp(s, framework_lines[i], strlen(framework_lines[i])))
            return NULL;
    return s;
}

/* The first words of PyTorch's interpretation of each ncclResult_t it explains
   (getNcclErrorDetailStr in torch/csrc/distributed/c10d/NCCLUtils): the interpretation,
   then "\nLast error:\n" and ncclGetLastError()'s text. */
static const char *const interpretations[] = {
    "ncclUnhandledCudaError: ", "ncclSystemError: ",  "ncclInternalError: ",
    "ncclInvalidArgument: ",    "ncclInvalidUsage: ", "ncclRemoteError: ",
};

int ls_nccl_interpretation_line(const char *line)
{
    const char *s = skip_launcher(line);
    for (size_t i = 0; i < sizeof interpretations / sizeof *interpretations; i++)
        if (!strncmp(s, interpretations[i], strlen(interpretations[i])))
            return !strstr(s, "Last error:");
    return 0;
}

/* 1 when some line of text (each cut to 511 characters) is one pred says yes to. */
static int any_line(const char *text, int (*pred)(const char *line))
{
    char buf[512];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), p);
        if (pred(buf))
            return 1;
        p += n + (p[n] == '\n');
    }
    return 0;
}

/* PyTorch's NCCL error line on a line of text: ProcessGroupNCCL's C10D_NCCL_CHECK writes
   "NCCL error in: FILE:LINE, REASON" (torch/csrc/distributed/c10d/NCCLUtils), REASON
   ncclGetErrorWithVersion's ("internal error", "unhandled system error, NCCL version
   2.14.3"). */
static int torch_error_line(const char *line)
{
    const char *p = strstr(line, "NCCL error in: ");
    if (!p)
        return 0;
    p += strlen("NCCL error in: ");
    const char *comma = strstr(p, ", ");
    const char *colon = memchr(p, ':', comma ? (size_t)(comma - p) : 0);
    return comma && colon && isdigit((unsigned char)colon[1]);
}

int ls_nccl_torch_error_text(const char *text)
{
    return any_line(text, torch_error_line);
}

int ls_nccl_beside_torch_line(const char *line)
{
    if (!*line || *line == ' ' || *line == '\t' || torch_error_line(line))
        return 0; /* blank, a traceback's source line, or PyTorch's own */
    return ls_nccl_last_error_next(line) != NULL;
}

/* 1 when a line of text could be an NCCL message beside PyTorch's NCCL error line. */
static int has_beside_line(const char *text)
{
    return any_line(text, ls_nccl_beside_torch_line);
}

int ls_nccl_bare_detect(const char *text)
{
    if (!strstr(text, "NCCL error"))
        return 0;
    return strstr(text, "Last error:") || any_line(text, ls_nccl_interpretation_line) ||
           (ls_nccl_torch_error_text(text) && has_beside_line(text));
}
