# report: the two commands of the README, and the benchmarks.
#   make demo   install what is missing, build, import SampleData/, write the sample reports
#   make test   install what is missing (test tools included) and run the whole test suite
#   make fuzz   libFuzzer over the JSON reader, record validation and time parsers (FUZZ_SECONDS each, default 60)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

APT_PACKAGES := pkg-config libsqlite3-dev libxlsxwriter-dev libssl-dev zlib1g-dev librsvg2-dev libpq-dev time
# Carlito: Calibri's metrics, so LibreOffice lays the workbooks out as Excel does (page counts are
# tested); poppler-utils: pdftotext reads each printed page.
TEST_APT_PACKAGES := libreoffice-calc-nogui fonts-crosextra-carlito poppler-utils unzip postgresql
PIP_PACKAGES := openpyxl duckdb pandas frictionless
DEMO_AS_OF := 2026-11-29T06:00:00+01:00
RELEASE_BIN := .build/release/report
FUZZ_SECONDS ?= 60
# Every build refuses an import of a package target that Package.swift does not declare, so the
# layer rules are the compiler's (scripts/check-layers.sh, run by `make test`, proves it).
SWIFT_FLAGS := --explicit-target-dependency-import-check error

FORMAT_PATHS := Sources Tests bench/Sources fuzz/targets Package.swift

.PHONY: format format-check deps test-deps build release demo test bench bench-deps bench-each bench-backends bench-import bench-xlsx bench-fleet bench-bookings bench-habits clean docs-cli check-sample fuzz fuzz-build

# Installs only what is missing, so a second run costs nothing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; fi

test-deps: deps
	@missing=""; for p in $(TEST_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; fi
	@python3 -c "import openpyxl, duckdb, pandas, frictionless" 2>/dev/null || python3 -m pip install -q --root-user-action=ignore $(PIP_PACKAGES)
	@# Citus for the Citus pass, when its installer is beside the repository (it returns at once
	@# when Citus is installed); without it the Citus tests skip.
	@if [ -f $(CITUS_INSTALL) ]; then bash $(CITUS_INSTALL); fi

build: deps
	swift build $(SWIFT_FLAGS)

release: deps
	swift build $(SWIFT_FLAGS) -c release --product report

# The sample reports in Reports/ (kept current by a test: same commands, same --as-of).
demo: release
	rm -f report.sqlite report.sqlite-wal report.sqlite-shm
	$(RELEASE_BIN) import SampleData/
	$(RELEASE_BIN) status
	$(RELEASE_BIN) fleet --event salon2016 --as-of $(DEMO_AS_OF) --xlsx --csv --md
	$(RELEASE_BIN) habits --from 2026-10-01 --to 2026-11-28 --as-of $(DEMO_AS_OF) --xlsx --csv --md
	$(RELEASE_BIN) habits --date 2026-11-28 --as-of $(DEMO_AS_OF) --xlsx --csv --md
	$(RELEASE_BIN) bookings --month 2026-11 --as-of $(DEMO_AS_OF) --xlsx --csv --md
	$(RELEASE_BIN) bookings --month 2026-10 --as-of $(DEMO_AS_OF) --xlsx --csv --md

# The whole suite on SQLite, then the import and report suites again on PostgreSQL (the same
# tests, a throwaway cluster the tests start and stop: Tests/ReportTestSupport/PostgresTestServer.swift),
# then on a throwaway Citus cluster of three nodes (Tests/ReportTestSupport/CitusTestServer.swift;
# the Citus tests skip when Citus is not installed and ../shared/citus/install.sh is absent).
# Each pass's output is kept in .build/test-logs/; a failed pass ends with what failed
# (scripts/test-pass.sh), so that the end of a CI record names the test and the crash.
POSTGRES_SUITES := HabitsTests|BookingsTests|FleetTests|ImportCommandTests|ReportCommandsTests|SampleReportsTests|ConcurrencyTests|XLSXGoldenTests|PostgresStoreTests|DistributeCommandTests|HostileInjectionTests|MembershipChecksTests
CITUS_SUITES := $(POSTGRES_SUITES)|CitusClusterTests|CitusDomainTests|CitusOperatorStepsTests|CitusFaultTests
CITUS_INSTALL := ../shared/citus/install.sh

test: test-deps
	scripts/check-layers.sh $(SWIFT_FLAGS)
	swift build $(SWIFT_FLAGS) --build-tests
	scripts/test-pass.sh sqlite $(SWIFT_FLAGS) --skip-build --disable-swift-testing
	REPORT_TEST_BACKEND=postgresql scripts/test-pass.sh postgresql $(SWIFT_FLAGS) --skip-build --disable-swift-testing --filter '$(POSTGRES_SUITES)'
	REPORT_TEST_BACKEND=citus scripts/test-pass.sh citus $(SWIFT_FLAGS) --skip-build --disable-swift-testing --filter '$(CITUS_SUITES)'

clean:
	rm -rf .build

# swift-format (shipped with the toolchain) with the checked-in .swift-format: `make format`
# rewrites the sources, `make format-check` (run by .ci/run) fails on any difference.
format:
	swift format format --in-place --parallel --recursive $(FORMAT_PATHS)

format-check:
	swift format lint --strict --parallel --recursive $(FORMAT_PATHS)
	@# swift format leaves long string literals and comments alone: the 120-column rule, for every line.
	@! grep -rn --include='*.swift' '.\{121,\}' $(FORMAT_PATHS) || { echo "lines over 120 characters (above)" >&2; exit 1; }

# Regenerates docs/CLI.md from the commands' help (a test keeps it current).
docs-cli:
	swift build $(SWIFT_FLAGS) --build-tests
	RECORD_CLI_DOCS=1 swift test $(SWIFT_FLAGS) --skip-build --filter CLIReferenceTests >/dev/null || true
	swift test $(SWIFT_FLAGS) --skip-build --filter CLIReferenceTests

# Benchmarks (figures recorded in docs/BENCHMARKS.md). Not part of the tests.
# `make bench`: the table of peers (issue 32 item 3), one run, Markdown on standard output: the
# BENCH_COUNT-task import against DuckDB and sqlite-utils with SQLite's floor, and the three domain
# profiles at BENCH_SCALE on SQLite, PostgreSQL and Citus against the targets (bench/peers.sh).
# Long at the defaults (the 1.6 GB habits data is imported three times, and sqlite-utils is slow):
# `make bench BENCH_SCALE=0.25` is shorter; `make bench BENCH_COUNT=50000 BENCH_SCALE=0.05` checks
# that it works.
BENCH_COUNT ?= 1000000
BENCH_SCALE ?= 1
bench: bench-deps
	@echo "bench/peers.sh $(BENCH_COUNT) $(BENCH_SCALE)" >&2
	@bench/peers.sh $(BENCH_COUNT) $(BENCH_SCALE)

# What `make bench` measures against: PostgreSQL, the two peers from PyPI, Citus when its installer
# is beside the repository (each only when missing; what they say goes to standard error, so that
# `make bench > table.md` holds the Markdown alone).
bench-deps: deps
	@dpkg -s postgresql >/dev/null 2>&1 || { echo "installing: postgresql" >&2; (apt-get update -qq || true) && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null; }
	@python3 -c "import duckdb" 2>/dev/null && command -v sqlite-utils >/dev/null || \
	  python3 -m pip install -q --root-user-action=ignore duckdb sqlite-utils >&2
	@if [ -f $(CITUS_INSTALL) ]; then bash $(CITUS_INSTALL) >&2; fi

# The benchmarks one by one, each with its own text output.
bench-each: bench-import bench-xlsx bench-fleet bench-bookings bench-habits

bench-import: deps
	@python3 -c "import duckdb" 2>/dev/null || python3 -m pip install -q --root-user-action=ignore duckdb sqlite-utils
	bench/import/run.sh

bench-xlsx: deps
	@python3 -c "import xlsxwriter" 2>/dev/null || python3 -m pip install -q --root-user-action=ignore XlsxWriter
	bench/xlsx/run.sh

# A generated data set imported, then its report written in every format (issues 4, 5, 6).
bench-fleet bench-bookings bench-habits: deps
	bench/domains/run.sh $(patsubst bench-%,%,$@)

# The three domain profiles on SQLite, single PostgreSQL and Citus in one run (issue 29 item 7):
# `make bench-backends BENCH_SCALE=0.25`.
bench-backends: deps
	bench/domains/backends.sh $(BENCH_SCALE)

# Checks the generator's output against SPEC §1 and that it is deterministic.
check-sample: deps
	swift build $(SWIFT_FLAGS) --product report-sample
	python3 scripts/check_sample.py

# Fuzzing (docs/FUZZING.md): each target runs FUZZ_SECONDS (FUZZ_SECONDS=20 make fuzz in CI); a
# crash stops the run, prints the input's path and fails. Not part of the tests.
fuzz-build: deps
	fuzz/build.sh

fuzz: fuzz-build
	fuzz/run.sh $(FUZZ_SECONDS)
