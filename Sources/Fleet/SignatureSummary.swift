import Import

/// What the reports need of a signature: whether there is one, and whether it strays off the pad.
///
/// A signature is a list of pen strokes (segments), each a list of `[x, y]` points on a 400 × 400
/// pad. A stroke of one point is a tap, not a signature, so a signature is *present* when some
/// segment has at least two points (SPEC §5). A point outside 0…400 is kept as a data-quality flag
/// rather than a rejection (SPEC §1.3): the iPad can report a finger that slid off the pad, and the
/// loan itself is still real. A structure that is not segments of points is a rejection.
public struct SignatureSummary: Sendable, Equatable {
    public let isPresent: Bool
    public let isOutOfBox: Bool

    public static let absent = SignatureSummary(isPresent: false, isOutOfBox: false)

    public init(isPresent: Bool, isOutOfBox: Bool) {
        self.isPresent = isPresent
        self.isOutOfBox = isOutOfBox
    }

    /// Reads the optional signature at `key`; `null` or absent is no signature.
    public init(reading reader: RecordReader, key: String) throws(FieldError) {
        guard let segments = try reader.optionalItems(key) else {
            self = .absent
            return
        }
        var present = false
        var outOfBox = false
        for (segmentIndex, segment) in segments.enumerated() {
            guard let points = segment.elements else {
                throw reader.fail("\(key)[\(segmentIndex)]", segment.value, "must be a list of [x, y] points")
            }
            if points.count >= 2 { present = true }
            for (pointIndex, point) in points.enumerated() {
                var coordinates = point.elements
                guard coordinates?.count == 2, let x = coordinates?.next()?.finiteNumber,
                    let y = coordinates?.next()?.finiteNumber
                else {
                    throw reader.fail(
                        "\(key)[\(segmentIndex)][\(pointIndex)]", point.value, "must be a point [x, y] of two numbers")
                }
                if !(0...LoanRecord.boxSize).contains(x) || !(0...LoanRecord.boxSize).contains(y) { outOfBox = true }
            }
        }
        self.init(isPresent: present, isOutOfBox: outOfBox)
    }

}
