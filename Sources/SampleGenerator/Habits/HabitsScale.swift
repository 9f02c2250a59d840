/// Benchmark-sized habits data: many simulated users over a year, and one-kind files of N records.
enum HabitsScale {
    static let firstDay = CivilDate(year: 2025, month: 11, day: 29)
    static let lastDay = CivilDate(year: 2026, month: 11, day: 28)
    static let kinds = ["users", "flows", "tasks", "focus_sessions", "logins", "moods"]

    /// 10,000 users × 365 days at scale 1, every kind in its own file under `folder`.
    static func write(to folder: String, seed: UInt64, scale: Double, clock: ZoneClock) throws -> [RecordFile] {
        let files = HabitsFiles(
            users: try RecordFile(path: folder + "/users.json", layout: .array),
            flows: try RecordFile(path: folder + "/flows.json", layout: .array),
            tasks: try RecordFile(path: folder + "/tasks.json", layout: .array),
            focusSessions: try RecordFile(path: folder + "/focus_sessions.json", layout: .array),
            logins: try RecordFile(path: folder + "/logins.jsonl", layout: .jsonLines),
            moods: try RecordFile(path: folder + "/moods.json", layout: .array))
        var random = SeededRandom(seed: seed).derived(11)
        let userCount = max(1, Int((10_000 * scale).rounded()))
        var personas = (1...userCount).map {
            HabitsPersona.random(number: $0, firstDay: firstDay, lastDay: lastDay, random: &random)
        }
        try writeUsers(personas, files, clock)
        var simulation = HabitsSimulation(random: random.derived(12), clock: clock, files: files, idStyle: .sequential)
        var day = firstDay
        while day <= lastDay {
            for index in personas.indices {
                try simulation.simulate(&personas[index], day: day, isLastDay: day == lastDay)
            }
            day = day.adding(days: 1)
        }
        for file in files.all { try file.finish() }
        return files.all
    }

    /// Exactly `count` records of one habits kind, from as many users and days as that takes.
    static func generate(kind: String, count: Int, path: String, seed: UInt64, clock: ZoneClock) throws -> RecordFile {
        let file = try RecordFile(path: path, layout: Layout.forPath(path))
        file.limit = count
        var files = HabitsFiles()
        switch kind {
        case "users": files.users = file
        case "flows": files.flows = file
        case "tasks": files.tasks = file
        case "focus_sessions": files.focusSessions = file
        case "logins": files.logins = file
        default: files.moods = file
        }
        var random = SeededRandom(seed: seed).derived(13)
        let openEnd = CivilDate(year: 2100, month: 1, day: 1)
        let userCount = kind == "users" ? count : max(1, count / 250 + 1)
        var personas: [HabitsPersona] = []
        personas.reserveCapacity(min(userCount, 1_000_000))
        for number in 1...max(1, userCount) {
            var persona = HabitsPersona.random(number: number, firstDay: firstDay, lastDay: openEnd, random: &random)
            persona.firstDay = firstDay
            persona.lastDay = openEnd
            if kind == "users" {
                try writeUsers([persona], files, clock)
            } else {
                personas.append(persona)
            }
        }
        var simulation = HabitsSimulation(random: random.derived(14), clock: clock, files: files, idStyle: .sequential)
        var day = firstDay
        while !file.isFull, !personas.isEmpty {
            for index in personas.indices where !file.isFull {
                try simulation.simulate(&personas[index], day: day, isLastDay: false)
            }
            day = day.adding(days: 1)
        }
        try file.finish()
        return file
    }

    private static func writeUsers(_ personas: [HabitsPersona], _ files: HabitsFiles, _ clock: ZoneClock) throws {
        for persona in personas {
            let created = clock.local(
                persona.createdAt, minute: persona.wakeMinute + 30, second: 0,
                zone: persona.clockZone, zulu: persona.zulu)
            try files.user(id: persona.id, zone: persona.zone, displayName: persona.displayName, createdAt: created)
        }
    }
}
