import XCTest
import Writers
@testable import Fleet

/// New damage by the pairing rule, between-loans damage, zones and the heat map (SPEC §5).
final class FleetAnalysisDamageTests: FleetAnalysisTestCase {
    /// Ties in distance go to the lower check-out index, then the lower check-in index; marks of
    /// different types never pair, however close.
    func testPairingBreaksTiesByIndexAndKeepsTypesApart() throws {
        try importEvent()
        try importRecords(.drivers, [["id": "d1", "name": "Camille Martin", "company": "Le Journal"]])
        try importAssignments([
            assignment(
                "1", plate: "DMG1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00", driver: "d1",
                checkOut: record(
                    "o1", at: "2016-10-01T09:00:00+02:00", km: 1000,
                    impacts: [
                        ("scratch", 100, 100),  // out 0
                        ("scratch", 130, 100),  // out 1
                        ("sinking", 300, 300),  // out 2
                        ("impact", 50, 50),  // out 3
                    ]),
                checkIn: record(
                    "i1", at: "2016-10-01T12:00:00+02:00", km: 1100,
                    impacts: [
                        ("scratch", 115, 100),  // in 0: 15 from out 0 and from out 1 — out 0 wins the tie
                        ("scratch", 150, 100),  // in 1: 20 from out 1 (≤ 20 pairs), 50 from out 0
                        ("sinking", 290, 300),  // in 2: 10 from out 2
                        ("sinking", 310, 300),  // in 3: 10 from out 2 too — in 2 (lower index) took it: new
                        ("deepscratch", 50, 50),  // in 4: on top of out 3, but another type: new
                    ]))
        ])
        let report = try makeReport()
        // Had out 1 taken in 0, in 1 would be left alone and counted new: the tie rule matters.
        let damage = try rows(report, "damage")
        XCTAssertEqual(damage.map { $0["type"] }, [.text("sinking"), .text("deepscratch")])
        XCTAssertEqual(damage.map { $0["x"] }, [.number(310), .number(50)])
        // (310, 300): column D (300–400), row 4 (300–400); (50, 50): A1.
        XCTAssertEqual(damage.map { $0["zone"] }, [.text("D4"), .text("A1")])
        XCTAssertEqual(damage.map { $0["attributed"] }, [.boolean(true), .boolean(true)])
        XCTAssertEqual(damage.map { $0["driver"] }, [.text("Camille Martin"), .text("Camille Martin")])
        XCTAssertEqual(try rows(report, "loans").first?["new_impacts"], .integer(2))
        XCTAssertEqual(try figure(report, "new_impacts"), .integer(2))
        // 1 returned loan, with new damage: 1 / 1.
        assertNumber(try figure(report, "damage_rate"), 1)
        // 2 new impacts over 1100 − 1000 = 100 km: 2 / 100 × 1000 = 20.
        assertNumber(try figure(report, "impacts_per_1000_km"), 20)
        let byType = try rows(report, "damage_by_type")
        XCTAssertEqual(
            byType.map { $0["type"] }, [.text("sinking"), .text("impact"), .text("scratch"), .text("deepscratch")])
        XCTAssertEqual(byType.map { $0["new_impacts"] }, [.integer(1), .integer(0), .integer(0), .integer(1)])
        var cells = Array(repeating: Array(repeating: 0.0, count: 4), count: 4)
        cells[3][3] = 1  // D4
        cells[0][0] = 1  // A1
        XCTAssertEqual(report.heatMap?.cells, cells)
        XCTAssertEqual(report.heatMap?.backdrop, CarOutline.backdrop, "the zones are drawn over the car")
        XCTAssertEqual(report.heatMap?.fileStem, "heatmap")
        let driver = try XCTUnwrap(rows(report, "drivers").first)
        XCTAssertEqual(driver["new_impacts"], .integer(2))
        XCTAssertEqual(driver["company"], .text("Le Journal"))
        assertNumber(driver["damage_rate"], 1)
        XCTAssertEqual(try rows(report, "most_damaging_drivers").map { $0["driver_id"] }, [.text("d1")])
    }

    /// Impact coordinates keep the two decimals they were recorded with (SPEC §6.1) in CSV and
    /// Markdown: `320.01` stays `320.01`, not `320.0`.
    func testImpactCoordinatesKeepTwoDecimalsInEveryFormat() throws {
        try importEvent()
        try importAssignments([
            assignment(
                "1", plate: "DMG1", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00"),
                checkIn: record("i1", at: "2016-10-01T12:00:00+02:00", impacts: [("scratch", 320.01, 45.5)]))
        ])
        let report = try makeReport()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-xy-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CSVWriter().write(report, to: directory)
        let csv = try String(
            contentsOf: directory.appendingPathComponent(report.baseName + "/damage.csv"), encoding: .utf8)
        XCTAssertTrue(csv.contains(",scratch,320.01,45.50,D1,true"), csv)
        let markdown = MarkdownWriter().render(report).markdown
        XCTAssertTrue(markdown.contains("| scratch | 320.01 | 45.50 | D1 |"), markdown)
    }

    /// A mark at check-out that the same car's previous returned loan did not show at check-in is
    /// between-loans damage: listed under the loan that saw it, charged to nobody. The first loan
    /// has none, and a loan still out is no "previous returned loan".
    func testBetweenLoansDamageIsChargedToNobody() throws {
        try importEvent()
        try importRecords(.drivers, [["id": "d1", "name": "Ana"], ["id": "d2", "name": "Ben"]])
        try importAssignments([
            // Car A, first loan: a dent already there at check-out is no one's; a scratch is new.
            assignment(
                "1", plate: "CAR-A", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T12:00:00+02:00", driver: "d1",
                checkOut: record("o1", at: "2016-10-01T09:00:00+02:00", impacts: [("sinking", 50, 50)]),
                checkIn: record(
                    "i1", at: "2016-10-01T12:00:00+02:00", impacts: [("sinking", 50, 50), ("scratch", 100, 100)])),
            // Car A, second loan: the scratch is seen again (5 units off: paired); the impact at
            // (200, 200) appeared between the loans.
            assignment(
                "2", plate: "CAR-A", out: "2016-10-02T09:00:00+02:00", in: "2016-10-02T12:00:00+02:00", driver: "d2",
                checkOut: record(
                    "o2", at: "2016-10-02T09:00:00+02:00", impacts: [("scratch", 105, 100), ("impact", 200, 200)]),
                checkIn: record(
                    "i2", at: "2016-10-02T12:00:00+02:00", impacts: [("scratch", 105, 100), ("impact", 200, 200)])),
            // Car B: returned with an impact, then out without return, then out again: the
            // previous *returned* loan (5) shows the impact, so loan 7 finds nothing new.
            assignment(
                "5", plate: "CAR-B", out: "2016-10-01T09:00:00+02:00", in: "2016-10-01T10:00:00+02:00",
                checkOut: record("o5", at: "2016-10-01T09:00:00+02:00"),
                checkIn: record("i5", at: "2016-10-01T10:00:00+02:00", impacts: [("impact", 300, 300)])),
            assignment(
                "6", plate: "CAR-B", out: "2016-10-01T11:00:00+02:00", in: "2016-10-01T12:00:00+02:00",
                checkOut: record("o6", at: "2016-10-01T11:00:00+02:00")),
            assignment(
                "7", plate: "CAR-B", out: "2016-10-02T09:00:00+02:00", in: "2016-10-02T12:00:00+02:00",
                checkOut: record("o7", at: "2016-10-02T09:00:00+02:00", impacts: [("impact", 300, 300)])),
        ])
        let report = try makeReport()
        let damage = try rows(report, "damage")
        XCTAssertEqual(damage.map { $0["assignment_id"] }, [.text("1"), .text("2"), .text("5")])
        XCTAssertEqual(damage.map { $0["type"] }, [.text("scratch"), .text("impact"), .text("impact")])
        XCTAssertEqual(damage.map { $0["attributed"] }, [.boolean(true), .boolean(false), .boolean(true)])
        XCTAssertEqual(damage.map { $0["driver"] }, [.text("Ana"), .empty, .empty])
        XCTAssertEqual(damage[1]["zone"], .text("C3"))
        XCTAssertEqual(try figure(report, "between_loans_damage"), .integer(1))
        // Attributed only: loan 1's scratch and loan 5's impact.
        XCTAssertEqual(try figure(report, "new_impacts"), .integer(2))
        XCTAssertEqual(
            try rows(report, "loans").map { $0["new_impacts"] },
            [.integer(1), .integer(0), .integer(1), .empty, .empty])
        XCTAssertEqual(try rows(report, "vehicles").map { $0["new_impacts"] }, [.integer(1), .integer(1)])
        // Ben (d2) is charged nothing for the damage his check-out found.
        XCTAssertEqual(try rows(report, "drivers").map { $0["new_impacts"] }, [.integer(1), .integer(0)])
        // Returned loans 1, 2, 5: two with new damage.
        assertNumber(try figure(report, "damage_rate"), 2.0 / 3.0)
        // Loans 6 (still out to the last close) and 7 overlap on car B.
        XCTAssertEqual(try figure(report, "overlapping_pairs"), .integer(1))
    }

    /// Zones are 100-unit bands; the far edge 400 belongs to D and to 4.
    func testZonesOfTheDiagram() {
        XCTAssertEqual(DamageZone(x: 0, y: 0).name, "A1")
        XCTAssertEqual(DamageZone(x: 99.9, y: 100).name, "A2")
        XCTAssertEqual(DamageZone(x: 100, y: 250).name, "B3")
        XCTAssertEqual(DamageZone(x: 299.99, y: 300).name, "C4")
        XCTAssertEqual(DamageZone(x: 400, y: 400).name, "D4")
    }

    /// The pairing on its own: greedy by ascending distance, a pair only within 20 units.
    func testPairingDistanceLimit() {
        let earlier = [Impact(type: .scratch, x: 0, y: 0)]
        // 12² + 16² = 20²: exactly 20 pairs; 20.5 does not.
        XCTAssertEqual(DamagePairing.unpaired([Impact(type: .scratch, x: 12, y: 16)], against: earlier), [])
        XCTAssertEqual(DamagePairing.unpaired([Impact(type: .scratch, x: 20.5, y: 0)], against: earlier).count, 1)
        // The closer check-in mark pairs, even when listed second.
        let paired = DamagePairing.pair(
            earlier: earlier, later: [Impact(type: .scratch, x: 10, y: 0), Impact(type: .scratch, x: 5, y: 0)])
        XCTAssertEqual(paired.laterPaired, [false, true])
    }
}
