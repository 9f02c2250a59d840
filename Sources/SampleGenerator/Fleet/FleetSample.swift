/// The small, realistic fleet export of SampleData: the 2016 Paris motor show and a short 2017 one.
///
/// About thirty premium cars lent to the press, VIPs, customers, partners and staff over sixteen
/// days, with check-out and check-in records embedded in the assignments, some check-ins sent
/// apart by the iPad (`loan_records.jsonl`), and the edge cases the fleet report must show:
/// late returns, no-shows, cancellations, a car still out, a loan across midnight, an overlapping
/// pair, negative kilometres, a missing signature, a signature point out of the box, an unknown
/// driver, a plate written another way and a loan record of an unknown assignment.
enum FleetSample {
    static let mondial = EventData(
        id: "salon2016", name: "Mondial de l'Automobile 2016",
        startsOn: CivilDate(year: 2016, month: 10, day: 1), endsOn: CivilDate(year: 2016, month: 10, day: 16),
        zone: .europeParis, opensAt: 600, closesAt: 1200)
    static let lyon = EventData(
        id: "salon2017", name: "Salon de l'Automobile de Lyon 2017",
        startsOn: CivilDate(year: 2017, month: 10, day: 6), endsOn: CivilDate(year: 2017, month: 10, day: 8),
        zone: .europeParis, opensAt: 540, closesAt: 1140)

    /// A driver of the sample: id, name, company and the index of their group.
    struct Driver {
        let id: Int
        let name: String
        let company: String?
        let groupIndex: Int
    }

    /// An assignment with where it came from, for the edge-case edits.
    struct Planned {
        var carIndex: Int
        var dayIndex: Int
        var data: AssignmentData
    }

    static func write(to folder: String, seed: UInt64, clock: ZoneClock) throws -> [RecordFile] {
        var random = SeededRandom(seed: seed).derived(3)
        let exportedAt = clock.instant(
            utcSeconds: clock.utcSeconds(
                of: CivilDate(year: 2017, month: 10, day: 9), minute: 540,
                zone: .europeParis), zone: .europeParis)
        let files = FleetFiles(
            events: try RecordFile(path: folder + "/events.json", layout: .array),
            groups: try RecordFile(path: folder + "/groups.json", layout: .array),
            drivers: try RecordFile(path: folder + "/drivers.json", layout: .array),
            assignments: try RecordFile(
                path: folder + "/assignments.json",
                layout: .wrapped(member: "assignments", exportedAt: exportedAt)),
            loanRecords: try RecordFile(path: folder + "/loan_records.jsonl", layout: .jsonLines))
        try files.event(mondial)
        try files.event(lyon)
        for index in 0..<5 {
            try files.group(id: index + 1, eventId: mondial.id, name: FleetVocabulary.groups[index].name)
        }
        try files.group(id: 6, eventId: lyon.id, name: "Presse")
        try files.group(id: 7, eventId: lyon.id, name: "Clients")

        var drivers: [Driver] = []
        for id in 101...140 {
            let groupIndex = random.weightedIndex([30, 15, 35, 12, 8])
            let company = random.pick(FleetVocabulary.groups[groupIndex].companies)
            let name = random.pick(FleetVocabulary.firstNames) + " " + random.pick(FleetVocabulary.lastNames)
            drivers.append(Driver(id: id, name: name, company: company, groupIndex: groupIndex))
            try files.driver(id: id, name: name, company: company)
        }

        var planned = FleetSchedule.plan(
            event: mondial, cars: 30, groupIds: [1, 2, 3, 4, 5], drivers: drivers,
            random: &random, clock: clock, special: true)
        planned += FleetSchedule.plan(
            event: lyon, cars: 6, groupIds: [6, 7], drivers: drivers,
            random: &random, clock: clock, special: false)
        var assignments = planned.map(\.data)
        for index in assignments.indices { assignments[index].id = 1001 + index }
        var separate = FleetSchedule.renumberRecords(&assignments, firstId: 50_001)
        // The iPad sent some check-ins on their own; the back office export does not embed them.
        var moved: [(LoanRecordData, Int)] = []
        for index in stride(from: 7, to: assignments.count, by: 19) {
            guard var checkIn = assignments[index].checkIn, assignments[index].eventId == mondial.id else { continue }
            checkIn.recordedAt = ZonedInstant(
                utcSeconds: checkIn.recordedAt.utcSeconds, offsetSeconds: 0,
                milliseconds: random.below(1000), zulu: true)
            assignments[index].checkIn = nil
            moved.append((checkIn, assignments[index].id))
        }
        for assignment in assignments { try files.assignment(assignment) }
        // A correction of an embedded check-in (same id: replaces it) and a record whose assignment is unknown.
        if let corrected = assignments.first(where: { $0.checkIn != nil && $0.id > 1100 }),
            var record = corrected.checkIn
        {
            record.comment = "Corrigé : rayure déjà présente au départ"
            moved.append((record, corrected.id))
        }
        if let template = moved.first?.0 {
            var orphan = template
            orphan.id = separate
            orphan.recordedAt = ZonedInstant(
                utcSeconds: template.recordedAt.utcSeconds + 2 * 86_400 + 3_127, offsetSeconds: 0,
                milliseconds: 412, zulu: true)
            orphan.mileageKilometres = template.mileageKilometres.map { $0 + 1_250 }
            orphan.comment = "Saisie sur une affectation supprimée"
            separate += 1
            moved.append((orphan, 99_999))
        }
        moved.sort { ($0.0.recordedAt.utcSeconds, $0.0.id) < ($1.0.recordedAt.utcSeconds, $1.0.id) }
        for (record, assignmentId) in moved {
            try files.loanRecord(record, assignmentId: assignmentId, kind: "check_in")
        }
        for file in files.all { try file.finish() }
        return files.all
    }
}
