import Store

/// The fleet tables (SPEC §1.3), shaped for the fleet analysis (SPEC §5).
///
/// Conventions: ids are TEXT; instants are INTEGER microseconds since the epoch UTC in `<field>_us`,
/// with the UTC offset they were written with in `<field>_offset` (seconds) for the instants that
/// `loans.csv` shows; dates are TEXT `YYYY-MM-DD`; booleans INTEGER 0/1; every main table has
/// `import_seq`, the import order of the record that wrote the row, so analysis can break ties by
/// "latest imported".
///
/// Loan records live in one table whatever their source (embedded in an assignment or in a
/// `loan_records` file): a record imported twice is one row. Their impacts go to `loan_impacts`
/// with their `position` in the record's list, because the damage pairing breaks ties by index.
/// Signatures are not stored point by point: the analysis needs only whether one is present
/// (some segment with ≥ 2 points) and whether a point lies outside the 400 × 400 box.
/// References (event, group, driver, assignment) are not foreign keys: files arrive in any order
/// and the reports list orphans as data-quality issues (SPEC §1.4).
public enum FleetSchema {
    public static let version1 = Migration(
        domain: "fleet", version: 1,
        sql: """
            CREATE TABLE events (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                starts_on TEXT NOT NULL,
                ends_on TEXT NOT NULL,
                timezone TEXT NOT NULL,
                opens_at_minutes INTEGER NOT NULL,
                closes_at_minutes INTEGER NOT NULL,
                import_seq INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE groups (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL,
                name TEXT NOT NULL,
                import_seq INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX groups_event ON groups(event_id);

            CREATE TABLE drivers (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                company TEXT,
                import_seq INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE assignments (
                id TEXT PRIMARY KEY,
                event_id TEXT NOT NULL,
                group_id TEXT,
                driver_id TEXT,
                brand_name TEXT NOT NULL,
                model_name TEXT,
                license_plate_number TEXT NOT NULL,
                plate TEXT NOT NULL,
                planned_time_out_us INTEGER NOT NULL,
                planned_time_out_offset INTEGER NOT NULL,
                planned_time_in_us INTEGER NOT NULL,
                planned_time_in_offset INTEGER NOT NULL,
                cancelled INTEGER NOT NULL CHECK (cancelled IN (0, 1)),
                import_seq INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX assignments_event_plate ON assignments(event_id, plate, planned_time_out_us);
            CREATE INDEX assignments_driver ON assignments(driver_id);

            CREATE TABLE loan_records (
                id TEXT PRIMARY KEY,
                assignment_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('check_out', 'check_in')),
                recorded_at_us INTEGER NOT NULL,
                recorded_at_offset INTEGER NOT NULL,
                mileage_km REAL,
                oil_level INTEGER NOT NULL CHECK (oil_level BETWEEN 0 AND 4),
                interior_cleanliness INTEGER NOT NULL CHECK (interior_cleanliness BETWEEN 0 AND 4),
                exterior_cleanliness INTEGER NOT NULL CHECK (exterior_cleanliness BETWEEN 0 AND 4),
                signature_present INTEGER NOT NULL CHECK (signature_present IN (0, 1)),
                signature_out_of_box INTEGER NOT NULL CHECK (signature_out_of_box IN (0, 1)),
                photo_count INTEGER NOT NULL,
                comment TEXT,
                import_seq INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX loan_records_assignment ON loan_records(assignment_id, kind, recorded_at_us, import_seq, id);

            CREATE TABLE loan_impacts (
                record_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                type TEXT NOT NULL CHECK (type IN ('sinking', 'impact', 'scratch', 'deepscratch')),
                x REAL NOT NULL,
                y REAL NOT NULL,
                PRIMARY KEY (record_id, position)
            ) STRICT, WITHOUT ROWID;
            """)

    /// Loan records and their impacts carry their assignment's event, so that on a distributed
    /// database (Citus) they live on the shard of their event with its assignments and a report's
    /// joins stay on one shard (issue 29; docs/SCALE.md).
    ///
    /// `event_id` is the event of the record's assignment when the record is written, and the
    /// importers move a record when its assignment arrives or changes event (`AssignmentEvents`).
    /// A record whose assignment no file has brought yet is in the unknown bucket, the empty
    /// string (`AssignmentEvents.unknown`: no event id is empty, `RecordReader.id` refuses one),
    /// which is also the column's default. An existing database is filled in place: records from
    /// their assignment, impacts from their record. The index on `assignment_id` gives way to one
    /// that starts with the event: the report reads an event's records, the importers look up the
    /// records of one assignment within one event, and the data-quality check the unknown bucket.
    /// `loan_impacts` gets no index of its own: an event's impacts are found by their records'
    /// ids through its primary key (an index on the biggest table, kept row by row through an
    /// import, cost the 300,000-assignment profile's import a fifth more CPU).
    public static let version2 = Migration(
        domain: "fleet", version: 2,
        sql: """
            ALTER TABLE loan_records ADD COLUMN event_id TEXT NOT NULL DEFAULT '';
            UPDATE loan_records SET event_id = COALESCE(
                (SELECT a.event_id FROM assignments a WHERE a.id = loan_records.assignment_id), '');
            ALTER TABLE loan_impacts ADD COLUMN event_id TEXT NOT NULL DEFAULT '';
            UPDATE loan_impacts SET event_id = COALESCE(
                (SELECT r.event_id FROM loan_records r WHERE r.id = loan_impacts.record_id), '');
            DROP INDEX loan_records_assignment;
            CREATE INDEX loan_records_event_assignment
                ON loan_records(event_id, assignment_id, kind, recorded_at_us, import_seq, id);
            """)

    /// Step 3: the two indexes no query reads by go (issue 32 item 2; docs/BENCHMARKS.md, "each
    /// B-tree accounted for"). No report, import, status or check query looks assignments up by
    /// driver or groups up by event: the fleet analysis reads every group and driver whole and
    /// joins them in memory. SQLite's plans used `assignments_driver` and `groups_event` only as
    /// the narrowest B-tree to scan for a `count(*)` of the whole table, which the key's index
    /// serves as well; `assignments_driver` was a B-tree the import built for every
    /// assignments file (after the load of a bulk file, row by row otherwise).
    ///
    /// On PostgreSQL one `DO` block: Citus propagates an index's drop on a distributed table to its
    /// shards only from a command string of one statement (it refuses `DROP …; DROP …;` sent
    /// at once), and the drops go to the shards one connection at a time
    /// (`citus.multi_shard_modify_mode`, for this transaction; a setting PostgreSQL without Citus
    /// keeps and ignores), since the migration's transaction then creates functions, which Citus
    /// refuses after a parallel command on a distributed table.
    public static let version3 = Migration(
        domain: "fleet", version: 3,
        sql: """
            DROP INDEX IF EXISTS assignments_driver;
            DROP INDEX IF EXISTS groups_event;
            """,
        dialects: [
            .postgresql: """
            DO $$ BEGIN
                PERFORM set_config('citus.multi_shard_modify_mode', 'sequential', true);
                DROP INDEX IF EXISTS assignments_driver;
                DROP INDEX IF EXISTS groups_event;
            END $$
            """
        ])

    /// Step 4: an impact's type is checked by equalities on SQLite, not by an `IN` list, which
    /// SQLite evaluated by filling a temporary B-tree for every impact it checked
    /// (`Migration.init(domain:version:sqliteChecks:)`). Nothing changes on PostgreSQL.
    public static let version4 = Migration(
        domain: "fleet", version: 4,
        sqliteChecks: [
            MembershipCheck(
                table: "loan_impacts", column: "type", values: ["sinking", "impact", "scratch", "deepscratch"])
        ])

    /// Every step of the fleet schema, oldest first.
    public static let migrations: [Migration] = [version1, version2, version3, version4]
}
