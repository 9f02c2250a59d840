#!/usr/bin/env bash
# Runs every fuzz target (or those named in FUZZ_TARGETS) for SECONDS each, one after another.
#
# Usage: fuzz/run.sh [SECONDS]        (default 60; builds what is missing first)
#
# Each target starts from its committed seeds (fuzz/corpus/<target>/) and from its working corpus
# (.build/fuzz/corpus-<target>/, which keeps growing between runs and is not committed). On a
# crash, a timeout, an out-of-memory or an invariant broken, the script stops, prints the path
# of the input that did it and exits 1. Logs: .build/fuzz/logs/<target>.log.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

seconds="${1:-60}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: fuzz/run.sh [SECONDS]" >&2; exit 2; }
read -r -a targets <<< "${FUZZ_TARGETS:-json_reader records timestamps connection_strings}"

fuzz/build.sh "${targets[@]}"

# Swift's crash handler waits for a debugger-style backtrace that never comes under libFuzzer.
export SWIFT_BACKTRACE=enable=no

max_len_of() {
    case "$1" in
        json_reader) echo 65536 ;;   # a few records of every layout, split by a tiny buffer
        records) echo 4096 ;;        # one record; the largest sample record is 1.8 KB
        timestamps) echo 64 ;;       # the longest valid form is 32 bytes plus a long fraction
        connection_strings) echo 256 ;;  # a URL or keyword/value string with a long password
        *) echo 4096 ;;
    esac
}

status=0
summary=()
for target in "${targets[@]}"; do
    corpus=".build/fuzz/corpus-$target"
    artifacts=".build/fuzz/artifacts/$target/"
    log=".build/fuzz/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    echo "fuzz/run.sh: $target for ${seconds}s (log $log)"
    seeds=()
    [ -d "fuzz/corpus/$target" ] && seeds=("fuzz/corpus/$target")
    dictionary=()
    [ -f "fuzz/dict/$target.dict" ] && dictionary=(-dict="fuzz/dict/$target.dict")
    started=$(date +%s)
    set +e
    ".build/fuzz/$target" "$corpus" "${seeds[@]}" \
        -max_total_time="$seconds" -max_len="$(max_len_of "$target")" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts" -print_final_stats=1 "${dictionary[@]}" > "$log" 2>&1
    result=$?
    set -e
    elapsed=$(( $(date +%s) - started ))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # libFuzzer's own count of the units it keeps, and the edges they cover (the files on disk
    # also hold every unit it later reduced).
    kept=$(grep -oE "corp: [0-9]+/[0-9]+[a-zA-Z]*" "$log" | tail -1 | sed 's/corp: //' || true)
    coverage=$(grep -oE "cov: [0-9]+" "$log" | tail -1 | sed 's/cov: //' || true)
    if [ "$result" -ne 0 ]; then
        status=1
        crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        echo "fuzz/run.sh: $target FAILED (exit $result) after ${elapsed}s"
        grep -m 12 -E "ERROR: |invariant broken|Fatal error|SUMMARY|deadly signal|#[0-9]+ 0x" "$log" || true
        echo "fuzz/run.sh: crashing input: ${crash:-unknown, see $log}"
        echo "fuzz/run.sh: reproduce with: SWIFT_BACKTRACE=enable=no .build/fuzz/$target ${crash:-<input>}"
        summary+=("$target: FAILED after ${elapsed}s, input ${crash:-unknown}")
        break
    fi
    summary+=("$target: ok, ${elapsed}s, ${runs:-?} runs, corpus ${kept:-?} (units/size), coverage ${coverage:-?} edges")
done

echo "fuzz/run.sh: summary ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores)"
for line in "${summary[@]}"; do echo "  $line"; done
exit "$status"
