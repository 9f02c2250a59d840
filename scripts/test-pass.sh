#!/usr/bin/env bash
# One pass of `make test`: `swift test ARGS…`, its output shown as it goes and kept whole in
# .build/test-logs/NAME.log. When the pass fails, its last lines say what failed, because a CI
# record often keeps only the end of the output: a crash's backtrace (registers, a hundred
# images) pushed its "Fatal error" line and the test it ended out of that end.
#
#   scripts/test-pass.sh NAME [swift test arguments…]
set -uo pipefail
name=$1
shift
mkdir -p .build/test-logs
log=.build/test-logs/$name.log
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && exit 0

cut200() { cut -c1-200; }
echo
echo "==== what failed in the $name pass (its whole output: $log)"
grep -E "' failed \(" "$log" | head -n 10 | cut200
grep -E ": error: " "$log" | head -n 6 | cut200
# A crash: its message, the test it ended (the last one started that did not end) and the first
# frames of the thread that crashed.
if grep -qE "Fatal error|Program crashed|\\*\\*\\* Signal" "$log"; then
    grep -E "Fatal error|Program crashed|\\*\\*\\* Signal" "$log" | head -n 3 | cut200
    last=$(grep -E "^Test Case '" "$log" | tail -n 1)
    case "$last" in *"' started at "*) echo "the test that was running: ${last%% started at *}" | cut200 ;; esac
    awk '/ crashed:$/ {on = 1; next} on && /^ *[0-9]+ / {print; if (++n == 8) exit}' "$log" \
        | sed -E 's/ +0x[0-9a-f]+ / /; s/^ +//' | cut200
fi
echo "==== the $name pass failed: exit $status"
exit "$status"
