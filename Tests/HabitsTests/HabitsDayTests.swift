import XCTest
@testable import Habits

/// Days in each user's zone, across DST changes, and with a day start (SPEC §2).
final class HabitsDayTests: XCTestCase {
    private var store: HabitsTestStore!

    override func setUpWithError() throws { store = try HabitsTestStore() }
    override func tearDown() { store = nil }

    func testTheSameInstantLandsOnDifferentDaysInNewYorkAndParis() throws {
        try store.user("ny", timezone: "America/New_York")
        try store.user("pa", timezone: "Europe/Paris")
        // 2026-11-01T03:30Z is Oct 31 23:30 EDT in New York and Nov 1 04:30 CET in Paris.
        for user in ["ny", "pa"] {
            try store.login(user, at: "2026-11-01T03:30:00Z")
            // Dated Nov 1 for both: a date field never moves with the zone.
            try store.task("t-" + user, user: user, date: "2026-11-01", completedAt: "2026-11-01T03:30:00Z")
        }
        let report = try store.report(from: "2026-10-31", to: "2026-11-01")
        // New York, Oct 31: one task done without a plan (T = 1 → 40), 23:30 is no morning login.
        let nyDone = try XCTUnwrap(report.daily("ny", "2026-10-31"))
        XCTAssertEqual(nyDone["tasks_done"], .integer(1))
        XCTAssertEqual(nyDone["tasks_planned"], .integer(0))
        XCTAssertEqual(nyDone["morning_login"], .boolean(false))
        XCTAssertEqual(nyDone["score"], .integer(40))
        // New York, Nov 1: the task is planned there but done the day before: T = 0/1 → 0.
        let nyPlanned = try XCTUnwrap(report.daily("ny", "2026-11-01"))
        XCTAssertEqual(nyPlanned["tasks_planned"], .integer(1))
        XCTAssertEqual(nyPlanned["tasks_done"], .integer(0))
        XCTAssertEqual(nyPlanned["score"], .integer(0))
        // Paris, Nov 1: planned and done (40) and a 04:30 morning login (10) = 50.
        let paris = try XCTUnwrap(report.daily("pa", "2026-11-01"))
        XCTAssertEqual(paris["tasks_done"], .integer(1))
        XCTAssertEqual(paris["morning_login"], .boolean(true))
        XCTAssertEqual(paris["score"], .integer(50))
        XCTAssertNil(report.daily("pa", "2026-10-31"))
    }

    func testUsersWithoutRecordOrTimezoneAreInParis() throws {
        try store.user("plain")  // a users record without timezone
        // 2026-11-01T23:30Z is Nov 2 00:30 in Paris (Nov 1 in UTC): a morning login of Nov 2.
        try store.login("plain", at: "2026-11-01T23:30:00Z")
        try store.login("ghost", at: "2026-11-01T23:30:00Z")  // no users record at all
        let report = try store.report(from: "2026-11-01", to: "2026-11-02")
        for user in ["plain", "ghost"] {
            XCTAssertNil(report.daily(user, "2026-11-01"), user)
            XCTAssertEqual(report.daily(user, "2026-11-02")?["morning_login"], .boolean(true), user)
            XCTAssertEqual(report.daily(user, "2026-11-02")?["score"], .integer(10), user)
        }
        XCTAssertEqual(
            report.rows("quality"),
            [
                [
                    .text("unknown_user"), .text("ghost"),
                    .text("1 record without a users record (1 login)"),
                ]
            ])
    }

    func testAZoneUnknownToThisMachineFallsBackToParisAndIsReported() throws {
        try store.user("mars", timezone: "Europe/Paris")
        // The importer refuses unknown names; a database written where the tz database differs can
        // still hold one.
        try store.database.run("UPDATE users SET timezone = ? WHERE id = ?", ["Mars/Olympus_Mons", "mars"])
        try store.login("mars", at: "2026-11-01T23:30:00Z")  // Nov 2 00:30 in Paris
        let report = try store.report(from: "2026-11-01", to: "2026-11-02")
        XCTAssertEqual(report.daily("mars", "2026-11-02")?["morning_login"], .boolean(true))
        XCTAssertEqual(
            report.rows("quality"),
            [
                [
                    .text("unknown_timezone"), .text("mars"),
                    .text("timezone \"Mars/Olympus_Mons\" is not in the tz database; Europe/Paris used"),
                ]
            ])
    }

    func testSpringForwardDayHasTwentyThreeHours() throws {
        try store.user("u1", timezone: "Europe/Paris")
        // Paris jumps from 02:00 CET to 03:00 CEST on 2026-03-29; local 02:30 does not exist.
        try store.session("s1", startedAt: "2026-03-28T23:30:00Z", total: 1500, remaining: 900)  // 00:30 CET, Mar 29
        try store.session("s2", startedAt: "2026-03-29T01:30:00Z", total: 1500, remaining: 1200)  // 03:30 CEST, Mar 29
        try store.session("s3", startedAt: "2026-03-29T22:30:00Z", total: 900, remaining: 0)  // 00:30 CEST, Mar 30
        try store.login(at: "2026-03-29T07:59:00Z")  // 09:59 CEST: a morning login of Mar 29
        try store.login(at: "2026-03-30T08:00:00Z")  // 10:00 CEST: not before 10:00
        let report = try store.report(from: "2026-03-29", to: "2026-03-30")
        // Mar 29: 600 + 300 s = 15 min, no single session of 900 s; C = 900/1500 → 12, M → 10: 22.
        let first = try XCTUnwrap(report.daily("u1", "2026-03-29"))
        assertNumber(first["focus_minutes"], 15)
        XCTAssertEqual(first["morning_login"], .boolean(true))
        XCTAssertEqual(first["score"], .integer(22))
        XCTAssertEqual(first["badges"], .integer(1))
        // Mar 30 (a stale +01:00 offset would have put s3 on Mar 29): 900 s → focus_15; C → 12.
        let second = try XCTUnwrap(report.daily("u1", "2026-03-30"))
        assertNumber(second["focus_minutes"], 15)
        XCTAssertEqual(second["morning_login"], .boolean(false))
        XCTAssertEqual(second["score"], .integer(12))
        XCTAssertEqual(
            report.rows("badges"),
            [
                [.text("u1"), day("2026-03-29"), .text("morning_login")],
                [.text("u1"), day("2026-03-30"), .text("focus_15")],
            ])
    }

    func testFallBackDayHasTwentyFiveHours() throws {
        try store.user("u1", timezone: "Europe/Paris")
        // Paris goes back from 03:00 CEST to 02:00 CET on 2026-10-25: 02:30 happens twice.
        try store.login(at: "2026-10-25T02:30:00+02:00")  // the first 02:30 (00:30Z)
        try store.login(at: "2026-10-25T02:30:00+01:00")  // the second 02:30 (01:30Z)
        try store.session("s1", startedAt: "2026-10-24T22:30:00Z", total: 600, remaining: 0)  // 00:30 CEST, Oct 25
        try store.session("s2", startedAt: "2026-10-25T22:30:00Z", total: 600, remaining: 0)  // 23:30 CET, Oct 25
        let report = try store.report(from: "2026-10-24", to: "2026-10-26")
        XCTAssertEqual(report.rows("daily").count, 1, "everything is on Oct 25")
        let row = try XCTUnwrap(report.daily("u1", "2026-10-25"))
        // Both sessions: 1200 s = 20 min; C = 1200/1500 → 16; the 02:30 logins → M = 10: 26.
        assertNumber(row["focus_minutes"], 20)
        XCTAssertEqual(row["morning_login"], .boolean(true))
        XCTAssertEqual(row["score"], .integer(26))
    }

    func testThreeOClockDayStartMovesA2amLoginToTheDayBefore() throws {
        try store.user("u1", timezone: "Europe/Paris")
        try store.login(at: "2026-11-10T02:00:00+01:00")  // before 03:00: belongs to Nov 9, not a morning login
        try store.login(at: "2026-11-11T03:00:00+01:00")  // at the day start: a morning login of Nov 11
        // Dated Nov 10 (never shifted), completed at 02:30 on Nov 10, i.e. on day Nov 9.
        try store.task("t1", date: "2026-11-10", completedAt: "2026-11-10T02:30:00+01:00")
        try store.mood(date: "2026-11-10", mood: 5)
        let report = try store.report(from: "2026-11-09", to: "2026-11-11", dayStartMinutes: 180)
        let ninth = try XCTUnwrap(report.daily("u1", "2026-11-09"))
        XCTAssertEqual(ninth["tasks_done"], .integer(1))
        XCTAssertEqual(ninth["tasks_planned"], .integer(0))
        XCTAssertEqual(ninth["morning_login"], .boolean(false))
        XCTAssertEqual(ninth["score"], .integer(40))  // T = 1 (done without a plan)
        let tenth = try XCTUnwrap(report.daily("u1", "2026-11-10"))
        XCTAssertEqual(tenth["tasks_planned"], .integer(1))
        XCTAssertEqual(tenth["tasks_done"], .integer(0))
        XCTAssertEqual(tenth["mood"], .integer(5))
        XCTAssertEqual(tenth["score"], .integer(0))
        XCTAssertEqual(report.daily("u1", "2026-11-11")?["morning_login"], .boolean(true))
        XCTAssertEqual(report.daily("u1", "2026-11-11")?["score"], .integer(10))
        // Without the day start, the login and the completion are on Nov 10.
        let midnight = try store.report(from: "2026-11-09", to: "2026-11-11")
        XCTAssertNil(midnight.daily("u1", "2026-11-09"))
        XCTAssertEqual(midnight.daily("u1", "2026-11-10")?["tasks_done"], .integer(1))
        XCTAssertEqual(midnight.daily("u1", "2026-11-10")?["morning_login"], .boolean(true))
    }
}
