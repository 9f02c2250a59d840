#!/usr/bin/env bash
# The domain benchmarks on SQLite, single PostgreSQL and Citus (a coordinator and two workers),
# one after another in one run, each profile's data generated the same (deterministic) way for
# each: the table docs/BENCHMARKS.md keeps (issue 29 item 7), with each figure's ratio to
# single PostgreSQL's.
#
#   bench/domains/backends.sh [SCALE [PROFILES...]]     (SCALE 1, PROFILES fleet bookings habits)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
scale="${1:-1}"
shift || true
profiles=("${@:-fleet bookings habits}")
read -r -a profiles <<< "${profiles[*]}"
log="$(mktemp "${TMPDIR:-/tmp}/backends.XXXXXX")"
trap 'rm -f "$log"' EXIT

echo "commit $(git -C "$root" rev-parse --short HEAD), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1 /proc/loadavg) at start, $(date -u +%Y-%m-%dT%H:%MZ), scale $scale"
echo
echo "| profile | backend | import wall s | import CPU s | import peak MB | report wall s | report peak MB | import ÷ PostgreSQL | report ÷ PostgreSQL |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for profile in "${profiles[@]}"; do
    declare -A import_wall=() report_wall=() import_cpu=() import_rss=() report_rss=()
    for backend in sqlite postgresql citus; do
        "$root/bench/domains/run.sh" "$profile" "$scale" "$backend" >"$log" 2>/dev/null
        read -r _ import_wall[$backend] import_cpu[$backend] import_rss[$backend] < <(grep '^import ' "$log")
        read -r _ report_wall[$backend] _ report_rss[$backend] < <(grep '^report ' "$log")
    done
    for backend in sqlite postgresql citus; do
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$profile" "$backend" \
            "${import_wall[$backend]}" "${import_cpu[$backend]}" "${import_rss[$backend]}" \
            "${report_wall[$backend]}" "${report_rss[$backend]}" \
            "$(awk "BEGIN { printf \"%.2f\", ${import_wall[$backend]} / ${import_wall[postgresql]} }")" \
            "$(awk "BEGIN { printf \"%.2f\", ${report_wall[$backend]} / ${report_wall[postgresql]} }")"
    done
done
