-- The admin search matches words inside the accounts' e-mails (lower(email) like '%word%',
-- user_email_trgm_idx). With the default statistics of the indexed expression the planner
-- estimates ~1 % of the accounts for any word and reads the whole "user" table instead of the
-- index; a histogram of 1 000 entries gives it the real share (0.5 % for a common surname at
-- 100 000 accounts) and the plan reads the index. The next ANALYZE (autovacuum) uses it.
ALTER INDEX "user_email_trgm_idx" ALTER COLUMN 1 SET STATISTICS 1000;
