import Store

/// Keeps `habits_record_users` (habits step 8) naming every user an activity record was written
/// for: each importer of tasks, flows, focus sessions, logins and moods hands it the user of each
/// record it stores. Nothing else writes those tables, and nothing deletes from them, so the list
/// only grows; a user whose records all move to another stays in it and is read for nothing.
///
/// A user is written once per connection, not once per record: the ids written are remembered
/// (up to `remembered`, then forgotten and written again as they come; `ON CONFLICT DO NOTHING`
/// keeps one row each), and forgotten whenever a rollback may have taken their rows away
/// (`Database.rollbacks`). Ids are told apart by their bytes, as everywhere else (Swift's `==`
/// takes an NFC and an NFD spelling of one name for one string), and looked up in an
/// `IdentifierTable` (a byte hash, no SipHash; this check was 710 instructions a record of the
/// habits profile with a `Set<String>` and one of bytes, 4 % of the import's database thread).
/// Records often come in runs of one user (44% of the 1M-task file's): an id with the bytes of
/// the last one returns before any hashing.
final class HabitsRecordUsers {
    /// Ids remembered at most: about 5 MB of short ids.
    static let remembered = 65_536

    private let database: Database
    private let upsert: UpsertWriter
    /// What has been written, in one stored property: the check runs on the import's database
    /// thread for every activity record, and each access to a stored property of a class is an
    /// exclusivity check of the runtime (`swift_beginAccess`, about 80 instructions each), which
    /// this one, private and never reached from two accesses at once, goes without.
    @exclusivity(unchecked) private var known = Remembered()

    init(database: Database) throws {
        self.database = database
        upsert = try database.upsertWriter(table: "habits_record_users", columns: ["user_id"], key: ["user_id"])
        known.rollbacks = database.rollbacks
    }

    /// Records that `userId` has a record (written with it, in its transaction).
    func note(_ userId: String) throws {
        guard known.isNew(userId, rollbacks: database.rollbacks) else { return }
        do { try upsert.write([.text(userId)]) } catch {
            // Not written (outside a transaction nothing rolls back to tell): written again next time.
            known.forget(rollbacks: database.rollbacks)
            throw error
        }
    }

    private struct Remembered {
        /// The ids written, numbered by their place here and found through `table`.
        var ids: [String] = []
        var table = IdentifierTable(capacity: 1024)
        /// The id of the last record (whose row is written, or buffered), compared before any
        /// hashing: the count of its UTF-8 bytes (-1: none), and the bytes themselves packed in two
        /// words when they are 16 at most (a user id is short: `user-000001`), else in `lastLong`.
        /// Comparing two `String`s by their bytes took each one's bytes out in turn, 173
        /// instructions a record in the 1M-task import; the record's bytes are taken out once.
        var lastCount = -1
        var lastWords: (UInt64, UInt64) = (0, 0)
        var lastLong = ""
        var rollbacks = 0

        /// Whether `userId` is to be written: not remembered, or forgotten since (a rollback, or
        /// `HabitsRecordUsers.remembered` ids); remembered from now on.
        mutating func isNew(_ userId: String, rollbacks now: Int) -> Bool {
            if now != rollbacks || ids.count >= HabitsRecordUsers.remembered { forget(rollbacks: now) }
            var id = userId
            let new = id.withUTF8 { bytes in
                if bytes.count <= 16 {
                    let words = Self.words(bytes)
                    if bytes.count == lastCount && words == lastWords { return false }
                    lastWords = words
                } else {
                    if bytes.count == lastCount && IdentifierTable.matches(bytes, lastLong) { return false }
                    lastLong = userId
                }
                lastCount = bytes.count
                return table.insert(bytes: bytes, number: Int32(ids.count), key: { ids[Int($0)] })
            }
            if new { ids.append(userId) }
            return new
        }

        /// Up to 16 bytes in two words, the rest zeros: with the count, equal words are equal bytes.
        static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            return words
        }

        mutating func forget(rollbacks now: Int) {
            rollbacks = now
            ids.removeAll(keepingCapacity: true)
            table.removeAll()
            lastCount = -1
            lastLong = ""
        }
    }
}
