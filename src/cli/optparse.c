/* The table-driven option parser (optparse.h). */
#include "optparse.h"
#include "commands.h"
#include "options.h"
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int quiet;

void ls_usage_quiet(int on)
{
    quiet = on;
}

int ls_usage_error(const char *command, const char *fmt, ...)
{
    if (quiet)
        return LS_EXIT_USAGE;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "linkscope %s: ", command);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'linkscope %s --help')\n", command);
    va_end(ap);
    return LS_EXIT_USAGE;
}

/* ---- parsing ----------------------------------------------------------------------- */

static int is_option(const ls_opt_t *o)
{
    return o->kind != LS_OPT_TEXT;
}

static const ls_opt_t *find_long(const ls_opt_t *opts, const char *name, size_t len)
{
    for (const ls_opt_t *o = opts; o->kind != LS_OPT_END; o++)
        if (is_option(o) && o->name && strlen(o->name) == len && !strncmp(o->name, name, len))
            return o;
    return NULL;
}

static const ls_opt_t *find_short(const ls_opt_t *opts, char c)
{
    for (const ls_opt_t *o = opts; o->kind != LS_OPT_END; o++)
        if (is_option(o) && o->short_name && o->short_name == c)
            return o;
    return NULL;
}

static int takes_value(const ls_opt_t *o)
{
    return o->kind != LS_OPT_FLAG && (o->kind != LS_OPT_CALL || o->arg);
}

/* The option's value (NULL for a flag) into args. */
static int apply(const char *cmd, const ls_opt_t *o, const char *value, void *args)
{
    char *at = (char *)args + o->off;
    switch (o->kind) {
    case LS_OPT_FLAG: *(int *)at = o->value ? o->value : 1; return 0;
    case LS_OPT_STRING: *(const char **)at = value; return 0;
    case LS_OPT_CALL: return o->call_row ? o->call_row(o, value, args) : o->call(cmd, value, args);
    case LS_OPT_FAIL_ON: return ls_opt_fail_on(cmd, value, (int *)at) ? LS_EXIT_USAGE : 0;
    case LS_OPT_PROGRESS: return ls_opt_progress(cmd, value) ? LS_EXIT_USAGE : 0;
    default: return 0;
    }
}

/* One argument that starts with "--" (not "--" itself): the option and its value. */
static int parse_long(const char *cmd, const ls_cmd_opts_t *spec, int argc, char **argv, int *i,
                      void *args)
{
    const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
    const ls_opt_t *o = find_long(spec->opts, arg, eq ? (size_t)(eq - arg) : strlen(arg));
    if (!o || (eq && !takes_value(o)))
        return ls_usage_error(cmd, "unknown option '%s'", argv[*i]);
    const char *value = NULL;
    if (takes_value(o)) {
        if (eq)
            value = eq + 1;
        else if (*i + 1 < argc)
            value = argv[++*i];
        else
            return ls_usage_error(cmd, "%s needs a value", argv[*i]);
    }
    return apply(cmd, o, value, args);
}

/* One argument "-x", "-xVALUE" or "-xy" (flags together). */
static int parse_short(const char *cmd, const ls_cmd_opts_t *spec, int argc, char **argv, int *i,
                       void *args)
{
    const char *arg = argv[*i];
    for (const char *p = arg + 1; *p; p++) {
        const ls_opt_t *o = find_short(spec->opts, *p);
        if (!o)
            return ls_usage_error(cmd, "unknown option '-%c'", *p);
        if (!takes_value(o)) {
            int rc = apply(cmd, o, NULL, args);
            if (rc)
                return rc;
            continue;
        }
        if (p[1])
            return apply(cmd, o, p + 1, args);
        if (*i + 1 >= argc)
            return ls_usage_error(cmd, "-%c needs a value", *p);
        return apply(cmd, o, argv[++*i], args);
    }
    return 0;
}

int ls_opt_parse(const char *cmd, const ls_cmd_opts_t *spec, int argc, char **argv, void *args,
                 char **pos, int *npos)
{
    int rc = 0, options = 1, none;
    if (!npos)
        npos = &none;
    *npos = 0;
    if (spec->init && args)
        spec->init(args);
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (options && !strcmp(a, "--"))
            options = 0;
        else if (options && !strncmp(a, "--", 2))
            rc = parse_long(cmd, spec, argc, argv, &i, args);
        else if (options && a[0] == '-' && a[1])
            rc = parse_short(cmd, spec, argc, argv, &i, args);
        else if (pos)
            pos[(*npos)++] = argv[i];
        else
            rc = ls_usage_error(cmd, "unexpected argument '%s'", a);
    }
    return !rc && spec->check ? spec->check(cmd, args) : rc;
}

/* ---- usage ------------------------------------------------------------------------- */

/* "  LABEL   help", the help's later lines indented to the column; a label too long
   for the column has its help start on the next line. */
static void put_row(ls_buf_t *b, const char *label, const char *help, int column)
{
    int n = 2 + (int)strlen(label);
    ls_buf_printf(b, "  %s", label);
    if (n >= column) {
        ls_buf_puts(b, "\n");
        n = 0;
    }
    for (const char *line = help; line && *line;) {
        const char *end = strchr(line, '\n');
        int len = end ? (int)(end - line) : (int)strlen(line);
        ls_buf_printf(b, "%*s%.*s\n", column - n, "", len, line);
        n = 0;
        line = end ? end + 1 : line + len;
    }
    if (!help || !*help)
        ls_buf_puts(b, "\n");
}

/* Whether cmd shows and offers o. */
static int shown(const char *cmd, const ls_opt_t *o)
{
    return is_option(o) && !(o->flags & LS_OPT_HIDDEN) && (!o->help_of || o->help_of(cmd));
}

static void put_option(ls_buf_t *b, const char *cmd, const ls_opt_t *o, int column)
{
    column = o->column ? o->column : column;
    const char *help = o->help_of ? o->help_of(cmd) : o->help;
    char label[128];
    if (o->label)
        snprintf(label, sizeof label, "%s", o->label);
    else if (o->name)
        snprintf(label, sizeof label, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(label, sizeof label, "-%c%s%s", o->short_name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    if (help || !o->words || !o->word_help) {
        put_row(b, label, help, column);
        return;
    }
    for (const char *const *w = o->words(); *w; w++) {
        snprintf(label, sizeof label, "--%s %s", o->name, *w);
        put_row(b, label, o->word_help(*w), column);
    }
}

void ls_opt_usage(ls_buf_t *b, const char *cmd, const ls_cmd_opts_t *spec)
{
    ls_buf_puts(b, spec->head_of ? spec->head_of(cmd) : spec->head ? spec->head : "");
    for (const ls_opt_t *o = spec->opts; o && o->kind != LS_OPT_END; o++) {
        if (o->kind == LS_OPT_TEXT)
            ls_buf_puts(b, o->help);
        else if (shown(cmd, o) && !(o->flags & LS_OPT_UNLISTED))
            put_option(b, cmd, o, spec->column);
    }
    ls_buf_puts(b, spec->tail_of ? spec->tail_of(cmd) : spec->tail ? spec->tail : "");
}

/* ---- completion -------------------------------------------------------------------- */

const char *ls_opt_offered(const char *cmd, const ls_cmd_opts_t *spec, int i,
                           const char *const **words)
{
    static char spelling[64];
    for (const ls_opt_t *o = spec->opts; o && o->kind != LS_OPT_END; o++) {
        if (!shown(cmd, o) || i-- > 0)
            continue;
        if (o->name)
            snprintf(spelling, sizeof spelling, "--%s", o->name);
        else
            snprintf(spelling, sizeof spelling, "-%c", o->short_name);
        *words = o->words                     ? o->words()
                 : o->kind == LS_OPT_FAIL_ON  ? ls_fail_on_words()
                 : o->kind == LS_OPT_PROGRESS ? ls_progress_words()
                                              : NULL;
        return spelling;
    }
    return NULL;
}

const char *const *ls_fail_on_words(void)
{
    static const char *const words[] = {"info", "warning", "error", "never", NULL};
    return words;
}

const char *const *ls_progress_words(void)
{
    static const char *const words[] = {"auto", "always", "never", NULL};
    return words;
}
