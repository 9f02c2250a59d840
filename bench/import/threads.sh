#!/usr/bin/env bash
# The 1M-task import thread by thread against SQLite's floor for the same rows (issue 32 item 2):
# where the import's time goes beyond the floor's, in one run.
#
#   bench/import/threads.sh [COUNT [RUNS]]      (defaults 1000000 and 3; needs `perf`: linux-perf)
#
# The task file is generated once (`report-sample generate --kind tasks --count COUNT --seed 1`).
# Then RUNS times: `report import` into a fresh database under `perf sched record`, and from the
# scheduler's record (`perf sched timehist`) the import's phases:
#   - start: from the database thread's first event to the reader thread's;
#   - load: while the reader thread lives (the JSON read and validated on it, the rows written on
#     the database thread): its wall time, the database thread's CPU and the time it waited for
#     records (off the CPU in a futex: the reader's queue was empty), for anything else (I/O), and
#     runnable but not running (the scheduler's delay), and the reader's CPU;
#   - after the load: the index builds, the commit and its checkpoint, the close (the database
#     thread's wall and CPU).
# Right after each import, `report-bench store --from` that database tasks: the floor's load (the
# import's upsert alone), its index builds and its commit, for the same rows.
#
# REPORT_BIN / FLOOR_BIN: other builds of report / report-bench (an A/B: run this once per build,
# alternately); DATA=DIR reuses a task file generated into DIR by an earlier run (kept when given).
set -euo pipefail

count="${1:-1000000}"
runs="${2:-3}"
command -v perf >/dev/null || { echo "threads.sh needs perf (apt-get install linux-perf)" >&2; exit 2; }
name=threads-bench
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
input="$data/tasks.json"
[ -s "$input" ] || "$bin/report-sample" generate --kind tasks --count "$count" --out "$input" --seed 1 >&2

echo "$(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $report"
for ((run = 1; run <= runs; run++)); do
    rm -f "$work"/import.sqlite* "$work"/floor.sqlite*
    perf sched record -g -o "$work/sched.data" -- "$report" import --quiet --db "$work/import.sqlite" "$input" \
        >/dev/null 2>"$work/perf.log"
    perf sched timehist -i "$work/sched.data" -g 2>/dev/null >"$work/timehist.txt"
    # The database thread is the process's first; the reader is the thread with the most switches
    # (the digest thread, the third, runs a few dozen times).
    pid="$(grep -m1 -o 'report\[[0-9]*\]' "$work/timehist.txt" | tr -dc 0-9)"
    reader="$(grep -o "report\[[0-9]*/$pid\]" "$work/timehist.txt" | sort | uniq -c | sort -rn | head -1 \
        | grep -o '\[[0-9]*' | tr -dc 0-9)"
    # timehist: time, cpu, task, wait ms, scheduling delay ms, run ms, then the call chain of the
    # switch out. A line's wait is the time before that run; the call chain that caused it is on
    # the task's line before.
    awk -v db="report[$pid]" -v rd="report[$reader/$pid]" -v run="$run" '
        { T[NR] = $1; N[NR] = $3; W[NR] = $4; D[NR] = $5; R[NR] = $6; L[NR] = $0 }
        $3 == db && !start { start = $1 - ($6 + $4) / 1000 }
        $3 == rd { rend = $1; rrun += $6; if (!rstart) rstart = $1 - ($6 + $4) / 1000 }
        END {
            for (j = 1; j <= NR; j++) {
                if (N[j] != db) continue
                if (T[j] <= rend) {
                    drun += R[j]
                    delay += D[j]
                    if (prev ~ /futex/) futex += W[j]; else other += W[j]
                } else { after += R[j]; last = T[j] }
                prev = L[j]
            }
            printf "run %d  import: start %.0f ms | load %.0f ms: database thread CPU %.0f ms, waited for records %.0f ms, for other things %.0f ms, runnable %.0f ms; reader CPU %.0f ms | after the load %.0f ms, CPU %.0f ms\n",
                run, (rstart - start) * 1000, (rend - rstart) * 1000, drun, futex, other, delay, rrun, (last - rend) * 1000, after
        }' "$work/timehist.txt"
    "$bench" store --from "$work/import.sqlite" "$work/floor.sqlite" tasks >"$work/floor.txt"
    awk -v run="$run" '
        /load only/ && /upsert/ { load = $(NF - 1) }
        /^tasks +\+ tasks_/ { indexes += $(NF - 1) }
        /^tasks +commit/ { commit = $(NF - 1) }
        /^tasks +floor of tasks/ { all = $(NF - 1) }
        END { printf "run %d  floor:  load %.0f ms | index builds %.0f ms, commit %.0f ms | all %.0f ms\n",
            run, load * 1000, indexes * 1000, commit * 1000, all * 1000 }' "$work/floor.txt"
done
