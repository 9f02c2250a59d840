/// Benchmark-sized bookings data: a year of a busy service, and one-kind files of N records.
enum BookingsScale {
    static let firstDay = CivilDate(year: 2025, month: 12, day: 1)
    static let dayCount = 365
    static let kinds = ["services", "slots", "customers", "bookings"]
    /// Hourly slots from 09:00 to 21:00.
    static let slotStarts = Array(stride(from: 540, to: 1260, by: 60))
    /// Relative demand by weekday, Monday first: Saturdays busy, Sundays nearly closed.
    static let weekdayWeights: [Double] = [0.8, 1, 1, 1.1, 1.2, 1.5, 0.2]

    /// 500,000 bookings over a year at scale 1, with ~150,000 customers, hourly slots and 24 services.
    static func write(to folder: String, seed: UInt64, scale: Double, clock: ZoneClock) throws -> [RecordFile] {
        let exportedAt = exportTime(clock)
        let files = BookingsFiles(
            services: try RecordFile(path: folder + "/services.json", layout: .array),
            slots: try RecordFile(path: folder + "/slots.json", layout: .array),
            customers: try RecordFile(path: folder + "/customers.json", layout: .array),
            bookings: try RecordFile(
                path: folder + "/bookings.json",
                layout: .wrapped(member: "bookings", exportedAt: exportedAt)))
        let bookingCount = max(1, Int((500_000 * scale).rounded()))
        try run(
            files, bookings: bookingCount, customers: max(1, Int((150_000 * scale).rounded())), seed: seed, clock: clock
        )
        for file in files.all { try file.finish() }
        return files.all
    }

    /// Exactly `count` records of one bookings kind.
    static func generate(kind: String, count: Int, path: String, seed: UInt64, clock: ZoneClock) throws -> RecordFile {
        let layout: Layout =
            kind == "bookings" && !path.hasSuffix(".jsonl") && !path.hasSuffix(".ndjson")
            ? .wrapped(member: "bookings", exportedAt: exportTime(clock)) : Layout.forPath(path)
        let file = try RecordFile(path: path, layout: layout)
        file.limit = count
        var files = BookingsFiles()
        switch kind {
        case "services":
            files.services = file
            let catalogue = BookingsVocabulary.services + BookingsVocabulary.moreServices
            for index in 0..<count {
                let entry = catalogue[index % catalogue.count]
                let round = index / catalogue.count
                try files.service(
                    ServiceEntry(
                        id: index + 1, name: round == 0 ? entry.name : "\(entry.name) (formule \(round + 1))",
                        category: entry.category, priceCents: entry.priceCents + round * 100,
                        oldPriceCents: entry.oldPriceCents,
                        durationMinutes: entry.durationMinutes))
            }
        case "slots":
            files.slots = file
            try run(files, bookings: count / 2, customers: 1, seed: seed, clock: clock, endless: true)
        case "customers":
            files.customers = file
            try run(files, bookings: 0, customers: count, seed: seed, clock: clock)
        default:
            files.bookings = file
            try run(files, bookings: count, customers: max(1, count / 3), seed: seed, clock: clock)
        }
        try file.finish()
        return file
    }

    private static func exportTime(_ clock: ZoneClock) -> ZonedInstant {
        clock.local(
            CivilDate(year: 2026, month: 11, day: 15), minute: 1200, second: 0, zone: .europeParis, milliseconds: 0)
    }

    /// Streams the data set day by day: services, customers, then each day's slots and bookings.
    /// `endless` keeps adding days (for a slots file of N records).
    private static func run(
        _ files: BookingsFiles, bookings: Int, customers: Int, seed: UInt64, clock: ZoneClock,
        endless: Bool = false
    ) throws {
        let catalogue = BookingsVocabulary.services + BookingsVocabulary.moreServices
        var simulation = BookingsSimulation(
            random: SeededRandom(seed: seed).derived(21), clock: clock, files: files, catalogue: catalogue,
            exportSeconds: exportTime(clock).utcSeconds, customerCount: customers, nextBookingId: 1)
        for service in catalogue { try files.service(service) }
        if files.customers != nil {
            for id in 1...max(1, customers) {
                try files.customer(
                    simulation.customer(
                        id: id, createdBetween: firstDay.adding(days: -900),
                        and: firstDay.adding(days: dayCount - 1)))
            }
        }
        guard files.slots != nil || files.bookings != nil else { return }
        let totalWeight = (0..<dayCount).reduce(0.0) { $0 + weekdayWeights[firstDay.adding(days: $1).weekday] }
        var cumulative = 0.0
        var written = 0
        var slotId = 1
        var dayIndex = 0
        while dayIndex < dayCount || (endless && !(files.slots?.isFull ?? true)) {
            let day = firstDay.adding(days: dayIndex)
            cumulative += weekdayWeights[day.weekday] / totalWeight
            let target = dayIndex < dayCount ? Int((cumulative * Double(bookings)).rounded()) : written
            let todays = max(0, target - written)
            written += todays
            // Stylists are rostered to the expected load, evenings a little fuller.
            let perSlot = Double(max(todays, endless ? 12 : 0)) / Double(slotStarts.count) / 0.9
            var slots: [SlotEntry] = []
            for start in slotStarts {
                let jitter = 0.75 + simulation.random.unit() * 0.5
                let capacity = day.weekday == 6 && simulation.random.chance(0.5) ? 0 : Int((perSlot * jitter).rounded())
                let slot = SlotEntry(
                    id: slotId, startsAt: clock.local(day, minute: start, zone: .europeParis),
                    endsAt: clock.local(day, minute: start + 60, zone: .europeParis), capacity: capacity)
                slotId += 1
                try files.slot(slot)
                slots.append(slot)
            }
            if files.bookings != nil {
                let weights = slots.map { Double($0.capacity) + 0.05 }
                for _ in 0..<todays {
                    let slot = slots[simulation.random.weightedIndex(weights)]
                    let unknown = simulation.random.chance(0.001)
                    let customer = unknown ? customers + 1 + simulation.random.below(1000) : simulation.customerId()
                    try files.booking(simulation.booking(in: slot, customerId: customer))
                }
            }
            dayIndex += 1
        }
    }
}
