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
/// Lines by `JSONRecordReader` and every record that parses goes to that kind's `validate`, as the
/// import pipeline does.
///
/// Invariants: JSON Lines reading never throws, but for a file that is not UTF-8 (refused whole,
/// before its first record); `validate` returns or throws a `FieldError` (typed throws: nothing else can come
/// out), never traps, hangs or touches memory it should not; the error names a field and a rule
/// and quotes at most 60 characters of the value; validating the same record twice gives the same
/// error (validation is pure); `RecordReader.looseId`, which the pipeline calls on every rejected
/// record, is at most 60 characters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecords(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let kinds = [HabitsModule.module, BookingsModule.module, FleetModule.module].flatMap(\.kinds)
    let kind = kinds[Int(data[0]) % kinds.count]
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let reader = JSONRecordReader(source: MemoryByteSource(input), jsonLines: true)
    var records = 0
    while true {
        let next: JSONRecord?
        do {
            next = try reader.next()
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
        guard case .success(let value) = record.value else { continue }
        let first = outcome(kind, value)
        let second = outcome(kind, value)
        require(
            first == second, "validating twice gave \(String(describing: first)) then \(String(describing: second))")
        if let error = first {
            require(!error.field.isEmpty && !error.rule.isEmpty, "empty field or rule in \(error)")
            require(error.value.count <= 60, "value quoted at \(error.value.count) characters: \(error)")
            _ = error.description
        }
        if let id = RecordReader.looseId(value) {
            require(!id.isEmpty && id.count <= 60, "loose id of \(id.count) characters")
        }
    }
    return 0
}

/// The kind's validation of one record: nil when valid, else its error.
func outcome(_ kind: ExportKind, _ value: JSONValue) -> FieldError? {
    do {
        try validate(kind, value)
        return nil
    } catch {
        return error
    }
}

func validate(_ kind: ExportKind, _ value: JSONValue) throws(FieldError) {
    switch kind {
    case .users: _ = try UsersImporter.validate(value)
    case .flows: _ = try FlowsImporter.validate(value)
    case .tasks: _ = try TasksImporter.validate(value)
    case .focusSessions: _ = try FocusSessionsImporter.validate(value)
    case .logins: _ = try LoginsImporter.validate(value)
    case .moods: _ = try MoodsImporter.validate(value)
    case .services: _ = try ServicesImporter.validate(value)
    case .slots: _ = try SlotsImporter.validate(value)
    case .customers: _ = try CustomersImporter.validate(value)
    case .bookings: _ = try BookingsImporter.validate(value)
    case .events: _ = try EventImporter.validate(value)
    case .groups: _ = try GroupImporter.validate(value)
    case .drivers: _ = try DriverImporter.validate(value)
    case .assignments: _ = try AssignmentImporter.validate(value)
    case .loanRecords: _ = try LoanRecordImporter.validate(value)
    default: break
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
