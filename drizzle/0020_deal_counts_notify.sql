-- The back office's pending deals are counted over the whole of certified_deals (the deals tab's
-- "N deals en attente de N membres"): that total joins the admin totals kept by each app instance
-- (decision 023), so every write to certified_deals notifies 'rt_admin_counts' at commit, as the
-- recommendations and the journal do (migration 0019).
CREATE TRIGGER certified_deals_admin_counts
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON certified_deals
FOR EACH STATEMENT EXECUTE FUNCTION rt_notify_admin_counts();
