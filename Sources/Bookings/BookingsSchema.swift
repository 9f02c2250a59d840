import Store

/// The bookings tables (SPEC §1.2), one per export kind, plus the service lines of bookings.
///
/// Conventions shared by every domain: ids are TEXT (`1042` and `"1042"` are one id); instants are
/// INTEGER microseconds since the epoch UTC in `<field>_us` columns (days and periods are taken in
/// `Europe/Paris` or `--timezone`, never in the writer's offset, so the offset is not kept);
/// money is INTEGER cents; `import_seq` is the importer's sequence, so analysis can break ties
/// by "latest imported". Absent optional fields are NULL.
///
/// `customers` deliberately has no column for contact details (first_name, last_name, email,
/// phone, address): the importer never reads them, so they cannot reach the file.
public enum BookingsSchema {
    public static let version1 = Migration(
        domain: "bookings", version: 1,
        sql: """
            CREATE TABLE services (
                id TEXT NOT NULL PRIMARY KEY,
                name TEXT NOT NULL,
                category TEXT NOT NULL,
                price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
                old_price_cents INTEGER CHECK (old_price_cents >= 0),
                duration_minutes INTEGER NOT NULL CHECK (duration_minutes > 0),
                import_seq INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE slots (
                id TEXT NOT NULL PRIMARY KEY,
                starts_at_us INTEGER NOT NULL,
                ends_at_us INTEGER NOT NULL CHECK (ends_at_us > starts_at_us),
                capacity INTEGER NOT NULL CHECK (capacity >= 0),
                import_seq INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX slots_starts_at ON slots (starts_at_us);

            CREATE TABLE customers (
                id TEXT NOT NULL PRIMARY KEY,
                created_at_us INTEGER NOT NULL,
                postal_code TEXT,
                import_seq INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE bookings (
                id TEXT NOT NULL PRIMARY KEY,
                customer_id TEXT NOT NULL,
                slot_id TEXT,
                starts_at_us INTEGER NOT NULL,
                created_at_us INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('pending', 'confirmed', 'paid', 'done', 'cancelled', 'no_show')),
                amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
                paid_at_us INTEGER,
                cancelled_at_us INTEGER,
                postal_code TEXT,
                import_seq INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX bookings_starts_at ON bookings (starts_at_us);
            CREATE INDEX bookings_customer ON bookings (customer_id, starts_at_us);

            CREATE TABLE booking_lines (
                booking_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                service_id TEXT NOT NULL,
                price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
                old_price_cents INTEGER CHECK (old_price_cents >= 0),
                PRIMARY KEY (booking_id, position)
            ) STRICT, WITHOUT ROWID;
            """)

    /// Step 2: a service line carries its booking's customer, the column a distributed database
    /// (Citus) places a booking and its lines by, so that both live on one node; lines of earlier
    /// imports get it from their booking.
    public static let version2 = Migration(
        domain: "bookings", version: 2,
        sql: """
            ALTER TABLE booking_lines ADD COLUMN customer_id TEXT;
            UPDATE booking_lines
                SET customer_id = (SELECT b.customer_id FROM bookings b WHERE b.id = booking_lines.booking_id);
            """)

    /// Step 3: a booking's status is checked by equalities on SQLite, not by an `IN` list, which
    /// SQLite evaluated by filling a temporary B-tree for every booking it checked
    /// (`Migration.init(domain:version:sqliteChecks:)`). Nothing changes on PostgreSQL.
    public static let version3 = Migration(
        domain: "bookings", version: 3,
        sqliteChecks: [
            MembershipCheck(
                table: "bookings", column: "status",
                values: ["pending", "confirmed", "paid", "done", "cancelled", "no_show"])
        ])

    /// Every bookings migration, oldest first.
    public static let migrations: [Migration] = [version1, version2, version3]
}
