/// The small, realistic bookings export of SampleData: October and November 2026 in Paris.
///
/// Ten services, three slots a day (morning, afternoon, evening columns; Sundays closed), sixty
/// customers and about four hundred bookings in every status, numbered in creation order as the
/// back office numbers them; a handful of records carry the data-quality cases of SPEC §4.
enum BookingsSample {
    static let firstDay = CivilDate(year: 2026, month: 10, day: 1)
    static let lastDay = CivilDate(year: 2026, month: 11, day: 30)
    static let customerCount = 60

    static func write(to folder: String, seed: UInt64, clock: ZoneClock) throws -> [RecordFile] {
        let exportedAt = clock.local(
            CivilDate(year: 2026, month: 11, day: 28), minute: 1200, second: 0,
            zone: .europeParis, milliseconds: 0)
        let files = BookingsFiles(
            services: try RecordFile(path: folder + "/services.json", layout: .array),
            slots: try RecordFile(path: folder + "/slots.json", layout: .array),
            customers: try RecordFile(path: folder + "/customers.json", layout: .array),
            bookings: try RecordFile(
                path: folder + "/bookings.json",
                layout: .wrapped(member: "bookings", exportedAt: exportedAt)))
        var simulation = BookingsSimulation(
            random: SeededRandom(seed: seed).derived(2), clock: clock, files: files,
            catalogue: BookingsVocabulary.services, exportSeconds: exportedAt.utcSeconds,
            customerCount: customerCount, nextBookingId: 0)
        for service in BookingsVocabulary.services { try files.service(service) }
        for id in 1...customerCount {
            let newcomer = id > customerCount - 6
            let customer =
                newcomer
                ? simulation.customer(
                    id: id, createdBetween: CivilDate(year: 2026, month: 11, day: 1),
                    and: CivilDate(year: 2026, month: 11, day: 20))
                : simulation.customer(
                    id: id, createdBetween: CivilDate(year: 2025, month: 3, day: 1),
                    and: CivilDate(year: 2026, month: 9, day: 30))
            try files.customer(customer)
        }
        var bookings: [BookingRecord] = []
        var slotId = 3001
        var day = firstDay
        var lastSlot: SlotEntry?
        while day <= lastDay {
            for (start, end) in [(540, 720), (810, 1050), (1080, 1260)] {
                let capacity =
                    day.weekday == 6
                    ? 0
                    : day.weekday == 0
                        ? 1
                        : simulation.random.chance(0.05) ? 0 : simulation.random.int(1...3)
                let slot = SlotEntry(
                    id: slotId, startsAt: clock.local(day, minute: start, zone: .europeParis),
                    endsAt: clock.local(day, minute: end, zone: .europeParis), capacity: capacity)
                try files.slot(slot)
                slotId += 1
                lastSlot = slot
                let count =
                    capacity == 0
                    ? (simulation.random.chance(0.1) ? 1 : 0)
                    : simulation.random.poisson(mean: Double(capacity) * 1.3)
                for _ in 0..<count {
                    bookings.append(simulation.booking(in: slot, customerId: simulation.customerId()))
                }
            }
            day = day.adding(days: 1)
        }
        if let lastSlot { bookings += edgeBookings(&simulation, around: lastSlot, exportedAt: exportedAt) }
        bookings.sort {
            ($0.createdAt.utcSeconds, $0.startsAt.utcSeconds) < ($1.createdAt.utcSeconds, $1.startsAt.utcSeconds)
        }
        for (index, var booking) in bookings.enumerated() {
            booking.id = 10_001 + index
            try files.booking(booking)
        }
        for file in files.all { try file.finish() }
        return files.all
    }

    /// Valid records that the bookings report lists as data-quality issues.
    private static func edgeBookings(
        _ simulation: inout BookingsSimulation, around slot: SlotEntry,
        exportedAt: ZonedInstant
    ) -> [BookingRecord] {
        let clock = simulation.clock
        func at(_ month: Int, _ day: Int, _ minute: Int) -> ZonedInstant {
            clock.local(
                CivilDate(year: 2026, month: month, day: day), minute: minute, zone: .europeParis, milliseconds: 0)
        }
        var edges: [BookingRecord] = []
        // Customers unknown to the export (deleted accounts), twice the same.
        for (month, day) in [(10, 9), (11, 13)] {
            var booking = simulation.booking(in: slot, customerId: 987)
            booking.startsAt = at(month, day, 600)
            booking.createdAt = simulation.stamp(booking.startsAt.utcSeconds - 5 * 86_400)
            booking.status = "done"
            booking.paidAt = simulation.stamp(booking.createdAt.utcSeconds + 300)
            booking.cancelledAt = nil
            booking.slotId = nil
            edges.append(booking)
        }
        // A "Permanente" (service 11) sold before it left the catalogue.
        edges.append(
            BookingRecord(
                id: 0, customerId: 7, slotId: nil, startsAt: at(10, 15, 840),
                createdAt: simulation.stamp(at(10, 2, 1200).utcSeconds),
                status: "done", lines: [BookingLine(serviceId: 11, priceCents: 7000, oldPriceCents: nil)],
                amountCents: 7000,
                paidAt: simulation.stamp(at(10, 15, 960).utcSeconds), cancelledAt: nil, postalCode: nil))
        // A slot id that the slots export does not know.
        edges.append(
            BookingRecord(
                id: 0, customerId: 12, slotId: 9999, startsAt: at(10, 22, 1110),
                createdAt: simulation.stamp(at(10, 20, 540).utcSeconds),
                status: "paid", lines: [BookingLine(serviceId: 5, priceCents: 2800, oldPriceCents: nil)],
                amountCents: 2800,
                paidAt: simulation.stamp(at(10, 20, 545).utcSeconds), cancelledAt: nil, postalCode: "75011"))
        // Entered by the back office after the appointment: a negative lead time.
        edges.append(
            BookingRecord(
                id: 0, customerId: 3, slotId: 3001 + 3 * 40, startsAt: at(11, 10, 570),
                createdAt: simulation.stamp(at(11, 10, 700).utcSeconds),
                status: "done",
                lines: [
                    BookingLine(serviceId: 1, priceCents: 4500, oldPriceCents: nil),
                    BookingLine(serviceId: 2, priceCents: 3000, oldPriceCents: 3500),
                ],
                amountCents: 7500, paidAt: simulation.stamp(at(11, 10, 705).utcSeconds), cancelledAt: nil,
                postalCode: nil))
        // Cancelled twenty minutes after the start (a late cancellation).
        edges.append(
            BookingRecord(
                id: 0, customerId: 21, slotId: 3001 + 3 * 47 + 2, startsAt: at(11, 17, 1110),
                createdAt: simulation.stamp(at(11, 3, 800).utcSeconds),
                status: "cancelled", lines: [BookingLine(serviceId: 9, priceCents: 5500, oldPriceCents: nil)],
                amountCents: 5500,
                paidAt: nil, cancelledAt: simulation.stamp(at(11, 17, 1130).utcSeconds), postalCode: nil))
        return edges
    }
}
