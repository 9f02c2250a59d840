#!/usr/bin/env bash
# Checks on a generated data set that the habits report resumed from the cached streak state
# (habits_streak_state) writes byte for byte the files of the full walk, night after night and
# after files of older days arrive late; prints the time of each report.
#
#   bench/habits/state-check.sh DATABASE [LAST_DAY]
#
# DATABASE: a habits database (e.g. `report import --db DB` of `report-sample scale --profile
# habits`), copied, never changed. LAST_DAY defaults to 2026-11-28 (the profile's last day).
# "Full" runs on a copy whose cache is emptied first (sqlite3 DELETE), so it walks every user's
# whole history; "cached" runs on the working copy, resuming from what earlier nights saved.
set -euo pipefail

source_db="${1:?usage: bench/habits/state-check.sh DATABASE [LAST_DAY]}"
last="${2:-2026-11-28}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/habits-state.XXXXXX")"
trap 'rm -rf "$work"' EXIT
bin="$(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --show-bin-path)"
day() { date -u -d "$last $1 days" +%Y-%m-%d; }
cp "$source_db" "$work/db.sqlite"

report() { # NAME DB DAY
    mkdir -p "$work/$1"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin/report" habits --db "$2" --date "$3" \
        --as-of 2026-11-29T06:00:00+01:00 --xlsx --csv --md -o "$work/$1" >/dev/null 2>&1
    read -r wall user sys rss <"$work/time"
    printf '%-28s %s wall %6.2f s, CPU %6.2f s, peak %5.1f MB\n' "$1" "$3" "$wall" \
        "$(awk "BEGIN { print $user + $sys }")" "$(awk "BEGIN { print $rss / 1024 }")"
}

compare() { # DAY TAG
    cp "$work/db.sqlite" "$work/full.sqlite"
    sqlite3 "$work/full.sqlite" "DELETE FROM habits_streak_state"
    report "full-$2" "$work/full.sqlite" "$1"
    report "cached-$2" "$work/db.sqlite" "$1"
    diff -r "$work/full-$2" "$work/cached-$2" >/dev/null || { echo "DIFFERENT: $2 ($1)"; exit 1; }
    echo "identical: $2 ($1), $(sqlite3 "$work/db.sqlite" 'SELECT COUNT(*) FROM habits_streak_state') cached states"
}

report "first-night" "$work/db.sqlite" "$(day -2)"
compare "$(day -1)" "next-night"

# Late files: done tasks and flows of days before the cached states (for every 7th user), a task
# of March done now (its user falls back to the full read), and a session open for ten days.
sqlite3 "$work/db.sqlite" "SELECT id FROM users ORDER BY id" | awk -v d1="$(day -12)" -v d2="$(day -9)" '
    NR % 7 == 0 { printf "%s{\"id\":\"late-t%d\",\"userId\":\"%s\",\"date\":\"%s\",\"libelle\":\"Tard\",\"state\":\"terminee\"}\n", (n++ ? "," : "["), NR, $1, d1 }
    NR % 11 == 0 { printf "%s{\"id\":\"late-m%d\",\"userId\":\"%s\",\"date\":\"2026-03-01\",\"libelle\":\"Mars\",\"state\":\"terminee\",\"completedAt\":\"%sT09:00:00Z\"}\n", (n++ ? "," : "["), NR, $1, d2 }
    END { print "]" }' >"$work/tasks-late.json"
sqlite3 "$work/db.sqlite" "SELECT id FROM users ORDER BY id LIMIT 50" | awk -v d1="$(day -10)" -v d2="$last" '
    { printf "%s{\"id\":\"late-s%d\",\"userId\":\"%s\",\"startedAt\":\"%sT07:00:00Z\",\"totalSeconds\":1500,\"remainingSeconds\":0,\"endedAt\":\"%sT07:30:00Z\"}\n", (NR > 1 ? "," : "["), NR, $1, d1, d2 }
    END { print "]" }' >"$work/focus_sessions-late.json"
"$bin/report" import --db "$work/db.sqlite" "$work/tasks-late.json" "$work/focus_sessions-late.json" 2>&1 | tail -1
compare "$last" "after-late-files"
compare "$last" "same-night-again"
