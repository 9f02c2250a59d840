import ReportCore

/// One row of `daily`, decoded.
struct HabitsDailyRow: Sendable, Equatable {
    /// Index into the report's user ids.
    var user: Int
    var day: Day
    var score: Int
    var tasksPlanned: Int
    var tasksDone: Int
    var flows: Int
    var flowsDone: Int
    var focusSeconds: Int64
    var badges: HabitsBadges
    var streak: Int
    var consistency: Double
    var mood: Int?

    var morningLogin: Bool { badges.contains(.morningLogin) }
}

/// The `daily` rows of a whole report, packed as bytes so that 10,000 users × 365 days stay far
/// below the memory budget.
///
/// Why bytes: a decoded row is about 90 bytes in memory; packed it is about 20 (user and day as
/// deltas from the previous row, counts as variable-length integers, the consistency as its 8
/// bytes so it stays exact). Rows are appended in report order and decoded in one forward pass
/// each time a writer asks. The bytes live in chunks of 1 MiB so that growing never copies the
/// whole buffer (no doubling spike).
struct HabitsDailyRows: Sendable {
    private static let chunkSize = 1 << 20
    /// The most bytes one row can take: 8 variable-length integers of ≤ 10 bytes, 3 bytes, 8 bytes.
    private static let maximumRowSize = 8 * 10 + 3 + 8

    private var chunks: [[UInt8]] = []
    private(set) var count = 0
    private var lastUser = 0
    private var lastDay = 0

    mutating func append(_ row: HabitsDailyRow) {
        if chunks.isEmpty || chunks[chunks.count - 1].count + Self.maximumRowSize > Self.chunkSize {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        Self.encode(row, user: row.user - lastUser, day: row.day.ordinal - lastDay, into: &chunks[chunks.count - 1])
        lastUser = row.user
        lastDay = row.day.ordinal
        count += 1
    }

    /// Appends one row in place (the chunk is modified through its subscript, never copied).
    private static func encode(_ row: HabitsDailyRow, user: Int, day: Int, into bytes: inout [UInt8]) {
        writeVarint(UInt64(max(0, user)), to: &bytes)
        writeVarint(zigzag(Int64(day)), to: &bytes)
        bytes.append(UInt8(clamping: row.score))
        bytes.append(row.badges.rawValue)
        bytes.append(UInt8(clamping: row.mood ?? 0))
        writeVarint(UInt64(max(0, row.tasksPlanned)), to: &bytes)
        writeVarint(UInt64(max(0, row.tasksDone)), to: &bytes)
        writeVarint(UInt64(max(0, row.flows)), to: &bytes)
        writeVarint(UInt64(max(0, row.flowsDone)), to: &bytes)
        writeVarint(UInt64(max(0, row.streak)), to: &bytes)
        writeVarint(UInt64(max(0, row.focusSeconds)), to: &bytes)
        var bits = row.consistency.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// The rows in the order they were appended.
    func makeIterator() -> AnyIterator<HabitsDailyRow> {
        var chunkIndex = 0
        var offset = 0
        var user = 0
        var day = 0
        let chunks = self.chunks
        return AnyIterator {
            while chunkIndex < chunks.count, offset >= chunks[chunkIndex].count {
                chunkIndex += 1
                offset = 0
            }
            guard chunkIndex < chunks.count else { return nil }
            return chunks[chunkIndex].withUnsafeBufferPointer { bytes -> HabitsDailyRow in
                user += Int(Self.readVarint(bytes, &offset))
                day += Int(Self.unzigzag(Self.readVarint(bytes, &offset)))
                let score = Int(bytes[offset])
                let badges = HabitsBadges(rawValue: bytes[offset + 1])
                let mood = Int(bytes[offset + 2])
                offset += 3
                let planned = Int(Self.readVarint(bytes, &offset))
                let done = Int(Self.readVarint(bytes, &offset))
                let flows = Int(Self.readVarint(bytes, &offset))
                let flowsDone = Int(Self.readVarint(bytes, &offset))
                let streak = Int(Self.readVarint(bytes, &offset))
                let focus = Int64(Self.readVarint(bytes, &offset))
                var bits: UInt64 = 0
                for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
                offset += 8
                return HabitsDailyRow(user: user, day: Day(ordinal: day), score: score, tasksPlanned: planned,
                                      tasksDone: done, flows: flows, flowsDone: flowsDone, focusSeconds: focus,
                                      badges: badges, streak: streak, consistency: Double(bitPattern: bits),
                                      mood: mood == 0 ? nil : mood)
            }
        }
    }

    private static func writeVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func readVarint(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return value
    }

    private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    private static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
}
