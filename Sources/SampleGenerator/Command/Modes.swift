import ArgumentParsing
import Foundation

/// The three modes of `report-sample` and the top-level dispatch.
enum SampleCommand {
    static let defaultSeed: UInt64 = 2016

    static let sample = ModeSpecification(
        name: "sample", abstract: "Write the small, realistic SampleData set of all three apps.",
        discussion: """
            Writes DIR/habits/, DIR/bookings/ and DIR/fleet/ with one file per kind, named so that
            `report import` detects each kind. The same seed always gives byte-identical files.
            """,
        options: [
            .value("out", "DIR", help: "Folder to write (created if needed)."),
            .value("seed", "N", help: "Seed of the generator (default 2016)."),
        ],
        required: ["out"])

    static let generate = ModeSpecification(
        name: "generate", abstract: "Write N records of one kind, for benchmarks.",
        discussion: """
            KIND is one of: \(allKinds.joined(separator: ", ")).
            FILE ending in .jsonl gets JSON Lines, anything else a JSON array.
            """,
        options: [
            .value("kind", "KIND", help: "Kind of the records."),
            .value("count", "N", help: "Number of records."),
            .value("out", "FILE", help: "File to write."),
            .value("seed", "N", help: "Seed of the generator (default 2016)."),
        ],
        required: ["kind", "count", "out"])

    static let scale = ModeSpecification(
        name: "scale", abstract: "Write a whole coherent data set at benchmark scale.",
        discussion: """
            Profiles at scale 1: fleet = one 30-day event, 2,000 cars, 300,000 assignments with
            check-out and check-in records; habits = 10,000 users over 365 days; bookings = 500,000
            bookings over one year with services, slots and customers. --scale 0.01 writes 1 %.
            """,
        options: [
            .value("profile", "fleet|habits|bookings", help: "Which data set."),
            .value("out", "DIR", help: "Folder to write (created if needed)."),
            .value("seed", "N", help: "Seed of the generator (default 2016)."),
            .value("scale", "F", help: "Size factor (default 1)."),
        ],
        required: ["profile", "out"])

    static let allKinds = HabitsScale.kinds + BookingsScale.kinds + FleetScale.kinds

    static var overview: String {
        """
        OVERVIEW: Deterministic sample and benchmark data for `report`.

        USAGE: report-sample <mode> [options]

        MODES:
          sample     \(sample.abstract)
          generate   \(generate.abstract)
          scale      \(scale.abstract)

        See `report-sample <mode> --help` for each mode's options.
        """
    }

    /// Runs the command line and returns the exit code: 0 done, 1 failure, 2 usage error.
    static func run(_ arguments: [String]) -> Int32 {
        guard let mode = arguments.first else {
            printError("missing mode: use `report-sample sample|generate|scale` (see `report-sample --help`)")
            return 2
        }
        if mode == "--help" || mode == "-h" || mode == "help" {
            print(overview)
            return 0
        }
        let specifications = [sample, generate, scale]
        guard let specification = specifications.first(where: { $0.name == mode }) else {
            printError("unknown mode '\(mode)': use sample, generate or scale (see `report-sample --help`)")
            return 2
        }
        do {
            guard let options = try specification.parse(Array(arguments.dropFirst())) else {
                print(specification.help, terminator: "")
                return 0
            }
            let files = try execute(mode: mode, options)
            for file in files {
                print("\(file.path)\t\(file.records) records\t\(file.writer.sink.bytesWritten) bytes")
            }
            return 0
        } catch let error as UsageError {
            printError(error.message)
            return 2
        } catch {
            printError("\(error)")
            return 1
        }
    }

    private static func execute(mode: String, _ options: ParsedOptions) throws -> [RecordFile] {
        let seed = try options.seed(default: defaultSeed)
        guard let out = options.text("out"), !out.isEmpty else {
            throw UsageError("--out needs a non-empty path")
        }
        let clock = try ZoneClock()
        switch mode {
        case "sample":
            let folder = out
            return try HabitsSample.write(to: folder + "/habits", seed: seed, clock: clock)
                + BookingsSample.write(to: folder + "/bookings", seed: seed, clock: clock)
                + FleetSample.write(to: folder + "/fleet", seed: seed, clock: clock)
        case "generate":
            let kind = options.text("kind") ?? ""
            guard allKinds.contains(kind) else {
                throw UsageError("unknown kind '\(kind)': use one of \(allKinds.joined(separator: ", "))")
            }
            let count = try options.count("count") ?? 0
            let path = out
            if HabitsScale.kinds.contains(kind) {
                return [try HabitsScale.generate(kind: kind, count: count, path: path, seed: seed, clock: clock)]
            }
            if BookingsScale.kinds.contains(kind) {
                return [try BookingsScale.generate(kind: kind, count: count, path: path, seed: seed, clock: clock)]
            }
            return [try FleetScale.generate(kind: kind, count: count, path: path, seed: seed, clock: clock)]
        default:
            let factor = try options.fraction("scale", default: 1)
            let folder = out
            switch options.text("profile") {
            case "habits": return try HabitsScale.write(to: folder, seed: seed, scale: factor, clock: clock)
            case "bookings": return try BookingsScale.write(to: folder, seed: seed, scale: factor, clock: clock)
            case "fleet": return try FleetScale.write(to: folder, seed: seed, scale: factor, clock: clock)
            default:
                throw UsageError("unknown profile '\(options.text("profile") ?? "")': use fleet, habits or bookings")
            }
        }
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("report-sample: error: \(message)\n".utf8))
    }
}
