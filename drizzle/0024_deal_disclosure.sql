-- Issue 27 §5: a certified deal names its parties publicly only when the member chose to and
-- certified their consent; otherwise the public sees sector, size band, region and year.
-- Existing deals become "anonymised": no consent was ever recorded for them.
ALTER TABLE "certified_deals" ADD COLUMN "disclosure" text DEFAULT 'anonymised' NOT NULL;--> statement-breakpoint
ALTER TABLE "certified_deals" ADD COLUMN "size_band" text;--> statement-breakpoint
ALTER TABLE "certified_deals" ADD COLUMN "region" text;--> statement-breakpoint
ALTER TABLE "certified_deals" ADD COLUMN "parties_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certified_deals" ADD CONSTRAINT "certified_deals_disclosure_check" CHECK ("certified_deals"."disclosure" in ('named', 'anonymised'));--> statement-breakpoint
ALTER TABLE "certified_deals" ADD CONSTRAINT "certified_deals_named_consent_check" CHECK ("certified_deals"."disclosure" <> 'named' or "certified_deals"."parties_consent_at" is not null);
