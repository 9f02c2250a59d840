#!/usr/bin/env bash
# The nightly benchmark (issue 13, item 5): a year of habits (the `habits` profile, 10,000
# users) and a whole fleet event (the `fleet` profile, 300,000 assignments) already in the
# database, one night's new habits files in the inbox; `report nightly` end to end, under
# /usr/bin/time.
#
#   bench/nightly/run.sh [WORK]      (WORK: a folder for the data sets, kept between runs;
#                                     default a temporary folder removed at the end)
#   NIGHTLY_RERUN=1 bench/nightly/run.sh WORK     times the same night again from the setup
#                                     saved in WORK/ready by an earlier run (seconds, not minutes)
#   REPORT_BIN=PATH ...               times another build of `report` (an A/B; setup uses this tree's)
#
# Setup, not timed: both profiles generated and imported; the records of the habits profile's
# last day (2026-11-28) exported back to JSON files (sqlite3) and deleted from the database:
# they are the night's inbox. The fleet event is moved by whole days so that it runs from
# 2026-10-31 to 2026-11-29 and the night reports it. The night before is run first (as-of
# 2026-11-28), as it would have been, so the habits report finds the cached streak state it
# saved (a database that never ran a report pays one full walk of the history, about 15 s).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ -n "${1:-}" ]]; then work="$1"; mkdir -p "$work"; else
    work="$(mktemp -d "${TMPDIR:-/tmp}/nightly-bench.XXXXXX")"; trap 'rm -rf "$work"' EXIT; fi
(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --product report >&2 && swift build --explicit-target-dependency-import-check error -c release --product report-sample >&2)
bin="$(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --show-bin-path)"
report="${REPORT_BIN:-$bin/report}"  # the binary timed (REPORT_BIN: another build, for an A/B)

db="$work/night.sqlite"
ready="$work/ready"
if [[ "${NIGHTLY_RERUN:-}" == 1 && -f "$ready/night.sqlite" ]]; then
    echo "reusing the setup saved in $ready"
else
    for profile in habits fleet; do
        [[ -d "$work/$profile" ]] || "$bin/report-sample" scale --profile "$profile" --out "$work/$profile" >/dev/null
    done
    rm -rf "$db" "$db-wal" "$db-shm" "$work/inbox" "$work/archive" "$work/reports" "$work/reports-before" "$work/empty"
    "$bin/report" import --quiet --db "$db" "$work/habits" "$work/fleet"

    night="2026-11-28"
    mkdir -p "$work/inbox"
    ts() { echo "CASE WHEN $1 IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%SZ', $1 / 1000000, 'unixepoch') END"; }
    lo="(unixepoch('$night') * 1000000)"; hi="(unixepoch('$night', '+1 day') * 1000000)"
    export_json() { # FILE SELECT
        { echo "["; sqlite3 "$db" "$2" | sed '$!s/$/,/'; echo "]"; } >"$work/inbox/$1"
    }
    export_json tasks.json "SELECT json_object('id', id, 'userId', user_id, 'date', date, 'libelle', libelle, 'state', state,
        'contexte', json(coalesce(contexte, '[]')), 'createdAt', $(ts created_at_us), 'completedAt', $(ts completed_at_us))
        FROM tasks WHERE date = '$night'"
    export_json flows.json "SELECT json_object('id', f.id, 'userId', f.user_id, 'date', f.date, 'libelleAction', f.libelle_action,
        'objectif', f.objectif, 'etat', f.etat, 'energieRequise', f.energie_requise, 'tempsEstime', f.temps_estime,
        'tempsRealise', f.temps_realise, 'streakDay', f.streak_day,
        'etape', (WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n + 1 < f.steps_total)
                  SELECT json_group_array(json_object('libelle', 'Étape', 'terminee', json(CASE WHEN n < f.steps_done THEN 'true' ELSE 'false' END)))
                  FROM s WHERE f.steps_total > 0),
        'contexte', (SELECT json_group_array(context) FROM (SELECT context FROM flow_contexts WHERE flow_id = f.id ORDER BY position)),
        'createdAt', $(ts f.created_at_us), 'completedAt', $(ts f.completed_at_us))
        FROM flows f WHERE f.date = '$night'"
    export_json focus_sessions.json "SELECT json_object('id', id, 'userId', user_id, 'startedAt', $(ts started_at_us),
        'totalSeconds', total_seconds, 'remainingSeconds', remaining_seconds, 'endedAt', $(ts ended_at_us))
        FROM focus_sessions WHERE started_at_us >= $lo AND started_at_us < $hi"
    export_json logins.json "SELECT json_object('userId', user_id, 'at', $(ts at_us)) FROM logins WHERE at_us >= $lo AND at_us < $hi"
    export_json moods.json "SELECT json_object('userId', user_id, 'date', date, 'mood', mood, 'note', note) FROM moods WHERE date = '$night'"
    sqlite3 "$db" "PRAGMA foreign_keys = OFF;
        DELETE FROM flow_contexts WHERE flow_id IN (SELECT id FROM flows WHERE date = '$night');
        DELETE FROM flows WHERE date = '$night'; DELETE FROM tasks WHERE date = '$night';
        DELETE FROM focus_sessions WHERE started_at_us >= $lo AND started_at_us < $hi;
        DELETE FROM logins WHERE at_us >= $lo AND at_us < $hi; DELETE FROM moods WHERE date = '$night';"
    # The fleet event, moved by a whole number of days to end on 2026-11-29.
    shift=$(( ( $(date -u -d 2026-11-29 +%s) - $(date -u -d "$(sqlite3 "$db" "SELECT ends_on FROM events")" +%s) ) / 86400 ))
    us=$(( shift * 86400 * 1000000 ))
    sqlite3 "$db" "UPDATE events SET starts_on = date(starts_on, '+$shift days'), ends_on = date(ends_on, '+$shift days');
        UPDATE assignments SET planned_time_out_us = planned_time_out_us + $us, planned_time_in_us = planned_time_in_us + $us;
        UPDATE loan_records SET recorded_at_us = recorded_at_us + $us;"
    echo "inbox: $(cat "$work"/inbox/*.json | grep -c '"userId"') records in $(du -sh "$work/inbox" | cut -f1); event $(sqlite3 "$db" "SELECT id || ' ' || starts_on || '…' || ends_on FROM events")"

    # The night before (not timed): the reports as of 2026-11-28, which save the streak state.
    mkdir -p "$work/empty" "$work/reports-before" "$work/reports" "$work/archive"
    "$bin/report" nightly --quiet --db "$db" --inbox "$work/empty" -o "$work/reports-before" --as-of 2026-11-28T06:00:00+01:00 || true
    # Saved, so that NIGHTLY_RERUN=1 times the same night again without the setup.
    rm -rf "$ready"; mkdir -p "$ready"; cp -r "$db" "$work/inbox" "$ready/"
    [[ ! -f "$db-wal" ]] || cp "$db-wal" "$ready/"
fi
rm -rf "$db" "$db-wal" "$db-shm" "$work/inbox" "$work/archive" "$work/reports"
cp "$ready/night.sqlite" "$db"; [[ ! -f "$ready/night.sqlite-wal" ]] || cp "$ready/night.sqlite-wal" "$db-wal"
cp -r "$ready/inbox" "$work/inbox"; mkdir -p "$work/archive" "$work/reports"

echo "machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M')"
/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$report" nightly --db "$db" --inbox "$work/inbox" \
    --archive "$work/archive" -o "$work/reports" --as-of 2026-11-29T06:00:00+01:00 2>"$work/log" || { tail -5 "$work/log"; exit 1; }
read -r wall user sys rss <"$work/time"
grep -v "^wrote" "$work/log" | tail -12
printf 'report nightly: %.2f s wall, %.2f s CPU, peak RSS %.1f MB\n' "$wall" "$(awk "BEGIN { print $user + $sys }")" "$(awk "BEGIN { print $rss / 1024 }")"
echo "reports: $(find "$work/reports" -type f | wc -l) files, $(du -sh "$work/reports" | cut -f1)"
