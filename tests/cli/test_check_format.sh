#!/usr/bin/env bash
# scripts/check-format.sh (issue 24) on a small tree with this repository's .clang-format:
# a formatted file passes, a misformatted one under tests/host is listed with exit 1,
# files outside src/ and tests/host are not checked. Skipped without clang-format.
# args: LINKSCOPE_BINARY FIXTURES_DIR (unused)
. "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)
script=$repo/scripts/check-format.sh
command -v clang-format-14 >/dev/null || command -v clang-format >/dev/null ||
    { echo "skipped: no clang-format"; exit 77; }
mkdir -p "$tmp/t/src/util" "$tmp/t/tests/host" "$tmp/t/other"
cp "$repo/.clang-format" "$tmp/t/"
printf 'static int twice(int x)\n{\n    return 2 * x;\n}\n' >"$tmp/t/src/util/ok.c"
printf 'static int  twice( int x ){ return 2*x; }\n' >"$tmp/t/tests/host/bad.c"
printf 'int  x ;\n' >"$tmp/t/other/ignored.c"
bash "$script" "$tmp/t" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && ok || bad "misformatted tree: exit $rc, expected 1"
[ "$(cat "$tmp/out")" = "tests/host/bad.c" ] && ok || bad "listed: $(cat "$tmp/out")"
grep -q "1 file(s) differ" "$tmp/err" && ok || bad "stderr: $(cat "$tmp/err")"
printf 'static int twice(int x)\n{\n    return 2 * x;\n}\n' >"$tmp/t/tests/host/bad.c"
bash "$script" "$tmp/t" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/out" ] && ok || bad "formatted tree: exit $rc, listed $(cat "$tmp/out")"
# the json_*_foreach macros are loops: the brace stays on their line
printf 'void f(json_t *a)\n{\n    size_t i;\n    json_t *v;\n    json_array_foreach(a, i, v) {\n        g(v);\n    }\n}\n' \
    >"$tmp/t/src/util/loop.c"
bash "$script" "$tmp/t" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && ok || bad "json_array_foreach as a loop: exit $rc, listed $(cat "$tmp/out")"
bash "$script" "$tmp/none" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && ok || bad "a missing folder: not exit 2"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
