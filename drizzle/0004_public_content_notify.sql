-- Anonymous public pages (landing, directory, profiles) are cached by each app instance. Every
-- write to the data they show notifies the channel 'rt_public_content' at commit, and every
-- instance listening on it drops its cache (app/lib/page-cache.server.ts). Statement-level
-- triggers: one notification per statement (PostgreSQL folds identical ones per transaction).
CREATE OR REPLACE FUNCTION rt_notify_public_content() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rt_public_content', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER profiles_public_content
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON profiles
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_public_content();
--> statement-breakpoint
CREATE TRIGGER certified_deals_public_content
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON certified_deals
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_public_content();
