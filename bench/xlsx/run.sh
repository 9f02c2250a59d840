#!/usr/bin/env bash
# XLSX benchmark: ReportCore's XLSXWriter (Swift) against libxlsxwriter called from C, and Python's
# XlsxWriter, all writing the same ROWS x 8 workbook in constant-memory mode.
#
#   bench/xlsx/run.sh [ROWS [RUNS]]   (defaults 1000000 and 3; run from anywhere)
#
# Prints wall time and peak RSS of each, and the Swift/C time ratio (target: <= 1.15, RSS < 32 MB).
# Needs: gcc, libxlsxwriter-dev, the `report-bench` product in Package.swift, /usr/bin/time
# (apt-get install time) and, for the Python line, `pip install XlsxWriter` (skipped if missing).
set -euo pipefail

rows="${1:-1000000}"
runs="${2:-3}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/xlsx-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [ ! -x /usr/bin/time ]; then
    echo "bench: /usr/bin/time is missing: apt-get install -y time" >&2
    exit 1
fi

echo "building the C reference and report-bench (release)..." >&2
gcc -O2 -o "$work/reference" "$root/bench/xlsx/reference.c" $(pkg-config --cflags --libs xlsxwriter)
(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --product report-bench >&2)
swift_bin="$(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --show-bin-path)/report-bench"

# measure NAME RUNS COMMAND...: runs it RUNS times in the work folder and prints the best wall
# time, the best CPU time (user + sys: steadier than wall time when other jobs share the machine),
# the largest peak RSS and the file size.
measure() {
    local name="$1" runs="$2"; shift 2
    local log="$work/$name.time" best_wall="" best_cpu="" peak=0
    for _ in $(seq "$runs"); do
        (cd "$work" && /usr/bin/time -f '%e %U %S %M' -o "$log" "$@" >/dev/null) || { cat "$log" >&2; return 1; }
        read -r wall user sys rss <"$log"
        local cpu
        cpu="$(awk "BEGIN { print $user + $sys }")"
        if [ -z "$best_wall" ] || awk "BEGIN { exit !($wall < $best_wall) }"; then best_wall="$wall"; fi
        if [ -z "$best_cpu" ] || awk "BEGIN { exit !($cpu < $best_cpu) }"; then best_cpu="$cpu"; fi
        if [ "$rss" -gt "$peak" ]; then peak="$rss"; fi
    done
    printf '%-8s %8.2f s wall %8.2f s cpu %8.1f MB peak RSS %8.1f MB file  (best of %d)\n' "$name" "$best_wall" \
        "$best_cpu" "$(awk "BEGIN { print $peak / 1024 }")" \
        "$(awk "BEGIN { print $(stat -c %s "$work/$name.xlsx") / 1048576 }")" "$runs"
    echo "$best_wall $best_cpu" >"$work/$name.seconds"
}

echo "rows: $rows x 8 columns"
measure c "$runs" "$work/reference" "$rows" c.xlsx
measure swift "$runs" "$swift_bin" "$rows" swift.xlsx
if python3 -c 'import xlsxwriter' 2>/dev/null; then
    measure python 1 python3 "$root/bench/xlsx/xlsxwriter_ref.py" "$rows" python.xlsx
else
    echo "python   skipped (pip install XlsxWriter)"
fi
read -r swift_wall swift_cpu <"$work/swift.seconds"
read -r c_wall c_cpu <"$work/c.seconds"
awk -v sw="$swift_wall" -v cw="$c_wall" -v sc="$swift_cpu" -v cc="$c_cpu" \
    'BEGIN { printf "swift / c: %.2fx wall, %.2fx cpu\n", sw / cw, sc / cc }'
