import Bookings
import DomainInterface
import Fleet
import Habits

/// The domains the tests register, as `report`'s main does.
let registeredModules: [DomainModule] = [HabitsModule.module, BookingsModule.module, FleetModule.module]
