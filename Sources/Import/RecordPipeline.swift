import Foundation
import JSON

/// Reads and validates a file's records on a second thread while the importer stores them on this
/// one, so that parsing, validation and SQLite overlap on two cores.
///
/// The reader thread fills batches of records into a small bounded queue (a few hundred records
/// each, a handful of batches at most), so memory stays flat whatever the file size. A reading
/// error ends the queue and is rethrown, in order, by `next()`. Closing the pipeline early (a
/// `--strict` failure, a SQLite error) stops the reader thread.
///
/// Records are read onto tapes (`JSONTape`, no tree) and validated from there. Where is the
/// caller's choice: on the reader thread for an import (the database thread is the one that bounds
/// it), straight from the reader's own tape; or on the thread that calls `next()` for `report
/// check`, which stores nothing, so that parsing and validation share the two cores: the reader
/// thread then appends each batch's records to a tape of the batch's own, handed over whole. Either
/// way it is the same validation, by `check(_:)`.
final class RecordPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [Batch] = []
    /// Batches the database thread is done with, handed back so that the reader thread frees
    /// their records (the strings and boxes it allocated): frees off the thread that bounds the
    /// import, and into the allocator's arena of the thread that made them.
    private var spent: [Batch] = []
    private var current = Batch()
    private var currentIndex = 0
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var readerDone = false
    private var consumed = 0
    private var endState: (layout: JSONLayout?, emptiness: JSONEmptiness?) = (nil, nil)
    private let maximumBatches: Int
    private let batchSize: Int
    /// A batch read onto its own tape is queued once its tape holds this much, whatever its count
    /// of records: big records keep the queue's memory bounded, and a tape's 32-bit offsets safe.
    private let batchBytes: Int
    private var batchesQueued = 0

    /// One record, validated or rejected, with its position in the file. Two optionals rather
    /// than a `Result`: the import's loop binds the one it finds (`if let`), a retain of the record's
    /// box, where a switch over a `Result` lent to it copied the whole record twice.
    struct Item: Sendable {
        let index: Int
        let line: Int?
        /// The record, validated; nil when it was rejected.
        let validated: ValidatedRecord?
        /// Why the record was rejected; nil when it was validated.
        let rejection: Rejection?

        init(index: Int, line: Int?, result: Result<ValidatedRecord, Rejection>) {
            self.index = index
            self.line = line
            switch result {
            case .success(let record): (validated, rejection) = (record, nil)
            case .failure(let reason): (validated, rejection) = (nil, reason)
            }
        }

        var result: Result<ValidatedRecord, Rejection> { validated.map { .success($0) } ?? .failure(rejection!) }
    }

    /// A batch as queued: its records validated by the reader thread (`items`), or as read onto
    /// the batch's tape (`records`), for `withNext(_:)` to validate; one of the two is empty. Two
    /// arrays rather than one of an enum, so that a record is lent from its array as it lies (a
    /// case's payload bound out of an enum is a copy). Unchecked: a batch's tape is written by the
    /// reader thread before the batch is queued (under the lock) and only read after, by the
    /// thread that took it.
    private struct Batch: @unchecked Sendable {
        var items: [Item] = []
        var records: [JSONTapeRecord] = []
        var count: Int { items.count + records.count }
    }

    private let validate: @Sendable (RecordReader) throws(FieldError) -> ValidatedRecord
    private let validatesOnReader: Bool
    /// Rejects a record that holds a NUL in any string (`NULText`): the database is PostgreSQL.
    private let refusesNUL: Bool

    /// Starts reading at once on a new thread. `validatesOnReader` false leaves validation to the
    /// thread that calls `next()`; `refusesNUL` rejects a record with a NUL in any of its strings.
    init(
        reader: JSONRecordReader, validate: @escaping @Sendable (RecordReader) throws(FieldError) -> ValidatedRecord,
        validatesOnReader: Bool = true, refusesNUL: Bool = false, batchSize: Int = 256, maximumBatches: Int = 8,
        batchBytes: Int = 16 << 20
    ) {
        self.refusesNUL = refusesNUL
        self.batchSize = batchSize
        self.batchBytes = batchBytes
        self.maximumBatches = maximumBatches
        self.validate = validate
        self.validatesOnReader = validatesOnReader
        let box = ReaderBox(reader: reader)
        let thread = Thread { [self] in self.produce(box.reader) }
        thread.name = "report-json-reader"
        thread.stackSize = 1 << 23
        thread.start()
    }

    deinit { close() }

    /// Batches the reader thread has queued so far (tests).
    var queuedBatchCount: Int {
        condition.lock(); defer { condition.unlock() }
        return batchesQueued
    }

    /// Bytes the reader has read so far (for the progress line).
    var bytesConsumed: Int {
        condition.lock(); defer { condition.unlock() }
        return consumed
    }

    /// What the reader learned of the file's layout, once `next()` has returned nil (the reader
    /// thread has then finished with it).
    var layout: JSONLayout? {
        condition.lock(); defer { condition.unlock() }
        return endState.layout
    }

    /// Why the file held nothing at all, once `next()` has returned nil.
    var emptiness: JSONEmptiness? {
        condition.lock(); defer { condition.unlock() }
        return endState.emptiness
    }

    /// The next record, nil at the end; rethrows the reader's error where it happened. A copy of
    /// the record: `withNext(_:)` lends it where it lies instead.
    func next() throws -> Item? {
        var next: Item?
        guard try withNext({ next = copy $0 }) else { return nil }
        return next
    }

    /// Calls `body` with the next record, lent where it lies in its batch; false at the end;
    /// rethrows the reader's error where it happened, and `body`'s. The import's loop takes its
    /// records this way: a copy of each (`next()`), two a record as the loop took them, went
    /// through the copy and destroy functions of the record's `Result` on the database thread (2 %
    /// of that thread's instructions in a 100,000-task import, callgrind, docs/BENCHMARKS.md).
    func withNext(_ body: (borrowing Item) throws -> Void) throws -> Bool {
        if currentIndex >= current.count {
            guard try takeBatch() else { return false }
        }
        defer { currentIndex += 1 }
        if current.records.isEmpty {
            try current.items.withUnsafeBufferPointer { items in try body(items[currentIndex]) }
        } else {
            try body(check(current.records[currentIndex]))
        }
        return true
    }

    /// Makes the next queued batch the current one, handing the current one back to be freed;
    /// false at the end (rethrows the reader's error where it happened).
    private func takeBatch() throws -> Bool {
        condition.lock()
        while batches.isEmpty && !finished { condition.wait() }
        if batches.isEmpty {
            let error = failure
            condition.unlock()
            if let error { throw error }
            return false
        }
        spent.append(current)
        current = batches.removeFirst()
        currentIndex = 0
        condition.broadcast()
        condition.unlock()
        return true
    }

    /// Stops the reader thread and waits for it, so that the file is closed when this returns.
    func close() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        spent.removeAll()
        condition.broadcast()
        while !readerDone { condition.wait() }
        condition.unlock()
    }

    private func produce(_ reader: JSONRecordReader) {
        var batch = Batch()
        var batchTape = validatesOnReader ? nil : JSONTape()
        if validatesOnReader {
            batch.items.reserveCapacity(batchSize)
        } else {
            batch.records.reserveCapacity(batchSize)
        }
        var error: (any Error)?
        while true {
            do {
                guard let record = try reader.nextOnTape(appendingTo: batchTape) else { break }
                if validatesOnReader { batch.items.append(check(record)) } else { batch.records.append(record) }
            } catch let thrown {
                error = thrown
                break
            }
            if batch.count == batchSize || (batchTape?.heldBytes ?? 0) >= batchBytes {
                guard push(batch, consumed: reader.bytesConsumed) else { return finish(nil) }
                batch.items.removeAll(keepingCapacity: true)
                batch.records.removeAll(keepingCapacity: true)
                if batchTape != nil { batchTape = JSONTape() }
            }
        }
        if batch.count > 0, !push(batch, consumed: reader.bytesConsumed) { return finish(nil) }
        condition.lock()
        endState = (reader.layout, reader.emptiness)
        condition.unlock()
        finish(error, consumed: reader.bytesConsumed)
    }

    /// Validates one record (a JSON Lines line that is not JSON is rejected as it is).
    private func check(_ record: JSONTapeRecord) -> Item {
        switch record.tape {
        case .failure(let syntax):
            return Item(
                index: record.index, line: record.line,
                result: .failure(
                    Rejection(
                        position: record.index, line: record.line, recordId: nil, field: "(record)", value: "",
                        rule: "invalid JSON: \(syntax.message) at byte \(syntax.byteOffset)")))
        case .success(let tape):
            do throws(FieldError) {
                // Where text cannot hold a NUL, a record holding one is rejected before anything else.
                if refusesNUL, tape.kind(at: record.root) == .object,
                    let error = NULText.error(in: tape.view, record: record.root)
                {
                    throw error
                }
                let fields = try RecordReader(record: tape, at: record.root)
                return Item(index: record.index, line: record.line, result: .success(try validate(fields)))
            } catch {
                let id = RecordReader.looseId(tape, at: record.root)
                return Item(
                    index: record.index, line: record.line,
                    result: .failure(
                        Rejection(
                            position: record.index, line: record.line,
                            recordId: refusesNUL ? id.map(NULText.escaped) : id,
                            field: error.field, value: error.value, rule: error.rule)))
            }
        }
    }

    /// Queues a batch, waiting while the queue is full; false when the pipeline was closed.
    private func push(_ batch: Batch, consumed bytes: Int) -> Bool {
        var done: [Batch] = []
        defer { done.removeAll() }  // after the unlock below (defers run last to first)
        condition.lock(); defer { condition.unlock() }
        while batches.count >= maximumBatches && !cancelled { condition.wait() }
        if cancelled { return false }
        batches.append(batch)
        batchesQueued += 1
        consumed = bytes
        swap(&done, &spent)
        condition.broadcast()
        return true
    }

    private func finish(_ error: (any Error)?, consumed bytes: Int? = nil) {
        condition.lock()
        failure = error
        finished = true
        readerDone = true
        if let bytes { consumed = bytes }
        condition.broadcast()
        condition.unlock()
    }

    /// Hands the reader (not Sendable) to the one thread that uses it from then on.
    private struct ReaderBox: @unchecked Sendable { let reader: JSONRecordReader }
}
