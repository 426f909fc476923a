-- Issue 13, items 7 and 8. Mandates gain two states: 'negotiating' (taken out of the matching
-- while an offer is under way on one of its files) and 'concluded' (terminal, after the closing of
-- a file). Nothing in this migration uses the new values: PostgreSQL refuses a value added in the
-- same transaction, and drizzle's migrator applies pending migrations in one transaction.
ALTER TYPE "public"."mandate_status" ADD VALUE 'negotiating';--> statement-breakpoint
ALTER TYPE "public"."mandate_status" ADD VALUE 'concluded';--> statement-breakpoint
-- Public profiles show "N rapprochements conclus via le réseau": the anonymous page cache is
-- dropped (rt_public_content, migration 0004) when a file enters or leaves the concluded stage,
-- or a concluded file is deleted. Row triggers with a WHEN clause: the many other writes to
-- collaboration_files (activity, read marks, stages before the closing) notify no one, and
-- PostgreSQL folds identical notifications of one transaction into one.
CREATE TRIGGER collaboration_files_concluded_insert
AFTER INSERT ON collaboration_files
FOR EACH ROW WHEN (NEW.stage = 'concluded')
EXECUTE FUNCTION rt_notify_public_content();
--> statement-breakpoint
CREATE TRIGGER collaboration_files_concluded_update
AFTER UPDATE ON collaboration_files
FOR EACH ROW WHEN ((OLD.stage = 'concluded') IS DISTINCT FROM (NEW.stage = 'concluded'))
EXECUTE FUNCTION rt_notify_public_content();
--> statement-breakpoint
CREATE TRIGGER collaboration_files_concluded_delete
AFTER DELETE ON collaboration_files
FOR EACH ROW WHEN (OLD.stage = 'concluded')
EXECUTE FUNCTION rt_notify_public_content();
--> statement-breakpoint
CREATE TRIGGER collaboration_files_public_content_truncate
AFTER TRUNCATE ON collaboration_files
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_public_content();
