-- Spreads the habits activity tables of a `report` PostgreSQL database over shard servers with
-- postgres_fdw (docs/SCALE.md): each of tasks, flows, focus_sessions, logins and moods becomes a
-- table partitioned by HASH (user_id) whose partitions are foreign tables, one per shard, so that
-- every user's rows live on one shard and `report` keeps talking to the coordinator only.
--
-- Before running it, on the coordinator and on every shard, `report import` once (any file) so that
-- each holds `report`'s schema; then, on the coordinator, one foreign server per shard named shard1 … shardN with a user mapping:
--   CREATE EXTENSION postgres_fdw;
--   CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '…', port '5432', dbname 'report');
--   CREATE USER MAPPING FOR CURRENT_USER SERVER shard1 OPTIONS (user 'report', password '…');
-- and run this file on the coordinator (psql -f). Rows already in the coordinator's tables move to
-- the shards. Small tables (users, flow_contexts, import_log, …) stay on the coordinator.
--
-- Tested by Tests/ReportCLITests/ShardedPostgresTests.swift (three local servers).
CREATE EXTENSION IF NOT EXISTS postgres_fdw;

DO $$
DECLARE
    shard_count int;
    activity text;
    shard int;
BEGIN
    SELECT count(*) INTO shard_count FROM pg_foreign_server WHERE srvname ~ '^shard[0-9]+$';
    IF shard_count = 0 THEN
        RAISE EXCEPTION 'no foreign server named shard1 … shardN: create them first (docs/SCALE.md)';
    END IF;
    FOREACH activity IN ARRAY ARRAY['tasks', 'flows', 'focus_sessions', 'logins', 'moods'] LOOP
        EXECUTE format('ALTER TABLE %I RENAME TO %I', activity, activity || '_unsharded');
        -- Columns, NOT NULL and CHECK constraints as `report` made them; no key and no index here:
        -- a partitioned table with foreign partitions can have neither (each shard has both).
        EXECUTE format(
            'CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY HASH (user_id)',
            activity, activity || '_unsharded');
        FOR shard IN 1..shard_count LOOP
            EXECUTE format(
                'CREATE FOREIGN TABLE %I PARTITION OF %I FOR VALUES WITH (MODULUS %s, REMAINDER %s) '
                    || 'SERVER %I OPTIONS (table_name %L)',
                activity || '_shard' || shard, activity, shard_count, shard - 1, 'shard' || shard, activity);
        END LOOP;
        EXECUTE format('INSERT INTO %I SELECT * FROM %I', activity, activity || '_unsharded');
        EXECUTE format('DROP TABLE %I', activity || '_unsharded');
    END LOOP;
END $$;

-- No trigger to put back: the importer keeps the streak cache (habits_streak_state, on the
-- coordinator) right itself (habits schema step 6), through the coordinator, as on one server.
