-- The directory's count with filters (department, sector, profession) as an index-only scan:
-- the department in the key, the other filter columns included. On 100 000 profiles, department
-- + sector went from a bitmap heap scan of ~4 000 pages (15–60 ms) to ~150 index pages (2–5 ms).
-- Drizzle's index builder has no INCLUDE: this index lives only in this migration.
CREATE INDEX IF NOT EXISTS "profiles_department_cover_idx" ON "profiles" USING btree ("location_department") INCLUDE ("specialization_sectors", "profession", "conseil_type") WHERE "profile_status" = 'validated';
