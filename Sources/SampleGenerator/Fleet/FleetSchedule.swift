import Foundation

/// Plans the loans of a small event car by car and day by day, as the sample's organisers would.
enum FleetSchedule {
    /// Edge cases of the Mondial sample, by (car index, day index).
    static let noShows: Set<[Int]> = [[2, 3], [17, 9]]
    static let cancellations: Set<[Int]> = [[8, 4], [21, 12]]
    static let overnight = [3, 5]
    static let overlapping = [5, 7]

    static func plan(
        event: EventData, cars carCount: Int, groupIds: [Int], drivers: [FleetSample.Driver],
        random: inout SeededRandom, clock: ZoneClock, special: Bool
    ) -> [FleetSample.Planned] {
        var simulation = FleetSimulation(
            random: random.derived(UInt64(event.startsOn.dayNumber)), clock: clock,
            event: event, nextRecordId: 1)
        let groupWeights: [Double] = groupIds.count == 5 ? [30, 15, 35, 12, 8] : groupIds.map { _ in 1 }
        let carOffset = special ? 0 : 9
        var cars: [FleetCar] = (0..<carCount).map { index in
            let model = FleetVocabulary.cars[(index + carOffset) % FleetVocabulary.cars.count]
            let impacts = (0..<simulation.random.int(0...3)).map { _ in simulation.newImpact() }
            return FleetCar(
                plate: FleetVocabulary.plate(&simulation.random), brand: model.brand, model: model.model,
                groupId: groupIds[simulation.random.weightedIndex(groupWeights)],
                mileage: simulation.random.int(800...15_000), oilLevel: simulation.random.int(3...4),
                exteriorCleanliness: 4, impacts: impacts)
        }
        let lastDayIndex = event.startsOn.days(to: event.endsOn)
        var planned: [FleetSample.Planned] = []
        for dayIndex in 0...lastDayIndex {
            let day = event.startsOn.adding(days: dayIndex)
            let open = clock.utcSeconds(of: day, minute: event.opensAt, zone: simulation.zone)
            let close = clock.utcSeconds(of: day, minute: event.closesAt, zone: simulation.zone)
            for carIndex in cars.indices {
                let key = [carIndex, dayIndex]
                let forced =
                    special
                    && (noShows.contains(key) || cancellations.contains(key) || key == overnight
                        || key == overlapping || (carIndex == 0 && dayIndex == lastDayIndex))
                var count = [0, 1, 2][simulation.random.weightedIndex([50, 38, 12])]
                if forced { count = key == overlapping ? 2 : max(1, count) }
                var previousPlannedIn = Int64.min
                for loanIndex in 0..<count {
                    let isLast = loanIndex == count - 1
                    let earliest = max(open, max(cars[carIndex].availableFrom, previousPlannedIn) + 1800)
                    let start = (earliest + 899) / 900 * 900
                    var plannedOut: Int64
                    var plannedIn: Int64
                    if special && key == overnight && isLast {
                        plannedOut = clock.utcSeconds(of: day, minute: 1110, zone: simulation.zone)
                        plannedIn = clock.utcSeconds(of: day.adding(days: 1), minute: 660, zone: simulation.zone)
                        guard start <= plannedOut else { continue }
                    } else {
                        let latestOut = (count == 2 && loanIndex == 0 ? open + 3 * 3600 : close - 3600)
                        guard start <= latestOut else { continue }
                        plannedOut = start + Int64(simulation.random.below(Int(latestOut - start) / 1800 + 1)) * 1800
                        let hours = simulation.random.int(2...8)
                        plannedIn = min(close, plannedOut + Int64(hours) * 1800)
                    }
                    var outcome = AssignmentOutcome.returned
                    if special && loanIndex == 0 && noShows.contains(key) { outcome = .noShow }
                    if special && loanIndex == 0 && cancellations.contains(key) { outcome = .cancelled }
                    if special && carIndex == 0 && dayIndex == lastDayIndex && isLast { outcome = .stillOut }
                    let driver = pickDriver(
                        drivers, groupIndex: groupIds.firstIndex(of: cars[carIndex].groupId) ?? 0,
                        eventGroups: groupIds.count, random: &simulation.random)
                    let data = simulation.assignment(
                        &cars[carIndex], id: 0, driverId: driver, plannedOut: plannedOut,
                        plannedIn: plannedIn, outcome: outcome)
                    planned.append(FleetSample.Planned(carIndex: carIndex, dayIndex: dayIndex, data: data))
                    previousPlannedIn = plannedIn
                }
            }
        }
        if special { applyEdgeCases(&planned, simulation: &simulation) }
        planned.sort { ($0.data.plannedOut.utcSeconds, $0.carIndex) < ($1.data.plannedOut.utcSeconds, $1.carIndex) }
        return planned
    }

    private static func pickDriver(
        _ drivers: [FleetSample.Driver], groupIndex: Int, eventGroups: Int,
        random: inout SeededRandom
    ) -> Int? {
        // The two groups of the small event are Presse (0) and Clients (2) of the big one.
        let wanted = eventGroups == 5 ? groupIndex : (groupIndex == 0 ? 0 : 2)
        let matching = drivers.filter { $0.groupIndex == wanted }
        return random.pick(matching.isEmpty ? drivers : matching).id
    }

    /// The data-quality cases of the sample, each on one chosen returned loan.
    private static func applyEdgeCases(_ planned: inout [FleetSample.Planned], simulation: inout FleetSimulation) {
        func firstReturned(car: Int, fromDay: Int) -> Int? {
            planned.firstIndex { $0.carIndex == car && $0.dayIndex >= fromDay && $0.data.checkIn != nil }
        }
        // Overlap: the second loan of the day left before the first came back.
        let pair = planned.indices.filter {
            planned[$0].carIndex == overlapping[0] && planned[$0].dayIndex == overlapping[1]
        }
        if pair.count == 2, let secondOut = planned[pair[1]].data.checkOut?.recordedAt.utcSeconds,
            let secondIn = planned[pair[1]].data.checkIn?.recordedAt.utcSeconds, secondOut + 1200 < secondIn
        {
            planned[pair[0]].data.checkIn?.recordedAt = simulation.stamp(secondOut + 1200)
        }
        if let index = firstReturned(car: 9, fromDay: 2), let out = planned[index].data.checkOut?.mileageKilometres {
            planned[index].data.checkIn?.mileageKilometres = out - 37
            planned[index].data.checkIn?.comment = "Compteur relevé à la hâte"
        }
        if let index = firstReturned(car: 11, fromDay: 6) {
            planned[index].data.checkIn?.signature = nil
            planned[index].data.checkIn?.comment = "Le conducteur est parti sans signer"
        }
        if let index = firstReturned(car: 14, fromDay: 1), var signature = planned[index].data.checkOut?.signature,
            !signature.isEmpty, !signature[0].isEmpty
        {
            signature[0][signature[0].count - 1].xTenths = 4120
            planned[index].data.checkOut?.signature = signature
        }
        if let index = firstReturned(car: 19, fromDay: 4) { planned[index].data.driverId = 999 }
        if let index = firstReturned(car: 26, fromDay: 2) { planned[index].data.driverId = nil }
        if let index = firstReturned(car: 23, fromDay: 8) {
            planned[index].data.plate = planned[index].data.plate.lowercased().replacingOccurrences(of: "-", with: " ")
        }
    }

    /// Numbers the records in assignment order (check-out, then check-in); returns the next free id.
    static func renumberRecords(_ assignments: inout [AssignmentData], firstId: Int) -> Int {
        var next = firstId
        for index in assignments.indices {
            if assignments[index].checkOut != nil { assignments[index].checkOut?.id = next; next += 1 }
            if assignments[index].checkIn != nil { assignments[index].checkIn?.id = next; next += 1 }
        }
        return next
    }
}
