import Foundation

/// Reads on a second thread while the caller works on what was read before: a report's next
/// users' records come from the database (SQLite's page work, or a server's, waited for over a
/// socket) while it analyses the users before them, so the two overlap on two cores instead of
/// adding up.
///
/// `ReadAhead.consume(depth:producing:_:)` starts `produce` on a thread of its own. It hands
/// its items, in order, to a queue of at most `depth` (`send` blocks while the queue is full, so
/// memory stays bounded: `depth` items queued, one being made, one being used). The caller takes
/// them with `next()`, which gives nil at the end and rethrows the producer's error after the
/// items sent before it. When `body` returns or throws, the producer is stopped at its next
/// `send` and waited for: once `consume` returns, nothing it captured is in use on the other
/// thread.
///
/// What `produce` captures (a `Database`, its statements) is used from its thread only, and
/// while it runs the caller must not touch it: neither a SQLite connection nor libpq's is safe
/// to use from two threads at once. The caller uses them again once `consume` has returned; the
/// transaction the reads run in is the caller's, opened before and ended after. The producer's
/// thread never holds the last reference to them: `consume` drops the thread's reference to
/// `produce` itself, once the producer has ended, so that what it captures is released (a
/// statement's `deinit` runs `DEALLOCATE` on its connection) on the caller's thread. Released on
/// the producer's thread as it exited, a statement of the report's connection sent its
/// `DEALLOCATE` while the caller ran its next command on that connection: the one took the
/// other's result, and the caller waited forever for it (a Citus test pass hung so in
/// `HabitsStreakStateTests`, the report's streak states being saved).
public final class ReadAhead<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Item] = []
    private let depth: Int
    /// The producer returned (or threw); nothing more will be queued.
    private var finished = false
    private var failure: (any Error)?
    /// The consumer is done: `send` throws `Stopped` instead of queuing.
    private var stopped = false

    /// What `send` throws once the consumer has stopped: the producer's way out.
    struct Stopped: Error {}

    /// Holds the producer for its thread. Unchecked: `body` is called on that thread only, and
    /// dropped (`release`) by the caller once the thread is done with it (see `ReadAhead`).
    private final class Producer: @unchecked Sendable {
        private var body: ((_ send: (Item) throws -> Void) throws -> Void)?
        init(_ body: @escaping (_ send: (Item) throws -> Void) throws -> Void) { self.body = body }

        func run(_ send: (Item) throws -> Void) throws { try body?(send) }

        /// Drops the body, and with it this holder's references to what it captures.
        func release() { body = nil }
    }

    private init(depth: Int) { self.depth = max(1, depth) }

    /// Runs `produce` on a new thread and `body` on this one, with `next` taking the produced
    /// items in order (nil after the last; the producer's error, rethrown, after the items sent
    /// before it). Returns `body`'s result once the producer has ended, stopped early when `body`
    /// returns or throws before taking every item.
    public static func consume<Result>(
        depth: Int, name: String = "report-read-ahead",
        producing produce: @escaping (_ send: (Item) throws -> Void) throws -> Void,
        _ body: (_ next: @escaping () throws -> Item?) throws -> Result
    ) throws -> Result {
        let readAhead = ReadAhead(depth: depth)
        let producer = Producer(produce)
        readAhead.start(producer, name: name)
        defer {
            readAhead.stop()
            // The thread has finished with the body (`stop` waited for it), but may still hold
            // `producer` while it exits: the captures go here, on the caller's thread.
            producer.release()
        }
        return try body(readAhead.next)
    }

    private func start(_ producer: Producer, name: String) {
        let thread = Thread { [self] in run(producer) }
        thread.name = name
        thread.stackSize = 1 << 23
        thread.start()
    }

    private func run(_ producer: Producer) {
        var error: (any Error)?
        do { try producer.run(send) } catch is Stopped {} catch let thrown { error = thrown }
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    private func send(_ item: Item) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !stopped { condition.wait() }
        if stopped { throw Stopped() }
        queue.append(item)
        condition.broadcast()
    }

    private func next() throws -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !finished { condition.wait() }
        if !queue.isEmpty {
            condition.broadcast()
            return queue.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer at its next `send` (what it queued is dropped) and waits for its end.
    private func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
