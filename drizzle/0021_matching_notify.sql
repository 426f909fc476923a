-- The rankings of potential matches (a mandate's 'Mandats potentiels', a member's
-- 'Opportunités') read the active mandates, their owners' profiles and the requests already
-- sent: each app instance keeps a ranking's rows until one of those tables is written
-- (decision 031), so every write to them notifies 'rt_matching' at commit. Statement-level
-- triggers: one notification per statement (PostgreSQL folds identical ones per transaction).
CREATE OR REPLACE FUNCTION rt_notify_matching() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rt_matching', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER mandates_matching
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mandates
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_matching();
--> statement-breakpoint
CREATE TRIGGER profiles_matching
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON profiles
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_matching();
--> statement-breakpoint
CREATE TRIGGER mandate_match_requests_matching
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mandate_match_requests
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_matching();
