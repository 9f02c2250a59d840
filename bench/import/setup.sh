# Sourced by bench/import/floor.sh and threads.sh: a scratch folder (removed at exit), the release
# builds of report, report-sample and report-bench, and the variables both use:
#   root, work, bin (the release folder), report (REPORT_BIN or the build), bench (FLOOR_BIN or the
#   build) and data (DATA, kept when given, or a folder in work).
# Needs `name` (the scratch folder's prefix) set by the script that sources it.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "building report, report-sample and report-bench (release)..." >&2
(cd "$root" && for product in report report-sample report-bench; do
    swift build --explicit-target-dependency-import-check error -c release --product "$product" >&2
done)
bin="$(cd "$root" && swift build --explicit-target-dependency-import-check error -c release --show-bin-path)"
report="${REPORT_BIN:-$bin/report}"
bench="${FLOOR_BIN:-$bin/report-bench}"
data="${DATA:-$work/data}"
mkdir -p "$data"
