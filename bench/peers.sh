#!/usr/bin/env bash
# The table of peers (issue 32 item 3), from one run on one machine: `make bench`.
#
#   bench/peers.sh [COUNT [SCALE [PROFILES...]]]   (COUNT 1000000, SCALE 1, PROFILES fleet bookings habits)
#   make bench BENCH_COUNT=50000 BENCH_SCALE=0.05  (a quick trial; BENCH_SCALE=0.25 a shorter full run)
#
# 1. The COUNT-task import, on one generated file: `report import` into SQLite and SQLite's floor
#    for the same rows (`report-bench store --from` the database that import made: SQLite's
#    storage work alone), FLOOR_RUNS times (default 3) alternately, medians shown; once each
#    (bench/import/run.sh): `report import` into a throwaway PostgreSQL cluster when PostgreSQL is
#    installed, DuckDB's `read_json_auto` into a table and `sqlite-utils insert`. Wall time and
#    peak RSS of each, each against report's SQLite import; import ÷ floor against its target.
# 2. The three domain profiles at SCALE (bench/domains/run.sh, data generated once a profile) on
#    SQLite, single PostgreSQL and Citus (a coordinator and two workers on this machine): the import
#    (on SQLite with its floor right after, once: the habits profile's import ≤ 1.2× its floor,
#    issue 32 item 2) and each report (all formats), wall time and peak RSS, the ratios PostgreSQL ÷ SQLite and
#    Citus ÷ PostgreSQL, and whether each target is met: every report on PostgreSQL ≤ 1.3× its
#    SQLite time and on Citus ≤ 2× (issue 32 item 1), the Citus import ≤ 2× single PostgreSQL's
#    and each Citus report ≤ 2× single PostgreSQL's (issue 29).
#
# Standard output is the Markdown only (a header line, two tables, notes), printed at the end;
# progress, and the log tail of any step that fails, go to standard error. A missing peer or
# backend is said in one line and its rows say "not installed"; the rest runs. Every cluster and
# temporary folder is removed at the end, also on failure or on a signal.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
count="${1:-1000000}"
scale="${2:-1}"
if [ $# -gt 2 ]; then shift 2; profiles=("$@"); else profiles=(fleet bookings habits); fi
work="$(mktemp -d "${TMPDIR:-/tmp}/peers-bench.XXXXXX")"
child=""
cleanup() {
    # A child script runs in a session of its own: its whole group is signalled, and its own EXIT
    # trap stops its clusters before this one removes the folder.
    if [ -n "$child" ]; then
        kill -TERM -- "-$child" 2>/dev/null || true
        wait "$child" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() { echo "[peers $(date -u +%H:%M:%S)] $*" >&2; }
# run_logged LOG COMMAND...: the command in a session of its own, output to LOG; on failure the
# log's tail goes to standard error.
run_logged() {
    local log="$1" rc=0
    shift
    setsid "$@" >"$log" 2>&1 &
    child=$!
    wait "$child" || rc=$?
    child=""
    if [ "$rc" != 0 ]; then
        say "failed ($rc): $*; the end of its output:"
        tail -15 "$log" | sed 's/^/    /' >&2
    fi
    return "$rc"
}
thousands() { echo "$1" | sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/;ta'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print ""; else printf "%.2f", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
at_most() { awk -v r="$1" -v t="$2" 'BEGIN { exit !(r != "" && r + 0 <= t + 0) }'; }

started="$(date -u +%s)"
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
commit="$(git -C "$root" rev-parse --short HEAD)"
git -C "$root" diff --quiet HEAD -- 2>/dev/null || commit="$commit + uncommitted changes"

say "building report, report-sample and report-bench (release)..."
for product in report report-sample report-bench; do
    (cd "$root" && swift build --explicit-target-dependency-import-check error -c release --product "$product" >&2)
done
bin="$(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --show-bin-path)"

# What is installed: a missing peer or backend is one line here and "not installed" in its rows.
notes=()
have_duckdb=1 have_sqlite_utils=1 have_pg=1 have_citus=1
python3 -c 'import duckdb' 2>/dev/null || { have_duckdb=0; notes+=("DuckDB: not installed (\`pip install duckdb\`), not measured."); }
command -v sqlite-utils >/dev/null || { have_sqlite_utils=0; notes+=("sqlite-utils: not installed (\`pip install sqlite-utils\`), not measured."); }
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || { have_pg=0; notes+=("PostgreSQL: not installed (\`apt-get install postgresql\`), its rows not measured."); }
[ -f /usr/lib/postgresql/15/lib/citus.so ] || { have_citus=0; notes+=("Citus: not installed (\`../shared/citus/install.sh\`), its rows not measured."); }
for note in "${notes[@]}"; do say "$note"; done

versions=()
[ "$have_duckdb" = 1 ] && versions+=("DuckDB $(python3 -c 'import duckdb; print(duckdb.__version__)')")
[ "$have_sqlite_utils" = 1 ] && versions+=("sqlite-utils $(sqlite-utils --version | awk '{print $NF}')")
versions+=("SQLite $(dpkg-query -W -f '${Version}' libsqlite3-0 2>/dev/null | cut -d- -f1)")
if [ "$have_pg" = 1 ]; then
    pg_bins=(/usr/lib/postgresql/*/bin)
    versions+=("PostgreSQL $("$(printf '%s\n' "${pg_bins[@]}" | sort -V | tail -1)/postgres" --version | awk '{print $3}')")
fi

# ---- 1. The COUNT-task import against its peers, and SQLite's floor --------------------------------
declare -A wall=() rss=()
say "generating $(thousands "$count") tasks..."
"$bin/report-sample" generate --kind tasks --count "$count" --out "$work/tasks.json" --seed 1 >/dev/null
input_mb="$(du -m "$work/tasks.json" | cut -f1)"
import_log="$work/import.log"
import_mode=sqlite
[ "$have_pg" = 1 ] && import_mode=postgresql
say "import of $(thousands "$count") tasks: $([ "$import_mode" = postgresql ] && echo "report (PostgreSQL), ")DuckDB, sqlite-utils..."
if ! run_logged "$import_log" env BENCH_BIN="$bin" BENCH_INPUT="$work/tasks.json" SQLITE_IMPORT=0 \
    "$root/bench/import/run.sh" "$count" 1 "$import_mode"; then
    if [ "$import_mode" = postgresql ]; then
        notes+=("The import run with PostgreSQL failed (its log's tail is on standard error); run again without it.")
        import_mode=sqlite
        run_logged "$import_log" env BENCH_BIN="$bin" BENCH_INPUT="$work/tasks.json" SQLITE_IMPORT=0 \
            "$root/bench/import/run.sh" "$count" 1 sqlite || notes+=("The import run failed (its log's tail is on standard error).")
    else
        notes+=("The import run failed (its log's tail is on standard error).")
    fi
fi
# A row of bench/import/run.sh's text table: its name, then wall s, records/s, CPU s, peak RSS MB.
import_row() {
    awk -v n="$1" 'index($0, n) == 1 && $NF ~ /^[0-9.]+$/ { print $(NF - 3), $NF * 1024; exit }' "$import_log"
}
read_import() {
    local key="$1" row
    row="$(import_row "$2")"
    [ -n "$row" ] && read -r "wall[$key]" "rss[$key]" <<<"$row"
    return 0
}
read_import postgresql "report import (PostgreSQL)"
read_import duckdb "duckdb read_json_auto"
read_import sqlite_utils "sqlite-utils insert"

# `report import` into SQLite against SQLite's floor for the same rows, FLOOR_RUNS times
# alternately: the import of the file under /usr/bin/time, then `report-bench store --from` that
# database (SQLite alone writing the rows the import wrote, the import's way, B-tree by B-tree;
# bench/Sources/report-bench/FloorBench.swift), whose `all` line gives the floor's wall time. The
# table shows the median of each (this machine's speed moves by 15-30 % between runs); the
# samples are listed under it, with the median floor run's table.
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit; if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
floor_runs="${FLOOR_RUNS:-3}"
imports="" floors="" import_peak=0 floor_peak=0 floor_lines="" pairs=""
declare -A floor_table=()
say "report import (SQLite) and SQLite's floor (report-bench store --from), $floor_runs runs alternately..."
for ((run = 1; run <= floor_runs; run++)); do
    rm -f "$work"/import.sqlite* "$work"/floor.sqlite*
    run_logged "$work/sqlite-import.log" /usr/bin/time -f 'time: %e %U %S %M' \
        "$bin/report" import --quiet --db "$work/import.sqlite" "$work/tasks.json" || { notes+=("\`report import\` into SQLite failed (its log's tail is on standard error)."); break; }
    read -r _ import_wall _ _ import_rss < <(grep '^time: ' "$work/sqlite-import.log" | tail -1)
    [ "$import_rss" -gt "$import_peak" ] && import_peak="$import_rss"
    imports+=" $import_wall"
    if run_logged "$work/floor.log" /usr/bin/time -f 'time: %e %U %S %M' \
        "$bin/report-bench" store --from "$work/import.sqlite" "$work/floor.sqlite"; then
        floor_wall="$(awk '$1 == "all" { print $(NF - 1); exit }' "$work/floor.log")"
        read -r _ _ _ _ floor_rss < <(grep '^time: ' "$work/floor.log" | tail -1)
        [ "$floor_rss" -gt "$floor_peak" ] && floor_peak="$floor_rss"
        if [ -n "$floor_wall" ]; then
            floors+=" $floor_wall"
            floor_table[$floor_wall]="$(grep -v '^time: ' "$work/floor.log")"
            pairs+="${pairs:+, }$import_wall ÷ $floor_wall = $(ratio "$import_wall" "$floor_wall")"
        else
            notes+=("\`report-bench store --from\` printed no \`all\` line in run $run: no floor from it.")
        fi
    else
        notes+=("\`report-bench store --from\` failed in run $run (its log's tail is on standard error): no floor from it.")
    fi
done
rm -f "$work"/import.sqlite* "$work"/floor.sqlite*
wall[sqlite]="$(median <<<"$imports")"
[ -n "${wall[sqlite]}" ] && rss[sqlite]="$import_peak"
wall[floor]="$(median <<<"$floors")"
if [ -n "${wall[floor]}" ]; then
    rss[floor]="$floor_peak"
    # The table of the run whose floor is the median (with an even count, the one just above it).
    for f in $(tr ' ' '\n' <<<"$floors" | sed '/^$/d' | sort -g); do
        floor_lines="${floor_table[$f]}"
        awk -v f="$f" -v m="${wall[floor]}" 'BEGIN { exit !(f + 0 >= m + 0) }' && break
    done
fi

# ---- 2. The domain profiles on SQLite, PostgreSQL and Citus ---------------------------------------
backends=(sqlite postgresql citus)
declare -A backend_name=([sqlite]=SQLite [postgresql]=PostgreSQL [citus]=Citus)
# `floor` is SQLite's only: its floor for the rows the import stored (issue 32 item 2).
declare -A steps=([fleet]="import floor report" [bookings]="import floor report report-month" [habits]="import floor report report-day")
declare -A step_name=(
    [fleet/import]="import" [fleet/report]="report \`fleet --event salon-bench\`"
    [fleet/floor]="SQLite's floor for the import's rows" [bookings/floor]="SQLite's floor for the import's rows"
    [habits/floor]="SQLite's floor for the import's rows"
    [bookings/import]="import" [bookings/report]="report \`bookings\`, the year"
    [bookings/report-month]="report \`bookings --month 2026-11\`"
    [habits/import]="import" [habits/report]="report \`habits\`, the year"
    [habits/report-day]="report \`habits --date 2026-11-28\`"
)
declare -A data_mb=() status=()
citus_version=""
for profile in "${profiles[@]}"; do
    [ -n "${steps[$profile]:-}" ] || { echo "unknown profile $profile (fleet, bookings, habits)" >&2; exit 2; }
    say "$profile at scale $scale: generating the data..."
    "$bin/report-sample" scale --profile "$profile" --scale "$scale" --out "$work/data-$profile" >/dev/null
    data_mb[$profile]="$(du -sm "$work/data-$profile" | cut -f1)"
    for backend in "${backends[@]}"; do
        if { [ "$backend" = postgresql ] && [ "$have_pg" = 0 ]; } || { [ "$backend" = citus ] && [ "$have_citus" = 0 ]; }; then
            status[$profile/$backend]="not installed"
            continue
        fi
        say "$profile on ${backend_name[$backend]}..."
        log="$work/$profile-$backend.log"
        if run_logged "$log" env -u COMPARE_BIN BENCH_BIN="$bin" BENCH_DATA="$work/data-$profile" EXTRA_REPORTS=1 \
            FLOOR=1 REPORT_RUNS=1 "$root/bench/domains/run.sh" "$profile" "$scale" "$backend"; then
            status[$profile/$backend]=ok
        else
            status[$profile/$backend]="failed"
            notes+=("$profile on ${backend_name[$backend]} failed (its log's tail is on standard error); its rows show what it measured before.")
        fi
        # bench/domains/run.sh's step lines: name, wall s, CPU s, peak RSS MB (also of a failed run,
        # as far as it got).
        for step in ${steps[$profile]}; do
            row="$(awk -v n="$step" '$1 == n && NF == 4 { print $2, $4 * 1024; exit }' "$log")"
            [ -n "$row" ] && read -r "wall[$profile/$backend/$step]" "rss[$profile/$backend/$step]" <<<"$row"
        done
        if [ "$backend" = citus ] && [ -z "$citus_version" ]; then
            citus_version="$(sed -n 's/^backend: Citus \([^ ]*\) .*/\1/p' "$log")"
        fi
    done
    rm -rf "$work/data-$profile"
done
[ -n "$citus_version" ] && versions+=("Citus $citus_version (a coordinator and 2 workers, 8 shards)")

# ---- The Markdown -------------------------------------------------------------------------------
ended="$(date -u +%s)"
join_versions() { local out="" v; for v in "${versions[@]}"; do out+="${out:+, }$v"; done; echo "$out"; }
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
sizes="$(thousands "$count") tasks (${input_mb:-?} MB of JSON), domain scale $scale ("
for profile in "${profiles[@]}"; do sizes+="$profile ${data_mb[$profile]:-?} MB, "; done
sizes="${sizes%, } of JSON)"
echo "**Table of peers** — commit \`$commit\`, $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
    "load $load_start at start and $load_end at end (1, 5, 15 min), $(date -u -d "@$started" '+%Y-%m-%d %H:%M')–$(date -u -d "@$ended" +%H:%M) UTC" \
    "($(((ended - started) / 60)) min $(((ended - started) % 60)) s), $sizes; $(join_versions)."
echo
echo "| $(thousands "$count")-task import | wall s | peak MB | this ÷ report (SQLite) | report (SQLite) ÷ this |"
echo "|---|---:|---:|---:|---:|"
import_line() {
    local label="$1" key="$2" installed="$3"
    if [ "$installed" = 0 ]; then printf '| %s | not installed | | | |\n' "$label"; return; fi
    if [ -z "${wall[$key]:-}" ]; then printf '| %s | not measured | | | |\n' "$label"; return; fi
    printf '| %s | %s | %s | %s | %s |\n' "$label" "${wall[$key]}" "$(mb "${rss[$key]}")" \
        "$(ratio "${wall[$key]}" "${wall[sqlite]:-}")" "$(ratio "${wall[sqlite]:-}" "${wall[$key]}")"
}
import_line "report import (SQLite)" sqlite 1
import_line "report import (PostgreSQL, a throwaway cluster)" postgresql "$have_pg"
import_line "DuckDB \`read_json_auto\` into a table" duckdb "$have_duckdb"
import_line "sqlite-utils \`insert\`" sqlite_utils "$have_sqlite_utils"
import_line "SQLite's floor for the same rows (\`report-bench store --from\`)" floor 1
if [ -n "${wall[floor]:-}" ] && [ -n "${wall[sqlite]:-}" ]; then
    floor_ratio="$(ratio "${wall[sqlite]}" "${wall[floor]}")"
    floor_verdict="met"
    at_most "$floor_ratio" 1.15 || floor_verdict="**not met**"
    echo
    echo "report import (SQLite) ÷ its floor: **$floor_ratio** (issue 32 item 2, target ≤ 1.15: $floor_verdict)." \
        "The SQLite import and the floor rows are the medians of $floor_runs runs, alternately import then floor" \
        "(import ÷ floor in each: $pairs); peak MB the largest of them. The other rows ran once."
else
    floor_verdict="unknown"
fi
if [ -n "$floor_lines" ]; then
    echo
    echo "The floor of the median run as \`report-bench store --from\` prints it (seconds):"
    echo
    while IFS= read -r line; do echo "    $line"; done <<<"$floor_lines"
fi
echo
echo "| profile | backend | step | wall s | peak MB | ÷ SQLite | ÷ PostgreSQL | target | met |"
echo "|---|---|---|---:|---:|---:|---:|---|---|"
# The count under the domain table includes the import ÷ floor above.
met=0 missed=0 unknown=0 domain_floors=""
case "$floor_verdict" in met) met=1 ;; unknown) unknown=1 ;; *) missed=1 ;; esac
for profile in "${profiles[@]}"; do
    for step in ${steps[$profile]}; do
        for backend in "${backends[@]}"; do
            [ "$step" = floor ] && [ "$backend" != sqlite ] && continue
            key="$profile/$backend/$step"
            w="${wall[$key]:-}"
            to_sqlite="" to_pg=""
            [ "$backend" != sqlite ] && to_sqlite="$(ratio "$w" "${wall[$profile/sqlite/$step]:-}")"
            [ "$backend" = citus ] && to_pg="$(ratio "$w" "${wall[$profile/postgresql/$step]:-}")"
            # The targets: [ratio name, limit] pairs for this row.
            target="" checks=()
            label="${step_name[$profile/$step]}"
            if [ "$step" = floor ]; then
                # The import ÷ its floor (one pair, this run): in the label; a target for habits.
                floor_of="$(ratio "${wall[$profile/sqlite/import]:-}" "$w")"
                label+=" (\`report-bench store --from\`), import ÷ floor ${floor_of:-unknown}"
                domain_floors+="${domain_floors:+, }$profile ${floor_of:-unknown}"
            fi
            case "$backend/$step" in
                sqlite/floor) [ "$profile" = habits ] && { target="import ≤ 1.2× this"; checks=("$floor_of" 1.2); } ;;
                postgresql/import | sqlite/*) ;;
                citus/import) target="≤ 2× PostgreSQL"; checks=("$to_pg" 2) ;;
                postgresql/*) target="≤ 1.3× SQLite"; checks=("$to_sqlite" 1.3) ;;
                citus/*) target="≤ 2× SQLite, ≤ 2× PostgreSQL"; checks=("$to_sqlite" 2 "$to_pg" 2) ;;
            esac
            verdict="—"
            if [ -n "$target" ]; then
                verdict="met"
                for ((i = 0; i < ${#checks[@]}; i += 2)); do
                    if [ -z "${checks[i]}" ]; then verdict="unknown"; break; fi
                    at_most "${checks[i]}" "${checks[i + 1]}" || verdict="**not met**"
                done
                case "$verdict" in met) met=$((met + 1)) ;; unknown) unknown=$((unknown + 1)) ;; *) missed=$((missed + 1)) ;; esac
            fi
            if [ -z "$w" ]; then
                shown="${status[$profile/$backend]:-not measured}"
                [ "$shown" = ok ] && shown="not measured"
                printf '| %s | %s | %s | %s | | | | %s | %s |\n' "$profile" "${backend_name[$backend]}" \
                    "$label" "$shown" "$target" "$verdict"
                continue
            fi
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$profile" "${backend_name[$backend]}" \
                "$label" "$w" "$(mb "${rss[$key]}")" "$to_sqlite" "$to_pg" "$target" "$verdict"
        done
    done
done
if [ -n "$domain_floors" ]; then
    echo
    echo "The profiles' SQLite imports ÷ SQLite's floor for their rows, one pair each, the floor right after its" \
        "import (its wall time the \`all\` line's, the timed writing alone): $domain_floors; issue 32 item 2's" \
        "target is the habits profile's (≤ 1.2)."
fi
echo
echo "Targets (the import ÷ floor above included): $met met, $missed not met$([ "$unknown" -gt 0 ] && echo ", $unknown without a figure")."
for note in "${notes[@]}"; do
    echo
    echo "$note"
done
