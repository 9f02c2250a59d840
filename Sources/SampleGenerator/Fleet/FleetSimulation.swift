/// A car of the fleet and what its agents last saw of it.
struct FleetCar {
    let plate: String
    let brand: String
    let model: String
    let groupId: Int
    var mileage: Int
    var oilLevel: Int
    var exteriorCleanliness: Int
    /// Damage on the diagram as last recorded.
    var impacts: [Impact]
    /// UTC seconds from which the car can leave again (after its last check-in).
    var availableFrom: Int64 = .min
}

/// What happens to an assignment.
enum AssignmentOutcome {
    case returned
    case noShow
    case cancelled
    case stillOut
}

/// Draws check-out and check-in records the way agents fill them on the iPad.
///
/// Damage persists from one record to the next with a few units of jitter (a finger is not a
/// pen), some loans bring new impacts, oil and cleanliness drift down and are restored
/// between loans, and drivers sign with a few strokes.
struct FleetSimulation {
    var random: SeededRandom
    let clock: ZoneClock
    let event: EventData
    var nextRecordId: Int
    /// Chance that a returned loan brings new damage.
    var newDamageChance = 0.07
    /// Chance of damage appearing between two loans (found at check-out).
    var betweenLoansChance = 0.015
    /// Chance of a late return (more than 15 minutes).
    var lateChance = 0.18

    var zone: Zone { event.zone ?? .europeParis }

    func stamp(_ seconds: Int64) -> ZonedInstant {
        clock.instant(utcSeconds: seconds, zone: zone)
    }

    mutating func signature() -> [[DiagramPoint]] {
        (0..<random.int(1...3)).map { _ in
            var x = random.int(600...2600), y = random.int(1500...2500)
            return (0..<random.int(4...11)).map { _ in
                x = min(4000, max(0, x + random.int(40...220)))
                y = min(4000, max(0, y + random.int(-180...180)))
                let decimals = random.chance(0.3)
                return DiagramPoint(xTenths: decimals ? x : x / 10 * 10, yTenths: decimals ? y : y / 10 * 10)
            }
        }
    }

    /// The same impacts as seen again, each moved by at most `spread` units in x and y.
    mutating func seenAgain(_ impacts: [Impact], spread: Int) -> [Impact] {
        impacts.map { impact in
            Impact(
                type: impact.type,
                point: DiagramPoint(
                    xTenths: min(4000, max(0, impact.point.xTenths + random.int(-spread * 10...spread * 10))),
                    yTenths: min(4000, max(0, impact.point.yTenths + random.int(-spread * 10...spread * 10)))))
        }
    }

    mutating func newImpact() -> Impact {
        Impact(
            type: FleetVocabulary.impactTypes[random.weightedIndex([2, 3, 5, 1])],
            point: DiagramPoint(xTenths: random.int(0...800) * 5, yTenths: random.int(0...800) * 5))
    }

    /// Photo URLs as the iPad uploads them: event, kind of record, a random file name.
    mutating func photos(_ kind: String) -> [String] {
        (1...random.int(1...3)).map { _ in
            "https://photos.fleet.example.com/\(event.id)/\(kind)/" + String(random.next() >> 16, radix: 16) + ".jpg"
        }
    }

    mutating func checkOut(_ car: inout FleetCar, at seconds: Int64) -> LoanRecordData {
        if car.oilLevel <= 1 { car.oilLevel = 4 }
        if random.chance(0.5) { car.exteriorCleanliness = 4 }
        // The body shop repairs a car that has collected too many marks.
        if car.impacts.count > 6 { car.impacts = Array(car.impacts.prefix(3)) }
        var impacts = seenAgain(car.impacts, spread: 3)
        if random.chance(betweenLoansChance) { impacts.append(newImpact()) }
        car.impacts = impacts
        defer { nextRecordId += 1 }
        return LoanRecordData(
            id: nextRecordId, recordedAt: stamp(seconds), mileageKilometres: car.mileage, oilLevel: car.oilLevel,
            interiorCleanliness: random.chance(0.8) ? 4 : 3, exteriorCleanliness: car.exteriorCleanliness,
            signature: signature(), impacts: impacts.isEmpty && random.chance(0.5) ? nil : impacts,
            photos: random.chance(0.2) ? photos("depart") : nil,
            comment: random.chance(0.15) ? random.pick(FleetVocabulary.checkOutComments) : nil)
    }

    mutating func checkIn(_ car: inout FleetCar, out: LoanRecordData, at seconds: Int64) -> LoanRecordData {
        // A car kept overnight sleeps in a garage: only the first hours are driven.
        let hours = Double(seconds - out.recordedAt.utcSeconds) / 3600
        let drivenHours = hours <= 4 ? hours : 4 + (hours - 4) * 0.1
        car.mileage += max(1, Int(drivenHours * Double(random.int(12...45))))
        if random.chance(0.08) { car.oilLevel = max(0, car.oilLevel - 1) }
        if random.chance(0.25) { car.exteriorCleanliness = max(0, car.exteriorCleanliness - 1) }
        var impacts = seenAgain(out.impacts ?? [], spread: 5)
        var damaged = false
        if random.chance(newDamageChance) {
            damaged = true
            for _ in 0..<(random.chance(0.15) ? 2 : 1) { impacts.append(newImpact()) }
        }
        car.impacts = impacts
        car.availableFrom = seconds
        defer { nextRecordId += 1 }
        return LoanRecordData(
            id: nextRecordId, recordedAt: stamp(seconds), mileageKilometres: car.mileage, oilLevel: car.oilLevel,
            interiorCleanliness: max(0, out.interiorCleanliness - (random.chance(0.3) ? 1 : 0)),
            exteriorCleanliness: car.exteriorCleanliness, signature: signature(),
            impacts: impacts.isEmpty && random.chance(0.5) ? nil : impacts,
            photos: damaged || random.chance(0.1) ? photos("retour") : nil,
            comment: damaged
                ? "Nouveau dommage constaté au retour"
                : random.chance(0.15) ? random.pick(FleetVocabulary.checkInComments) : nil)
    }

    /// One assignment of `car`, planned from `plannedOut` to `plannedIn` (UTC seconds).
    mutating func assignment(
        _ car: inout FleetCar, id: Int, driverId: Int?, plannedOut: Int64, plannedIn: Int64,
        outcome: AssignmentOutcome
    ) -> AssignmentData {
        var assignment = AssignmentData(
            id: id, eventId: event.id, groupId: car.groupId, driverId: driverId, brand: car.brand, model: car.model,
            plate: car.plate, plannedOut: stamp(plannedOut), plannedIn: stamp(plannedIn),
            cancelled: outcome == .cancelled, checkOut: nil, checkIn: nil)
        guard outcome == .returned || outcome == .stillOut else { return assignment }
        let outAt = max(
            plannedOut + Int64(random.around(4, spread: 12) * 60 + random.below(60)),
            car.availableFrom + Int64(random.int(5...20) * 60))
        let out = checkOut(&car, at: outAt)
        assignment.checkOut = out
        guard outcome == .returned else {
            car.availableFrom = .max / 2
            return assignment
        }
        let delayMinutes =
            random.chance(lateChance)
            ? (random.chance(0.7) ? random.int(16...60) : random.int(61...150))
            : random.int(-25...12)
        let inAt = max(outAt + Int64(random.int(15...30) * 60), plannedIn + Int64(delayMinutes * 60 + random.below(60)))
        assignment.checkIn = checkIn(&car, out: out, at: inAt)
        return assignment
    }
}
