import Foundation
import XCTest

@testable import Store

/// `ReadAhead`: a producer on a second thread, its items taken in order through a bounded queue.
final class ReadAheadTests: XCTestCase {
    /// A counter both threads touch.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        private var ended = false
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
        func end() { lock.withLock { ended = true } }
        var hasEnded: Bool { lock.withLock { ended } }
    }

    struct Broken: Error, Equatable { let at: Int }

    func testEveryItemArrivesInOrderThenNil() throws {
        let taken = try ReadAhead<Int>.consume(depth: 3) { send in
            for item in 0..<5_000 { try send(item) }
        } _: { next in
            var taken: [Int] = []
            while let item = try next() { taken.append(item) }
            XCTAssertNil(try next(), "the end stays the end")
            return taken
        }
        XCTAssertEqual(taken, Array(0..<5_000))
    }

    func testTheProducerRunsAtMostDepthItemsAhead() throws {
        let made = Counter()
        try ReadAhead<Int>.consume(depth: 2) { send in
            for item in 0..<1_000 {
                try send(item)
                made.add()
            }
        } _: { next in
            for taken in 1...3 {
                XCTAssertNotNil(try next())
                // Time enough for an unbounded producer to make hundreds more.
                Thread.sleep(forTimeInterval: 0.05)
                XCTAssertLessThanOrEqual(made.count, taken + 2, "after \(taken) taken")
                XCTAssertGreaterThanOrEqual(made.count, taken, "after \(taken) taken")
            }
        }
    }

    func testTheProducersErrorComesAfterTheItemsSentBeforeIt() throws {
        var taken: [Int] = []
        XCTAssertThrowsError(
            try ReadAhead<Int>.consume(depth: 4) { send in
                for item in 0..<3 { try send(item) }
                throw Broken(at: 3)
            } _: { next in
                while let item = try next() { taken.append(item) }
            }
        ) { error in
            XCTAssertEqual(error as? Broken, Broken(at: 3))
        }
        XCTAssertEqual(taken, [0, 1, 2])
    }

    func testAConsumerThatStopsEarlyStopsTheProducerBeforeConsumeReturns() throws {
        let producer = Counter()
        let first = try ReadAhead<Int>.consume(depth: 1) { send in
            defer { producer.end() }
            var item = 0
            while true {
                try send(item)
                item += 1
            }
        } _: { next in
            try next()
        }
        XCTAssertEqual(first, 0)
        XCTAssertTrue(producer.hasEnded, "the producer's thread is done with what it captured")

        let thrower = Counter()
        XCTAssertThrowsError(
            try ReadAhead<Int>.consume(depth: 1) { send in
                defer { thrower.end() }
                for item in 0..<1_000_000 { try send(item) }
            } _: { next -> Void in
                _ = try next()
                throw Broken(at: -1)
            }
        ) { XCTAssertEqual($0 as? Broken, Broken(at: -1)) }
        XCTAssertTrue(thrower.hasEnded)
    }

    /// Where an object's `deinit` ran: the threads, in order.
    final class Releases: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [pthread_t] = []
        func note() { lock.withLock { list.append(pthread_self()) } }
        var threads: [pthread_t] { lock.withLock { list } }
    }

    /// Captured by a producer only: its `deinit` says on which thread it was released.
    final class Captured: @unchecked Sendable {
        let releases: Releases
        init(_ releases: Releases) { self.releases = releases }
        deinit { releases.note() }
    }

    /// What the producer captures (on a server, statements whose `deinit` sends `DEALLOCATE` on
    /// the caller's connection) is released on the caller's thread, and by the time `consume`
    /// returns: never on the producer's thread as it exits, while the caller uses the connection
    /// again. Many rounds, as the producer's thread ends at its own pace.
    func testWhatTheProducerCapturesIsReleasedOnTheCallersThreadBeforeConsumeReturns() throws {
        for round in 0..<2_000 {
            let releases = Releases()
            try Self.consume(capturing: Captured(releases))
            let threads = releases.threads
            XCTAssertEqual(threads.count, 1, "round \(round): released once, before consume returned")
            XCTAssertTrue(threads.allSatisfy { pthread_equal($0, pthread_self()) != 0 }, "round \(round)")
            if threads.count != 1 || pthread_equal(threads[0], pthread_self()) == 0 { break }
        }
    }

    /// Runs a producer that captures `captured`. Once this returns nothing here holds it: only a
    /// producer's thread still on its way out could.
    private static func consume(capturing captured: consuming Captured) throws {
        let held = captured
        try ReadAhead<Int>.consume(depth: 1) { [held] send in
            withExtendedLifetime(held) {}
            try send(1)
        } _: { next in
            while try next() != nil {}
        }
    }

    /// The producer owns the database while it runs: a SQLite report read on the second thread,
    /// inside the caller's transaction, sees the caller's snapshot.
    func testTheProducerReadsInTheCallersTransaction() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ra-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(path: directory.appendingPathComponent("t.sqlite").path)
        try database.execute("CREATE TABLE t (n INTEGER)")
        let values = try database.transaction {
            try database.execute("INSERT INTO t VALUES (1), (2), (3)")
            return try ReadAhead<Int64>.consume(depth: 1) { send in
                let statement = try database.prepare("SELECT n FROM t ORDER BY n")
                while try statement.step() { try send(statement.int64(0)) }
            } _: { next in
                var values: [Int64] = []
                while let value = try next() { values.append(value) }
                return values
            }
        }
        XCTAssertEqual(values, [1, 2, 3])
    }
}
