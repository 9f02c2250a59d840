import Foundation
import Habits
import Import
import Store
import Time

/// `report-bench store COUNT DB [ROWS]`: SQLite's side of `report import` alone. Writes COUNT task rows
/// into a new database with the habits schema through the import's writer (`UpsertWriter`, the
/// statement `TasksImporter` prepares), in one transaction and the way a bulk file is loaded
/// (secondary indexes dropped, created again before the commit).
/// The rows are made from a few prepared texts, so this thread does what the import's database
/// thread does and nothing of the reader's: the import's floor with this schema and statement.
/// ROWS: rows per statement (`BulkWriteLimits.sqliteRows`; the import's default otherwise).
func runStoreBench(_ arguments: [String]) {
    guard arguments.count == 2 || arguments.count == 3, let count = Int(arguments[0]), count > 0 else {
        FileHandle.standardError.write(Data("usage: report-bench store COUNT DB [ROWS]\n".utf8))
        exit(2)
    }
    let path = arguments[1]
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    do {
        let database = try Database(path: path)
        if arguments.count == 3, let rows = Int(arguments[2]) { database.bulkWriteLimits.sqliteRows = rows }
        try Schema.migrate(database, ImportLog.migrations + HabitsSchema.migrations)
        let writer = try database.upsertWriter(
            table: "tasks",
            columns: [
                "id", "user_id", "date", "libelle", "state", "contexte", "created_at_us", "completed_at_us",
                "import_seq",
            ], key: ["id"])
        let libelles = (0..<64).map { "Tâche de démonstration numéro \($0) à faire" }
        let users = (0..<10_000).map { String(format: "user-%06d", $0 + 1) }
        let days = (0..<365).map { Day(ordinal: 20_421 + $0).description }
        let states = ["a_faire", "en_cours", "terminee"]
        let startWall = ContinuousClock.now
        let startCPU = processCPUSeconds()
        try database.transaction {
            var creates: [String] = []
            for (name, sql) in try database.secondaryIndexes(of: "tasks") {
                try database.execute("DROP INDEX " + name)
                creates.append(sql)
            }
            for index in 0..<count {
                let created = 1_764_400_000_000_000 + Int64(index) * 1_000_000
                try writer.write([
                    .text(taskId(index + 1)), .text(users[index % users.count]),
                    .text(days[index / 2_740 % days.count]), .text(libelles[index % libelles.count]),
                    .text(states[index % 3]), index % 4 == 0 ? .text("[\"Fitness\"]") : .null, .integer(created),
                    index % 3 == 2 ? .integer(created + 3_600_000_000) : .null, .integer(Int64(index)),
                ])
            }
            for sql in creates { try database.execute(sql) }
        }
        let wall = (ContinuousClock.now - startWall) / .seconds(1)
        let cpu = processCPUSeconds() - startCPU
        print(
            String(
                format: "store: %d task rows, %d a statement, in %.2f s wall, %.2f s CPU", count,
                database.bulkWriteLimits.sqliteRows, wall, cpu))
    } catch {
        FileHandle.standardError.write(Data("report-bench: \(error)\n".utf8))
        exit(1)
    }
}

/// `task-` and nine digits, without Foundation's formatter (which costs more than SQLite's insert).
private func taskId(_ number: Int) -> String {
    var bytes: [UInt8] = Array("task-000000000".utf8)
    var rest = number
    for position in stride(from: 13, through: 5, by: -1) {
        bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
    }
    return String(decoding: bytes, as: UTF8.self)
}
