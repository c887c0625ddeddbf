/* ANSI colour for the terminal report: the verdict line by its outcome, the severity
   word of each finding line. */
#include "term_colour.h"
#include "render/strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RED "\033[1;31m"
#define YELLOW "\033[1;33m"
#define GREEN "\033[1;32m"
#define BLUE "\033[36m"
#define RESET "\033[0m"

int ls_colour_wanted(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    if (no && *no)
        return 0;
    const char *term = getenv("TERM"); /* a dumb terminal prints escape codes as text */
    if (term && strcmp(term, "dumb") == 0)
        return 0;
    return isatty(fileno(f));
}

static int contains(const char *line, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (!strncmp(line + i, word, w))
            return 1;
    return 0;
}

static const char *verdict_colour(const char *line, size_t n)
{
    if (contains(line, n, "healthy"))
        return GREEN;
    if (contains(line, n, " error"))
        return RED;
    return contains(line, n, "warning") ? YELLOW : GREEN;
}

/* "  error   rule ..." of a finding line: the word and its colour; NULL when not one. */
static const char *severity(const char *line, size_t *len)
{
    static const struct {
        const char *word, *colour;
    } sev[] = {{"  error ", RED}, {"  warning ", YELLOW}, {"  info ", BLUE}};
    for (size_t i = 0; i < 3; i++)
        if (!strncmp(line, sev[i].word, strlen(sev[i].word))) {
            *len = strlen(sev[i].word) - 1;
            return sev[i].colour;
        }
    return NULL;
}

char *ls_term_colour_force(char *text)
{
    ls_buf_t b = {0};
    int in_findings = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n"), len;
        const char *c;
        if (!strncmp(p, "Findings (", 10))
            in_findings = 1;
        else if (n == 0)
            in_findings = 0;
        if (!strncmp(p, "Verdict: ", 9))
            ls_buf_printf(&b, "%s%.*s%s", verdict_colour(p, n), (int)n, p, RESET);
        else if (in_findings && (c = severity(p, &len)))
            ls_buf_printf(&b, "%s%.*s%s%.*s", c, (int)len, p, RESET, (int)(n - len), p + len);
        else
            ls_buf_printf(&b, "%.*s", (int)n, p);
        if (p[n] == '\n')
            ls_buf_puts(&b, "\n");
        p += n + (p[n] == '\n');
    }
    free(text);
    return ls_buf_take(&b);
}

char *ls_term_colour(char *text, FILE *f)
{
    return ls_colour_wanted(f) ? ls_term_colour_force(text) : text;
}
