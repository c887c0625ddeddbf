#include "nccl_log_bare.h"

#include <ctype.h>
#include <string.h>

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '`')
        s++;
    return s;
}

/* Past blanks and a launcher's rank prefix ("10: ", srun -l and torchrun --tee). */
static const char *skip_launcher(const char *s)
{
    s = skip_blanks(s);
    const char *d = s;
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

const char *ls_nccl_last_error_next(const char *line)
{
    const char *s = skip_launcher(line);
    if (!*s || !strncmp(s, "Exception raised from", 21) || !strncmp(s, "Traceback", 9))
        return NULL;
    return s;
}

int ls_nccl_bare_detect(const char *text)
{
    return strstr(text, "NCCL error") && strstr(text, "Last error:");
}
