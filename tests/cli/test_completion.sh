#!/usr/bin/env bash
# The bash completion (packaging/gen-docs.sh, from the option tables) offers only what
# each command accepts: every offered option, with each word it offers for the value,
# goes through the command's own parser (`help --completion --parse`, nothing run) and
# none is refused as unknown; every option a usage lists is offered; the options the
# old scraped completion offered by mistake are gone.
# usage: test_completion.sh LINKSCOPE FIXTURES_DIR
set -u
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

bash "$src/packaging/gen-docs.sh" "$bin" "$tmp/gen" >/dev/null 2>&1 || bad "gen-docs.sh failed"
comp=$tmp/gen/linkscope.bash
bash -n "$comp" && ok || bad "the completion is not valid bash"

# "    CMD) [[ $cur == -* ]] && { COMPREPLY=($(compgen -W "OPTS --help" ..."
declare -A offered words
while IFS= read -r line; do
    if [[ $line =~ ^\ \ \ \ ([a-z0-9]+)\)\ .*compgen\ -W\ \"([^\"]*)\" ]]; then
        offered[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]% --help}
    elif [[ $line =~ ^\ \ \ \ ([a-z0-9]+):([-a-z0-9]+)\)\ .*compgen\ -W\ \"([^\"]*)\" ]]; then
        words[${BASH_REMATCH[1]}:${BASH_REMATCH[2]}]=${BASH_REMATCH[3]}
    fi
done <"$comp"
[ "${#offered[@]}" -ge 15 ] && ok || bad "read the options of only ${#offered[@]} commands from $comp"
[ "${#words[@]}" -ge 5 ] && ok || bad "read the value words of only ${#words[@]} options from $comp"

# parse CMD ARGS...: the parser's exit code; its stderr in $tmp/err
parse() { "$bin" help --completion --parse "$@" >/dev/null 2>"$tmp/err"; }

# The check can fail: an option no command has is refused as unknown.
parse plan --no-such-option && bad "--no-such-option passed the parser" ||
    { grep -q "unknown option '--no-such-option'" "$tmp/err" && ok || bad "refusal: $(cat "$tmp/err")"; }

n=0
for c in "${!offered[@]}"; do
    for o in ${offered[$c]}; do
        n=$((n + 1))
        if [ -n "${words[$c:$o]:-}" ]; then
            for w in ${words[$c:$o]}; do # each offered word is a value the parser takes
                parse "$c" "$o" "$w" && ok || bad "$c $o $w refused: $(cat "$tmp/err")"
            done
            continue
        fi
        parse "$c" "$o" || { grep -q "needs a value" "$tmp/err" && parse "$c" "$o" 1; }
        grep -q "unknown option" "$tmp/err" && bad "$c offers $o but refuses it: $(cat "$tmp/err")" || ok
    done
done
[ "$n" -ge 100 ] && ok || bad "only $n offered options checked"

# Every option a usage lists (a line "  --name" or "  -x, --name") is offered.
for c in "${!offered[@]}"; do
    for o in $("$bin" "$c" --help | sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}\(--[a-z][-a-z0-9_]*\).*/\2/p' | sort -u); do
        [[ " ${offered[$c]} " == *" $o "* ]] && ok || bad "$c --help lists $o, the completion does not offer it"
    done
done

# What the completion scraped from help texts offered before, and the commands refuse.
for pair in run:--spec fleet:--ntasks-per-node import:--variants; do
    c=${pair%%:*} o=${pair#*:}
    [[ " ${offered[$c]} " != *" $o "* ]] && ok || bad "$c still offers $o"
done

# The words come from the registries: --format of report as its usage names them.
fmts=$("$bin" report --help | sed -n 's/.*\[--format \([a-z|]*\)\].*/\1/p' | tr '|' ' ')
[ -n "$fmts" ] && [ "${words[report:--format]:-}" = "$fmts" ] && ok ||
    bad "report --format offers '${words[report:--format]:-}', the usage names '$fmts'"
[ "${words[run:--level]:-}" = "quick thorough" ] && ok || bad "run --level offers '${words[run:--level]:-}'"
for c in run report plan compare check fleet health; do
    [ "${words[$c:--fail-on]:-}" = "info warning error never" ] && ok ||
        bad "$c --fail-on offers '${words[$c:--fail-on]:-}'"
done

# The script itself, as bash runs it: what it offers for a few command lines.
complete_words() { # WORDS...: COMPREPLY for the last word of "linkscope WORDS..."
    bash -c '. "$1"; shift; COMP_WORDS=(linkscope "$@"); COMP_CWORD=$(($# )); _linkscope; echo "${COMPREPLY[*]}"' \
        _ "$comp" "$@"
}
[ "$(complete_words report x.json --format "")" = "$fmts" ] && ok || bad "report --format <TAB>: '$(complete_words report x.json --format "")'"
[ "$(complete_words run --level t)" = "thorough" ] && ok || bad "run --level t<TAB>: '$(complete_words run --level t)'"
[ "$(complete_words fleet --fail-on n)" = "never" ] && ok || bad "fleet --fail-on n<TAB>: '$(complete_words fleet --fail-on n)'"
[ "$(complete_words import --var)" = "--variant" ] && ok || bad "import --var<TAB>: '$(complete_words import --var)'"
[[ " $(complete_words r) " == *" report "* && " $(complete_words r) " == *" run "* ]] && ok ||
    bad "r<TAB>: '$(complete_words r)'"

echo "test_completion: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
