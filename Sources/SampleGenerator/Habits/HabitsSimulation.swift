/// How record ids look: iOS UUIDs in the sample, numbered ids (`task-000123456`) in big sets.
enum HabitsIdStyle {
    case uuid
    case sequential
}

/// Simulates one user's day in the habits app and writes the records it leaves behind.
///
/// The same simulation feeds the small sample and the benchmark sets, so both look alike:
/// logins around the user's wake-up time, tasks planned the evening before and ticked off during
/// the day (sometimes after midnight), flows with steps, 25-minute pomodoros, a mood.
struct HabitsSimulation {
    var random: SeededRandom
    let clock: ZoneClock
    let files: HabitsFiles
    let idStyle: HabitsIdStyle
    private var taskNumber = 0
    private var flowNumber = 0
    private var focusNumber = 0

    init(random: SeededRandom, clock: ZoneClock, files: HabitsFiles, idStyle: HabitsIdStyle) {
        self.random = random
        self.clock = clock
        self.files = files
        self.idStyle = idStyle
    }

    private enum Numbered { case task, flow, focus }

    private mutating func nextId(_ kind: Numbered) -> String {
        let number: Int
        let prefix: String
        switch kind {
        case .task: taskNumber += 1; number = taskNumber; prefix = "task-"
        case .flow: flowNumber += 1; number = flowNumber; prefix = "flow-"
        case .focus: focusNumber += 1; number = focusNumber; prefix = "focus-"
        }
        switch idStyle {
        case .uuid: return Identifiers.uuid(&random)
        case .sequential: return Identifiers.sequential(prefix, number, width: 9)
        }
    }

    /// A local wall-clock time of the persona, written as their app writes it.
    mutating func at(_ persona: HabitsPersona, _ day: CivilDate, minute: Int, second: Int? = nil) -> ZonedInstant {
        let seconds = second ?? random.below(60)
        let milliseconds = persona.zulu && random.chance(0.2) ? random.below(1000) : nil
        return clock.local(
            day, minute: minute, second: seconds, zone: persona.clockZone,
            milliseconds: milliseconds, zulu: persona.zulu)
    }

    /// Writes the records of one day; `isLastDay` is the export day (work still in progress).
    mutating func simulate(_ persona: inout HabitsPersona, day: CivilDate, isLastDay: Bool) throws {
        guard day >= persona.firstDay, day <= persona.lastDay else { return }
        let active = random.chance(persona.diligence * (day.isWeekend ? 0.85 : 1))
        let wake = persona.wakeMinute + (day.isWeekend ? 60 : 0)
        if active || random.chance(0.45) { try logins(persona, day, wake: wake) }
        let taskCount = active ? max(1, random.poisson(mean: persona.taskMean)) : (random.chance(0.3) ? 1 : 0)
        for _ in 0..<min(taskCount, 7) { try task(persona, day, wake: wake, active: active, isLastDay: isLastDay) }
        let flowCount = active ? min(3, max(1, random.poisson(mean: persona.flowMean))) : 0
        var completedFlow = false
        for _ in 0..<flowCount {
            completedFlow = try flow(persona, day, wake: wake, isLastDay: isLastDay) || completedFlow
        }
        persona.streak = active || completedFlow ? persona.streak + 1 : 0
        if active { try focusSessions(persona, day, wake: wake) }
        if random.chance(persona.moodChance) {
            let mood = max(1, min(5, (active ? 4 : 3) + random.int(-2...1)))
            let note = random.chance(0.35) ? HabitsVocabulary.moodNotes[mood].map { random.pick($0) } : nil
            try files.mood(userId: persona.recordId, date: day, mood: mood, note: note)
        }
    }

    private mutating func logins(_ persona: HabitsPersona, _ day: CivilDate, wake: Int) throws {
        try files.login(userId: persona.recordId, at: at(persona, day, minute: wake + random.around(10, spread: 45)))
        if random.chance(0.35) {
            try files.login(userId: persona.recordId, at: at(persona, day, minute: random.int(720...839)))
        }
        if random.chance(0.3) {
            try files.login(userId: persona.recordId, at: at(persona, day, minute: random.int(1140...1379)))
        }
    }

    private mutating func task(
        _ persona: HabitsPersona, _ day: CivilDate, wake: Int, active: Bool,
        isLastDay: Bool
    ) throws {
        let context = random.chance(0.6) ? random.pick(persona.contexts) : ""
        let labels = HabitsVocabulary.tasks[context] ?? HabitsVocabulary.tasks[""] ?? ["Tâche"]
        let plannedEvening = random.chance(0.3)
        let createdMinute = plannedEvening ? random.int(1080...1379) : wake + random.int(0...60)
        let createdAt = at(persona, plannedEvening ? day.adding(days: -1) : day, minute: createdMinute)
        var doneChance = active ? 0.55 + 0.4 * persona.diligence : 0.2
        if isLastDay { doneChance *= 0.5 }
        var state = "terminee"
        var completedAt: ZonedInstant?
        if random.chance(doneChance) {
            let roll = random.unit()
            if roll < 0.85 || isLastDay {
                let earliest = max(wake + 60, plannedEvening ? 0 : createdMinute + 10)
                completedAt = at(persona, day, minute: random.int(min(earliest, 1349)...1350))
            } else if roll < 0.95 {
                let nextMorning = random.chance(0.5) ? random.int(5...90) : random.int(420...540)
                completedAt = at(persona, day.adding(days: 1), minute: nextMorning)
            }
        } else {
            state = random.chance(0.35) ? "en_cours" : "a_faire"
        }
        let id = nextId(.task)
        try files.task(
            TaskRecord(
                id: id, userId: persona.recordId, date: day, label: random.pick(labels), state: state,
                contexts: context.isEmpty ? nil : [context],
                createdAt: random.chance(0.95) ? createdAt : nil, completedAt: completedAt))
    }

    /// Writes one flow; returns whether it was completed.
    private mutating func flow(_ persona: HabitsPersona, _ day: CivilDate, wake: Int, isLastDay: Bool) throws -> Bool {
        let fitting = HabitsVocabulary.flows.filter { template in
            template.contexts.contains { persona.contexts.contains($0) }
        }
        let template = random.pick(fitting.isEmpty ? HabitsVocabulary.flows : fitting)
        let done = random.chance((0.5 + 0.45 * persona.diligence) * (isLastDay ? 0.6 : 1))
        let started = !done && random.chance(0.6)
        let state =
            done
            ? (random.chance(0.04) ? "terminé" : "termine")
            : started ? "en_cours" : (random.chance(0.05) ? "créé" : "cree")
        let withIds = random.chance(0.7)
        var doneSteps = done ? template.steps.count : started ? random.int(0...template.steps.count) : 0
        if done, doneSteps > 1, random.chance(0.05) { doneSteps -= 1 }
        let steps = template.steps.enumerated().map { index, label in
            FlowStep(id: withIds ? "e\(index + 1)" : nil, label: label, done: index < doneSteps)
        }
        let estimate = template.estimatedMinutes
        var spent: Int?
        if done || (started && random.chance(0.4)) {
            let factor = done ? 0.6 + random.unit() * 0.9 : 0.1 + random.unit() * 0.5
            spent = Int((Double(estimate * 10) * factor).rounded())
        }
        let createdMinute = wake + random.int(0...45)
        var completedAt: ZonedInstant?
        if done, random.chance(0.96) {
            if !isLastDay, random.chance(0.08) {
                completedAt = at(persona, day.adding(days: 1), minute: random.int(3...75))
            } else {
                completedAt = at(persona, day, minute: random.int(min(createdMinute + estimate, 1380)...1390))
            }
        }
        let contexts: [String]? = random.chance(0.05) ? (random.chance(0.5) ? nil : []) : template.contexts
        let id = nextId(.flow)
        let record = FlowRecord(
            id: id, userId: persona.recordId, date: day, action: template.action,
            goal: random.chance(0.8) ? template.goal : nil, state: state,
            energy: random.chance(0.85) ? max(1, min(5, template.energy + random.int(-1...1))) : nil,
            estimatedMinutes: random.chance(0.9) ? estimate : nil, spentTenths: spent, contexts: contexts,
            streakDay: persona.writesStreakDay && done ? persona.streak + 1 : nil,
            steps: template.steps.isEmpty && random.chance(0.5) ? nil : steps,
            createdAt: at(persona, day, minute: createdMinute), completedAt: completedAt)
        try files.flow(record)
        return done
    }

    private mutating func focusSessions(_ persona: HabitsPersona, _ day: CivilDate, wake: Int) throws {
        var minute = wake + random.int(30...120)
        for _ in 0..<min(4, random.poisson(mean: persona.focusMean)) {
            guard minute < 1290 else { return }
            let total = [1500, 900, 3000][random.weightedIndex([70, 15, 15])]
            let remaining = random.chance(0.25) ? random.int(60...(total - 60)) : 0
            let startedAt = at(persona, day, minute: minute)
            let pause = random.chance(0.3) ? random.int(5...180) : 0
            let endedAt =
                random.chance(0.9)
                ? startedAt.adding(seconds: Int64(total - remaining + pause), clock: clock, zone: persona.clockZone)
                : nil
            let id = nextId(.focus)
            try files.focusSession(
                id: id, userId: persona.recordId, startedAt: startedAt,
                totalSeconds: total, remainingSeconds: remaining, endedAt: endedAt)
            minute += (total - remaining) / 60 + random.int(15...150)
        }
    }
}
