#!/usr/bin/env bash
# The layer rules are enforced by the build (cmake/parts.cmake, docs/design.md "Layers"):
# a file of model/ that uses util builds; one that includes analyze's header fails to
# compile; one that calls analyze fails to link. Usage: test_layers.sh BUILD_DIR
build=$1
pass=0 fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

probe() { cmake --build "$build" --target "$1" >"$out" 2>&1; }

if probe probe_model_allowed; then ok; else bad "allowed probe did not build: $(tail -5 "$out")"; fi

if probe probe_model_includes_analyze; then
    bad "model including analyze/analyze.h built"
elif grep -q 'analyze/analyze.h: No such file' "$out"; then ok
else bad "include probe failed for another reason: $(tail -5 "$out")"; fi

if probe probe_model_calls_analyze; then
    bad "model calling ls_findings linked"
elif grep -q "undefined reference to .ls_findings" "$out"; then ok
else bad "call probe failed for another reason: $(tail -5 "$out")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
