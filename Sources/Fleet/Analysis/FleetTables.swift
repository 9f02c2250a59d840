import ReportModel

/// The CSV-contract tables of the fleet report (SPEC §6.1): exact names, exact columns in order.
/// Big tables make their rows from the compact lines only when a writer asks for them.
enum FleetTables {
    static let vehicleColumns = [
        Column("plate"), Column("brand"), Column("model"), Column("group"), Column("loans", .integer),
        Column("hours_out", .duration, unit: "hours"), Column("available_hours", .duration, unit: "hours"),
        Column("utilization", .percent, dataBar: true),
        Column("km", .measure(maximumPlaces: 1), title: "Km", unit: "km"), Column("new_impacts", .integer),
        Column("late_returns", .integer),
    ]

    static let dailyColumns = [
        Column("day", .date), Column("group"), Column("vehicles", .integer),
        Column("available_hours", .duration, unit: "hours"),
        Column("hours_out", .duration, unit: "hours"), Column("utilization", .percent, dataBar: true),
        Column("check_outs", .integer), Column("check_ins", .integer),
    ]

    static let loanColumns = [
        Column("assignment_id", title: "Assignment"), Column("plate"), Column("group"), Column("driver"),
        Column("status"),
        Column("planned_out", .timestamp), Column("planned_in", .timestamp),
        Column("out_at", .timestamp, title: "Out at"),
        Column("in_at", .timestamp, title: "In at"), Column("hours", .duration, unit: "hours"),
        Column("late_minutes", .integer, unit: "minutes"),
        Column("km", .measure(maximumPlaces: 1), title: "Km", unit: "km"),
        Column("oil_delta", .integer, unit: "levels of 0-4"),
        Column("interior_delta", .integer, unit: "levels of 0-4"),
        Column("exterior_delta", .integer, unit: "levels of 0-4"), Column("new_impacts", .integer),
        Column("signed_out", .boolean),
        Column("signed_in", .boolean),
    ]

    /// The Loans columns the workbook prints (`Table.printColumns`): who took which car, when it
    /// went out and came back, how late, how far, and the damage it came back with. They fit one
    /// portrait page at 8 points (the sample's 294 loans on 5 pages, where the 18 columns took
    /// two landscape strips of 7). Status and hours follow from the two times, a missing signature
    /// is a row of the Quality sheet, and every column stays on screen and in `loans.csv`
    /// (docs/PRINTING.md).
    static let loanPrintColumns = [
        "assignment_id", "plate", "driver", "out_at", "in_at", "late_minutes", "km", "new_impacts",
    ]

    static let damageColumns = [
        Column("assignment_id", title: "Assignment"), Column("plate"), Column("driver"), Column("type"),
        Column("x", .decimal(places: 2), title: "X", unit: "diagram units, 0-400"),
        Column("y", .decimal(places: 2), title: "Y", unit: "diagram units, 0-400"), Column("zone"),
        Column("attributed", .boolean),
    ]

    static let driverColumns = [
        Column("driver_id", title: "Driver id"), Column("driver"), Column("company"), Column("loans", .integer),
        Column("hours", .duration, unit: "hours"), Column("late_returns", .integer), Column("new_impacts", .integer),
        Column("damage_rate", .percent),
    ]

    static func vehicles(_ context: FleetReportContext) -> Table {
        let available = FleetReportContext.hours(context.availablePerVehicle)
        let rows = context.results.vehicles.map { vehicle -> [Value] in
            let hoursOut = FleetReportContext.hours(vehicle.microsecondsOut)
            return [
                .text(vehicle.plate), .text(vehicle.brand), .text(vehicle.model),
                .text(context.groupName(vehicle.group)),
                .integer(vehicle.loans), .number(hoursOut), .number(available),
                FleetReportContext.ratio(hoursOut, available), .number(FleetReportContext.kilometres(vehicle.metres)),
                .integer(vehicle.newImpacts),
                .integer(vehicle.lateReturns),
            ]
        }
        return Table(
            name: "vehicles", columns: vehicleColumns, rows: rows,
            caption:
                "Every car of the event, by plate: hours out are the union of its loans inside the opening windows."
        ).keyed("plate")
    }

    /// A row per event day and group with at least one vehicle, by day then group name.
    static func daily(_ context: FleetReportContext) -> Table {
        let groups = context.results.daily.keys.sorted {
            ((context.groupName($0) ?? ""), context.results.groupIds.name($0) ?? "")
                < ((context.groupName($1) ?? ""), context.results.groupIds.name($1) ?? "")
        }
        var rows: [[Value]] = []
        for (index, window) in context.windows.enumerated() {
            for group in groups {
                guard let tally = context.results.daily[group]?[index] else { continue }
                let available = FleetReportContext.hours(FleetReportContext.times(window.length, tally.vehicles))
                let hoursOut = FleetReportContext.hours(tally.microsecondsOut)
                rows.append([
                    .day(window.day), .text(context.groupName(group)), .integer(tally.vehicles), .number(available),
                    .number(hoursOut), FleetReportContext.ratio(hoursOut, available),
                    .integer(tally.checkOuts), .integer(tally.checkIns),
                ])
            }
        }
        return Table(
            name: "daily", columns: dailyColumns, rows: rows,
            caption: "Per event day and group: check-outs and check-ins count on the local day they happen.")
    }

    static func loans(_ context: FleetReportContext) -> Table {
        let rows = Rows(count: context.loanOrder.count) {
            var iterator = context.loanOrder.makeIterator()
            return AnyIterator { iterator.next().map { loanRow(context.results.lines[Int($0)], context) } }
        }
        return Table(
            name: "loans", columns: loanColumns, rows: rows,
            caption: "Every assignment that was not cancelled, by assignment id."
        ).keyed("assignment_id").printed(loanPrintColumns)
    }

    static func loanRow(_ line: LoanLine, _ context: FleetReportContext) -> [Value] {
        func integer<T: BinaryInteger>(_ value: T?) -> Value { value.map { .integer(Int64($0)) } ?? .empty }
        return [
            .text(line.assignmentId), .text(context.results.vehicles[Int(line.vehicle)].plate),
            .text(context.groupName(line.group)), .text(context.driverName(line.driver)), .text(line.status.name),
            context.timestamp(line.plannedOut), context.timestamp(line.plannedIn), context.timestamp(line.outAt),
            context.timestamp(line.inAt), .number(line.loanMicroseconds.map(FleetReportContext.hours)),
            integer(line.lateMinutes), .number(line.km), integer(line.oilDelta),
            integer(line.interiorDelta), integer(line.exteriorDelta), integer(line.newImpacts),
            .boolean(line.signedOut), .boolean(line.signedIn),
        ]
    }

    static func damage(_ context: FleetReportContext) -> Table {
        let rows = Rows(count: context.damageOrder.count) {
            var iterator = context.damageOrder.makeIterator()
            return AnyIterator {
                iterator.next().map { index -> [Value] in
                    let damage = context.results.damage[Int(index)]
                    let line = context.results.lines[Int(damage.loan)]
                    return [
                        .text(line.assignmentId), .text(context.results.vehicles[Int(line.vehicle)].plate),
                        damage.attributed ? .text(context.driverName(line.driver)) : .empty,
                        .text(damage.impact.type.name), .number(damage.impact.x), .number(damage.impact.y),
                        .text(DamageZone(x: damage.impact.x, y: damage.impact.y).name), .boolean(damage.attributed),
                    ]
                }
            }
        }
        return Table(
            name: "damage", columns: damageColumns, rows: rows,
            caption:
                "New damage charged to the driver, and damage found at check-out that no one is charged for "
                + "(attributed false)."
        )
    }

    static func drivers(_ context: FleetReportContext) -> Table {
        let rows = context.driverOrder.map { number -> [Value] in
            let tally = context.results.drivers[number] ?? DriverTally()
            let id = context.results.driverIds.name(number) ?? ""
            return [
                .text(id), .text(context.driverName(number)), .text(context.drivers[id]?.company),
                .integer(tally.loans), .number(FleetReportContext.hours(tally.loanMicroseconds)),
                .integer(tally.lateReturns),
                .integer(tally.newImpacts),
                FleetReportContext.ratio(Double(tally.returnedWithNewDamage), Double(tally.returned)),
            ]
        }
        return Table(
            name: "drivers", columns: driverColumns, rows: rows,
            caption: "Every driver named by an assignment that was not cancelled, by driver id."
        ).keyed("driver_id")
    }

    static func quality(_ context: FleetReportContext) -> Table {
        let issues = context.results.quality
        return Table.quality(
            count: issues.count, caption: "Data-quality issues: records to fix in the back office or the app."
        ) {
            var iterator = issues.makeIterator()
            return AnyIterator {
                iterator.next().map { QualityRow(issue: $0.issue.rawValue, record: $0.record, detail: $0.detail) }
            }
        }
    }
}
