import Import
import Time

/// A check-out or a check-in as the iPad app records it (SPEC §1.3 "LoanRecord"), validated whole.
///
/// The same shape arrives embedded in an assignment (`check_out_record`) and in `loan_records`
/// files, so it is read in one place; only where its assignment and kind come from differs.
public struct LoanRecord: Sendable, Equatable {
    /// Which side of a loan the record is.
    public enum Kind: String, Sendable, CaseIterable {
        case checkOut = "check_out"
        case checkIn = "check_in"
    }

    /// A damage mark on the 400 × 400 car diagram.
    public struct Impact: Sendable, Equatable {
        public static let types = ImpactType.names
        public let type: String
        public let x: Double
        public let y: Double
    }

    public let id: String
    public let recordedAt: Timestamp
    public let mileageKilometres: Double?
    public let oilLevel: Int64
    public let interiorCleanliness: Int64
    public let exteriorCleanliness: Int64
    public let signature: SignatureSummary
    /// In the order written: the damage pairing breaks ties by index.
    public let impacts: [Impact]
    /// Only the number of photos matters to the reports; their URLs are not kept.
    public let photoCount: Int
    public let comment: String?

    /// The side of the diagram and of the signature pad, in units.
    static let boxSize = 400.0

    /// Reads every field of a LoanRecord, throwing at the first invalid one with its full path
    /// (`check_in_record.impacts[2].x`, the reader's path giving the prefix).
    public init(reading reader: RecordReader) throws(FieldError) {
        let id = try reader.id("id")
        let recordedAt = try reader.timestamp("recorded_at")
        let mileageKilometres = try LoanRecord.readMileage(reader)
        let oilLevel = try reader.integer("oil_level", 0...4)
        let interiorCleanliness = try reader.integer("interior_cleanliness", 0...4)
        let exteriorCleanliness = try reader.integer("exterior_cleanliness", 0...4)
        let signature = try SignatureSummary(reading: reader, key: "signature")
        var impacts: [Impact] = []
        for (index, item) in (try reader.optionalItems("impacts") ?? []).enumerated() {
            let element = try reader.element("impacts", index, item)
            impacts.append(
                Impact(
                    type: try element.enumeration("type", Impact.types),
                    x: try element.number("x", 0...LoanRecord.boxSize),
                    y: try element.number("y", 0...LoanRecord.boxSize)))
        }
        let photoCount = try reader.optionalStringCount("photos")
        let comment = try reader.optionalString("comment")
        self.id = id
        self.recordedAt = recordedAt
        self.mileageKilometres = mileageKilometres
        self.oilLevel = oilLevel
        self.interiorCleanliness = interiorCleanliness
        self.exteriorCleanliness = exteriorCleanliness
        self.signature = signature
        self.impacts = impacts
        self.photoCount = photoCount
        self.comment = comment
    }

    /// Any JSON number from 0 to `maximumMileage`.
    static func readMileage(_ reader: RecordReader) throws(FieldError) -> Double? {
        try reader.optionalNumber("mileage_km", 0...maximumMileageKilometres)
    }

    /// An odometer reading above ten million kilometres is a typo, not a car (issue 30: kilometre
    /// totals are summed in whole metres, exact in 64 bits far past any fleet's data).
    public static let maximumMileageKilometres = 10_000_000.0
}
