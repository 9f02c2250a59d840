#!/usr/bin/env bash
# Import benchmark (issue 2): 1,000,000 task records (a JSON array of about 200 MB) imported by
# `report import`, beside `sqlite-utils insert` and DuckDB's `read_json_auto` into a DuckDB table,
# all on the same file. Prints wall time, records per second, CPU time and peak RSS of each.
#
#   bench/import/run.sh [COUNT [RUNS [postgresql]]]     (defaults 1000000 and 3; peers run once)
#
# With `postgresql` (issue 11 item 8), `report import` into PostgreSQL is measured too, RUNS times
# alternating with the SQLite import, each into a fresh database of one throwaway cluster (initdb +
# pg_ctl on a Unix socket in the work folder, as the `postgres` user when run as root, default
# settings and durability), stopped and removed at the end.
#
# Needs /usr/bin/time (apt-get install time); the peers come from PyPI (pip install sqlite-utils
# duckdb) and are skipped with a note when missing. BENCH_BIN=DIR uses the release binaries there
# instead of building; BENCH_INPUT=FILE imports that tasks file instead of generating one;
# SQLITE_IMPORT=0 leaves out `report import` into SQLite (bench/peers.sh times it beside the floor).
set -euo pipefail

count="${1:-1000000}"
runs="${2:-3}"
backend="${3:-sqlite}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/import-bench.XXXXXX")"
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
    if [ -n "${pg_ctl:-}" ]; then as_postgres "$pg_ctl" -D "$work/pg" -m immediate -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
# A signal ends the script through its EXIT trap, so the cluster is stopped then too.
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "${BENCH_BIN:-}" ]; then
    bin="$BENCH_BIN"    # release binaries already built by the caller (bench/peers.sh)
else
    echo "building report and report-sample (release)..." >&2
    (cd "$root" && swift build --explicit-target-dependency-import-check error -c release --product report >&2 && swift build --explicit-target-dependency-import-check error -c release --product report-sample >&2 \
        && swift build --explicit-target-dependency-import-check error -c release --product report-bench >&2)
    bin="$(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --show-bin-path)"
fi
if [ -n "${BENCH_INPUT:-}" ]; then
    ln -s "$(realpath "$BENCH_INPUT")" "$work/tasks.json"
else
    "$bin/report-sample" generate --kind tasks --count "$count" --out "$work/tasks.json" --seed 1
fi
size=$(stat -L -c %s "$work/tasks.json")
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
if [ "$backend" = postgresql ]; then
    bindir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    pg_ctl="$bindir/pg_ctl"
    [ "$(id -u)" = 0 ] && chown postgres "$work"
    as_postgres "$bindir/initdb" -D "$work/pg" -A trust -U postgres -E UTF8 --locale=C >/dev/null
    as_postgres "$pg_ctl" -D "$work/pg" -o "-k $work -c listen_addresses=" -l "$work/pg.log" -w start >/dev/null
    url="postgresql://postgres@/report?host=$work"
    fresh_pg='as_postgres "$bindir/dropdb" -h "$work" -U postgres --if-exists report; as_postgres "$bindir/createdb" -h "$work" -U postgres -T template0 report'
    for _ in $(seq "$runs"); do
        if [ "${SQLITE_IMPORT:-1}" != 0 ]; then
            measure "report import (SQLite)" 1 'rm -f "$work"/r.sqlite*' "$bin/report" import --db "$work/r.sqlite" "$work/tasks.json"
        fi
        measure "report import (PostgreSQL)" 1 "$fresh_pg" "$bin/report" import --busy-timeout 600 --db "$url" "$work/tasks.json"
    done
elif [ "${SQLITE_IMPORT:-1}" != 0 ]; then
    measure "report import" "$runs" 'rm -f "$work"/r.sqlite*' "$bin/report" import --db "$work/r.sqlite" "$work/tasks.json"
fi
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
