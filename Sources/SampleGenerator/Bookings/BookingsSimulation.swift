import Foundation

/// Draws customers and bookings the way the Paris home-hairdressing service sees them.
///
/// Lead times run from a few hours to weeks; statuses depend on whether the appointment is
/// before the export time (done, no-show, a few never resolved) or after it (pending, confirmed,
/// paid); some lines carry a promotion with the struck-through former price.
struct BookingsSimulation {
    var random: SeededRandom
    let clock: ZoneClock
    let files: BookingsFiles
    let catalogue: [ServiceEntry]
    /// The moment of the export, UTC seconds: bookings after it are still to come.
    let exportSeconds: Int64
    let customerCount: Int
    var nextBookingId: Int
    let zone = Zone.europeParis

    /// A customer with French contact details; about one in eight has no postal code.
    mutating func customer(id: Int, createdBetween first: CivilDate, and last: CivilDate) -> CustomerRecord {
        let firstName = random.pick(BookingsVocabulary.firstNames)
        let lastName = random.pick(BookingsVocabulary.lastNames)
        let code: String? =
            random.chance(0.12)
            ? nil
            : random.chance(0.9)
                ? random.pick(BookingsVocabulary.parisPostalCodes) : random.pick(["92100", "93100", "94300", "92200"])
        let street = code.flatMap { BookingsVocabulary.streets[$0] } ?? "avenue du Général-Leclerc"
        let day = first.adding(days: random.int(0...max(0, first.days(to: last))))
        let email =
            Self.mailbox(firstName) + "." + Self.mailbox(lastName) + (id % 3 == 0 ? "\(id % 100)" : "")
            + "@" + random.pick(["example.com", "example.org", "example.net"])
        let phone =
            "0" + String(random.pick([6, 7]))
            + (0..<4).map { _ in
                let pair = random.below(100)
                return " " + (pair < 10 ? "0" : "") + String(pair)
            }.joined()
        return CustomerRecord(
            id: id,
            createdAt: clock.local(day, minute: random.int(420...1380), zone: zone, milliseconds: random.below(1000)),
            postalCode: code, firstName: firstName, lastName: lastName, email: email, phone: phone,
            address: random.chance(0.9) ? "\(random.int(1...140)) \(street)" : nil)
    }

    /// Lower-case ASCII for an e-mail address: `Élodie` → `elodie`, `de La Rochefoucauld` → `delarochefoucauld`.
    static func mailbox(_ name: String) -> String {
        let folded = name.folding(
            options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "fr_FR"))
        return String(folded.lowercased().filter { $0.isLetter && $0.isASCII })
    }

    /// A customer id: low ids are the regulars who book again and again.
    mutating func customerId() -> Int {
        let draw = random.unit()
        return 1 + min(customerCount - 1, Int(Double(customerCount) * draw * draw))
    }

    /// The service lines of a booking, with list prices, old prices and a few promotions.
    mutating func lines() -> [BookingLine] {
        var ids: [Int]
        if random.chance(0.3) {
            ids = random.pick(BookingsVocabulary.combinations)
        } else {
            let weights = catalogue.map { entry -> Double in
                entry.category == "Coupe" ? 4 : entry.category == "Couleur" ? 2 : 1
            }
            ids = [catalogue[random.weightedIndex(weights)].id]
        }
        return ids.map { id in
            guard let entry = catalogue.first(where: { $0.id == id }) else {
                return BookingLine(serviceId: id, priceCents: 3000, oldPriceCents: nil)
            }
            if random.chance(0.08) {
                let promotion = entry.priceCents * 8 / 10 / 50 * 50
                return BookingLine(serviceId: id, priceCents: promotion, oldPriceCents: entry.priceCents)
            }
            return BookingLine(serviceId: id, priceCents: entry.priceCents, oldPriceCents: entry.oldPriceCents)
        }
    }

    /// A booking in `slot`: start on a half hour inside it, lead time, status and payment.
    mutating func booking(in slot: SlotEntry, customerId: Int) -> BookingRecord {
        let halfHours = max(1, Int(slot.endsAt.utcSeconds - slot.startsAt.utcSeconds) / 1800 - 1)
        let start = slot.startsAt.utcSeconds + Int64(random.below(halfHours) * 1800)
        let leadHours = [random.int(2...20), random.int(24...168), random.int(169...504), random.int(505...1000)][
            random.weightedIndex([15, 35, 40, 10])]
        var created = start - Int64(leadHours * 3600 + random.below(3600))
        if created > exportSeconds { created = exportSeconds - Int64(random.int(600...86_400)) }
        // Few people book between midnight and 07:00: move those bookings to the morning.
        let localHour = (created + Int64(clock.offset(atUTC: created, zone: zone))) % 86_400 / 3600
        if localHour < 7, created + 7 * 3600 < min(start - 3600, exportSeconds) { created += 7 * 3600 }
        let lines = lines()
        let amount = lines.reduce(0) { $0 + $1.priceCents }
        let status: String
        if start < exportSeconds {
            status =
                ["done", "paid", "cancelled", "no_show", "confirmed", "pending"][
                    random.weightedIndex([72, 6, 11, 5, 4, 2])]
        } else {
            status = ["pending", "confirmed", "paid", "cancelled"][random.weightedIndex([30, 40, 15, 15])]
        }
        var paidAt: ZonedInstant?
        if status == "paid" || status == "done" {
            let paid =
                status == "done" && random.chance(0.3)
                ? start + Int64(random.int(45...150) * 60)
                : created + Int64(random.int(1...15) * 60)
            paidAt = stamp(min(paid, max(created + 60, exportSeconds)))
        }
        var cancelledAt: ZonedInstant?
        if status == "cancelled" {
            let window = max(Int64(60), min(start, exportSeconds) - created)
            let late = random.chance(0.25)
            let cancelled = late ? start - Int64(random.int(1...23) * 3600) : created + Int64(random.below(Int(window)))
            cancelledAt = stamp(max(created + 60, min(cancelled, exportSeconds)))
        }
        let record = BookingRecord(
            id: nextBookingId, customerId: customerId, slotId: random.chance(0.92) ? slot.id : nil,
            startsAt: clock.instant(utcSeconds: start, zone: zone, milliseconds: 0), createdAt: stamp(created),
            status: status, lines: lines, amountCents: amount, paidAt: paidAt, cancelledAt: cancelledAt,
            postalCode: random.chance(0.08) ? random.pick(BookingsVocabulary.parisPostalCodes) : nil)
        nextBookingId += 1
        return record
    }

    /// A back-office time with Rails' milliseconds.
    mutating func stamp(_ seconds: Int64) -> ZonedInstant {
        clock.instant(utcSeconds: seconds, zone: zone, milliseconds: random.below(1000))
    }
}
