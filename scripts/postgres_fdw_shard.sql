-- Prepares a shard of the postgres_fdw layout (docs/SCALE.md, scripts/postgres_fdw_habits.sql):
-- run on every shard after its first `report import`, before the coordinator's script.
--
-- The coordinator keeps the streak cache (habits_streak_state) and its triggers (`changed`: the
-- change counter of releases before habits schema step 4); a shard's own copies of those triggers would fire for every
-- write of the coordinator, in a postgres_fdw session whose search_path is pg_catalog only, and fail. A shard keeps its tables, keys and
-- indexes, and nothing else runs on it.
DO $$
DECLARE
    activity text;
    suffix text;
BEGIN
    FOREACH activity IN ARRAY ARRAY['tasks', 'flows', 'focus_sessions'] LOOP
        FOREACH suffix IN ARRAY ARRAY['streak_state_inserted', 'streak_state_deleted', 'streak_state_updated',
                                      'changed'] LOOP
            EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', activity || '_' || suffix, activity);
        END LOOP;
    END LOOP;
END $$;
