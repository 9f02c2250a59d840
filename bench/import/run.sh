#!/usr/bin/env bash
# Import benchmark (issue 2): 1,000,000 task records (a JSON array of about 200 MB) imported by
# `report import`, beside `sqlite-utils insert` and DuckDB's `read_json_auto` into a DuckDB table,
# all on the same file. Prints wall time, records per second, CPU time and peak RSS of each.
#
#   bench/import/run.sh [COUNT [RUNS]]     (defaults 1000000 and 3; peers run once)
#
# Needs /usr/bin/time (apt-get install time); the peers come from PyPI (pip install sqlite-utils
# duckdb) and are skipped with a note when missing.
set -euo pipefail

count="${1:-1000000}"
runs="${2:-3}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/import-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "building report and report-sample (release)..." >&2
(cd "$root" && swift build -c release --product report >&2 && swift build -c release --product report-sample >&2 \
    && swift build -c release --product report-bench >&2)
bin="$(cd "$root" && swift build -c release --show-bin-path)"
"$bin/report-sample" generate --kind tasks --count "$count" --out "$work/tasks.json" --seed 1
size=$(stat -c %s "$work/tasks.json")
echo "input: $count task records, $((size / 1048576)) MB ($work/tasks.json)"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); $(date -u +%Y-%m-%d)"
printf '%-34s %10s %12s %10s %12s\n' "tool" "wall s" "records/s" "CPU s" "peak RSS MB"

# measure NAME RUNS SETUP COMMAND...: best wall time over RUNS runs (SETUP runs before each).
measure() {
    local name="$1" n="$2" setup="$3"; shift 3
    local best="" cpu="" peak=0
    for _ in $(seq "$n"); do
        eval "$setup"
        /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; return 1; }
        read -r wall user sys rss <"$work/time"
        if [ -z "$best" ] || awk "BEGIN { exit !($wall < $best) }"; then best="$wall"; cpu=$(awk "BEGIN { print $user + $sys }"); fi
        [ "$rss" -gt "$peak" ] && peak="$rss"
    done
    printf '%-34s %10.2f %12.0f %10.2f %12.1f\n' "$name" "$best" "$(awk "BEGIN { print $count / $best }")" "$cpu" "$(awk "BEGIN { print $peak / 1024 }")"
}

# The reader thread's share alone (issue 13): parse, then parse + validate, one core, nothing stored.
"$bin/report-bench" parse "$work/tasks.json" --scan-only
"$bin/report-bench" parse "$work/tasks.json"
measure "report import" "$runs" 'rm -f "$work"/r.sqlite*' "$bin/report" import --db "$work/r.sqlite" "$work/tasks.json"
if python3 -c "import duckdb" 2>/dev/null; then
    measure "duckdb read_json_auto" 1 'rm -f "$work"/d.duckdb*' python3 -c "import duckdb, sys; c = duckdb.connect(sys.argv[1]); c.execute(\"CREATE TABLE tasks AS SELECT * FROM read_json_auto('\" + sys.argv[2] + \"')\"); c.close()" "$work/d.duckdb" "$work/tasks.json"
else
    echo "duckdb: not installed (pip install duckdb); skipped"
fi
if command -v sqlite-utils >/dev/null; then
    measure "sqlite-utils insert" 1 'rm -f "$work"/s.sqlite*' sqlite-utils insert "$work/s.sqlite" tasks "$work/tasks.json"
else
    echo "sqlite-utils: not installed (pip install sqlite-utils); skipped"
fi
