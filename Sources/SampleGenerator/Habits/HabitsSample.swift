/// The small, realistic habits export of SampleData: eight users and one unknown, autumn 2026.
///
/// The period 2026-10-01 … 2026-11-28 holds both DST changes (Europe 2026-10-25, US 2026-11-01)
/// so that day keys in the users' zones are exercised; a few records sit on purpose on the
/// rules' edges (10:00:00 logins, exactly 900 s of focus, accented and decomposed `terminé`).
enum HabitsSample {
    static let firstDay = CivilDate(year: 2026, month: 10, day: 1)
    static let lastDay = CivilDate(year: 2026, month: 11, day: 28)

    static func personas() -> [HabitsPersona] {
        func persona(
            _ id: RecordID, _ name: String, _ zone: Zone?, zulu: Bool = false, wake: Int, diligence: Double,
            contexts: [String], tasks: Double, flows: Double, focus: Double, mood: Double,
            from: CivilDate = firstDay, to: CivilDate = lastDay, streakDay: Bool = false,
            created: CivilDate
        ) -> HabitsPersona {
            HabitsPersona(
                id: id, recordId: id, displayName: name, zone: zone, zulu: zulu, wakeMinute: wake,
                diligence: diligence, contexts: contexts, taskMean: tasks, flowMean: flows, focusMean: focus,
                moodChance: mood, firstDay: from, lastDay: to, writesStreakDay: streakDay, createdAt: created)
        }
        var jules = persona(
            .number(1042), "Jules Fontaine", .americaMontreal, wake: 450, diligence: 0.6,
            contexts: ["Travail", "Apprentissage", "Lecture"], tasks: 2, flows: 1, focus: 1, mood: 0.3,
            created: CivilDate(year: 2025, month: 12, day: 24))
        jules.recordId = .text("1042")
        return [
            persona(
                .text("camille"), "Camille Martin", .europeParis, wake: 405, diligence: 0.85,
                contexts: ["Fitness", "Méditation", "Travail"], tasks: 2.5, flows: 1.4, focus: 1.8, mood: 0.8,
                streakDay: true, created: CivilDate(year: 2026, month: 3, day: 14)),
            persona(
                .text("louis"), "Louis Bernard", .europeParis, zulu: true, wake: 495, diligence: 0.55,
                contexts: ["Travail", "Lecture"], tasks: 3, flows: 1, focus: 1.2, mood: 0.4,
                created: CivilDate(year: 2025, month: 11, day: 2)),
            persona(
                .text("emma"), "Emma Lefèvre", .americaNewYork, wake: 390, diligence: 0.75,
                contexts: ["Fitness", "Cuisine", "Lecture"], tasks: 2, flows: 1.2, focus: 1, mood: 0.6,
                created: CivilDate(year: 2026, month: 6, day: 30)),
            persona(
                .text("noah"), "Noah Dubois", .americaNewYork, wake: 570, diligence: 0.4,
                contexts: ["Travail", "Apprentissage"], tasks: 2, flows: 0.8, focus: 0.8, mood: 0.2,
                from: CivilDate(year: 2026, month: 10, day: 12), created: CivilDate(year: 2026, month: 10, day: 12)),
            persona(
                .text("lea"), "Léa Moreau", nil, wake: 450, diligence: 0.7,
                contexts: ["Cuisine", "Méditation", "Lecture"], tasks: 1.5, flows: 1.2, focus: 0.6, mood: 0.7,
                created: CivilDate(year: 2026, month: 1, day: 5)),
            persona(
                .text("hugo"), "Hugo Girard", .asiaTokyo, wake: 420, diligence: 0.6,
                contexts: ["Fitness", "Apprentissage", "Travail"], tasks: 2, flows: 1, focus: 1.5, mood: 0.5,
                to: CivilDate(year: 2026, month: 11, day: 10), created: CivilDate(year: 2026, month: 9, day: 1)),
            persona(
                .text("chloe"), "Chloé Roux", .europeParis, wake: 435, diligence: 0.95,
                contexts: ["Fitness", "Cuisine", "Méditation"], tasks: 2, flows: 1.3, focus: 1.2, mood: 0.9,
                streakDay: true, created: CivilDate(year: 2025, month: 9, day: 1)),
            jules,
        ]
    }

    /// Tasks of a user the export has no `users` record for (a reinstalled app with a new id).
    static let orphan = RecordID.text("ines")

    static func write(to folder: String, seed: UInt64, clock: ZoneClock) throws -> [RecordFile] {
        let files = HabitsFiles(
            users: try RecordFile(path: folder + "/users.json", layout: .array),
            flows: try RecordFile(path: folder + "/flows.json", layout: .array),
            tasks: try RecordFile(path: folder + "/tasks.json", layout: .array),
            focusSessions: try RecordFile(path: folder + "/focus_sessions.json", layout: .array),
            logins: try RecordFile(path: folder + "/logins.jsonl", layout: .jsonLines),
            moods: try RecordFile(path: folder + "/moods.json", layout: .array))
        var personas = personas()
        for persona in personas {
            let created = clock.local(
                persona.createdAt, minute: 600 + persona.wakeMinute % 300, second: 0,
                zone: persona.clockZone, zulu: persona.zulu)
            try files.user(id: persona.id, zone: persona.zone, displayName: persona.displayName, createdAt: created)
        }
        var simulation = HabitsSimulation(
            random: SeededRandom(seed: seed).derived(1), clock: clock,
            files: files, idStyle: .uuid)
        var day = firstDay
        while day <= lastDay {
            for index in personas.indices {
                try simulation.simulate(&personas[index], day: day, isLastDay: day == lastDay)
            }
            if day.dayNumber % 5 == 0 { try orphanTask(&simulation, day) }
            day = day.adding(days: 1)
        }
        try edgeRecords(&simulation, personas)
        for file in files.all { try file.finish() }
        return files.all
    }

    private static func orphanTask(_ simulation: inout HabitsSimulation, _ day: CivilDate) throws {
        let orphanPersona = HabitsPersona(
            id: orphan, recordId: orphan, displayName: nil, zone: nil, zulu: true, wakeMinute: 480, diligence: 0.5,
            contexts: [], taskMean: 1, flowMean: 0, focusMean: 0, moodChance: 0, firstDay: firstDay, lastDay: lastDay,
            writesStreakDay: false, createdAt: firstDay)
        let done = simulation.random.chance(0.6)
        try simulation.files.task(
            TaskRecord(
                id: Identifiers.uuid(&simulation.random), userId: orphan, date: day,
                label: simulation.random.pick(HabitsVocabulary.tasks[""] ?? ["Tâche"]),
                state: done ? "terminee" : "a_faire",
                contexts: nil, createdAt: simulation.at(orphanPersona, day, minute: 470),
                completedAt: done ? simulation.at(orphanPersona, day, minute: 1100) : nil))
    }

    /// Records placed on the edges of SPEC §3's rules, so that the reports show them.
    private static func edgeRecords(_ simulation: inout HabitsSimulation, _ personas: [HabitsPersona]) throws {
        guard let louis = personas.first(where: { $0.id == .text("louis") }),
            let camille = personas.first(where: { $0.id == .text("camille") }),
            let emma = personas.first(where: { $0.id == .text("emma") }),
            let lea = personas.first(where: { $0.id == .text("lea") })
        else { return }
        let files = simulation.files
        // 09:59:59 is a morning login, 10:00:00 is not.
        try files.login(
            userId: louis.recordId,
            at: simulation.at(louis, CivilDate(year: 2026, month: 11, day: 3), minute: 599, second: 59))
        try files.login(
            userId: louis.recordId,
            at: simulation.at(louis, CivilDate(year: 2026, month: 11, day: 4), minute: 600, second: 0))
        // Logins inside the repeated hour of each DST change (first occurrence).
        try files.login(
            userId: camille.recordId,
            at: simulation.at(camille, CivilDate(year: 2026, month: 10, day: 25), minute: 160, second: 0))
        try files.login(
            userId: emma.recordId,
            at: simulation.at(emma, CivilDate(year: 2026, month: 11, day: 1), minute: 90, second: 0))
        // Exactly 900 s of focus, twice: a 15-minute session done, a pomodoro stopped after 15 minutes.
        let quarterStart = simulation.at(lea, CivilDate(year: 2026, month: 11, day: 5), minute: 840, second: 0)
        try files.focusSession(
            id: Identifiers.uuid(&simulation.random), userId: lea.recordId, startedAt: quarterStart,
            totalSeconds: 900, remainingSeconds: 0,
            endedAt: quarterStart.adding(seconds: 900, clock: simulation.clock, zone: lea.clockZone))
        let stoppedStart = simulation.at(camille, CivilDate(year: 2026, month: 11, day: 6), minute: 570, second: 0)
        try files.focusSession(
            id: Identifiers.uuid(&simulation.random), userId: camille.recordId, startedAt: stoppedStart,
            totalSeconds: 1500, remainingSeconds: 600,
            endedAt: stoppedStart.adding(seconds: 900, clock: simulation.clock, zone: camille.clockZone))
        // `terminé` written with a combining accent (NFD), as some keyboards produce it.
        let day = CivilDate(year: 2026, month: 11, day: 7)
        try files.flow(
            FlowRecord(
                id: Identifiers.uuid(&simulation.random), userId: lea.recordId, date: day,
                action: "Journal de gratitude",
                goal: "Voir le positif", state: "termine\u{301}", energy: 1, estimatedMinutes: 10, spentTenths: 125,
                contexts: ["Méditation"], streakDay: nil,
                steps: [
                    FlowStep(id: "e1", label: "Trois gratitudes", done: true),
                    FlowStep(id: "e2", label: "Une intention pour demain", done: true),
                ],
                createdAt: simulation.at(lea, day, minute: 1260), completedAt: simulation.at(lea, day, minute: 1275)))
    }
}
