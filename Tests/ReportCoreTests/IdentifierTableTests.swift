import Store
import XCTest

/// `IdentifierTable` (Store): ids told apart by their UTF-8 bytes, as the databases compare text.
final class IdentifierTableTests: XCTestCase {
    func testAnIdIsRecordedOnceAndKeepsItsFirstNumber() {
        var ids: [String] = []
        var table = IdentifierTable(capacity: 4)
        func add(_ id: String) -> Bool {
            guard table.insert(id, number: Int32(ids.count), key: { ids[Int($0)] }) else { return false }
            ids.append(id)
            return true
        }
        XCTAssertTrue(add("u1"))
        XCTAssertTrue(add("u2"))
        XCTAssertFalse(add("u1"))
        XCTAssertEqual(ids, ["u1", "u2"])
        XCTAssertEqual(table.number(of: "u1") { ids[Int($0)] }, 0)
        XCTAssertEqual(table.number(of: "u2") { ids[Int($0)] }, 1)
        XCTAssertNil(table.number(of: "u3") { ids[Int($0)] })
        XCTAssertNil(table.number(of: "") { ids[Int($0)] })
    }

    func testCanonicallyEquivalentSpellingsAreTwoIds() {
        let composed = "Ren\u{E9}e"
        let decomposed = "Rene\u{301}e"
        XCTAssertEqual(composed, decomposed, "Swift's == takes them for one string")
        var bytes = composed
        XCTAssertFalse(bytes.withUTF8 { IdentifierTable.matches($0, decomposed) })
        XCTAssertTrue(bytes.withUTF8 { IdentifierTable.matches($0, "Ren\u{E9}e") })
        var ids: [String] = []
        var table = IdentifierTable(capacity: 1)
        for id in [composed, decomposed, composed]
        where table.insert(id, number: Int32(ids.count), key: { ids[Int($0)] }) {
            ids.append(id)
        }
        XCTAssertEqual(ids.map { Array($0.utf8) }, [Array(composed.utf8), Array(decomposed.utf8)])
        XCTAssertEqual(table.number(of: decomposed) { ids[Int($0)] }, 1)
    }

    func testGrowingKeepsEveryNumberAndForgettingEmptiesIt() {
        var ids: [String] = []
        var table = IdentifierTable(capacity: 1)
        for n in 0..<20_000 {
            let id = "user-\(n)"
            XCTAssertTrue(table.insert(id, number: Int32(ids.count), key: { ids[Int($0)] }))
            ids.append(id)
        }
        for (n, id) in ids.enumerated() {
            XCTAssertEqual(table.number(of: id) { ids[Int($0)] }, Int32(n))
            XCTAssertFalse(table.insert(id, number: -5, key: { ids[Int($0)] }))
        }
        table.removeAll()
        XCTAssertNil(table.number(of: "user-7") { ids[Int($0)] })
        XCTAssertTrue(table.insert("user-7", number: 7, key: { ids[Int($0)] }))
        XCTAssertEqual(table.number(of: "user-7") { ids[Int($0)] }, 7)
    }
}
