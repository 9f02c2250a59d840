import Store

/// The habits tables (SPEC §1.1), one per export kind, plus the child table of flows' contexts.
///
/// Conventions shared by every domain: ids are TEXT (`1042` and `"1042"` are one id); instants are
/// INTEGER microseconds since the epoch UTC in `<field>_us` columns (the offset a timestamp was
/// written with is dropped: every habits metric takes the day in the *user's* zone, never the
/// writer's); calendar dates are TEXT `YYYY-MM-DD`; `import_seq` is the importer's sequence, so
/// analysis can break ties by "latest imported". Absent optional fields are NULL.
///
/// What is not stored, and why: the steps of a flow (`etape`) are reduced to `steps_total` and
/// `steps_done`, the only thing the score needs; a user's missing `timezone` stays NULL (analysis
/// reads NULL as `Europe/Paris`, SPEC §3) so the data says what the app sent.
public enum HabitsSchema {
    public static let version1 = Migration(
        domain: "habits", version: 1,
        sql: """
            CREATE TABLE users (
                id TEXT NOT NULL PRIMARY KEY,
                timezone TEXT,
                display_name TEXT,
                created_at_us INTEGER,
                import_seq INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE flows (
                id TEXT NOT NULL PRIMARY KEY,
                user_id TEXT NOT NULL,
                date TEXT NOT NULL,
                libelle_action TEXT NOT NULL,
                objectif TEXT,
                etat TEXT NOT NULL CHECK (etat IN ('cree', 'en_cours', 'termine')),
                energie_requise INTEGER CHECK (energie_requise BETWEEN 1 AND 5),
                temps_estime REAL CHECK (temps_estime >= 0),
                temps_realise REAL CHECK (temps_realise >= 0),
                streak_day INTEGER CHECK (streak_day >= 0),
                steps_total INTEGER NOT NULL CHECK (steps_total >= 0),
                steps_done INTEGER NOT NULL CHECK (steps_done BETWEEN 0 AND steps_total),
                created_at_us INTEGER,
                completed_at_us INTEGER,
                import_seq INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX flows_user_date ON flows (user_id, date);

            CREATE TABLE flow_contexts (
                flow_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                context TEXT NOT NULL,
                PRIMARY KEY (flow_id, position)
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE tasks (
                id TEXT NOT NULL PRIMARY KEY,
                user_id TEXT NOT NULL,
                date TEXT NOT NULL,
                libelle TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('a_faire', 'en_cours', 'terminee')),
                contexte TEXT,
                created_at_us INTEGER,
                completed_at_us INTEGER,
                import_seq INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX tasks_user_date ON tasks (user_id, date);

            CREATE TABLE focus_sessions (
                id TEXT NOT NULL PRIMARY KEY,
                user_id TEXT NOT NULL,
                started_at_us INTEGER NOT NULL,
                total_seconds INTEGER NOT NULL CHECK (total_seconds > 0),
                remaining_seconds INTEGER NOT NULL CHECK (remaining_seconds BETWEEN 0 AND total_seconds),
                ended_at_us INTEGER,
                import_seq INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX focus_sessions_user_started ON focus_sessions (user_id, started_at_us);

            CREATE TABLE logins (
                user_id TEXT NOT NULL,
                at_us INTEGER NOT NULL,
                import_seq INTEGER NOT NULL,
                PRIMARY KEY (user_id, at_us)
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE moods (
                user_id TEXT NOT NULL,
                date TEXT NOT NULL,
                mood INTEGER NOT NULL CHECK (mood BETWEEN 1 AND 5),
                note TEXT,
                import_seq INTEGER NOT NULL,
                PRIMARY KEY (user_id, date)
            ) STRICT, WITHOUT ROWID;
            """)

    /// Step 5: a flow's contexts carry its user, the column a distributed database (Citus) places
    /// a flow and its contexts by, so that both live on one node; contexts of earlier imports get
    /// it from their flow.
    public static let version5 = Migration(
        domain: "habits", version: 5,
        sql: """
            ALTER TABLE flow_contexts ADD COLUMN user_id TEXT;
            UPDATE flow_contexts SET user_id = (SELECT f.user_id FROM flows f WHERE f.id = flow_contexts.flow_id);
            """)

    /// Step 7, PostgreSQL only: a flow's contexts are keyed by user first, `(user_id, flow_id,
    /// position)`, with an index on the old key `(flow_id, position)` for the importer's
    /// replacement of a flow's contexts: the layout Citus gives the table when it distributes it
    /// (`PostgresDistribution`), now on a single server too. A range of users' flows then finds
    /// its contexts by a search of that range (`HabitsRecordReader.flowsSQL`), which the planner
    /// costs right; with only `(flow_id, position)` it chose, for a cursor planned for all its
    /// rows, a hash join over a scan of every context (0.2 s a batch of 64 users on the habits
    /// profile at scale 1, against 26 ms). A key already led by `user_id` (a table Citus
    /// distributed) is left as it is. SQLite keeps `(flow_id, position)`: its nested loop over
    /// that key is what its planner chooses, and one more B-tree would cost its import.
    public static let version7 = Migration(
        domain: "habits", version: 7, sql: "",
        dialects: [
            .postgresql: """
            DO $$
            DECLARE
                key_name text;
                first_column text;
            BEGIN
                SELECT k.conname::text, a.attname::text INTO key_name, first_column
                FROM pg_catalog.pg_constraint k
                JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
                WHERE k.conrelid = to_regclass('flow_contexts') AND k.contype = 'p';
                IF key_name IS NOT NULL AND first_column <> 'user_id' THEN
                    CREATE INDEX IF NOT EXISTS flow_contexts_flow_id_position_key ON flow_contexts (flow_id, position);
                    EXECUTE format(
                        'ALTER TABLE flow_contexts DROP CONSTRAINT %I, ADD PRIMARY KEY (user_id, flow_id, position)',
                        key_name);
                END IF;
            END $$;
            """
        ])

    /// Step 8: `habits_record_users`, the id of every user an activity record (task, flow, focus
    /// session, login, mood) was written for, filled here from the records already stored and kept
    /// by the importers since (`HabitsRecordUsers`). A report lists its users from it in one read
    /// (`HabitsRecordReader.userIds`) instead of seeking the distinct ids of five tables: a probe
    /// per user and table, 0.4-0.6 s of the nightly's day report on PostgreSQL at scale 1, and on
    /// Citus a `DISTINCT` on every shard of the five (a recursive seek is refused there), about
    /// 1 s. It may name more users than have records (one whose records all moved to another):
    /// such a user is read, has nothing, and is in no table of the report.
    ///
    /// On PostgreSQL one `DO` block that first sets `citus.multi_shard_modify_mode` to
    /// `sequential` for the transaction (as fleet step 3 does; PostgreSQL without Citus keeps the
    /// setting and ignores it): the read of every shard would otherwise run in parallel, after
    /// which Citus refuses the functions the migration's transaction creates next. On Citus the
    /// import that migrates then lays the table out with the others (`Database.layOut`: by
    /// `user_id`, next to `users`), as `report distribute` does.
    static let version8Tables = """
        CREATE TABLE habits_record_users (user_id TEXT NOT NULL PRIMARY KEY) STRICT, WITHOUT ROWID;
        INSERT INTO habits_record_users (user_id)
            SELECT DISTINCT user_id FROM tasks UNION SELECT DISTINCT user_id FROM flows
            UNION SELECT DISTINCT user_id FROM focus_sessions UNION SELECT DISTINCT user_id FROM logins
            UNION SELECT DISTINCT user_id FROM moods;
        """
    public static let version8 = Migration(
        domain: "habits", version: 8, sql: version8Tables,
        dialects: [
            .postgresql: """
            DO $$ BEGIN
                PERFORM set_config('citus.multi_shard_modify_mode', 'sequential', true);
            \(version8Tables)
            END $$
            """
        ])

    /// Step 9: the states of tasks and flows are checked by equalities on SQLite, not by an `IN`
    /// list, which SQLite evaluated by filling a temporary B-tree for every row it checked (30 % of
    /// the instructions of the 1M-task import's database thread; `Migration.init(domain:version:
    /// sqliteChecks:)`). Nothing changes on PostgreSQL.
    public static let version9 = Migration(
        domain: "habits", version: 9,
        sqliteChecks: [
            MembershipCheck(table: "tasks", column: "state", values: ["a_faire", "en_cours", "terminee"]),
            MembershipCheck(table: "flows", column: "etat", values: ["cree", "en_cours", "termine"]),
        ])

    /// Every habits migration, oldest first.
    public static let migrations: [Migration] = [
        version1, HabitsStreakStateSchema.version2, HabitsStreakStateSchema.version3, HabitsStreakStateSchema.version4,
        version5, HabitsStreakStateSchema.version6, version7, version8, version9,
    ]
}
