import ReportModel
/// The compact results the fleet analysis keeps in memory, one per row of the report's big
/// tables. Strings that repeat (group and driver ids) are interned to small indices, instants are
/// plain microseconds: 300,000 loans fit in a few tens of megabytes, and the report's rows are
/// made from them only when a writer asks.

/// What the app shows for an assignment: `in` (not checked out yet), `out`, `done` (checked in).
enum LoanStatus: UInt8, Sendable {
    case waiting, out, done

    var name: String {
        switch self {
        case .waiting: return "in"
        case .out: return "out"
        case .done: return "done"
        }
    }
}

/// One row of `loans.csv`: a non-cancelled assignment. Optional fields are the empty cells.
struct LoanLine: Sendable {
    let assignmentId: String
    /// Index into the vehicles.
    let vehicle: Int32
    /// The assignment's own group and driver, interned; `Interned.none` when it names none.
    let group: Int32
    let driver: Int32
    let plannedOut: Int64
    let plannedIn: Int64
    let outAt: Int64?
    let inAt: Int64?
    let status: LoanStatus
    /// Full length of the loan, microseconds (loans only).
    let loanMicroseconds: Int64?
    let lateMinutes: Int64?
    let km: Double?
    let oilDelta: Int8?
    let interiorDelta: Int8?
    let exteriorDelta: Int8?
    let newImpacts: Int32?
    let signedOut: Bool
    let signedIn: Bool
}

/// One row of `damage.csv`: a new mark charged to the loan's driver, or a mark found at
/// check-out that the previous return did not show (charged to nobody).
struct DamageLine: Sendable {
    /// Index into the loan lines.
    let loan: Int32
    let impact: Impact
    let attributed: Bool
}

/// One row of `vehicles.csv`.
struct VehicleLine: Sendable {
    let plate: String
    let brand: String
    let model: String?
    let group: Int32
    var loans = 0
    /// The union of its loans inside the windows: at most the windows' length (an event is at
    /// most 366 days), so no sum of it overflows.
    var microsecondsOut: Int64 = 0
    /// Σ km of its returned loans, in whole metres (exact; issue 30).
    var metres = CheckedTotal()
    var newImpacts = 0
    var lateReturns = 0
}

/// One event day of one group: the cells of a `daily.csv` row.
struct DayTally: Sendable {
    var vehicles = 0
    var microsecondsOut = CheckedTotal()
    var checkOuts = 0
    var checkIns = 0
}

/// One driver's loans in the event.
struct DriverTally: Sendable {
    var loans = 0
    var loanMicroseconds = CheckedTotal()
    var returned = 0
    var returnedWithNewDamage = 0
    var lateReturns = 0
    var newImpacts = 0
}

/// Strings given small numbers in order of first sight.
struct Interned: Sendable {
    static let none: Int32 = -1
    private(set) var names: [String] = []
    private var numbers: [String: Int32] = [:]

    mutating func number(_ name: String?) -> Int32 {
        guard let name else { return Interned.none }
        if let number = numbers[name] { return number }
        let number = Int32(names.count)
        names.append(name)
        numbers[name] = number
        return number
    }

    func name(_ number: Int32) -> String? { number == Interned.none ? nil : names[Int(number)] }
}
