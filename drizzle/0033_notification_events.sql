CREATE TABLE "email_digests" (
	"user_id" text NOT NULL,
	"frequency" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"up_to" timestamp with time zone NOT NULL,
	"notification_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_digests_user_id_frequency_period_start_pk" PRIMARY KEY("user_id","frequency","period_start")
);
--> statement-breakpoint
CREATE TABLE "email_preferences" (
	"user_id" text NOT NULL,
	"email_kind" text NOT NULL,
	"frequency" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_preferences_user_id_email_kind_pk" PRIMARY KEY("user_id","email_kind"),
	CONSTRAINT "email_preferences_frequency_check" CHECK ("email_preferences"."frequency" in ('immediate', 'daily', 'weekly', 'off'))
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "todo" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_digests" ADD CONSTRAINT "email_digests_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_preferences" ADD CONSTRAINT "email_preferences_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_user_todo_idx" ON "notifications" USING btree ("user_id","todo") WHERE "notifications"."todo" is not null and "notifications"."done_at" is null;--> statement-breakpoint
-- A member who had switched an e-mail off keeps it off under the preference that now holds it.
INSERT INTO "email_preferences" ("user_id", "email_kind", "frequency")
SELECT p."user_id", k.kind, 'off' FROM "profiles" p
CROSS JOIN LATERAL (VALUES ('messages', p."notify_messages"), ('match_requests', p."notify_match_requests"), ('match_alerts', p."notify_match_alerts")) AS k(kind, wanted)
WHERE k.wanted = false
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- What members had waiting before the to-dos existed becomes their open to-dos (read: not news).
INSERT INTO "notifications" ("user_id", "kind", "title", "link", "todo", "read_at", "created_at")
SELECT p."user_id", 'match_request', 'Demande de mise en relation en attente', '/mandates?matching=' || r."target_mandate_id", 'match_request:' || r."id", now(), r."created_at"
FROM "mandate_match_requests" r JOIN "mandates" m ON m."id" = r."target_mandate_id" JOIN "profiles" p ON p."id" = m."profile_id"
WHERE r."status" = 'pending';
--> statement-breakpoint
INSERT INTO "notifications" ("user_id", "kind", "title", "link", "todo", "read_at", "created_at")
SELECT p."user_id", 'connection_confirmed', 'Engagement de confidentialité à signer', '/mandates?matching=' || r."target_mandate_id",
  'connection_confirmed:' || r."target_mandate_id" || ':' || r."requester_mandate_id", now(), coalesce(r."responded_at", r."created_at")
FROM "mandate_match_requests" r JOIN "mandates" m ON m."id" = r."target_mandate_id" JOIN "profiles" p ON p."id" = m."profile_id"
WHERE r."status" = 'accepted'
  AND EXISTS (SELECT 1 FROM "mandate_match_requests" back WHERE back."requester_mandate_id" = r."target_mandate_id"
    AND back."target_mandate_id" = r."requester_mandate_id" AND back."status" = 'accepted')
  AND NOT EXISTS (SELECT 1 FROM "connection_events" e WHERE e."match_request_id" = r."id"
    AND e."event" = 'undertaking_signed' AND e."actor_profile_id" = m."profile_id");
--> statement-breakpoint
INSERT INTO "notifications" ("user_id", "kind", "title", "link", "todo", "read_at", "created_at")
SELECT p."user_id", 'closing_proposed', 'Conclusion de dossier à confirmer', '/dashboard/dossiers/' || f."id", 'closing_proposed:' || f."id", now(), coalesce(f."closing_proposed_at", now())
FROM "collaboration_files" f
JOIN "profiles" p ON p."id" = CASE WHEN f."member_a_id" = f."closing_proposed_by" THEN f."member_b_id" ELSE f."member_a_id" END
WHERE f."closing_proposed_by" IS NOT NULL AND f."stage" NOT IN ('concluded', 'abandoned');
--> statement-breakpoint
INSERT INTO "notifications" ("user_id", "kind", "title", "link", "todo", "read_at", "created_at")
SELECT p."user_id", 'agreement_to_sign', 'Convention d’honoraires à signer', '/dashboard/dossiers/' || f."id", 'agreement_to_sign:' || f."id", now(), a."created_at"
FROM "fee_agreements" a JOIN "collaboration_files" f ON f."id" = a."file_id"
JOIN "profiles" p ON p."id" IN (f."member_a_id", f."member_b_id")
WHERE a."status" = 'pending' AND f."stage" NOT IN ('concluded', 'abandoned')
  AND NOT EXISTS (SELECT 1 FROM "fee_agreement_signatures" s WHERE s."agreement_id" = a."id" AND s."profile_id" = p."id");
