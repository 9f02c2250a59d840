import Store

/// Step 2 of the habits schema: the cached running state of streaks and consistency
/// (`habits_streak_state`), the triggers that invalidate it, and the indexes a report of a few
/// days needs to find the records that land on those days.
///
/// Why a cache: streaks and consistency run over a user's whole history, so without one the
/// one-day report (`report nightly`) reads a year of records per user. A row holds the state of a
/// user's walk after `through_day` (a day ordinal, days since 1970-01-01) for one `--day-start`;
/// a report resumes from it and reads only the days after (`HabitsStreakStateStore`).
///
/// Why triggers (until step 6, which drops them for `HabitsStreakStateInvalidation` in the
/// importers, the same rule): files arrive in any order and records are upserted, so an older
/// day can change at any import, and an update can move a record away from a day (OLD) as well as
/// onto one (NEW). Each trigger deletes the states of the record's user that may have counted the
/// old or the new record: those whose `through_day` is on or after the earliest day the record
/// can belong to in any zone with any day start (its `date`, or the UTC day of an instant minus 3:
/// zones are at most 12 h behind UTC and a day start subtracts less than 24 h). Only the kinds
/// that change the state have triggers: tasks and flows (active days), focus sessions (the state
/// keeps the latest end of earlier sessions for the overlap check) and users (a time zone moves
/// every day).
///
/// The two partial indexes find the done tasks and flows by completion instant, since a record
/// dated on one day can be completed on a later one.
public enum HabitsStreakStateSchema {
    /// The earliest day ordinal an instant in microseconds can belong to, as SQL.
    private static func earliestDay(_ instant: String) -> String { "(\(instant) / 86400000000 - 3)" }
    /// The day ordinal of a `YYYY-MM-DD` column, as SQL.
    private static func dateDay(_ column: String) -> String { "(unixepoch(\(column)) / 86400)" }

    private static func invalidation(_ row: String, earliest: String) -> String {
        "DELETE FROM habits_streak_state WHERE user_id = \(row).user_id AND through_day >= \(earliest);"
    }

    private static func dayOfRecord(_ row: String) -> String {
        "min(\(dateDay(row + ".date")), coalesce(\(earliestDay(row + ".completed_at_us")), \(dateDay(row + ".date"))))"
    }

    /// `columns`: what the state depends on; an update that keeps them all (a re-exported record)
    /// leaves the cache alone.
    private static func triggers(table: String, columns: [String], earliest: (String) -> String) -> String {
        let changed = columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
        return """
            CREATE TRIGGER \(table)_streak_state_insert AFTER INSERT ON \(table) BEGIN
                \(invalidation("NEW", earliest: earliest("NEW")))
            END;
            CREATE TRIGGER \(table)_streak_state_update AFTER UPDATE ON \(table) WHEN \(changed) BEGIN
                \(invalidation("OLD", earliest: earliest("OLD")))
                \(invalidation("NEW", earliest: earliest("NEW")))
            END;
            CREATE TRIGGER \(table)_streak_state_delete AFTER DELETE ON \(table) BEGIN
                \(invalidation("OLD", earliest: earliest("OLD")))
            END;

            """
    }

    private static let focusSessionColumns = [
        "user_id", "started_at_us", "total_seconds", "remaining_seconds", "ended_at_us",
    ]
    private static let focusSessionTriggers = triggers(
        table: "focus_sessions", columns: focusSessionColumns, earliest: { earliestDay($0 + ".started_at_us") })

    /// The state table and the completion indexes, the same on both backends.
    private static let stateTable = """
        CREATE TABLE habits_streak_state (
            user_id TEXT NOT NULL,
            day_start INTEGER NOT NULL,
            through_day INTEGER NOT NULL,
            last_record_day INTEGER,
            consistency REAL NOT NULL,
            last_active_day INTEGER,
            run INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            best_start INTEGER,
            best_end INTEGER,
            latest_session_end_us INTEGER,
            PRIMARY KEY (user_id, day_start)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX tasks_user_completed ON tasks (user_id, completed_at_us)
            WHERE state = 'terminee' AND completed_at_us IS NOT NULL;
        CREATE INDEX flows_user_completed ON flows (user_id, completed_at_us)
            WHERE etat = 'termine' AND completed_at_us IS NOT NULL;
        """

    public static let version2 = Migration(
        domain: "habits", version: 2,
        sql: stateTable + """

            \(triggers(table: "tasks", columns: ["user_id", "date", "state", "completed_at_us"], earliest: dayOfRecord))
            \(triggers(table: "flows", columns: ["user_id", "date", "etat", "completed_at_us"], earliest: dayOfRecord))
            \(focusSessionTriggers)
            CREATE TRIGGER users_streak_state_insert AFTER INSERT ON users BEGIN
                DELETE FROM habits_streak_state WHERE user_id = NEW.id;
            END;
            CREATE TRIGGER users_streak_state_update AFTER UPDATE ON users
                WHEN OLD.id IS NOT NEW.id OR OLD.timezone IS NOT NEW.timezone BEGIN
                DELETE FROM habits_streak_state WHERE user_id = OLD.id;
                DELETE FROM habits_streak_state WHERE user_id = NEW.id;
            END;
            CREATE TRIGGER users_streak_state_delete AFTER DELETE ON users BEGIN
                DELETE FROM habits_streak_state WHERE user_id = OLD.id;
            END;
            """, dialects: [.postgresql: stateTable + "\n" + postgresqlTriggers])

    /// Step 3 made `habits_changes`, a counter of the writes to what the cache summarises, which
    /// step 4 drops again: the store counts every writing transaction itself now
    /// (`Database.changeToken()`). On SQLite both steps are empty.
    ///
    /// On PostgreSQL the step also replaces step 2's row triggers by statement triggers over
    /// transition tables: an import's merge writes 50,000 rows a statement, and one set-based
    /// delete per statement costs far less than a plpgsql call and an index probe per row (the
    /// 1M-task import spent half its server time in them). Same invalidation, same rows. Step 2's
    /// row functions stay: a table with foreign partitions cannot collect transition rows, so the
    /// sharded layout (scripts/postgres_fdw_habits.sql) puts the row triggers back there.
    public static let version3 = Migration(
        domain: "habits", version: 3, sql: "",
        dialects: [.postgresql: postgresqlStatementTriggers + habitsChanges])

    /// Step 3's counter, and its statement triggers.
    private static let habitsChanges = """
        CREATE TABLE habits_changes (version BIGINT NOT NULL);
        INSERT INTO habits_changes (version) VALUES (0);
        CREATE FUNCTION habits_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE habits_changes SET version = version + 1;
            RETURN NULL;
        END $$;
        CREATE TRIGGER tasks_changed AFTER INSERT OR UPDATE OR DELETE ON tasks
            FOR EACH STATEMENT EXECUTE FUNCTION habits_changed();
        CREATE TRIGGER flows_changed AFTER INSERT OR UPDATE OR DELETE ON flows
            FOR EACH STATEMENT EXECUTE FUNCTION habits_changed();
        CREATE TRIGGER focus_sessions_changed AFTER INSERT OR UPDATE OR DELETE ON focus_sessions
            FOR EACH STATEMENT EXECUTE FUNCTION habits_changed();
        CREATE TRIGGER users_changed AFTER INSERT OR UPDATE OR DELETE ON users
            FOR EACH STATEMENT EXECUTE FUNCTION habits_changed();
        """

    /// Step 4: step 3's counter goes; the store's own change token replaces it.
    public static let version4 = Migration(
        domain: "habits", version: 4, sql: "",
        dialects: [
            .postgresql: """
            DROP TRIGGER tasks_changed ON tasks;
            DROP TRIGGER flows_changed ON flows;
            DROP TRIGGER focus_sessions_changed ON focus_sessions;
            DROP TRIGGER users_changed ON users;
            DROP FUNCTION habits_changed();
            DROP TABLE habits_changes;
            """
        ])

    /// Step 6: the triggers go; the importers invalidate the cache instead
    /// (`HabitsStreakStateInvalidation`, same rule, same states deleted). A distributed database
    /// (Citus) refuses to distribute a table that has triggers, and a trigger on a distributed
    /// table would run on the worker, where the cache of another user's shard is out of reach.
    /// `IF EXISTS`: a sharded postgres_fdw layout of earlier releases put step 2's row triggers
    /// back on the coordinator's partitioned tables, and bulk imports of earlier releases lifted
    /// them for a load; dropping a function with `CASCADE` drops any trigger left that runs it.
    public static let version6 = Migration(
        domain: "habits", version: 6,
        sql: ["tasks", "flows", "focus_sessions", "users"].flatMap { table in
            ["insert", "update", "delete"].map { "DROP TRIGGER IF EXISTS \(table)_streak_state_\($0);\n" }
        }.joined(),
        dialects: [
            .postgresql: ["tasks", "flows", "focus_sessions", "users"].map { table in
                "DROP FUNCTION IF EXISTS \(table)_streak_state_rows() CASCADE;\n"
                    + "DROP FUNCTION IF EXISTS \(table)_streak_state() CASCADE;\n"
            }.joined()
        ])

    /// Step 3's PostgreSQL triggers: per table, one function run once per statement with the
    /// statement's rows (`new_rows`, `old_rows`), deleting the states step 2's row triggers deleted.
    private static var postgresqlStatementTriggers: String {
        func function(
            table: String, key: String, user: String, columns: [String], earliest: (String) -> String
        ) -> String {
            let changed =
                "(" + columns.map { "o.\($0)" }.joined(separator: ", ") + ") IS DISTINCT FROM ("
                + columns.map { "n.\($0)" }.joined(separator: ", ") + ")"
            func invalidate(_ rows: String) -> String {
                """
                DELETE FROM habits_streak_state s
                        USING (SELECT x.user_id, min(x.earliest) AS earliest FROM (\(rows)) x GROUP BY x.user_id) c
                        WHERE s.user_id = c.user_id AND s.through_day >= c.earliest;
                """
            }
            func rows(_ alias: String, from table: String, _ condition: String = "TRUE") -> String {
                "SELECT \(alias).\(user) AS user_id, \(earliest(alias)) AS earliest FROM \(table) WHERE \(condition)"
            }
            let updated = [
                rows("o", from: "old_rows o JOIN new_rows n ON n.\(key) = o.\(key)", changed),
                rows("n", from: "old_rows o JOIN new_rows n ON n.\(key) = o.\(key)", changed),
                rows("o", from: "old_rows o", "NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.\(key) = o.\(key))"),
                rows("n", from: "new_rows n", "NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.\(key) = n.\(key))"),
            ].joined(separator: " UNION ALL ")
            return """
                DROP TRIGGER \(table)_streak_state ON \(table);
                CREATE FUNCTION \(table)_streak_state_rows() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        \(invalidate(rows("n", from: "new_rows n")))
                    ELSIF TG_OP = 'DELETE' THEN
                        \(invalidate(rows("o", from: "old_rows o")))
                    ELSE
                        \(invalidate(updated))
                    END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER \(table)_streak_state_inserted AFTER INSERT ON \(table)
                    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION \(table)_streak_state_rows();
                CREATE TRIGGER \(table)_streak_state_deleted AFTER DELETE ON \(table)
                    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION \(table)_streak_state_rows();
                CREATE TRIGGER \(table)_streak_state_updated AFTER UPDATE ON \(table)
                    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION \(table)_streak_state_rows();

                """
        }
        let dayOfRecord = { (row: String) in
            "LEAST(\(dateDay(row + ".date")), coalesce(\(earliestDay(row + ".completed_at_us")), "
                + "\(dateDay(row + ".date"))))"
        }
        return function(
            table: "tasks", key: "id", user: "user_id", columns: ["user_id", "date", "state", "completed_at_us"],
            earliest: dayOfRecord)
            + function(
                table: "flows", key: "id", user: "user_id", columns: ["user_id", "date", "etat", "completed_at_us"],
                earliest: dayOfRecord)
            + function(
                table: "focus_sessions", key: "id", user: "user_id", columns: focusSessionColumns,
                earliest: { earliestDay($0 + ".started_at_us") })
            // A user's time zone moves every day: all of that user's states go.
            + function(
                table: "users", key: "id", user: "id", columns: ["id", "timezone"],
                earliest: { _ in "(-2147483648)" })
    }

    /// The same triggers on PostgreSQL: one plpgsql function per table (`LEAST` for SQLite's scalar
    /// `min`, `IS DISTINCT FROM` for `IS NOT`).
    private static var postgresqlTriggers: String {
        func function(table: String, columns: [String], user: String, earliest: ((String) -> String)?) -> String {
            let changed = columns.map { "OLD.\($0) IS DISTINCT FROM NEW.\($0)" }.joined(separator: " OR ")
            func invalidate(_ row: String) -> String {
                "DELETE FROM habits_streak_state WHERE user_id = \(row).\(user)"
                    + (earliest.map { " AND through_day >= \($0(row))" } ?? "") + ";"
            }
            return """
                CREATE FUNCTION \(table)_streak_state() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'UPDATE' AND NOT (\(changed)) THEN RETURN NULL; END IF;
                    IF TG_OP IN ('UPDATE', 'DELETE') THEN \(invalidate("OLD")) END IF;
                    IF TG_OP IN ('INSERT', 'UPDATE') THEN \(invalidate("NEW")) END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER \(table)_streak_state AFTER INSERT OR UPDATE OR DELETE ON \(table)
                    FOR EACH ROW EXECUTE FUNCTION \(table)_streak_state();

                """
        }
        let dayOfRecord = { (row: String) in
            "LEAST(\(dateDay(row + ".date")), coalesce(\(earliestDay(row + ".completed_at_us")), "
                + "\(dateDay(row + ".date"))))"
        }
        return function(
            table: "tasks", columns: ["user_id", "date", "state", "completed_at_us"], user: "user_id",
            earliest: dayOfRecord)
            + function(
                table: "flows", columns: ["user_id", "date", "etat", "completed_at_us"], user: "user_id",
                earliest: dayOfRecord)
            + function(
                table: "focus_sessions",
                columns: [
                    "user_id", "started_at_us", "total_seconds",
                    "remaining_seconds", "ended_at_us",
                ],
                user: "user_id", earliest: { earliestDay($0 + ".started_at_us") })
            + function(table: "users", columns: ["id", "timezone"], user: "id", earliest: nil)
    }
}
