import Foundation
import XCTest
import Import
import JSON
import Store
import Time
@testable import Fleet

/// The report's shape: the CSV contract, errors, groups, names, quality and ordering.
final class FleetAnalysisReportTests: FleetAnalysisTestCase {
    /// SPEC §6.1: exact table names and columns, in order; these never change.
    func testContractTablesHaveExactlyTheSpecColumns() throws {
        try importEvent()
        let report = try makeReport()
        let contract: [String: [String]] = [
            "vehicles": [
                "plate", "brand", "model", "group", "loans", "hours_out", "available_hours", "utilization", "km",
                "new_impacts", "late_returns",
            ],
            "daily": [
                "day", "group", "vehicles", "available_hours", "hours_out", "utilization", "check_outs", "check_ins",
            ],
            "loans": [
                "assignment_id", "plate", "group", "driver", "status", "planned_out", "planned_in", "out_at", "in_at",
                "hours", "late_minutes", "km", "oil_delta", "interior_delta", "exterior_delta", "new_impacts",
                "signed_out", "signed_in",
            ],
            "damage": ["assignment_id", "plate", "driver", "type", "x", "y", "zone", "attributed"],
            "drivers": [
                "driver_id", "driver", "company", "loans", "hours", "late_returns", "new_impacts", "damage_rate",
            ],
            "quality": ["issue", "record", "detail"],
        ]
        for (name, columns) in contract {
            let table = try XCTUnwrap(report.table(named: name), name)
            XCTAssertEqual(table.columns.map(\.name), columns, name)
            XCTAssertEqual(table.outputs, .all, name)
        }
        XCTAssertEqual(
            report.figures.map(\.metric),
            [
                "vehicles", "assignments", "cancelled_assignments", "loans", "returned_loans", "still_out", "no_shows",
                "available_hours", "hours_out", "utilization", "loan_hours", "km", "late_returns", "late_rate",
                "new_impacts",
                "damage_rate", "impacts_per_1000_km", "between_loans_damage", "overlapping_pairs",
            ])
        // Tables that are not CSV never use a contract name, and quality comes last.
        let csvNames = Set(report.tables.filter { $0.outputs.contains(.csv) }.map(\.name))
        XCTAssertEqual(csvNames, Set(contract.keys))
        XCTAssertEqual(report.tables.last?.name, "quality")
        XCTAssertEqual(report.table(named: "vehicles")?.columns.first { $0.name == "utilization" }?.dataBar, true)
        XCTAssertEqual(report.table(named: "daily")?.columns.first { $0.name == "utilization" }?.dataBar, true)
        XCTAssertEqual(report.kind, "fleet")
        XCTAssertEqual(report.scope, "salon2016")
        XCTAssertEqual(
            report.title, "Fleet, Mondial de l'Automobile (2016-10-01 to 2016-10-03)", "the title says its scope")
        XCTAssertEqual(report.timeZone, "Europe/Paris")
        for chart in report.charts {
            let table = try XCTUnwrap(report.table(named: chart.table), chart.title)
            XCTAssertTrue(table.columns.contains { $0.name == chart.category })
            XCTAssertTrue(chart.series.allSatisfy { series in table.columns.contains { $0.name == series } })
        }
        XCTAssertEqual(report.charts.map(\.kind), [.column, .pie])
        // The printed Loans sheet: what happened to each loan (docs/PRINTING.md); every name a column.
        let loans = try XCTUnwrap(report.table(named: "loans"))
        XCTAssertEqual(
            loans.printColumns,
            ["assignment_id", "plate", "driver", "out_at", "in_at", "late_minutes", "km", "new_impacts"])
        XCTAssertTrue(loans.printColumns?.allSatisfy { name in loans.columns.contains { $0.name == name } } ?? false)
        XCTAssertTrue(report.tables.filter { $0.name != "loans" }.allSatisfy { $0.printColumns == nil })
    }

    func testUnknownEventListsTheKnownOnes() throws {
        XCTAssertThrowsError(try makeReport(event: "salon2016")) { error in
            XCTAssertEqual("\(error)", "no events imported yet; import an events file first")
        }
        try importEvent(id: "salon2017")
        try importEvent(id: "salon2016")
        XCTAssertThrowsError(try makeReport(event: "salon2099")) { error in
            XCTAssertEqual("\(error)", "unknown event \"salon2099\"; known events: salon2016, salon2017")
        }
    }

    /// A vehicle's group is that of its latest assignment naming one; loans show their own group.
    /// Daily rows go per day and vehicle group, by group name; unknown ids show the id.
    func testGroupsOfVehiclesAndLoans() throws {
        try importEvent()
        try importRecords(
            .groups,
            [
                ["id": "g1", "event_id": "salon2016", "name": "Presse"],
                ["id": "g2", "event_id": "salon2016", "name": "Clients"],
            ], firstSequence: 10)
        try importRecords(.drivers, [["id": "d1", "name": "Ana"]], firstSequence: 20)
        try importAssignments([
            assignment(
                "1", plate: "GR1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T10:00:00+02:00", group: "g1",
                driver: "d1", brand: "Renault", checkOut: record("o1", at: "2016-10-01T09:00:00+02:00"),
                checkIn: record("i1", at: "2016-10-01T10:00:00+02:00")),
            assignment(
                "2", plate: "GR1", out: "2016-10-02T09:00:00+02:00", in: "2016-10-02T10:00:00+02:00", group: "g2",
                driver: "d9", brand: "Renault"),
            assignment(
                "3", plate: "GR1", out: "2016-10-03T09:00:00+02:00", in: "2016-10-03T10:00:00+02:00",
                brand: "Alpine", model: nil),
            assignment(
                "4", plate: "GR2", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T10:00:00+02:00", group: "g9"),
        ])
        let report = try makeReport()
        let vehicles = try rows(report, "vehicles")
        // GR1: brand and model from assignment 3 (latest), group from 2 (latest with a group).
        XCTAssertEqual(vehicles[0]["brand"], .text("Alpine"))
        XCTAssertEqual(vehicles[0]["model"], .empty)
        XCTAssertEqual(vehicles[0]["group"], .text("Clients"))
        XCTAssertEqual(vehicles[1]["group"], .text("g9"))
        let loans = try rows(report, "loans")
        XCTAssertEqual(loans.map { $0["group"] }, [.text("Presse"), .text("Clients"), .empty, .text("g9")])
        XCTAssertEqual(loans.map { $0["driver"] }, [.text("Ana"), .text("d9"), .empty, .empty])
        // Day 1 of each vehicle group, by name: Clients (GR1, its 09–10 hour), then g9 (GR2).
        let daily = try rows(report, "daily")
        XCTAssertEqual(daily.count, 6)
        XCTAssertEqual(daily.prefix(2).map { $0["group"] }, [.text("Clients"), .text("g9")])
        assertNumber(daily[0]["hours_out"], 1)
        XCTAssertEqual(daily[0]["check_outs"], .integer(1))
        XCTAssertEqual(try issues(report), [["unknown_driver", "2"], ["unknown_group", "4"]])
        // Drivers named by an assignment: d1 and d9 (unknown, shown by id, no company).
        let drivers = try rows(report, "drivers")
        XCTAssertEqual(drivers.map { $0["driver_id"] }, [.text("d1"), .text("d9")])
        XCTAssertEqual(drivers.map { $0["driver"] }, [.text("Ana"), .text("d9")])
        XCTAssertEqual(drivers.map { $0["loans"] }, [.integer(1), .integer(0)])
        assertNumber(drivers[0]["hours"], 1)
        XCTAssertEqual(drivers[1]["damage_rate"], .empty)
    }

    /// Loan records of unknown assignments and rejections of fleet files are listed; other kinds' are not.
    func testOrphanRecordsAndImportRejectsAreListed() throws {
        try importEvent()
        try importRecords(
            .loanRecords,
            [
                record("r9", at: "2016-10-01T09:00:00+02:00").with("assignment_id", "404").with("kind", "check_out")
            ], firstSequence: 50)
        let file = directory + "/assignments.json"
        try Data(
            """
            [{"id": "1", "event_id": "salon2016", "brand_name": "Peugeot", "license_plate_number": "AB-1",
              "planned_time_out": "2016-13-42", "planned_time_in": "2016-10-01T10:00:00+02:00"}]
            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let importer = try Importer(
            database: try db(), modules: [FleetModule.module.imports], options: Importer.Options())
        let outcomes = importer.importFiles(try ImportFiles.expand([file]))
        XCTAssertEqual(outcomes.first?.rejected, 1)
        // A habits file's rejection is not the fleet report's business.
        try db().run(
            "INSERT INTO import_log (file, kind, size, sha256, records, accepted, rejected, started_at, finished_at) "
                + "VALUES ('users.json', 'users', 1, 'x', 1, 0, 1, '', '')")
        let logId = try XCTUnwrap(try db().scalarInt("SELECT max(id) FROM import_log"))
        try db().run(
            "INSERT INTO import_rejects (import_id, position, field, value, rule) VALUES (?, 0, 'id', '', 'missing')",
            [.integer(logId)])
        let report = try makeReport()
        let quality = try rows(report, "quality")
        XCTAssertEqual(
            quality.map { $0["issue"] }, [.text("import_reject"), .text("loan_record_of_unknown_assignment")])
        guard case .text(let record)? = quality[0]["record"], case .text(let detail)? = quality[0]["detail"] else {
            return XCTFail("text cells expected")
        }
        XCTAssertTrue(record.hasSuffix("assignments.json record 1 (id 1)"), record)
        XCTAssertTrue(detail.hasPrefix("field planned_time_out:"), detail)
        XCTAssertEqual(quality[1]["record"], .text("r9"))
    }

    /// Rows sort by their keys (ids made of digits by value), the top-10 lists rank, and the
    /// same data at the same as-of gives the same report.
    func testOrderAndDeterminism() throws {
        try importEvent()
        var assignments: [JSONValue] = []
        for number in [10, 9, 2, 11, 1, 3, 4, 5, 6, 7, 8, 12] {
            // Car n is out n hours on day 1, from 09:00.
            let back = String(format: "2016-10-01T%02d:00:00+02:00", 9 + number)
            assignments.append(
                assignment(
                    String(number), plate: String(format: "P%02d", number), out: "2016-10-01T09:00:00+02:00",
                    in: "2016-10-01T10:00:00+02:00",
                    checkOut: record("o\(number)", at: "2016-10-01T09:00:00+02:00"),
                    checkIn: record("i\(number)", at: back)))
        }
        assignments.append(
            assignment("a-1", plate: "ZZ", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T10:00:00+02:00"))
        try importAssignments(assignments)
        let report = try makeReport()
        XCTAssertEqual(
            try rows(report, "loans").map { $0["assignment_id"] },
            (1...12).map { .text(String($0)) } + [.text("a-1")])
        XCTAssertEqual(try rows(report, "vehicles").first?["plate"], .text("P01"))
        // Most used: cars 12 (10 h, the window ends at 19:00), 11 (10 h), 10 (10 h), then 9 … by hours, ties by plate.
        let mostUsed = try rows(report, "most_used_cars")
        XCTAssertEqual(mostUsed.count, 10)
        XCTAssertEqual(
            mostUsed.prefix(4).map { $0["plate"] }, [.text("P10"), .text("P11"), .text("P12"), .text("P09")])
        // Late returns: car n returns (n − 1) h late, so 12 … 3 rank first; car 1 is on time.
        let latest = try rows(report, "most_late_returns")
        XCTAssertEqual(latest.count, 10)
        XCTAssertEqual(latest.first?["late_minutes"], .integer(660))
        XCTAssertEqual(latest.first?["assignment_id"], .text("12"))
        XCTAssertEqual(report.table(named: "most_late_returns")?.outputs, [.markdown])

        let again = try makeReport()
        for table in report.tables {
            XCTAssertEqual(table.rows.all, again.table(named: table.name)?.rows.all, table.name)
        }
        XCTAssertEqual(report.figures, again.figures)
    }

    /// The report only reads: it works on a read-only connection (its ordering table is TEMP).
    func testReportOnReadOnlyConnection() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "RO1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T10:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00", impacts: [("scratch", 1, 1)]),
                checkIn: record("i1", at: "2016-10-01T10:00:00+02:00", impacts: [("scratch", 1, 1), ("impact", 2, 2)]))
        ])
        let readOnly = try Database(path: location, mode: .readOnly)
        let options = FleetOptions(
            eventId: "salon2016", asOf: try XCTUnwrap(Timestamp(FleetAnalysisTestCase.afterEvent)))
        let first = try FleetAnalysis.report(database: readOnly, options: options)
        // Twice on one connection: the temp table of the first run is gone or replaced.
        let second = try FleetAnalysis.report(database: readOnly, options: options)
        XCTAssertEqual(first.figures.first { $0.metric == "new_impacts" }?.value, .integer(1))
        XCTAssertEqual(first.figures, second.figures)
    }

    func testIdentifierOrder() {
        let ids = ["b", "10", "9", "a-1", "009", "1", "A"]
        // Digits first by value ("009" = 9, then by bytes "009" < "9"), then the rest by bytes.
        XCTAssertEqual(ids.sorted(by: IdentifierOrder.precedes), ["1", "009", "9", "10", "A", "a-1", "b"])
    }
}
