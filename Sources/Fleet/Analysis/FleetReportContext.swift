import ReportModel
import Time

/// What the report's tables need besides the results: names for ids, the zone to show instants
/// in, the windows, and the order of rows.
struct FleetReportContext: Sendable {
    let event: FleetEvent
    let windows: [OpeningWindow]
    let results: FleetResults
    let groupNames: [String: String]
    let drivers: [String: (name: String, company: String?)]
    /// Loan line indices in row order (assignment ids in `IdentifierOrder`).
    let loanOrder: [Int32]
    /// Damage line indices in row order: by their loan's row, then as found.
    let damageOrder: [Int32]
    /// Driver numbers in row order (driver ids in `IdentifierOrder`).
    let driverOrder: [Int32]
    /// Microseconds every vehicle could have been out: the sum of the windows.
    let availablePerVehicle: Int64
    /// Group and driver names by interned number, looked up once: every writer asks for them on
    /// each of the 300,000 loan rows.
    private let groupNamesByNumber: [String]
    private let driverNamesByNumber: [String]

    init(
        event: FleetEvent, windows: [OpeningWindow], results: FleetResults, groupNames: [String: String],
        drivers: [String: (name: String, company: String?)]
    ) {
        self.event = event
        self.windows = windows
        self.results = results
        self.groupNames = groupNames
        self.drivers = drivers
        let lines = results.lines
        let loanKeys = lines.map { IdentifierSortKey($0.assignmentId) }
        let loanOrder = lines.indices.sorted { IdentifierSortKey.precedes(loanKeys[$0], loanKeys[$1]) }
            .map { Int32($0) }
        self.loanOrder = loanOrder
        var rank = [Int32](repeating: 0, count: lines.count)
        for (position, line) in loanOrder.enumerated() { rank[Int(line)] = Int32(position) }
        let damage = results.damage
        damageOrder = damage.indices.sorted { (rank[Int(damage[$0].loan)], $0) < (rank[Int(damage[$1].loan)], $1) }
            .map { Int32($0) }
        let driverIds = results.driverIds
        driverOrder = results.drivers.keys.map { (number: $0, key: IdentifierSortKey(driverIds.name($0) ?? "")) }
            .sorted { IdentifierSortKey.precedes($0.key, $1.key) }.map(\.number)
        availablePerVehicle = windows.reduce(0) { $0 + $1.length }
        groupNamesByNumber = results.groupIds.names.map { groupNames[$0] ?? $0 }
        driverNamesByNumber = results.driverIds.names.map { drivers[$0]?.name ?? $0 }
    }

    /// A group's name; an unknown id shows the id; no group is empty.
    func groupName(_ number: Int32) -> String? {
        number == Interned.none ? nil : groupNamesByNumber[Int(number)]
    }

    /// A driver's name; an unknown id shows the id; no driver is empty.
    func driverName(_ number: Int32) -> String? {
        number == Interned.none ? nil : driverNamesByNumber[Int(number)]
    }

    /// An instant shown in the event's zone.
    func timestamp(_ microseconds: Int64?) -> Value {
        guard let microseconds else { return .empty }
        return .timestamp(event.offsets.localized(microseconds))
    }

    static func hours(_ microseconds: Int64) -> Double { Double(microseconds) / 3_600_000_000 }

    /// Hours from a checked total of microseconds; nil when it cannot be shown exactly.
    static func hours(_ microseconds: CheckedTotal) -> Double? {
        microseconds.value(dividedBy: 3_600_000_000, places: 2)
    }

    /// Kilometres from a checked total of metres; nil when it cannot be shown exactly.
    static func kilometres(_ metres: CheckedTotal) -> Double? { metres.value(dividedBy: 1000, places: 1) }

    /// `microseconds × count`, checked.
    static func times(_ microseconds: Int64, _ count: Int) -> CheckedTotal {
        let (product, overflow) = microseconds.multipliedReportingOverflow(by: Int64(count))
        return overflow ? .outOfRange : CheckedTotal(product)
    }

    /// A ratio, empty over 0 (SPEC §5).
    static func ratio(_ numerator: Double, _ denominator: Double) -> Value {
        denominator == 0 ? .empty : .number(numerator / denominator)
    }

    /// A ratio of figures that may be missing (a total too large to show): empty then.
    static func ratio(_ numerator: Double?, _ denominator: Double?) -> Value {
        guard let numerator, let denominator else { return .empty }
        return ratio(numerator, denominator)
    }
}
