CREATE TYPE "public"."app_role" AS ENUM('admin');--> statement-breakpoint
CREATE TYPE "public"."college" AS ENUM('transmission_entreprises', 'transmission_commerces');--> statement-breakpoint
CREATE TYPE "public"."connection_event" AS ENUM('requested', 'accepted', 'rejected', 'undertaking_signed', 'revealed');--> statement-breakpoint
CREATE TYPE "public"."deal_status" AS ENUM('pending', 'validated', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."ma_usage" AS ENUM('primo_buyer', 'recurrent_buyer', 'structured_ma');--> statement-breakpoint
CREATE TYPE "public"."mandate_status" AS ENUM('active', 'on_hold', 'expired');--> statement-breakpoint
CREATE TYPE "public"."mandate_type" AS ENUM('buyer', 'seller');--> statement-breakpoint
CREATE TYPE "public"."match_request_status" AS ENUM('pending', 'accepted', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."membership_type" AS ENUM('freemium', 'premium', 'founding_member');--> statement-breakpoint
CREATE TYPE "public"."message_type" AS ENUM('public_contact', 'internal');--> statement-breakpoint
CREATE TYPE "public"."onboarding_status" AS ENUM('account_created', 'charter_signed', 'profile_completed', 'recommendations_pending', 'payment_completed', 'validated');--> statement-breakpoint
CREATE TYPE "public"."outbox_status" AS ENUM('pending', 'sending', 'sent', 'failed');--> statement-breakpoint
CREATE TYPE "public"."payment_status" AS ENUM('pending', 'paid', 'canceled', 'refunded');--> statement-breakpoint
CREATE TYPE "public"."profession" AS ENUM('avocat_affaires', 'avocat_fiscaliste', 'notaire', 'expert_comptable', 'commissaire_aux_comptes', 'conseiller_patrimoine', 'conseil_ma', 'conseil_levee_fonds', 'conseil_cession_commerce', 'conseil_immobilier_commercial', 'expert_evaluation');--> statement-breakpoint
CREATE TYPE "public"."profile_status" AS ENUM('pending_validation', 'validated', 'rejected', 'suspended');--> statement-breakpoint
CREATE TYPE "public"."project_timeline" AS ENUM('3_months', '6_months', '9_months', '12_months', '24_months');--> statement-breakpoint
CREATE TYPE "public"."target_buyer_type" AS ENUM('same_industry', 'investment_fund', 'company', 'individual_entrepreneur', 'other');--> statement-breakpoint
CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limit_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "two_factor" (
	"id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"user_id" text NOT NULL,
	"verified" boolean DEFAULT true,
	"failed_verification_count" integer DEFAULT 0,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"two_factor_enabled" boolean DEFAULT false,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_user_id" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to_address" text NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text,
	"status" "outbox_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certified_deals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"sector" text NOT NULL,
	"acquirer_cedant" text NOT NULL,
	"deal_description" text,
	"status" "deal_status" DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"validated_at" timestamp with time zone,
	"validated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certified_deals_year_check" CHECK ("certified_deals"."year" between 1900 and 2200)
);
--> statement-breakpoint
CREATE TABLE "connection_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_request_id" uuid NOT NULL,
	"actor_profile_id" uuid,
	"event" "connection_event" NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"company" text,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mandate_match_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"requester_mandate_id" uuid NOT NULL,
	"target_mandate_id" uuid NOT NULL,
	"requester_profile_id" uuid NOT NULL,
	"message" text,
	"status" "match_request_status" DEFAULT 'pending' NOT NULL,
	"responded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mandate_match_requests_pair_key" UNIQUE("requester_mandate_id","target_mandate_id"),
	CONSTRAINT "mandate_match_requests_distinct_check" CHECK ("mandate_match_requests"."requester_mandate_id" <> "mandate_match_requests"."target_mandate_id")
);
--> statement-breakpoint
CREATE TABLE "mandates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"mandate_type" "mandate_type" NOT NULL,
	"is_exclusive" boolean DEFAULT false NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"client_code" text NOT NULL,
	"client_name" text NOT NULL,
	"client_address" text NOT NULL,
	"description" text,
	"status" "mandate_status" DEFAULT 'active' NOT NULL,
	"search_sectors" text[],
	"search_territories" text[],
	"target_amount_min" bigint,
	"target_amount_max" bigint,
	"contribution_min" bigint,
	"contribution_max" bigint,
	"ma_usage" "ma_usage",
	"company_sector" text,
	"company_territory" text,
	"company_description" text,
	"valuation_amount" bigint,
	"required_contribution_min" bigint,
	"required_contribution_max" bigint,
	"project_timeline" "project_timeline",
	"target_buyer_types" "target_buyer_type"[],
	"expiry_reminder_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mandates_dates_check" CHECK ("mandates"."end_date" > "mandates"."start_date"),
	CONSTRAINT "mandates_amounts_check" CHECK (coalesce("mandates"."target_amount_min", 0) >= 0 and coalesce("mandates"."target_amount_max", 0) >= 0
        and coalesce("mandates"."contribution_min", 0) >= 0 and coalesce("mandates"."contribution_max", 0) >= 0
        and coalesce("mandates"."valuation_amount", 0) >= 0 and coalesce("mandates"."required_contribution_min", 0) >= 0
        and coalesce("mandates"."required_contribution_max", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sender_id" uuid,
	"recipient_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"content" text NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"sender_name" text NOT NULL,
	"sender_email" text NOT NULL,
	"message_type" "message_type" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"checkout_session_id" text NOT NULL,
	"status" "payment_status" DEFAULT 'pending' NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'eur' NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_provider_session_key" UNIQUE("provider","checkout_session_id")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"company" text NOT NULL,
	"profession" "profession" NOT NULL,
	"college" "college" NOT NULL,
	"onboarding_status" "onboarding_status" DEFAULT 'account_created' NOT NULL,
	"charter_signed_at" timestamp with time zone,
	"linkedin_url" text,
	"experience_description" text,
	"recent_operations" text,
	"location_city" text,
	"location_department" text,
	"full_address" text,
	"specialization_sectors" text[] DEFAULT '{}'::text[] NOT NULL,
	"detailed_presentation" text,
	"internal_presentation" text,
	"logo_url" text,
	"photo_url" text,
	"conseil_type" text,
	"membership_type" "membership_type" DEFAULT 'freemium' NOT NULL,
	"profile_status" "profile_status" DEFAULT 'pending_validation' NOT NULL,
	"validated_at" timestamp with time zone,
	"validated_by" text,
	"rejection_reason" text,
	"suspended_at" timestamp with time zone,
	"search_text" text DEFAULT '' NOT NULL,
	"notify_messages" boolean DEFAULT true NOT NULL,
	"notify_match_requests" boolean DEFAULT true NOT NULL,
	"notify_match_alerts" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recommendations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"sponsor_name" text NOT NULL,
	"sponsor_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "recommendations_profile_sponsor_key" UNIQUE("profile_id","sponsor_email")
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"role" "app_role" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_user_role_key" UNIQUE("user_id","role")
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factor" ADD CONSTRAINT "two_factor_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certified_deals" ADD CONSTRAINT "certified_deals_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certified_deals" ADD CONSTRAINT "certified_deals_validated_by_user_id_fk" FOREIGN KEY ("validated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_events" ADD CONSTRAINT "connection_events_match_request_id_mandate_match_requests_id_fk" FOREIGN KEY ("match_request_id") REFERENCES "public"."mandate_match_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_events" ADD CONSTRAINT "connection_events_actor_profile_id_profiles_id_fk" FOREIGN KEY ("actor_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandate_match_requests" ADD CONSTRAINT "mandate_match_requests_requester_mandate_id_mandates_id_fk" FOREIGN KEY ("requester_mandate_id") REFERENCES "public"."mandates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandate_match_requests" ADD CONSTRAINT "mandate_match_requests_target_mandate_id_mandates_id_fk" FOREIGN KEY ("target_mandate_id") REFERENCES "public"."mandates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandate_match_requests" ADD CONSTRAINT "mandate_match_requests_requester_profile_id_profiles_id_fk" FOREIGN KEY ("requester_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_profiles_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_recipient_id_profiles_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_validated_by_user_id_fk" FOREIGN KEY ("validated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendations" ADD CONSTRAINT "recommendations_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_id_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "session_user_id_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "two_factor_user_id_idx" ON "two_factor" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "two_factor_secret_idx" ON "two_factor" USING btree ("secret");--> statement-breakpoint
CREATE INDEX "verification_identifier_idx" ON "verification" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_dedupe_key" ON "mail_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "certified_deals_profile_idx" ON "certified_deals" USING btree ("profile_id","year" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "certified_deals_pending_idx" ON "certified_deals" USING btree ("created_at") WHERE "certified_deals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "connection_events_request_idx" ON "connection_events" USING btree ("match_request_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_messages_created_idx" ON "contact_messages" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mandate_match_requests_target_idx" ON "mandate_match_requests" USING btree ("target_mandate_id");--> statement-breakpoint
CREATE INDEX "mandate_match_requests_requester_profile_idx" ON "mandate_match_requests" USING btree ("requester_profile_id");--> statement-breakpoint
CREATE INDEX "mandates_profile_created_idx" ON "mandates" USING btree ("profile_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mandates_matching_idx" ON "mandates" USING btree ("mandate_type","end_date") WHERE "mandates"."status" = 'active';--> statement-breakpoint
CREATE INDEX "mandates_company_sector_idx" ON "mandates" USING btree ("company_sector") WHERE "mandates"."status" = 'active';--> statement-breakpoint
CREATE INDEX "mandates_search_sectors_idx" ON "mandates" USING gin ("search_sectors");--> statement-breakpoint
CREATE INDEX "messages_recipient_idx" ON "messages" USING btree ("recipient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_sender_idx" ON "messages" USING btree ("sender_id");--> statement-breakpoint
CREATE INDEX "payments_profile_idx" ON "payments" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_user_id_key" ON "profiles" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "profiles_directory_idx" ON "profiles" USING btree (("membership_type" = 'freemium'),"created_at" DESC NULLS LAST) WHERE "profiles"."profile_status" = 'validated';--> statement-breakpoint
CREATE INDEX "profiles_department_idx" ON "profiles" USING btree ("location_department") WHERE "profiles"."profile_status" = 'validated';--> statement-breakpoint
CREATE INDEX "profiles_sectors_idx" ON "profiles" USING gin ("specialization_sectors");--> statement-breakpoint
CREATE INDEX "profiles_search_trgm_idx" ON "profiles" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_status_created_idx" ON "profiles" USING btree ("profile_status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recommendations_created_idx" ON "recommendations" USING btree ("created_at" DESC NULLS LAST);