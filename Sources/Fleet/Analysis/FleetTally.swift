import ReportModel
import Time

/// The counts behind the headline figures; durations in microseconds.
struct FleetCounts: Sendable {
    var assignments = 0
    var cancelledAssignments = 0
    var loans = 0
    var returnedLoans = 0
    var stillOut = 0
    var noShows = 0
    /// Σ loan lengths: checked, since a loan may span years of bad timestamps (issue 30).
    var loanMicroseconds = CheckedTotal()
    /// Σ km of returned loans in whole metres.
    var metres = CheckedTotal()
    /// New impacts of the loans whose km is valid: the numerator of impacts per 1,000 km.
    var newImpactsWithKm = 0
    var lateReturns = 0
    var newImpacts = 0
    var returnedWithNewDamage = 0
    var betweenLoansDamage = 0
    var overlappingPairs = 0
}

/// Everything the report is made of, from one pass over the event's assignments.
struct FleetResults: Sendable {
    var lines: [LoanLine] = []
    var damage: [DamageLine] = []
    var vehicles: [VehicleLine] = []
    /// Per vehicle group (interned id, or `Interned.none`), one tally per event day.
    var daily: [Int32: [DayTally]] = [:]
    var drivers: [Int32: DriverTally] = [:]
    var groupIds = Interned()
    var driverIds = Interned()
    var counts = FleetCounts()
    /// New (attributed) impacts per zone: `[row][column]`.
    var zones = [[Int]](repeating: [Int](repeating: 0, count: 4), count: 4)
    /// New (attributed) impacts per `ImpactType.rawValue`.
    var newImpactsByType = [Int](repeating: 0, count: ImpactType.allCases.count)
    var quality: [QualityIssue] = []
}

/// Computes the fleet metrics of SPEC §5 from assignments streamed in (plate, check-out) order.
///
/// Only the current vehicle's loans are held while it streams by: when the plate changes, the
/// vehicle's interval union is clipped to the windows and its day and group tallies are made,
/// since its group (that of its latest assignment) is known only once all its rows are seen.
final class FleetTally {
    private let event: FleetEvent
    private let windows: [OpeningWindow]
    private let asOf: Int64
    private let grace: Int64
    private let lastClose: Int64
    private let groupNames: [String: String]
    private let knownDrivers: Set<String>
    private(set) var results = FleetResults()
    private var current: VehicleInProgress?

    init(
        event: FleetEvent, windows: [OpeningWindow], asOf: Timestamp, graceMinutes: Int,
        groupNames: [String: String], knownDrivers: Set<String>, expectedLines: Int = 0
    ) {
        self.event = event
        self.windows = windows
        self.asOf = asOf.microseconds
        grace = Int64(graceMinutes) * 60_000_000
        lastClose = event.lastClose
        self.groupNames = groupNames
        self.knownDrivers = knownDrivers
        results.lines.reserveCapacity(expectedLines)
    }

    /// Takes the next assignment (at `index` of the loaded rows); loans take their impacts from
    /// `impacts`.
    func add(_ row: AssignmentRow, index: Int, impacts: AttachedImpacts) {
        if current?.plate != row.plate {
            finishVehicle()
            current = VehicleInProgress(plate: row.plate)
        }
        results.counts.assignments += 1
        guard !row.cancelled else {
            results.counts.cancelledAssignments += 1
            return
        }
        // Taken out while it changes, so that appending to its arrays never copies them.
        guard var vehicle = current.take() else { return }
        vehicle.noteAssignment(row)
        checkReferences(row)
        checkSignatures(row)
        let group = results.groupIds.number(row.groupId)
        let driver = results.driverIds.number(row.driverId)
        if driver != Interned.none, results.drivers[driver] == nil { results.drivers[driver] = DriverTally() }
        let lineIndex = Int32(results.lines.count)

        guard let checkOut = row.checkOut else {
            if let checkIn = row.checkIn {
                addIssue(
                    .checkInWithoutCheckOut, row.id,
                    "check-in \(checkIn.id) at \(format(checkIn.recordedAt)) but no check-out")
            } else if row.plannedOut + grace < asOf {
                results.counts.noShows += 1
            }
            results.lines.append(
                LoanLine(
                    assignmentId: row.id, vehicle: Int32(results.vehicles.count), group: group, driver: driver,
                    plannedOut: row.plannedOut, plannedIn: row.plannedIn, outAt: nil, inAt: row.checkIn?.recordedAt,
                    status: row.checkIn == nil ? .waiting : .done, loanMicroseconds: nil, lateMinutes: nil, km: nil,
                    oilDelta: nil, interiorDelta: nil, exteriorDelta: nil, newImpacts: nil,
                    signedOut: false, signedIn: row.checkIn?.signaturePresent ?? false))
            current = vehicle
            return
        }

        let marks = (checkOut: impacts.impacts(of: index, .checkOut), checkIn: impacts.impacts(of: index, .checkIn))
        results.counts.loans += 1
        vehicle.loans += 1
        let out = checkOut.recordedAt
        let end = row.checkIn.map { max($0.recordedAt, out) } ?? max(out, min(asOf, lastClose))
        vehicle.intervals.append(LoanIntervals.Interval(start: out, end: end, tag: Int(lineIndex)))
        vehicle.checkOuts.append(out)
        results.counts.loanMicroseconds.add(end - out)
        if driver != Interned.none {
            results.drivers[driver, default: DriverTally()].loans += 1
            results.drivers[driver, default: DriverTally()].loanMicroseconds.add(end - out)
        }

        // Marks at check-out that the previous return did not show happened between loans.
        if let previous = vehicle.previousReturnedCheckIn {
            for mark in DamagePairing.unpaired(marks.checkOut, against: previous) {
                results.damage.append(DamageLine(loan: lineIndex, impact: mark, attributed: false))
                results.counts.betweenLoansDamage += 1
            }
        }

        var lateMinutes: Int64?
        var metres: Int64?
        var newCount: Int32?
        if let checkIn = row.checkIn {
            results.counts.returnedLoans += 1
            vehicle.checkIns.append(checkIn.recordedAt)
            vehicle.previousReturnedCheckIn = marks.checkIn
            let fresh = DamagePairing.unpaired(marks.checkIn, against: marks.checkOut)
            for mark in fresh {
                results.damage.append(DamageLine(loan: lineIndex, impact: mark, attributed: true))
                let zone = DamageZone(x: mark.x, y: mark.y)
                results.zones[zone.row][zone.column] += 1
                results.newImpactsByType[mark.type.rawValue] += 1
            }
            newCount = Int32(fresh.count)
            results.counts.newImpacts += fresh.count
            vehicle.newImpacts += fresh.count
            if !fresh.isEmpty { results.counts.returnedWithNewDamage += 1 }

            let late = checkIn.recordedAt - row.plannedIn > grace
            // Minutes after planned_time_in rounded half up; only a late return has any.
            lateMinutes = late ? (checkIn.recordedAt - row.plannedIn + 30_000_000) / 60_000_000 : 0
            if late {
                results.counts.lateReturns += 1
                vehicle.lateReturns += 1
            }
            metres = self.metres(row, from: checkOut, to: checkIn)
            if let metres {
                results.counts.metres.add(metres)
                results.counts.newImpactsWithKm += fresh.count
                vehicle.metres.add(metres)
            }
            if driver != Interned.none {
                results.drivers[driver, default: DriverTally()].returned += 1
                results.drivers[driver, default: DriverTally()].newImpacts += fresh.count
                if !fresh.isEmpty { results.drivers[driver, default: DriverTally()].returnedWithNewDamage += 1 }
                if late { results.drivers[driver, default: DriverTally()].lateReturns += 1 }
            }
        } else {
            results.counts.stillOut += 1
        }

        results.lines.append(
            LoanLine(
                assignmentId: row.id, vehicle: Int32(results.vehicles.count), group: group, driver: driver,
                plannedOut: row.plannedOut, plannedIn: row.plannedIn, outAt: out, inAt: row.checkIn?.recordedAt,
                status: row.checkIn == nil ? .out : .done, loanMicroseconds: end - out, lateMinutes: lateMinutes,
                km: metres.map { Double($0) / 1000 },
                oilDelta: row.checkIn.map { Int8(clamping: Int($0.oilLevel) - Int(checkOut.oilLevel)) },
                interiorDelta: row.checkIn.map {
                    Int8(clamping: Int($0.interiorCleanliness) - Int(checkOut.interiorCleanliness))
                },
                exteriorDelta: row.checkIn.map {
                    Int8(clamping: Int($0.exteriorCleanliness) - Int(checkOut.exteriorCleanliness))
                },
                newImpacts: newCount, signedOut: checkOut.signaturePresent,
                signedIn: row.checkIn?.signaturePresent ?? false))
        current = vehicle
    }

    /// Ends the stream: the last vehicle is tallied and the issues put in order.
    func finish(extraIssues: [QualityIssue]) -> FleetResults {
        finishVehicle()
        current = nil
        checkTotals()
        results.quality = QualityIssue.sorted(results.quality + extraIssues)
        return results
    }

    /// A `figure_out_of_range` row for every total too large to show exactly (issue 30): absurd
    /// data (loans spanning centuries) gets an empty cell and this row, never a wrong figure.
    private func checkTotals() {
        func check(_ total: CheckedTotal, hours: Bool, _ figure: String, _ row: String) {
            let shown =
                hours
                ? FleetReportContext.hours(total) != nil : FleetReportContext.kilometres(total) != nil
            if !shown {
                addIssue(
                    .figureOutOfRange, row, "\(figure) is a total too large to show exactly; the cell is left empty")
            }
        }
        check(results.counts.loanMicroseconds, hours: true, "loan_hours", "summary")
        check(results.counts.metres, hours: false, "km", "summary")
        for vehicle in results.vehicles { check(vehicle.metres, hours: false, "km", "vehicle " + vehicle.plate) }
        for (number, tally) in results.drivers {
            check(tally.loanMicroseconds, hours: true, "hours", "driver " + (results.driverIds.name(number) ?? ""))
        }
    }

    /// Check-in minus check-out mileage in whole metres; nil when either is missing, or negative
    /// (an issue). Each reading is taken to the metre (an odometer shows tenths of a km at best),
    /// so that sums of km are sums of integers, exact (issue 30); readings are at most 10^7 km.
    private func metres(_ row: AssignmentRow, from checkOut: AttachedRecord, to checkIn: AttachedRecord) -> Int64? {
        guard let start = checkOut.mileage, let finish = checkIn.mileage else { return nil }
        guard finish >= start else {
            addIssue(
                .negativeKm, row.id,
                "check-in mileage \(number(finish)) km is below check-out mileage \(number(start)) km")
            return nil
        }
        func metres(_ kilometres: Double) -> Int64 {
            Int64(exactly: (min(kilometres, LoanRecord.maximumMileageKilometres) * 1000).rounded()) ?? 0
        }
        return metres(finish) - metres(start)
    }

    private func checkReferences(_ row: AssignmentRow) {
        if let groupId = row.groupId, groupNames[groupId] == nil {
            addIssue(.unknownGroup, row.id, "group_id \"\(groupId)\" is in no groups file")
        }
        if let driverId = row.driverId, !knownDrivers.contains(driverId) {
            addIssue(.unknownDriver, row.id, "driver_id \"\(driverId)\" is in no drivers file")
        }
    }

    private func checkSignatures(_ row: AssignmentRow) {
        for (side, record) in [("check_out", row.checkOut), ("check_in", row.checkIn)] {
            guard let record else { continue }
            if !record.signaturePresent {
                addIssue(.signatureMissing, row.id, "\(side) record \(record.id) has no signature")
            }
            if record.signatureOutOfBox {
                addIssue(.signatureOutOfBox, row.id, "\(side) record \(record.id) has a signature point outside 0…400")
            }
        }
    }

    /// Tallies the finished vehicle: its hours out per window, its day and group counts, and the
    /// overlaps among its loans.
    private func finishVehicle() {
        guard let vehicle = current, let latest = vehicle.latest else { return }
        let group = results.groupIds.number(vehicle.latestGroup?.groupId)
        let perWindow = LoanIntervals.microsecondsOut(of: vehicle.intervals, windows: windows)
        var days = results.daily[group] ?? [DayTally](repeating: DayTally(), count: windows.count)
        for index in days.indices {
            days[index].vehicles += 1
            days[index].microsecondsOut.add(perWindow[index])
        }
        for instant in vehicle.checkOuts { if let index = dayIndex(of: instant) { days[index].checkOuts += 1 } }
        for instant in vehicle.checkIns { if let index = dayIndex(of: instant) { days[index].checkIns += 1 } }
        results.daily[group] = days

        for pair in LoanIntervals.overlappingPairs(vehicle.intervals) {
            let earlier = results.lines[pair.earlier], later = results.lines[pair.later]
            results.counts.overlappingPairs += 1
            addIssue(
                .overlappingLoans, earlier.assignmentId + ", " + later.assignmentId,
                "\(vehicle.plate): \(earlier.assignmentId) \(span(earlier)) overlaps \(later.assignmentId) "
                    + "\(span(later))",
                sortId: earlier.assignmentId)
        }

        results.vehicles.append(
            VehicleLine(
                plate: vehicle.plate, brand: latest.brand, model: latest.model, group: group, loans: vehicle.loans,
                microsecondsOut: perWindow.reduce(0, +), metres: vehicle.metres, newImpacts: vehicle.newImpacts,
                lateReturns: vehicle.lateReturns))
    }

    /// The index of the event day an instant falls on in the event's zone, or nil outside the event.
    private func dayIndex(of instant: Int64) -> Int? {
        let index = event.offsets.day(of: instant) - event.firstDay
        return index >= 0 && index < windows.count ? index : nil
    }

    private func span(_ line: LoanLine) -> String {
        let start = line.outAt ?? 0
        return "[\(format(start)), \(format(start + (line.loanMicroseconds ?? 0))))"
    }

    private func format(_ instant: Int64) -> String {
        event.local.localized(Timestamp(microseconds: instant)).description
    }

    private func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private func addIssue(_ issue: FleetIssue, _ record: String, _ detail: String, sortId: String? = nil) {
        results.quality.append(
            QualityIssue(
                issue: issue, record: record, detail: detail, sortId: sortId ?? record,
                sequence: results.quality.count))
    }
}

/// The rows of one plate seen so far.
struct VehicleInProgress {
    struct Latest {
        let plannedOut: Int64
        let sequence: Int64
        let id: String
        let brand: String
        let model: String?
        let groupId: String?

        /// Later planned_time_out wins, then the later import, then the greater id.
        func isBefore(_ row: AssignmentRow) -> Bool {
            (plannedOut, sequence) != (row.plannedOut, row.importSequence)
                ? (plannedOut, sequence) < (row.plannedOut, row.importSequence)
                : IdentifierOrder.precedes(id, row.id)
        }
    }

    let plate: String
    /// The latest non-cancelled assignment: the brand and model.
    var latest: Latest?
    /// The latest non-cancelled assignment that names a group: the group.
    var latestGroup: Latest?
    var intervals: [LoanIntervals.Interval] = []
    var checkOuts: [Int64] = []
    var checkIns: [Int64] = []
    /// The check-in marks of the latest returned loan so far, for the between-loans comparison.
    var previousReturnedCheckIn: [Impact]?
    var loans = 0
    var metres = CheckedTotal()
    var newImpacts = 0
    var lateReturns = 0

    init(plate: String) { self.plate = plate }

    mutating func noteAssignment(_ row: AssignmentRow) {
        let candidate = Latest(
            plannedOut: row.plannedOut, sequence: row.importSequence, id: row.id,
            brand: row.brand, model: row.model, groupId: row.groupId)
        if latest.map({ $0.isBefore(row) }) ?? true { latest = candidate }
        if row.groupId != nil, latestGroup.map({ $0.isBefore(row) }) ?? true { latestGroup = candidate }
    }
}
