-- The signed-in member's guard results (session, user, profile, admin role) are kept a few
-- seconds by each app instance (app/lib/guard-cache.server.ts, decision 018). Every write to
-- what they are read from notifies 'rt_member_guard' at commit with the user ids concerned
-- (comma-separated), or '*' when a statement touches more than 100 users or empties a table;
-- each instance drops those users' entries. Statement-level triggers with transition tables
-- (named changed_rows): one notification per statement, whatever the number of rows.
CREATE OR REPLACE FUNCTION rt_notify_member_guard_ids(n bigint, ids text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF n > 100 THEN
    PERFORM pg_notify('rt_member_guard', '*');
  ELSIF n > 0 THEN
    PERFORM pg_notify('rt_member_guard', ids);
  END IF;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rt_notify_member_guard_by_user_id() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  ids text;
BEGIN
  SELECT count(DISTINCT user_id), string_agg(DISTINCT user_id, ',') INTO n, ids FROM changed_rows;
  PERFORM rt_notify_member_guard_ids(n, ids);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rt_notify_member_guard_user() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  ids text;
BEGIN
  SELECT count(DISTINCT id), string_agg(DISTINCT id, ',') INTO n, ids FROM changed_rows;
  PERFORM rt_notify_member_guard_ids(n, ids);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rt_notify_member_guard_all() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rt_member_guard', '*');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER session_member_guard_update AFTER UPDATE ON session
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_by_user_id();
--> statement-breakpoint
CREATE TRIGGER session_member_guard_delete AFTER DELETE ON session
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_by_user_id();
--> statement-breakpoint
CREATE TRIGGER user_member_guard_update AFTER UPDATE ON "user"
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_user();
--> statement-breakpoint
CREATE TRIGGER user_member_guard_delete AFTER DELETE ON "user"
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_user();
--> statement-breakpoint
CREATE TRIGGER profiles_member_guard_insert AFTER INSERT ON profiles
REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_by_user_id();
--> statement-breakpoint
CREATE TRIGGER profiles_member_guard_update AFTER UPDATE ON profiles
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_by_user_id();
--> statement-breakpoint
CREATE TRIGGER profiles_member_guard_delete AFTER DELETE ON profiles
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_by_user_id();
--> statement-breakpoint
CREATE TRIGGER user_roles_member_guard_insert AFTER INSERT ON user_roles
REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_by_user_id();
--> statement-breakpoint
CREATE TRIGGER user_roles_member_guard_update AFTER UPDATE ON user_roles
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_by_user_id();
--> statement-breakpoint
CREATE TRIGGER user_roles_member_guard_delete AFTER DELETE ON user_roles
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_by_user_id();
--> statement-breakpoint
CREATE TRIGGER session_member_guard_truncate AFTER TRUNCATE ON session
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_all();
--> statement-breakpoint
CREATE TRIGGER user_member_guard_truncate AFTER TRUNCATE ON "user"
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_all();
--> statement-breakpoint
CREATE TRIGGER profiles_member_guard_truncate AFTER TRUNCATE ON profiles
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_all();
--> statement-breakpoint
CREATE TRIGGER user_roles_member_guard_truncate AFTER TRUNCATE ON user_roles
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_member_guard_all();
