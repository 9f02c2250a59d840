import ReportModel

/// The headline figures, the chart data and the Markdown top-10 lists of the fleet report.
enum FleetSummary {
    /// The `summary.csv` metrics of SPEC §5, in its order.
    static func figures(_ context: FleetReportContext) -> [Figure] {
        let counts = context.results.counts
        let available = FleetReportContext.hours(
            FleetReportContext.times(context.availablePerVehicle, context.results.vehicles.count))
        var out = CheckedTotal()
        for vehicle in context.results.vehicles { out.add(vehicle.microsecondsOut) }
        let hoursOut = FleetReportContext.hours(out)
        return [
            Figure("vehicles", .integer(context.results.vehicles.count), .integer),
            Figure("assignments", .integer(counts.assignments), .integer),
            Figure("cancelled_assignments", .integer(counts.cancelledAssignments), .integer),
            Figure("loans", .integer(counts.loans), .integer),
            Figure("returned_loans", .integer(counts.returnedLoans), .integer),
            Figure("still_out", .integer(counts.stillOut), .integer),
            Figure("no_shows", .integer(counts.noShows), .integer),
            Figure("available_hours", .number(available), .duration),
            Figure("hours_out", .number(hoursOut), .duration),
            Figure("utilization", FleetReportContext.ratio(hoursOut, available), .percent),
            Figure("loan_hours", .number(FleetReportContext.hours(counts.loanMicroseconds)), .duration),
            Figure(
                "km", .number(FleetReportContext.kilometres(counts.metres)), .measure(maximumPlaces: 1), title: "Km"),
            Figure("late_returns", .integer(counts.lateReturns), .integer),
            Figure(
                "late_rate", FleetReportContext.ratio(Double(counts.lateReturns), Double(counts.returnedLoans)),
                .percent),
            Figure("new_impacts", .integer(counts.newImpacts), .integer),
            Figure(
                "damage_rate",
                FleetReportContext.ratio(Double(counts.returnedWithNewDamage), Double(counts.returnedLoans)), .percent),
            Figure(
                "impacts_per_1000_km",
                FleetReportContext.ratio(
                    Double(counts.newImpactsWithKm) * 1000, FleetReportContext.kilometres(counts.metres)),
                .decimal(places: 2), title: "Impacts per 1,000 km"),
            Figure("between_loans_damage", .integer(counts.betweenLoansDamage), .integer),
            Figure("overlapping_pairs", .integer(counts.overlappingPairs), .integer),
        ]
    }

    /// Fleet utilization per event day: the column chart's data.
    static func dailyUtilization(_ context: FleetReportContext) -> Table {
        let vehicles = Int64(context.results.vehicles.count)
        let rows = context.windows.enumerated().map { index, window -> [Value] in
            var out = CheckedTotal()
            for days in context.results.daily.values { out.add(days[index].microsecondsOut) }
            return [
                .day(window.day),
                FleetReportContext.ratio(
                    out.exactUnits.map(Double.init),
                    FleetReportContext.times(window.length, Int(vehicles)).exactUnits.map(Double.init)),
            ]
        }
        return Table(
            name: "daily_utilization", title: "Daily utilization",
            columns: [Column("day", .date), Column("utilization", .percent, dataBar: true)],
            rows: rows, outputs: [.xlsx, .markdown], markdownLimit: rows.count,
            caption: "Hours out over available hours of the whole fleet, per event day (empty after as-of).")
    }

    /// New (attributed) impacts per type: the pie's data, every type listed.
    static func damageByType(_ context: FleetReportContext) -> Table {
        let rows = ImpactType.allCases.map { type -> [Value] in
            [.text(type.name), .integer(context.results.newImpactsByType[type.rawValue])]
        }
        return Table(
            name: "damage_by_type", title: "New damage by type",
            columns: [Column("type"), Column("new_impacts", .integer)], rows: rows, outputs: [.xlsx, .markdown],
            caption: "New impacts charged to drivers, per impact type.")
    }

    /// The ten cars with the most hours out (ties by plate); cars never out are not listed.
    static func mostUsedCars(_ context: FleetReportContext) -> Table {
        let available = FleetReportContext.hours(context.availablePerVehicle)
        let top = context.results.vehicles.filter { $0.microsecondsOut > 0 }
            .sorted { ($1.microsecondsOut, $0.plate) < ($0.microsecondsOut, $1.plate) }.prefix(10)
        let rows = top.map { vehicle -> [Value] in
            let hoursOut = FleetReportContext.hours(vehicle.microsecondsOut)
            return [
                .text(vehicle.plate), .text(vehicle.brand), .text(vehicle.model),
                .text(context.groupName(vehicle.group)),
                .number(hoursOut), FleetReportContext.ratio(hoursOut, available),
            ]
        }
        return Table(
            name: "most_used_cars",
            columns: [
                Column("plate"), Column("brand"), Column("model"), Column("group"), Column("hours_out", .duration),
                Column("utilization", .percent, dataBar: true),
            ], rows: rows, outputs: [.markdown], caption: "Top 10 cars by hours out.")
    }

    /// The ten drivers charged with the most new impacts (ties by driver id); none listed without.
    static func mostDamagingDrivers(_ context: FleetReportContext) -> Table {
        let drivers = context.driverOrder.filter { (context.results.drivers[$0]?.newImpacts ?? 0) > 0 }
        let top = drivers.enumerated().sorted {
            let left = context.results.drivers[$0.element]?.newImpacts ?? 0
            let right = context.results.drivers[$1.element]?.newImpacts ?? 0
            return left != right ? left > right : $0.offset < $1.offset
        }.prefix(10)
        let rows = top.map { _, number -> [Value] in
            let tally = context.results.drivers[number] ?? DriverTally()
            let id = context.results.driverIds.name(number) ?? ""
            return [
                .text(id), .text(context.driverName(number)), .text(context.drivers[id]?.company),
                .integer(tally.loans), .integer(tally.newImpacts),
                FleetReportContext.ratio(Double(tally.returnedWithNewDamage), Double(tally.returned)),
            ]
        }
        return Table(
            name: "most_damaging_drivers",
            columns: [
                Column("driver_id"), Column("driver"), Column("company"), Column("loans", .integer),
                Column("new_impacts", .integer), Column("damage_rate", .percent),
            ], rows: rows, outputs: [.markdown], caption: "Top 10 drivers by new impacts charged to them.")
    }

    /// The ten returns most minutes late (ties by assignment id); on-time returns not listed. Not
    /// "latest returns", which would read as the most recent ones.
    static func mostLateReturns(_ context: FleetReportContext) -> Table {
        let late = context.loanOrder.filter { (context.results.lines[Int($0)].lateMinutes ?? 0) > 0 }
        let top = late.enumerated().sorted {
            let left = context.results.lines[Int($0.element)].lateMinutes ?? 0
            let right = context.results.lines[Int($1.element)].lateMinutes ?? 0
            return left != right ? left > right : $0.offset < $1.offset
        }.prefix(10)
        let rows = top.map { _, index -> [Value] in
            let line = context.results.lines[Int(index)]
            return [
                .text(line.assignmentId), .text(context.results.vehicles[Int(line.vehicle)].plate),
                .text(context.driverName(line.driver)), context.timestamp(line.plannedIn), context.timestamp(line.inAt),
                line.lateMinutes.map { .integer($0) } ?? .empty,
            ]
        }
        return Table(
            name: "most_late_returns", title: "Most late returns",
            columns: [
                Column("assignment_id"), Column("plate"), Column("driver"), Column("planned_in", .timestamp),
                Column("in_at", .timestamp), Column("late_minutes", .integer, unit: "minutes"),
            ], rows: rows, outputs: [.markdown], caption: "Top 10 late returns by minutes late.")
    }

    static func heatMap(_ context: FleetReportContext) -> HeatMap {
        HeatMap(
            title: "New damage by zone", rowLabels: DamageZone.rowLabels, columnLabels: DamageZone.columnLabels,
            cells: context.results.zones.map { $0.map(Double.init) }, backdrop: CarOutline.backdrop,
            fileStem: "heatmap",
            rowHeader: "Row")
    }
}
