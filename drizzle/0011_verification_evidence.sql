CREATE TABLE "verification_checks" (
	"profile_id" uuid NOT NULL,
	"step" text NOT NULL,
	"checked_by" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_checks_profile_id_step_pk" PRIMARY KEY("profile_id","step"),
	CONSTRAINT "verification_checks_step" CHECK ("verification_checks"."step" in ('charter', 'sponsors', 'registration', 'siren', 'insurance'))
);
--> statement-breakpoint
CREATE TABLE "verification_evidence" (
	"profile_id" uuid PRIMARY KEY NOT NULL,
	"siren_typed" text NOT NULL,
	"siren_digits" text NOT NULL,
	"registration_kind" text NOT NULL,
	"registration_value" text NOT NULL,
	"registration_year" integer,
	"insurer" text NOT NULL,
	"policy_number" text NOT NULL,
	"insurance_ends_on" date NOT NULL,
	"insurance_storage_key" text NOT NULL,
	"insurance_file_name" text NOT NULL,
	"insurance_content_type" text NOT NULL,
	"insurance_size_bytes" integer NOT NULL,
	"insurance_sha256" text NOT NULL,
	"insurance_uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_evidence_siren_digits" CHECK ("verification_evidence"."siren_digits" ~ '^([0-9]{9}|[0-9]{14})$')
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "verification_summary" jsonb;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "insurance_valid_until" date;--> statement-breakpoint
ALTER TABLE "verification_checks" ADD CONSTRAINT "verification_checks_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_checks" ADD CONSTRAINT "verification_checks_checked_by_user_id_fk" FOREIGN KEY ("checked_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_evidence" ADD CONSTRAINT "verification_evidence_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_evidence_ends_on_idx" ON "verification_evidence" USING btree ("insurance_ends_on");