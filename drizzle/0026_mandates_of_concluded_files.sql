-- Issue 27 §6, decision 046: a mandate leaves the matching when its collaboration file is
-- concluded (confirmClosing now concludes both of the file's mandates in its transaction). The
-- mandates of files concluded before that rule, still in search or on hold, are concluded now,
-- each with the file timeline event the confirmation writes (« Mandat … conclu », no actor).
WITH "done" AS (
  SELECT DISTINCT ON (m."id") m."id" AS "mandate_id", f."id" AS "file_id",
    CASE WHEN m."id" = f."mandate_a_id" THEN f."mandate_a_label" ELSE f."mandate_b_label" END AS "label"
  FROM "collaboration_files" AS f
  JOIN "mandates" AS m ON m."id" IN (f."mandate_a_id", f."mandate_b_id")
  WHERE f."stage" = 'concluded' AND m."status" <> 'concluded'
  ORDER BY m."id", f."concluded_at"
), "updated" AS (
  UPDATE "mandates" AS m SET "status" = 'concluded', "updated_at" = now()
  FROM "done" WHERE m."id" = "done"."mandate_id"
  RETURNING m."id"
)
INSERT INTO "collaboration_events" ("file_id", "actor_profile_id", "actor_name", "kind", "details", "created_at")
SELECT "done"."file_id", NULL, NULL, 'mandate_concluded', jsonb_build_object('name', "done"."label"), now()
FROM "done" JOIN "updated" ON "updated"."id" = "done"."mandate_id";
