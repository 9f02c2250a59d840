-- Prepares a shard of the postgres_fdw layout (docs/SCALE.md, scripts/postgres_fdw_habits.sql):
-- run on every shard after its first `report import`, before the coordinator's script.
--
-- The coordinator keeps the streak cache (habits_streak_state), its change counter
-- (habits_changes) and their triggers; a shard's own copies of those triggers would fire for every
-- write of the coordinator, in a postgres_fdw session whose search_path is pg_catalog only, and fail. A shard keeps its tables, keys and
-- indexes, and nothing else runs on it.
DROP TRIGGER IF EXISTS tasks_streak_state ON tasks;
DROP TRIGGER IF EXISTS flows_streak_state ON flows;
DROP TRIGGER IF EXISTS focus_sessions_streak_state ON focus_sessions;
DROP TRIGGER IF EXISTS tasks_changed ON tasks;
DROP TRIGGER IF EXISTS flows_changed ON flows;
DROP TRIGGER IF EXISTS focus_sessions_changed ON focus_sessions;
