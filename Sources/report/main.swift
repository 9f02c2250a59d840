import Bookings
import Fleet
import Foundation
import Habits
import ReportCLI

// Thin executable: everything lives in ReportCLI so that it can be tested. The domains are
// registered here, the one place that names them all.
let modules = [HabitsModule.module, BookingsModule.module, FleetModule.module]
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), modules: modules).rawValue)
