#!/usr/bin/env bash
# -o never follows a symbolic link the kernel's protected_symlinks rule would refuse
# (docs/safety.md "One output writer"): in a sticky, world-writable folder, a link owned
# by neither the writer nor the folder's owner is refused with one line, on every branch
# (a link to a regular file: the rename path; to a FIFO and to a device: the
# write-through path; a link as a folder of the path), and its target is untouched.
# Links the rule allows (owned by the writer, or by the folder's owner, or in a folder
# that is not sticky) are still followed. Needs root (chown -h of a link to another
# uid); skips with the reason otherwise. Independent of fs.protected_symlinks.
# args: LINKSCOPE_BINARY FIXTURES_DIR
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "skipped: needs root to give a link to another uid (chown -h)"; exit 77; }
command -v mkfifo >/dev/null || { echo "skipped: needs mkfifo"; exit 77; }
chmod 755 "$tmp"
doc=$fx/../../examples/h200x2-run.json
other=54321   # owns the planted links: neither root nor the folder's owner
owner=65534   # owns the sticky folder (nobody)

sticky=$tmp/sticky
mkdir "$sticky" && chmod 1777 "$sticky" && chown "$owner" "$sticky"
mkdir "$tmp/private" && chmod 700 "$tmp/private"
printf 'secret\n' >"$tmp/private/secret" && chmod 600 "$tmp/private/secret"
mkfifo "$tmp/private/fifo"
sum=$(cksum <"$tmp/private/secret")

plant() { # plant NAME TARGET UID
    ln -s "$2" "$sticky/$1" && chown -h "$3" "$sticky/$1"
}
refused() { # refused WHAT PATH
    run 2 report "$doc" -o "$2" || return
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "$1: not one line: $(cat "$tmp/err")"
    grep -q "protected_symlinks" "$tmp/err" && ok || bad "$1: $(cat "$tmp/err")"
    [ "$(cksum <"$tmp/private/secret")" = "$sum" ] && ok || bad "$1: the link's target was replaced"
}
plant to-file "$tmp/private/secret" "$other"
refused "link to a regular file" "$sticky/to-file"
plant to-fifo "$tmp/private/fifo" "$other"
refused "link to a FIFO" "$sticky/to-fifo"
plant to-null /dev/null "$other"
refused "link to a device" "$sticky/to-null"
plant to-dir "$tmp/private" "$other"
refused "link as a folder of the path" "$sticky/to-dir/secret"
refused "a new file through the folder link" "$sticky/to-dir/new.md"
[ ! -e "$tmp/private/new.md" ] && ok || bad "a file was created through the planted folder link"
# a chain: an allowed link of root's pointing at the planted one
ln -s "$sticky/to-file" "$tmp/chain"
refused "a chain through a planted link" "$tmp/chain"
# also the CSV set and a run document (other writers of the same function)
run 2 baseline "$doc" -o "$sticky/to-file"
[ "$(cksum <"$tmp/private/secret")" = "$sum" ] && ok || bad "baseline replaced the link's target"

# what the rule allows is still followed
printf 'old\n' >"$tmp/mine.md"
ln -s "$tmp/mine.md" "$sticky/root-link"
run 0 report "$doc" -o "$sticky/root-link" && { grep -q "linkscope report" "$tmp/mine.md" && ok || bad "root's link not followed"; }
printf 'old\n' >"$tmp/owners.md"
plant owner-link "$tmp/owners.md" "$owner"
run 0 report "$doc" -o "$sticky/owner-link" && { grep -q "linkscope report" "$tmp/owners.md" && ok || bad "the folder owner's link not followed"; }
mkdir "$tmp/plain" && chmod 777 "$tmp/plain"   # world-writable but not sticky
printf 'old\n' >"$tmp/plain.md"
ln -s "$tmp/plain.md" "$tmp/plain/link" && chown -h "$other" "$tmp/plain/link"
run 0 report "$doc" -o "$tmp/plain/link" && { grep -q "linkscope report" "$tmp/plain.md" && ok || bad "a link in a non-sticky folder not followed"; }
run 0 report "$doc" -o /dev/stdout

echo "safety symlinks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
