// swift-tools-version:6.0
// `report`: import app exports into SQLite, analyze them, write XLSX / CSV / Markdown reports.
// No outside Swift packages: the toolchain plus Debian's C libraries through system targets.
import PackageDescription

let package = Package(
    name: "report",
    products: [
        .executable(name: "report", targets: ["report"]),
        .executable(name: "report-sample", targets: ["SampleGenerator"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CXLSXWriter", pkgConfig: "xlsxwriter", providers: [.apt(["libxlsxwriter-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "ReportCore", dependencies: ["CSQLite", "CXLSXWriter", "CCrypto", "CZlib", "CLibPQ"]),
        .target(name: "Habits", dependencies: ["ReportCore"]),
        .target(name: "Bookings", dependencies: ["ReportCore"]),
        .target(name: "Fleet", dependencies: ["ReportCore"]),
        .target(name: "ReportCLI", dependencies: ["ReportCore", "Habits", "Bookings", "Fleet"]),
        .executableTarget(name: "report", dependencies: ["ReportCLI"]),
        .executableTarget(name: "SampleGenerator", dependencies: []),
        .executableTarget(name: "report-bench", dependencies: ["ReportCore"], path: "bench/Sources/report-bench"),
        .testTarget(name: "ReportCoreTests", dependencies: ["ReportCore"], exclude: ["__Snapshots__", "Support"]),
        .target(name: "ReportTestSupport", dependencies: ["ReportCore"], path: "Tests/ReportTestSupport"),
        .testTarget(name: "HabitsTests", dependencies: ["Habits", "ReportCore", "ReportTestSupport"]),
        .testTarget(name: "BookingsTests", dependencies: ["Bookings", "ReportCore", "ReportTestSupport"]),
        .testTarget(name: "FleetTests", dependencies: ["Fleet", "ReportCore", "ReportTestSupport"]),
        .testTarget(name: "ReportCLITests", dependencies: ["ReportCLI", "ReportCore", "ReportTestSupport"]),
    ]
)
