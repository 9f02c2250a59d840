/// The impacts of the attached records, in flat arrays (a record's impacts side by side, in their
/// order in it): millions of them fit in 17 bytes each (an `ImpactType` is one byte), without an
/// array per record.
struct AttachedImpacts {
    private var types: [ImpactType] = []
    private var xs: [Double] = []
    private var ys: [Double] = []
    /// Per slot (assignment index × 2 + side): the first impact and how many.
    private var firsts: [Int32] = []
    private var counts: [Int32] = []

    init() {}

    init(slots: Int) {
        firsts = [Int32](repeating: 0, count: slots)
        counts = [Int32](repeating: 0, count: slots)
    }

    static func slot(_ index: Int, _ side: LoanRecord.Kind) -> Int32 {
        Int32(index * 2 + (side == .checkOut ? 0 : 1))
    }

    mutating func start(_ slot: Int32) { firsts[Int(slot)] = Int32(types.count) }

    mutating func append(_ type: ImpactType, x: Double, y: Double, to slot: Int32) {
        types.append(type)
        xs.append(x)
        ys.append(y)
        counts[Int(slot)] += 1
    }

    /// The impacts of one side of the assignment at `index` of the rows, in their order.
    func impacts(of index: Int, _ side: LoanRecord.Kind) -> [Impact] {
        let slot = Int(Self.slot(index, side))
        guard slot < counts.count, counts[slot] > 0 else { return [] }
        let first = Int(firsts[slot])
        return (first..<first + Int(counts[slot])).map { position in
            Impact(type: types[position], x: xs[position], y: ys[position])
        }
    }
}
