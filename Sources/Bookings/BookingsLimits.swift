/// The largest values a bookings record may hold (issue 30), so that every figure summed from
/// them is exact: a record past a limit is rejected at import, naming the field and the limit.
/// Figures are summed in 64-bit integers (`CheckedTotal`); a total that still gets too large for
/// its cell (10^15 cents or more, which takes a thousand bookings at the limit in one cell) is
/// left empty with a `figure_out_of_range` quality row, never shown wrong.
enum BookingsLimits {
    /// `amount_cents`, `price_cents`, `old_price_cents`: up to 10^12 cents (ten billion euros).
    static let cents: ClosedRange<Int64> = 0...1_000_000_000_000
    /// A slot's `capacity` (stylists available): up to 10,000.
    static let capacity: ClosedRange<Int64> = 0...10_000
}
