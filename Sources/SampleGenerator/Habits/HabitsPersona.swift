/// A user of the habits app and how they behave: the knobs of the simulation.
struct HabitsPersona {
    var id: RecordID
    /// How their other records spell the id (an old app version wrote `1042` as `"1042"`).
    var recordId: RecordID
    var displayName: String?
    /// The zone written in the `users` record; nil writes no timezone field (the user lives in Paris).
    var zone: Zone?
    /// Whether the app wrote their timestamps in UTC (`…Z`) rather than with the local offset.
    var zulu: Bool
    /// Usual first login, minutes after local midnight.
    var wakeMinute: Int
    /// Probability of an active day.
    var diligence: Double
    var contexts: [String]
    var taskMean: Double
    var flowMean: Double
    var focusMean: Double
    var moodChance: Double
    var firstDay: CivilDate
    var lastDay: CivilDate
    /// Flows written with a `streakDay` (only some app versions did).
    var writesStreakDay: Bool
    var createdAt: CivilDate
    /// Consecutive active days so far (for `streakDay`).
    var streak = 0

    var clockZone: Zone { zone ?? .europeParis }

    /// A random user for the benchmark data set.
    static func random(
        number: Int, firstDay: CivilDate, lastDay: CivilDate,
        random: inout SeededRandom
    ) -> HabitsPersona {
        let zones: [Zone?] = [
            .europeParis, .americaNewYork, .europeLondon, .europeBerlin, .americaMontreal,
            .americaLosAngeles, .asiaTokyo, nil,
        ]
        let zone = zones[random.weightedIndex([55, 12, 8, 5, 5, 5, 5, 5])]
        let span = firstDay.days(to: lastDay)
        let joins = random.chance(0.3) ? firstDay.adding(days: random.int(0...max(0, span - 1))) : firstDay
        let leaves = random.chance(0.15) ? joins.adding(days: random.int(0...max(0, joins.days(to: lastDay)))) : lastDay
        let id = RecordID.text(Identifiers.sequential("user-", number, width: 6))
        let name =
            random.chance(0.7)
            ? "\(random.pick(HabitsVocabulary.firstNames)) \(random.pick(HabitsVocabulary.lastNames).prefix(1))."
            : nil
        return HabitsPersona(
            id: id, recordId: id, displayName: name, zone: zone, zulu: random.chance(0.3),
            wakeMinute: random.int(360...585), diligence: 0.1 + random.unit() * 0.6,
            contexts: random.sample(HabitsVocabulary.contexts, count: random.int(2...3)),
            taskMean: 1 + random.unit() * 2, flowMean: 0.5 + random.unit() * 0.8, focusMean: 0.3 + random.unit() * 1.7,
            moodChance: 0.1 + random.unit() * 0.7, firstDay: joins, lastDay: leaves,
            writesStreakDay: random.chance(0.4), createdAt: joins.adding(days: -random.int(0...400)))
    }
}
