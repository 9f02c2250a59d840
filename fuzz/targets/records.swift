import DomainInterface
import Bookings
import Fleet
import Habits
import Import
import JSON

#if canImport(Glibc)
import Glibc
#endif

/// Fuzz target `records`: the first byte picks one of the fifteen export kinds (its value modulo
/// 15, in the registration order of the modules: habits, bookings, fleet); the rest is read as JSON
/// Lines by `JSONRecordReader` and every record that parses goes to that kind's `validate` on the
/// reader's tape, as the import pipeline does, and again as a tree built from that tape.
///
/// Invariants: JSON Lines reading never throws, but for a file that is not UTF-8 (refused whole,
/// before its first record); `validate` returns or throws a `FieldError` (typed throws: nothing else can come
/// out), never traps, hangs or touches memory it should not; the error names a field and a rule
/// and quotes at most 60 characters of the value; validating the same record twice gives the same
/// error (validation is pure), and the same on the tape as on the tree; `RecordReader.looseId`,
/// which the pipeline calls on every rejected record, is at most 60 characters and the same both ways.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecords(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let kinds = modules.flatMap { module in module.kinds.map { (module, $0) } }
    let (module, kind) = kinds[Int(data[0]) % kinds.count]
    // The module's validator, as `report check` runs it: no database.
    guard let validator = try? module.validator(for: kind) else { fail("no validator for \(kind.name)") }
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let reader = JSONRecordReader(source: MemoryByteSource(input), jsonLines: true)
    var records = 0
    while true {
        let next: JSONTapeRecord?
        do {
            next = try reader.nextOnTape()
        } catch let layout as JSONLayoutError {
            // A file that is not UTF-8 (UTF-16/32 by its first bytes) fails whole, before any record.
            require(
                records == 0 && layout.message.hasPrefix("looks like UTF-"),
                "layout error after \(records) records: \(layout)")
            return 0
        } catch {
            fail("JSON Lines reading threw \(error)")
        }
        records += 1
        guard let record = next else { break }
        guard case .success(let tape) = record.tape else { continue }
        let first = outcome(validator) { () throws(FieldError) in try RecordReader(record: tape) }
        let second = outcome(validator) { () throws(FieldError) in try RecordReader(record: tape) }
        require(
            first == second, "validating twice gave \(String(describing: first)) then \(String(describing: second))")
        let value = tape.value(at: 0)
        let fromTree = outcome(validator) { () throws(FieldError) in try RecordReader(record: value) }
        require(
            first == fromTree,
            "the tape gave \(String(describing: first)) but the tree \(String(describing: fromTree))")
        if let error = first {
            require(!error.field.isEmpty && !error.rule.isEmpty, "empty field or rule in \(error)")
            require(error.value.count <= 60, "value quoted at \(error.value.count) characters: \(error)")
            _ = error.description
        }
        if let id = RecordReader.looseId(tape) {
            require(!id.isEmpty && id.count <= 60, "loose id of \(id.count) characters")
        }
        require(RecordReader.looseId(tape) == RecordReader.looseId(value), "loose ids differ on the tape and the tree")
    }
    return 0
}

let modules = [HabitsModule.module, BookingsModule.module, FleetModule.module].map(\.imports)

/// The kind's validation of one record (on the reader's tape, or built in memory): nil when
/// valid, else its error.
func outcome(_ validator: RecordValidator, _ record: () throws(FieldError) -> RecordReader) -> FieldError? {
    do {
        _ = try validator(record())
        return nil
    } catch {
        return error
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    var text = "records invariant broken: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    abort()
}
