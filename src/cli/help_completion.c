/* `linkscope help --completion`: the bash completion, from every command's option
   table (optparse.h), with the words of the values that have them (--format, --level,
   --fail-on ...). `linkscope help --completion --parse CMD ARGS...`: ARGS through
   CMD's parser only, nothing run (tests/cli/test_completion.sh: every offered option
   must be accepted). packaging/gen-docs.sh installs the script. */
#include "commands.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_words(const char *const *w)
{
    for (int k = 0; w && w[k]; k++)
        printf("%s%s", k ? " " : "", w[k]);
}

/* "CMD:--opt) COMPREPLY=(...words...)" for each option whose value has words. */
static void put_values(const ls_command_t *c)
{
    const char *const *words, *o;
    for (int i = 0; (o = ls_opt_offered(c->name, c->opts, i, &words)); i++) {
        if (!words)
            continue;
        printf("    %s:%s) COMPREPLY=($(compgen -W \"", c->name, o);
        put_words(words);
        printf("\" -- \"$cur\")); return ;;\n");
    }
}

static void put_options(const ls_command_t *c)
{
    const char *const *words, *o;
    printf("    %s) [[ $cur == -* ]] && { COMPREPLY=($(compgen -W \"", c->name);
    for (int i = 0; (o = ls_opt_offered(c->name, c->opts, i, &words)); i++)
        printf("%s ", o);
    printf("--help\" -- \"$cur\")); return; } ;;\n");
}

static void put_script(void)
{
    int n;
    const ls_command_t *cmds = ls_commands(&n);
    printf("# bash completion for linkscope (generated from its option tables)\n"
           "_linkscope() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]}\n"
           "    local prev=${COMP_WORDS[COMP_CWORD-1]}\n"
           "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
           "        COMPREPLY=($(compgen -W \"");
    for (int i = 0; i < n; i++)
        printf("%s%s", i ? " " : "", cmds[i].name);
    printf("\" -- \"$cur\")); return\n    fi\n    case $cmd:$prev in\n");
    for (int i = 0; i < n; i++)
        put_values(&cmds[i]);
    printf("    esac\n    case $cmd in\n");
    for (int i = 0; i < n; i++)
        put_options(&cmds[i]);
    printf("    esac\n"
           "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
           "}\n"
           "complete -o filenames -F _linkscope linkscope\n");
}

/* ARGS through CMD's parser into a scratch argument struct: its exit code. */
static int parse_only(int argc, char **argv)
{
    const ls_command_t *c = argc > 0 ? ls_find_command(argv[0]) : NULL;
    if (!c)
        return ls_usage_error("help", "--completion --parse: expected a command name");
    void *args = calloc(1, c->opts->args_size + 1);
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    int npos, rc = args && pos ? ls_opt_parse(c->name, c->opts, argc, argv, args, pos, &npos)
                               : LS_EXIT_USAGE;
    free(pos);
    free(args);
    return rc;
}

int ls_help_completion(int argc, char **argv)
{
    if (argc == 1) {
        put_script();
        return LS_EXIT_OK;
    }
    if (!strcmp(argv[1], "--parse"))
        return parse_only(argc - 2, argv + 2);
    return ls_usage_error("help", "unknown option '%s'", argv[1]);
}
