#!/usr/bin/env bash
# Domain benchmarks (issues 4, 5, 6): a generated data set imported, then its report written in
# every format, each under /usr/bin/time. Prints wall time, CPU time and peak RSS of both steps.
#
#   bench/domains/run.sh fleet|habits|bookings [SCALE [BACKEND]]   (SCALE 1, BACKEND sqlite, postgresql or citus)
#
# BACKEND postgresql starts a throwaway PostgreSQL cluster in the work folder (initdb + pg_ctl on
# a Unix socket, as the `postgres` user when run as root, default durability) and imports and
# reports through `--db postgresql://…`; it is stopped and removed at the end. A cluster fresh from
# initdb creates every WAL segment anew; PG_WARM=1 first imports the data once into a database that
# is then dropped, with a CHECKPOINT, so that the timed import writes recycled segments as a server
# in service does (both figures are in docs/BENCHMARKS.md).
#
# BACKEND citus starts three such clusters with Citus (`shared_preload_libraries = 'citus'`, TCP on
# 127.0.0.1, `citus.shard_count` CITUS_SHARDS, default 8: four shards per worker), a coordinator
# and two workers on this one machine, registered as a cluster; `report import` lays the tables
# out on the coordinator (docs/SCALE.md) and the report reads through it.
#
# fleet: one 30-day event, 2,000 cars, 300,000 assignments      → report fleet --event salon-bench
# habits: 10,000 users over 365 days                           → report habits --from … --to … (the year)
# bookings: 500,000 bookings over one year                      → report bookings --from … --to … (the year)
# Targets: the report takes less time than the import and stays under 256 MB.
#
# A/B in one run: COMPARE_BIN=/path/to/another/build/report runs that binary's report on the same
# database right after this build's (printed as `report-cmp`) and says whether the files of the
# two are the same; REPORT_RUNS=N makes it N reports of each, interleaved.
#
# For a caller that runs several backends on the same data (bench/peers.sh): BENCH_DATA=DIR uses
# that profile's data, already generated at that scale, instead of generating it again;
# BENCH_BIN=DIR uses the release binaries there instead of building; EXTRA_REPORTS=1 also times
# the profile's other reports, each on its own line: habits `report-day` (--date 2026-11-28, the
# nightly's day), bookings `report-month` (--month 2026-11, the month holding --as-of); FLOOR=1 on
# SQLite also times SQLite's floor for the imported rows (`report-bench store --from`, BENCH_BIN's
# or one it builds), as the `floor` step, right after the import.
set -euo pipefail

profile="${1:?usage: bench/domains/run.sh fleet|habits|bookings [SCALE]}"
scale="${2:-1}"
backend="${3:-sqlite}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/domain-bench.XXXXXX")"
cleanup() {
    if [ -n "${pg_ctl:-}" ]; then
        for data in "$work"/pg "$work"/citus-*; do
            [ -d "$data" ] && as_postgres "$pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
        done
    fi
    rm -rf "$work"
}
trap cleanup EXIT
# A signal ends the script through its EXIT trap, so the clusters are stopped then too.
trap 'exit 130' INT
trap 'exit 143' TERM
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_of="2026-11-29T06:00:00+01:00"

extra_name="" extra_args=()
case "$profile" in
    fleet) report_args=(fleet --event salon-bench) ;;
    habits) report_args=(habits --from 2025-11-29 --to 2026-11-28) extra_name=report-day extra_args=(habits --date 2026-11-28) ;;
    bookings) report_args=(bookings --from 2025-12-01 --to 2026-11-30) extra_name=report-month extra_args=(bookings --month 2026-11) ;;
    *) echo "unknown profile $profile (fleet, habits, bookings)" >&2; exit 2 ;;
esac

if [ -n "${BENCH_BIN:-}" ]; then
    bin="$BENCH_BIN"
else
    echo "building report and report-sample (release)..." >&2
    products=(report report-sample)
    [ "${FLOOR:-}" = 1 ] && products+=(report-bench)
    for product in "${products[@]}"; do
        (cd "$root" && swift build --explicit-target-dependency-import-check error -c release --product "$product" >&2)
    done
    bin="$(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --show-bin-path)"
fi
if [ -n "${BENCH_DATA:-}" ]; then
    data="$BENCH_DATA"
else
    data="$work/data"
    "$bin/report-sample" scale --profile "$profile" --scale "$scale" --out "$data"
fi
size=$(du -sm "$data" | cut -f1)
echo "data: $profile at scale $scale, $size MB of JSON"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1 /proc/loadavg); $(date -u +%Y-%m-%d)"
printf '%-10s %10s %10s %12s\n' "step" "wall s" "CPU s" "peak RSS MB"

step() {
    local name="$1"; shift
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || { tail -5 "$work/err" >&2; return 1; }
    read -r wall user sys rss <"$work/time"
    printf '%-10s %10.2f %10.2f %12.1f\n' "$name" "$wall" "$(awk "BEGIN { print $user + $sys }")" "$(awk "BEGIN { print $rss / 1024 }")"
}

case "$backend" in
    sqlite) db="$work/db.sqlite" ;;
    postgresql)
        bindir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
        pg_ctl="$bindir/pg_ctl"
        [ "$(id -u)" = 0 ] && chown postgres "$work"
        as_postgres "$bindir/initdb" -D "$work/pg" -A trust -U postgres -E UTF8 --locale=C >/dev/null
        as_postgres "$pg_ctl" -D "$work/pg" -o "-k $work -c listen_addresses=" -l "$work/pg.log" -w start >/dev/null
        as_postgres "$bindir/createdb" -h "$work" -U postgres -T template0 report
        db="postgresql://postgres@/report?host=$work"
        echo "backend: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}'), Unix socket, default durability"
        ;;
    citus)
        bindir="$(ls -d /usr/lib/postgresql/15/bin)"
        pg_ctl="$bindir/pg_ctl"
        [ "$(id -u)" = 0 ] && chown postgres "$work"
        free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
        ports=()
        for node in coordinator worker1 worker2; do
            port=$(free_port)
            ports+=("$port")
            as_postgres "$bindir/initdb" -D "$work/citus-$node" -A trust -U postgres -E UTF8 --locale=C >/dev/null
            as_postgres "$pg_ctl" -D "$work/citus-$node" -l "$work/citus-$node.log" -w start -o \
                "-p $port -k $work -c listen_addresses=127.0.0.1 -c shared_preload_libraries=citus -c citus.shard_count=${CITUS_SHARDS:-8}" >/dev/null
            as_postgres "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres -T template0 report
            as_postgres "$bindir/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d report -c "CREATE EXTENSION citus"
        done
        as_postgres "$bindir/psql" -q -h 127.0.0.1 -p "${ports[0]}" -U postgres -d report \
            -c "SELECT citus_set_coordinator_host('127.0.0.1', ${ports[0]})" \
            -c "SELECT citus_add_node('127.0.0.1', ${ports[1]})" -c "SELECT citus_add_node('127.0.0.1', ${ports[2]})" >/dev/null
        db="postgresql://postgres@127.0.0.1:${ports[0]}/report"
        echo "backend: Citus $(as_postgres "$bindir/psql" -tA -h 127.0.0.1 -p "${ports[0]}" -U postgres -d report -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'") on PostgreSQL $("$bindir/postgres" --version | awk '{print $3}'), a coordinator and 2 workers on this machine, ${CITUS_SHARDS:-8} shards, TCP on 127.0.0.1"
        ;;
    *) echo "unknown backend $backend (sqlite, postgresql, citus)" >&2; exit 2 ;;
esac

if [ "$backend" = postgresql ] && [ "${PG_WARM:-}" = 1 ]; then
    "$bin/report" import --quiet --busy-timeout 600 --db "$db" "$data" >/dev/null
    as_postgres "$bindir/psql" -q -h "$work" -U postgres -d postgres -c CHECKPOINT
    as_postgres "$bindir/dropdb" -h "$work" -U postgres report
    as_postgres "$bindir/createdb" -h "$work" -U postgres -T template0 report
    echo "warm: the data imported once into a database since dropped, then CHECKPOINT"
fi
mkdir -p "$work/out-reports" "$work/out-compare"
step import "$bin/report" import --busy-timeout 600 --db "$db" "$data"
if [ "${FLOOR:-}" = 1 ] && [ "$backend" = sqlite ]; then
    # SQLite's floor for the rows this import stored (issue 32 item 2): `report-bench store --from`
    # writes them again the import's way; its `all` line is the timed writing alone (wall, CPU),
    # printed as the `floor` step, the peak RSS the process's. Its table follows, indented.
    /usr/bin/time -f '%M' -o "$work/time" "$bin/report-bench" store --from "$db" "$work/floor.sqlite" \
        >"$work/floor" 2>"$work/err" || { tail -5 "$work/err" >&2; exit 1; }
    rm -f "$work"/floor.sqlite*
    awk -v rss="$(cat "$work/time")" '$1 == "all" { printf "%-10s %10.2f %10.2f %12.1f\n", "floor", $(NF - 1), $NF, rss / 1024 }' "$work/floor"
    sed 's/^/    /' "$work/floor"
fi
for ((run = 1; run <= ${REPORT_RUNS:-1}; run++)); do
    step report "$bin/report" "${report_args[@]}" --db "$db" --as-of "$as_of" --xlsx --csv --md -o "$work/out-reports"
    if [ -n "${COMPARE_BIN:-}" ]; then
        step report-cmp "$COMPARE_BIN" "${report_args[@]}" --db "$db" --as-of "$as_of" --xlsx --csv --md \
            -o "$work/out-compare"
    fi
done
if [ "${EXTRA_REPORTS:-}" = 1 ] && [ -n "$extra_name" ]; then
    mkdir -p "$work/out-extra"
    step "$extra_name" "$bin/report" "${extra_args[@]}" --db "$db" --as-of "$as_of" --xlsx --csv --md -o "$work/out-extra"
fi
echo "outputs: $(du -sm "$work/out-reports" | cut -f1) MB in $(find "$work/out-reports" -type f | wc -l) files"
if [ -n "${COMPARE_BIN:-}" ]; then
    if diff -r "$work/out-reports" "$work/out-compare" >/dev/null; then
        echo "outputs of report and report-cmp: identical"
    else
        echo "outputs of report and report-cmp: DIFFERENT"
    fi
fi
