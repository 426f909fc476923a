-- Issue 27 §6, decision 046: a mandate leaves the matching when its collaboration file is
-- concluded (confirmClosing now concludes both of the file's mandates in its transaction). The
-- mandates of files concluded before that rule, still in search or on hold, are concluded now,
-- each with the file timeline event the confirmation writes (« Mandat … conclu », no actor).
-- The status is compared as text and cast row by row: on a fresh database every migration runs in
-- one transaction, where PostgreSQL refuses a literal of the enum value added by 0008 (55P04).
WITH "done" AS (
  SELECT DISTINCT ON (m."id") m."id" AS "mandate_id", f."id" AS "file_id",
    CASE WHEN m."id" = f."mandate_a_id" THEN f."mandate_a_label" ELSE f."mandate_b_label" END AS "label",
    f."stage"::text AS "status"
  FROM "collaboration_files" AS f
  JOIN "mandates" AS m ON m."id" IN (f."mandate_a_id", f."mandate_b_id")
  WHERE f."stage"::text = 'concluded' AND m."status"::text <> 'concluded'
  ORDER BY m."id", f."concluded_at"
), "updated" AS (
  UPDATE "mandates" AS m SET "status" = "done"."status"::"mandate_status", "updated_at" = now()
  FROM "done" WHERE m."id" = "done"."mandate_id"
  RETURNING m."id"
)
INSERT INTO "collaboration_events" ("file_id", "actor_profile_id", "actor_name", "kind", "details", "created_at")
SELECT "done"."file_id", NULL, NULL, 'mandate_concluded', jsonb_build_object('name', "done"."label"), now()
FROM "done" JOIN "updated" ON "updated"."id" = "done"."mandate_id";
