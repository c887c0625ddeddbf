#!/usr/bin/env bash
# Generates linkscope's man page and bash completion at build time (CMakeLists.txt):
# `linkscope help` lists the commands, `linkscope COMMAND --help` gives each one's usage
# (its options block generated from the command's option table, src/cli/optparse.h),
# and `linkscope help --completion` writes the completion from the same tables, with
# the words of --format, --level, --fail-on ... help2man is not used: it documents one
# command with --help/--version, and linkscope's help is per command.
# usage: gen-docs.sh LINKSCOPE OUTDIR
set -euo pipefail
bin=$1 out=$2
mkdir -p "$out"
commands=$("$bin" help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
version=$("$bin" version | awk '{print $2; exit}')

# The help is laid out for 80 columns: ".in 0" drops man's indent of the body, so the
# page at MANWIDTH=80 has no line over 80 (tests/cli/test_width80.sh).
# roff: a leading dot or quote is escaped, backslashes doubled
roff() { sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/'; }
{
    echo ".TH LINKSCOPE 1 \"\" \"linkscope $version\" \"User Commands\""
    echo ".SH NAME"
    echo "linkscope \\- measure and explain a GPU machine's interconnect"
    echo ".SH SYNOPSIS"
    echo ".B linkscope"
    echo "COMMAND [OPTIONS]"
    echo ".SH DESCRIPTION"
    echo ".nf"
    echo ".in 0"
    "$bin" help | roff
    echo ".fi"
    echo ".SH COMMANDS"
    for c in $commands; do
        echo ".SS $c"
        echo ".nf"
        echo ".in 0"
        "$bin" "$c" --help 2>&1 | roff || true
        echo ".fi"
    done
    echo ".SH SEE ALSO"
    echo "nvidia-smi(1); the project's docs/ folder."
} >"$out/linkscope.1"

# bash completion: from the option tables, so it offers only what each command accepts
# (tests/cli/test_completion.sh)
"$bin" help --completion >"$out/linkscope.bash"
