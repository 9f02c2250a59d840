#!/usr/bin/env bash
# Which B-tree each query reads by (issue 32 item 2): every statement `report` prepares while it
# imports SampleData/ (twice, the second with --force), shows the status and writes the demo's
# reports (fleet, habits of a period, of a day three times so that the streak cache is resumed,
# of one user, bookings of a month and of a period, habits of a day again after the forced
# import, so that the window reader runs), each run once through SQLite's
# EXPLAIN QUERY PLAN on that database; then, per B-tree (table key, index), the statements whose
# plan uses it.
#
#   bench/plans/run.sh [REPORT_BIN]     (default: the release build; prints to standard output)
#
# The statements are caught where `report` prepares them (sqlite3_prepare_v3, wrapped by
# bench/plans/trace.c through LD_PRELOAD: gcc, the sqlite3 shell and a shared libsqlite3 are
# needed). Without ANALYZE (report never runs it) SQLite's plans do not depend on the data's
# size, so the sample data give the plans of the benchmark profiles. KEEP=1 keeps the work folder.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/plans.XXXXXX")"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
report="${1:-}"
if [ -z "$report" ]; then
    (cd "$root" && swift build --explicit-target-dependency-import-check error -c release --product report >&2)
    report="$(cd "$root" && swift build -c release --show-bin-path)/report"
fi
gcc -shared -fPIC -O2 -o "$work/trace.so" "$root/bench/plans/trace.c" -ldl
as_of="2026-11-29T06:00:00+01:00"
db="$work/plans.sqlite"
traced() { SQL_TRACE="$work/trace.sql" LD_PRELOAD="$work/trace.so" "$report" "$@" --db "$db" >/dev/null; }
traced import -q "$root/SampleData"
traced status
traced fleet --event salon2016 --as-of "$as_of" --csv -o "$work/out"
traced habits --from 2026-10-01 --to 2026-11-28 --as-of "$as_of" --csv -o "$work/out"
for day in 2026-11-28 2026-11-28 2026-11-27; do traced habits --date "$day" --as-of "$as_of" --csv -o "$work/out"; done
user=$(sqlite3 "$db" "SELECT id FROM users ORDER BY id LIMIT 1")
traced habits --date 2026-11-28 --user "$user" --as-of "$as_of" --csv -o "$work/out"
traced bookings --month 2026-11 --as-of "$as_of" --csv -o "$work/out"
traced bookings --from 2026-10-01 --to 2026-11-30 --as-of "$as_of" --csv -o "$work/out"
traced import -q --force "$root/SampleData"
for day in 2026-11-28 2026-11-27; do traced habits --date "$day" --as-of "$as_of" --csv -o "$work/out"; done
python3 - "$work/trace.sql" "$db" <<'PY'
import re, subprocess, sys
statements = []
for text in open(sys.argv[1], encoding="utf-8").read().split("\n;;;;\n"):
    text = text.strip()
    if text and text not in statements and re.match(r"(?is)\s*(SELECT|WITH|DELETE|UPDATE|INSERT)", text) \
            and "sqlite_master" not in text and "pragma" not in text.lower():
        statements.append(text)
trees = {}
for text in statements:
    # The sqlite3 shell leaves parameters unbound (NULL), as a plan needs.
    run = subprocess.run(["sqlite3", sys.argv[2], "EXPLAIN QUERY PLAN " + text], capture_output=True, text=True)
    plan = run.stdout.splitlines() + ["(not explained: " + line + ")" for line in run.stderr.splitlines()]
    for line in plan:
        match = re.search(
            r"(?:SCAN|SEARCH) (\w+)(?: AS \w+)? USING (?:COVERING )?"
            r"(INDEX (\w+)|PRIMARY KEY|INTEGER PRIMARY KEY)", line)
        if match:
            tree = match.group(3) or (match.group(1) + " key")
            trees.setdefault(tree, []).append((line, " ".join(text.split())[:150]))
for tree in sorted(trees):
    print(tree)
    for line, text in trees[tree]:
        print("    " + line + "    <- " + text)
PY
