/// The Bookings domain: schema, record validation, analysis and report layout.
public enum BookingsDomain {}
