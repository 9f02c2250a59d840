/// A step of a flow, as the app stores it in `etape`.
struct FlowStep {
    let id: String?
    let label: String
    let done: Bool
}

/// One flow record, field for field (SPEC §1.1).
struct FlowRecord {
    var id: String
    var userId: RecordID
    var date: CivilDate
    var action: String
    var goal: String?
    var state: String
    var energy: Int?
    var estimatedMinutes: Int?
    /// tempsRealise in tenths of a minute (written as a decimal).
    var spentTenths: Int?
    var contexts: [String]?
    var streakDay: Int?
    var steps: [FlowStep]?
    var createdAt: ZonedInstant?
    var completedAt: ZonedInstant?
}

/// One task record (SPEC §1.1).
struct TaskRecord {
    var id: String
    var userId: RecordID
    var date: CivilDate
    var label: String
    var state: String
    var contexts: [String]?
    var createdAt: ZonedInstant?
    var completedAt: ZonedInstant?
}

/// The habits output files; a kind left nil is not written (the `generate` mode writes one kind).
struct HabitsFiles {
    var users: RecordFile?
    var flows: RecordFile?
    var tasks: RecordFile?
    var focusSessions: RecordFile?
    var logins: RecordFile?
    var moods: RecordFile?

    var all: [RecordFile] { [users, flows, tasks, focusSessions, logins, moods].compactMap { $0 } }

    func user(id: RecordID, zone: Zone?, displayName: String?, createdAt: ZonedInstant?) throws {
        try users?.record { json in
            try json.key("id"); try json.id(id)
            if let zone { try json.key("timezone"); try json.string(zone.identifier) }
            if let displayName { try json.key("displayName"); try json.string(displayName) }
            if let createdAt { try json.key("createdAt"); try json.timestamp(createdAt) }
        }
    }

    func flow(_ flow: FlowRecord) throws {
        try flows?.record { json in
            try json.key("id"); try json.string(flow.id)
            try json.key("userId"); try json.id(flow.userId)
            try json.key("date"); try json.date(flow.date)
            try json.key("libelleAction"); try json.string(flow.action)
            if let goal = flow.goal { try json.key("objectif"); try json.string(goal) }
            try json.key("etat"); try json.string(flow.state)
            if let energy = flow.energy { try json.key("energieRequise"); try json.int(energy) }
            if let estimated = flow.estimatedMinutes { try json.key("tempsEstime"); try json.int(estimated) }
            if let spent = flow.spentTenths { try json.key("tempsRealise"); try json.fixed(spent, decimals: 1) }
            if let contexts = flow.contexts { try json.key("contexte"); try strings(contexts, json) }
            if let streakDay = flow.streakDay { try json.key("streakDay"); try json.int(streakDay) }
            if let steps = flow.steps {
                try json.key("etape")
                try json.beginArray()
                for step in steps {
                    try json.beginObject()
                    if let id = step.id { try json.key("id"); try json.string(id) }
                    try json.key("libelle"); try json.string(step.label)
                    try json.key("terminee"); try json.bool(step.done)
                    try json.endObject()
                }
                try json.endArray()
            }
            if let createdAt = flow.createdAt { try json.key("createdAt"); try json.timestamp(createdAt) }
            if let completedAt = flow.completedAt { try json.key("completedAt"); try json.timestamp(completedAt) }
        }
    }

    func task(_ task: TaskRecord) throws {
        try tasks?.record { json in
            try json.key("id"); try json.string(task.id)
            try json.key("userId"); try json.id(task.userId)
            try json.key("date"); try json.date(task.date)
            try json.key("libelle"); try json.string(task.label)
            try json.key("state"); try json.string(task.state)
            if let contexts = task.contexts { try json.key("contexte"); try strings(contexts, json) }
            if let createdAt = task.createdAt { try json.key("createdAt"); try json.timestamp(createdAt) }
            if let completedAt = task.completedAt { try json.key("completedAt"); try json.timestamp(completedAt) }
        }
    }

    func focusSession(
        id: String, userId: RecordID, startedAt: ZonedInstant, totalSeconds: Int,
        remainingSeconds: Int, endedAt: ZonedInstant?
    ) throws {
        try focusSessions?.record { json in
            try json.key("id"); try json.string(id)
            try json.key("userId"); try json.id(userId)
            try json.key("startedAt"); try json.timestamp(startedAt)
            try json.key("totalSeconds"); try json.int(totalSeconds)
            try json.key("remainingSeconds"); try json.int(remainingSeconds)
            if let endedAt { try json.key("endedAt"); try json.timestamp(endedAt) }
        }
    }

    func login(userId: RecordID, at instant: ZonedInstant) throws {
        try logins?.record { json in
            try json.key("userId"); try json.id(userId)
            try json.key("at"); try json.timestamp(instant)
        }
    }

    func mood(userId: RecordID, date: CivilDate, mood: Int, note: String?) throws {
        try moods?.record { json in
            try json.key("userId"); try json.id(userId)
            try json.key("date"); try json.date(date)
            try json.key("mood"); try json.int(mood)
            if let note { try json.key("note"); try json.string(note) }
        }
    }

    private func strings(_ values: [String], _ json: JSONWriter) throws {
        try json.beginArray()
        for value in values { try json.string(value) }
        try json.endArray()
    }
}
