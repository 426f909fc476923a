-- The back office's totals over whole tables (the recommendations' counts, the journal's) are
-- kept by each app instance (app/lib/count-cache.server.ts, decision 023): every write to those
-- tables notifies 'rt_admin_counts' at commit, and every instance listening drops its admin
-- totals. Statement-level triggers: one notification per statement (PostgreSQL folds identical
-- ones per transaction).
CREATE OR REPLACE FUNCTION rt_notify_admin_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rt_admin_counts', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER recommendations_admin_counts
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON recommendations
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_admin_counts();
--> statement-breakpoint
CREATE TRIGGER audit_log_admin_counts
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON audit_log
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_admin_counts();
