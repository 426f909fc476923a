-- Issue 27: the "Profil vérifié" summary of every validated member is rewritten from the checks the
-- team actually ticked (as writeVerificationSummary does), so that no member keeps a mark from a
-- step never checked (the seed wrote five steps without evidence) or from a certificate replaced
-- since (renewals did not rewrite it). The insurance end date is the checked certificate's only.
UPDATE "profiles" AS p
SET
  "verification_summary" = jsonb_build_object(
    'steps',
    coalesce(
      (
        SELECT jsonb_agg(
          jsonb_build_object('step', c."step", 'checkedAt', to_char(c."checked_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
          ORDER BY array_position(ARRAY['charter', 'sponsors', 'registration', 'siren', 'insurance']::text[], c."step")
        )
        FROM "verification_checks" AS c
        WHERE c."profile_id" = p."id"
      ),
      '[]'::jsonb
    )
  ),
  "insurance_valid_until" = (
    SELECT e."insurance_ends_on"
    FROM "verification_evidence" AS e
    WHERE e."profile_id" = p."id"
      AND EXISTS (SELECT 1 FROM "verification_checks" AS c WHERE c."profile_id" = p."id" AND c."step" = 'insurance')
  )
WHERE p."profile_status" = 'validated';
