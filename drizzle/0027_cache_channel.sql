-- One channel for every cache of the app instances (decision 048, app/lib/cache.server.ts):
-- 'rt_cache' carries cache tags at commit. The statement-level triggers of migrations 0004, 0010,
-- 0014, 0019, 0020 and 0021 notified three channels ('rt_public_content', 'rt_admin_counts',
-- 'rt_matching'); they now name the table written on 'rt_cache', and each cache drops itself when
-- one of its tables is named. The member guard's notifications (migration 0015) and the
-- notifications' (0013) keep their channels for the live streams and add "user:<id>" (or "guard"
-- for more than 100 users) and "notifications:<user id>" on 'rt_cache'.
CREATE OR REPLACE FUNCTION rt_notify_cache() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rt_cache', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER profiles_public_content ON profiles;
--> statement-breakpoint
DROP TRIGGER profiles_matching ON profiles;
--> statement-breakpoint
CREATE TRIGGER profiles_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON profiles
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
DROP TRIGGER certified_deals_public_content ON certified_deals;
--> statement-breakpoint
DROP TRIGGER certified_deals_admin_counts ON certified_deals;
--> statement-breakpoint
CREATE TRIGGER certified_deals_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON certified_deals
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
DROP TRIGGER collaboration_files_concluded_insert ON collaboration_files;
--> statement-breakpoint
DROP TRIGGER collaboration_files_concluded_update ON collaboration_files;
--> statement-breakpoint
DROP TRIGGER collaboration_files_concluded_delete ON collaboration_files;
--> statement-breakpoint
DROP TRIGGER collaboration_files_public_content_truncate ON collaboration_files;
--> statement-breakpoint
CREATE TRIGGER collaboration_files_concluded_insert AFTER INSERT ON collaboration_files
FOR EACH ROW WHEN (NEW.stage = 'concluded') EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
CREATE TRIGGER collaboration_files_concluded_update AFTER UPDATE ON collaboration_files
FOR EACH ROW WHEN ((OLD.stage = 'concluded') IS DISTINCT FROM (NEW.stage = 'concluded')) EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
CREATE TRIGGER collaboration_files_concluded_delete AFTER DELETE ON collaboration_files
FOR EACH ROW WHEN (OLD.stage = 'concluded') EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
CREATE TRIGGER collaboration_files_cache_truncate AFTER TRUNCATE ON collaboration_files
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
DROP TRIGGER member_reputation_public_content ON member_reputation;
--> statement-breakpoint
CREATE TRIGGER member_reputation_cache AFTER INSERT OR UPDATE OR DELETE ON member_reputation
FOR EACH ROW EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
DROP TRIGGER recommendations_admin_counts ON recommendations;
--> statement-breakpoint
CREATE TRIGGER recommendations_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON recommendations
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
DROP TRIGGER audit_log_admin_counts ON audit_log;
--> statement-breakpoint
CREATE TRIGGER audit_log_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON audit_log
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
DROP TRIGGER mandates_matching ON mandates;
--> statement-breakpoint
CREATE TRIGGER mandates_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mandates
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
DROP TRIGGER mandate_match_requests_matching ON mandate_match_requests;
--> statement-breakpoint
CREATE TRIGGER mandate_match_requests_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mandate_match_requests
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_cache();
--> statement-breakpoint
DROP FUNCTION rt_notify_public_content();
--> statement-breakpoint
DROP FUNCTION rt_notify_admin_counts();
--> statement-breakpoint
DROP FUNCTION rt_notify_matching();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rt_notify_member_guard_ids(n bigint, ids text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF n > 100 THEN
    PERFORM pg_notify('rt_member_guard', '*');
    PERFORM pg_notify('rt_cache', 'guard');
  ELSIF n > 0 THEN
    PERFORM pg_notify('rt_member_guard', ids);
    PERFORM pg_notify('rt_cache', 'user:' || replace(ids, ',', ',user:'));
  END IF;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rt_notify_member_guard_all() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rt_member_guard', '*');
  PERFORM pg_notify('rt_cache', 'guard');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rt_notify_notifications() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rt_notifications', NEW.user_id);
  PERFORM pg_notify('rt_cache', 'notifications:' || NEW.user_id);
  RETURN NULL;
END;
$$;
