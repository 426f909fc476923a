CREATE TYPE "public"."invoice_kind" AS ENUM('invoice', 'credit_note');--> statement-breakpoint
CREATE TABLE "billing_details" (
	"profile_id" uuid PRIMARY KEY NOT NULL,
	"company" text NOT NULL,
	"address" text NOT NULL,
	"siren" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "invoice_counters_series_year_pk" PRIMARY KEY("series","year")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "invoice_kind" NOT NULL,
	"number" text NOT NULL,
	"profile_id" uuid,
	"payment_id" uuid,
	"credited_invoice_id" uuid,
	"seller" jsonb NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_company" text NOT NULL,
	"buyer_address" text,
	"buyer_email" text NOT NULL,
	"buyer_siren" text,
	"designation" text NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"unit_ht_cents" integer NOT NULL,
	"ht_cents" integer NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"ttc_cents" integer NOT NULL,
	"currency" text DEFAULT 'eur' NOT NULL,
	"vat_franchise" boolean DEFAULT false NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"receipt_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_amounts" CHECK ("invoices"."ht_cents" + "invoices"."vat_cents" = "invoices"."ttc_cents" and "invoices"."ttc_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_url" text;--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credited_invoice_id_invoices_id_fk" FOREIGN KEY ("credited_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_payment_kind_key" ON "invoices" USING btree ("payment_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_credited_key" ON "invoices" USING btree ("credited_invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_profile_idx" ON "invoices" USING btree ("profile_id","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_intent_idx" ON "payments" USING btree ("payment_intent_id");