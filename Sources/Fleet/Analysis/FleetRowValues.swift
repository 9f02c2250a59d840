/// One check-out or check-in as attached to its assignment: the latest record of its kind made
/// no later than as-of, by (recorded_at, import order, id).
struct AttachedRecord: Sendable {
    let id: String
    /// Microseconds since the epoch.
    let recordedAt: Int64
    let mileage: Double?
    /// Levels are 0–4 (the schema's CHECK): a byte each keeps 300,000 rows compact.
    let oilLevel: UInt8
    let interiorCleanliness: UInt8
    let exteriorCleanliness: UInt8
    let signaturePresent: Bool
    let signatureOutOfBox: Bool
}

/// An assignment of the event with its attached records.
struct AssignmentRow: Sendable {
    let id: String
    let plate: String
    let brand: String
    let model: String?
    let groupId: String?
    let driverId: String?
    let plannedOut: Int64
    let plannedIn: Int64
    let importSequence: Int64
    let cancelled: Bool
    var checkOut: AttachedRecord?
    var checkIn: AttachedRecord?
}

/// A loan record whose assignment no file has brought.
struct UnknownAssignmentRecord: Sendable {
    let id: String
    let assignmentId: String
    let kind: String
}

/// A damage mark; its index in the record's list is its place in the array that holds it.
struct Impact: Sendable, Equatable {
    let type: ImpactType
    let x: Double
    let y: Double
}
