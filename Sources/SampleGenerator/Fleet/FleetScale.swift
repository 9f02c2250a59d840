/// Benchmark-sized fleet data: one 30-day show with a big fleet, and one-kind files of N records.
enum FleetScale {
    static let kinds = ["events", "groups", "drivers", "assignments", "loan_records"]
    static let event = EventData(
        id: "salon-bench", name: "Mondial de l'Automobile (banc d'essai, 30 jours)",
        startsOn: CivilDate(year: 2016, month: 10, day: 1), endsOn: CivilDate(year: 2016, month: 10, day: 30),
        zone: .europeParis, opensAt: 600, closesAt: 1200)
    static let groupWeights: [Double] = [25, 10, 35, 10, 5, 5, 5, 5]

    /// How many of what to write.
    struct Plan {
        var assignments: Int
        var cars: Int
        var drivers: Int
        /// Returned loans whose check-in goes to `loan_records` instead of being embedded.
        var separateShare = 0.05
        /// For a `loan_records` file: write every record there, check-outs included.
        var recordsOnly = false
    }

    /// 300,000 assignments of 2,000 cars over 30 days at scale 1.
    static func write(to folder: String, seed: UInt64, scale: Double, clock: ZoneClock) throws -> [RecordFile] {
        let files = FleetFiles(
            events: try RecordFile(path: folder + "/events.json", layout: .array),
            groups: try RecordFile(path: folder + "/groups.json", layout: .array),
            drivers: try RecordFile(path: folder + "/drivers.json", layout: .array),
            assignments: try RecordFile(
                path: folder + "/assignments.json",
                layout: .wrapped(member: "assignments", exportedAt: exportTime(clock))),
            loanRecords: try RecordFile(path: folder + "/loan_records.jsonl", layout: .jsonLines))
        try files.event(event)
        for (index, group) in FleetVocabulary.groups.enumerated() {
            try files.group(id: index + 1, eventId: event.id, name: group.name)
        }
        let plan = Plan(
            assignments: max(1, Int((300_000 * scale).rounded())), cars: max(1, Int((2_000 * scale).rounded())),
            drivers: max(1, Int((20_000 * scale).rounded())))
        var random = SeededRandom(seed: seed).derived(31)
        try writeDrivers(plan.drivers, files, &random)
        try run(plan, files, random: random.derived(32), clock: clock)
        for file in files.all { try file.finish() }
        return files.all
    }

    /// Exactly `count` records of one fleet kind.
    static func generate(kind: String, count: Int, path: String, seed: UInt64, clock: ZoneClock) throws -> RecordFile {
        let layout: Layout =
            kind == "assignments" && !path.hasSuffix(".jsonl") && !path.hasSuffix(".ndjson")
            ? .wrapped(member: "assignments", exportedAt: exportTime(clock)) : Layout.forPath(path)
        let file = try RecordFile(path: path, layout: layout)
        file.limit = count
        var files = FleetFiles()
        var random = SeededRandom(seed: seed).derived(33)
        switch kind {
        case "events":
            files.events = file
            for index in 0..<count {
                let start = CivilDate(year: 2016, month: 1, day: 1).adding(days: index * 7)
                try files.event(
                    EventData(
                        id: Identifiers.sequential("salon-", index + 1, width: 6),
                        name: "Salon de l'Automobile n° \(index + 1)",
                        startsOn: start, endsOn: start.adding(days: random.int(2...15)),
                        zone: random.chance(0.9) ? .europeParis : nil,
                        opensAt: random.pick([540, 600]), closesAt: random.pick([1140, 1200, 1260])))
            }
        case "groups":
            files.groups = file
            for index in 0..<count {
                let name = FleetVocabulary.groups[index % FleetVocabulary.groups.count].name
                try files.group(
                    id: index + 1, eventId: event.id,
                    name: index < FleetVocabulary.groups.count
                        ? name : "\(name) \(index / FleetVocabulary.groups.count + 1)")
            }
        case "drivers":
            files.drivers = file
            try writeDrivers(count, files, &random)
        case "assignments":
            files.assignments = file
            try run(
                Plan(assignments: count, cars: max(1, count / 150), drivers: max(1, count / 15)), files,
                random: random, clock: clock)
        default:
            files.loanRecords = file
            let assignments = count / 2 + 1
            try run(
                Plan(
                    assignments: assignments, cars: max(1, assignments / 150), drivers: max(1, assignments / 15),
                    separateShare: 1, recordsOnly: true), files, random: random, clock: clock)
        }
        try file.finish()
        return file
    }

    private static func exportTime(_ clock: ZoneClock) -> ZonedInstant {
        clock.instant(
            utcSeconds: clock.utcSeconds(of: event.endsOn.adding(days: 1), minute: 540, zone: .europeParis),
            zone: .europeParis)
    }

    private static func writeDrivers(_ count: Int, _ files: FleetFiles, _ random: inout SeededRandom) throws {
        for id in 1...max(1, count) where id <= count {
            let group = FleetVocabulary.groups[random.weightedIndex(groupWeights)]
            try files.driver(
                id: id, name: random.pick(FleetVocabulary.firstNames) + " " + random.pick(FleetVocabulary.lastNames),
                company: random.pick(group.companies))
        }
    }

    /// Streams the assignments day by day and car by car: each car-day's loans share the opening
    /// hours evenly, with the anomalies of a real show at small rates.
    private static func run(_ plan: Plan, _ files: FleetFiles, random: SeededRandom, clock: ZoneClock) throws {
        var simulation = FleetSimulation(random: random, clock: clock, event: event, nextRecordId: 1)
        var cars: [FleetCar] = (0..<plan.cars).map { _ in
            let model = simulation.random.pick(FleetVocabulary.cars)
            return FleetCar(
                plate: FleetVocabulary.plate(&simulation.random), brand: model.brand, model: model.model,
                groupId: 1 + simulation.random.weightedIndex(groupWeights),
                mileage: simulation.random.int(500...20_000), oilLevel: 4, exteriorCleanliness: 4,
                impacts: (0..<simulation.random.int(0...3)).map { _ in simulation.newImpact() })
        }
        let days = event.startsOn.days(to: event.endsOn) + 1
        var nextId = 1
        for dayIndex in 0..<days {
            let day = event.startsOn.adding(days: dayIndex)
            let open = clock.utcSeconds(of: day, minute: event.opensAt, zone: .europeParis)
            let close = clock.utcSeconds(of: day, minute: event.closesAt, zone: .europeParis)
            let quota = plan.assignments / days + (dayIndex < plan.assignments % days ? 1 : 0)
            for carIndex in cars.indices {
                let extra = (carIndex + dayIndex) % plan.cars < quota % plan.cars ? 1 : 0
                let count = quota / plan.cars + extra
                guard count > 0 else { continue }
                let slot = (close - open) / Int64(count)
                var loans: [AssignmentData] = []
                for loanIndex in 0..<count {
                    let slotStart = open + Int64(loanIndex) * slot
                    let plannedOut = slotStart + Int64(simulation.random.below(Int(slot / 5 / 300) + 1)) * 300
                    let plannedIn = plannedOut + max(900, slot * 3 / 5 / 300 * 300)
                    let isLast = dayIndex == days - 1 && loanIndex == count - 1
                    let roll = simulation.random.unit()
                    let outcome: AssignmentOutcome =
                        isLast && roll < 0.01
                        ? .stillOut
                        : roll < 0.01 ? .cancelled : roll < 0.02 ? .noShow : .returned
                    let driver =
                        simulation.random.chance(0.001)
                        ? plan.drivers + 1 + simulation.random.below(100)
                        : 1 + simulation.random.below(plan.drivers)
                    var loan = simulation.assignment(
                        &cars[carIndex], id: nextId, driverId: driver, plannedOut: plannedOut,
                        plannedIn: plannedIn, outcome: outcome)
                    nextId += 1
                    applyAnomalies(&loan, &simulation)
                    loans.append(loan)
                }
                // Now and then the next loan leaves before the previous one is checked in.
                if loans.count >= 2, simulation.random.chance(0.0005),
                    let nextOut = loans[1].checkOut?.recordedAt.utcSeconds,
                    let nextIn = loans[1].checkIn?.recordedAt.utcSeconds, loans[0].checkIn != nil,
                    nextOut + 600 < nextIn
                {
                    loans[0].checkIn?.recordedAt = simulation.stamp(nextOut + 600)
                }
                for var loan in loans { try emit(&loan, plan, files, &simulation) }
            }
        }
    }

    private static func applyAnomalies(_ loan: inout AssignmentData, _ simulation: inout FleetSimulation) {
        guard let out = loan.checkOut, loan.checkIn != nil else { return }
        let roll = simulation.random.unit()
        if roll < 0.0005, let mileage = out.mileageKilometres {
            loan.checkIn?.mileageKilometres = max(0, mileage - simulation.random.int(1...90))
        } else if roll < 0.0055 {
            loan.checkIn?.signature = nil
        } else if roll < 0.0065, var signature = out.signature, !signature.isEmpty, !signature[0].isEmpty {
            signature[0][0].xTenths = 4000 + simulation.random.int(1...200)
            loan.checkOut?.signature = signature
        }
    }

    private static func emit(
        _ loan: inout AssignmentData, _ plan: Plan, _ files: FleetFiles,
        _ simulation: inout FleetSimulation
    ) throws {
        if plan.recordsOnly {
            if let out = loan.checkOut { try files.loanRecord(out, assignmentId: loan.id, kind: "check_out") }
            if let checkIn = loan.checkIn { try files.loanRecord(checkIn, assignmentId: loan.id, kind: "check_in") }
            return
        }
        if var checkIn = loan.checkIn, simulation.random.chance(plan.separateShare) {
            checkIn.recordedAt = ZonedInstant(
                utcSeconds: checkIn.recordedAt.utcSeconds, offsetSeconds: 0,
                milliseconds: simulation.random.below(1000), zulu: true)
            loan.checkIn = nil
            try files.loanRecord(checkIn, assignmentId: loan.id, kind: "check_in")
        }
        try files.assignment(loan)
    }
}
