import Bookings
import Fleet
import Habits
import Import

/// The domains the command line imports and reports on.
enum DomainModules {
    static let all: [DomainModule] = [HabitsModule.module, BookingsModule.module, FleetModule.module]
}
