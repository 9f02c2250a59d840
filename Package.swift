// swift-tools-version:6.0
// `report`: import app exports into SQLite, analyze them, write XLSX / CSV / Markdown reports.
// No outside Swift packages: the toolchain plus Debian's C libraries through system targets.
//
// The targets are the layers (docs/ARCHITECTURE.md); their dependencies are the rules the
// compiler holds (every build passes `--explicit-target-dependency-import-check error`, so an
// import this file does not declare fails): Writers never see Store, domains never see a C module
// or a writer, and Store, JSON, Import, ReportModel, Writers, ReportApp and ReportCLI never name a domain:
// the domains are registered by the executables (`report`, the tests).
import PackageDescription

/// What a domain may see: never a C module, a writer, the application or another domain.
let domain: [Target.Dependency] = [
    "ArgumentParsing", "DomainInterface", "Store", "Import", "ReportModel", "Time",
]

let package = Package(
    name: "report",
    products: [
        .executable(name: "report", targets: ["report"]),
        .executable(name: "report-sample", targets: ["SampleGenerator"]),
    ],
    targets: [
        // C libraries from Debian: module map + shim each, the only way C enters.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CXLSXWriter", pkgConfig: "xlsxwriter", providers: [.apt(["libxlsxwriter-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // Foundations: pure values and the two byte-level readers/writers of the outside world.
        .target(name: "Time"),
        .target(name: "ArgumentParsing"),
        .target(name: "JSON", dependencies: ["CZlib"]),
        .target(name: "Store", dependencies: ["CSQLite", "CLibPQ", "Time"]),
        .target(name: "ReportModel", dependencies: ["Time"]),
        // Buffered output to a file descriptor and the one error type for it; no C, no domain.
        .target(name: "ByteOutput"),
        .target(name: "Writers", dependencies: ["ByteOutput", "ReportModel", "Time", "CXLSXWriter", "CRSVG"]),
        .target(name: "Import", dependencies: ["Store", "JSON", "Time", "CCrypto"]),

        // What a domain declares to the application: one `DomainModule` value.
        .target(name: "DomainInterface", dependencies: ["ArgumentParsing", "Import", "Store", "ReportModel", "Time"]),

        // The domains: each one `DomainModule` (kinds, schema, validation, analysis, layout).
        .target(name: "Habits", dependencies: domain),
        .target(name: "Bookings", dependencies: domain),
        .target(name: "Fleet", dependencies: domain),

        // The application: open, analyze, write; import and check; the nightly job. Its entry
        // points take values (settings), never the command line.
        .target(
            name: "ReportApp",
            dependencies: [
                "ArgumentParsing", "DomainInterface", "Import", "Store", "JSON", "ReportModel", "ByteOutput", "Writers",
                "Time",
            ]),
        // The command line: parses each command's options once, into the application's settings.
        .target(
            name: "ReportCLI",
            dependencies: [
                "ArgumentParsing", "DomainInterface", "Import", "ReportApp", "ReportModel", "Store", "Writers", "Time",
            ]),
        .executableTarget(name: "report", dependencies: ["ReportCLI", "Habits", "Bookings", "Fleet"]),
        .executableTarget(name: "SampleGenerator", dependencies: ["ArgumentParsing", "ByteOutput"]),
        .executableTarget(
            name: "report-bench",
            dependencies: ["Store", "Writers", "ReportModel", "Time", "JSON", "Import", "Habits"],
            path: "bench/Sources/report-bench"),

        // Tests.
        .target(
            name: "ReportTestSupport",
            dependencies: ["Store", "JSON", "Import", "ReportModel", "Time", "DomainInterface"],
            path: "Tests/ReportTestSupport"),
        .testTarget(
            name: "ReportCoreTests",
            dependencies: [
                "Store", "JSON", "Import", "ReportModel", "ByteOutput", "Writers", "Time", "ReportTestSupport",
            ],
            exclude: ["__Snapshots__", "Support"]),
        .testTarget(name: "HabitsTests", dependencies: ["Habits", "ReportTestSupport"]),
        .testTarget(name: "BookingsTests", dependencies: ["Bookings", "ReportTestSupport"]),
        .testTarget(name: "FleetTests", dependencies: ["Fleet", "ReportTestSupport", "Writers"]),
        .testTarget(
            name: "ReportCLITests",
            dependencies: [
                "ReportCLI", "ReportApp", "Habits", "Bookings", "Fleet",
                "ReportTestSupport", "ArgumentParsing",
            ],
            exclude: ["__Snapshots__", "Support"]),
    ]
)
