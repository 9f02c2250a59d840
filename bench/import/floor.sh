#!/usr/bin/env bash
# The import against SQLite's floor for the same rows (issue 32 item 2), in one run.
#
#   bench/import/floor.sh tasks [COUNT [RUNS]]      (defaults 1000000 and 3)
#   bench/import/floor.sh habits [SCALE [RUNS]]     (defaults 1 and 2; the habits profile, 1.6 GB at 1)
#
# The data are generated once (`report-sample generate --kind tasks --count COUNT --seed 1`, or
# `report-sample scale --profile habits --scale SCALE`) and imported once into a source database.
# Then, RUNS times and alternately, `report-bench store --from SOURCE` writes the source's rows
# again the import's way, timing SQLite's work alone B-tree by B-tree (the floor, see
# bench/Sources/report-bench/FloorBench.swift), and `report import` loads the JSON into a fresh
# database under /usr/bin/time. Prints each run's floor table, the import's wall, CPU and peak RSS,
# and the ratio import / floor (target: ≤ 1.15 for tasks, ≤ 1.2 for habits; ≤ 64 MB).
#
# FLOOR_BIN / REPORT_BIN: other builds of report-bench / report (A/B in one run); DATA=DIR reuses
# data generated into DIR by an earlier run (kept when given).
set -euo pipefail

what="${1:?usage: bench/import/floor.sh tasks|habits [COUNT|SCALE [RUNS]]}"
name=floor-bench
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
case "$what" in
    tasks)
        count="${2:-1000000}"; runs="${3:-3}"; input="$data/tasks.json"
        [ -s "$input" ] || "$bin/report-sample" generate --kind tasks --count "$count" --out "$input" --seed 1 >&2
        target=1.15 ;;
    habits)
        scale="${2:-1}"; runs="${3:-2}"; input="$data"
        [ -s "$data/tasks.json" ] || "$bin/report-sample" scale --profile habits --scale "$scale" --out "$data" >&2
        target=1.2 ;;
    *) echo "unknown data set $what (tasks, habits)" >&2; exit 2 ;;
esac
echo "data: $what, $(du -sm "$input" | cut -f1) MB of JSON"
memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)
commit=$(cd "$root" && git rev-parse --short HEAD)
load=$(cut -d' ' -f1 /proc/loadavg)
echo "machine: $(nproc) cores, $memory, load $load; $(date -u '+%Y-%m-%d %H:%M') UTC; commit $commit"
"$report" import --quiet --db "$work/source.sqlite" "$input" >/dev/null
for run in $(seq "$runs"); do
    "$bench" store --from "$work/source.sqlite" "$work/floor.sqlite" | tee "$work/floor"
    floor=$(awk '$1 == "all" { print $(NF - 1) }' "$work/floor")
    floor_cpu=$(awk '$1 == "all" { print $NF }' "$work/floor")
    rm -f "$work"/floor.sqlite*
    rm -f "$work"/import.sqlite*
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
        "$report" import --quiet --db "$work/import.sqlite" "$input" >/dev/null
    read -r wall user sys rss <"$work/time"
    rm -f "$work"/import.sqlite*
    awk -v run="$run" -v wall="$wall" -v cpu="$(awk "BEGIN { print $user + $sys }")" -v rss="$rss" \
        -v floor="$floor" -v floor_cpu="$floor_cpu" -v target="$target" 'BEGIN {
            ratio = wall / floor
            printf "run %d: import %.2f s wall, %.2f s CPU, %.1f MB peak RSS; ", run, wall, cpu, rss / 1024
            printf "floor %.2f s wall, %.2f s CPU; import / floor %.2f wall", floor, floor_cpu, ratio
            printf " (target %.2f: %s), %.2f CPU\n", target, ratio <= target ? "met" : "not met", cpu / floor_cpu
        }'
done
