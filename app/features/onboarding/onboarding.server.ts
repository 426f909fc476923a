// The joining journey (spec §4 "Onboarding"). Every command acts on the signed-in user's own
// profile only and checks that the step is open; the status never moves backwards.
import { and, count, eq, ne } from "drizzle-orm";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { profiles } from "~/db/schema";
import { profileSearchText } from "~/db/search-text";
import { listSponsors, replaceSponsors } from "../recommendations/recommendations.server";
import { advance, canRevisit, onboardingStep, remainingPlaces, type OnboardingStep } from "./onboarding-steps";
import type { Sponsor } from "~/features/recommendations/email-identity";
import { getOwnEvidence, profileHasEvidence, saveEvidence, type UploadedFile } from "../trust/verification.server";
import type { VerificationInput } from "../trust/verification.schema";
import type { z } from "zod";
import type { detailsSchema, profileCreationSchema } from "./onboarding.schema";
import { invalidate } from "~/lib/cache.server";
import { AppError } from "~/lib/errors/app-error";

type Profile = typeof profiles.$inferSelect;

async function ownProfile(userId: string): Promise<Profile | null> {
  const rows = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return rows[0] ?? null;
}

function stepClosed(): never {
  throw new AppError("conflict", "Cette étape n’est plus modifiable.");
}

/** The step shown, and whether `requested` may be reopened to be corrected. */
/** The steps that can be reopened, by their URL parameter (`/onboarding?etape=…`). */
const REOPENABLE_STEPS: Record<string, OnboardingStep> = { profil: "profile", details: "details", verification: "verification", recommandations: "recommendations" };
const STEP_PARAM = new Map(Object.entries(REOPENABLE_STEPS).map(([param, step]) => [step, param]));

export function resolveStep(
  profile: Profile | null,
  requested?: string | null,
  hasEvidence = true,
): { step: OnboardingStep; current: OnboardingStep; progress: number; revisiting: boolean } {
  const { step: current, progress } = onboardingStep(profile ? profile.onboardingStatus : null, hasEvidence);
  const target = requested ? REOPENABLE_STEPS[requested] : undefined;
  if (profile && target && canRevisit(current, target)) return { step: target, current, progress, revisiting: true };
  return { step: current, current, progress, revisiting: false };
}

export async function countValidatedPaidMembers(): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(profiles)
    .where(and(eq(profiles.profileStatus, "validated"), ne(profiles.membershipType, "freemium")));
  return Number(row?.n ?? 0);
}

export async function getRemainingPlaces(): Promise<number> {
  return remainingPlaces(await countValidatedPaidMembers());
}

export async function getOnboardingState(user: SessionUser, requested?: string | null) {
  const profile = await ownProfile(user.id);
  const evidence = profile ? await getOwnEvidence(profile.id) : null;
  const resolved = resolveStep(profile, requested, evidence !== null);
  const [places, sponsors] = await Promise.all([getRemainingPlaces(), profile ? listSponsors(profile.id) : Promise.resolve([])]);
  return {
    ...resolved,
    places,
    sponsors,
    evidence,
    profileId: profile?.id ?? null,
    profile: profile
      ? {
          firstName: profile.firstName,
          lastName: profile.lastName,
          company: profile.company,
          profession: profile.profession,
          college: profile.college,
          experienceDescription: profile.experienceDescription ?? "",
          recentOperations: profile.recentOperations ?? "",
          linkedinUrl: profile.linkedinUrl ?? "",
          charterSignedAt: profile.charterSignedAt?.toISOString() ?? null,
          profileStatus: profile.profileStatus,
          membershipType: profile.membershipType,
        }
      : null,
  };
}

async function isOpen(profile: Profile | null, step: OnboardingStep) {
  const evidence = profile ? await profileHasEvidence(profile.id) : false;
  return resolveStep(profile, STEP_PARAM.get(step), evidence).step === step;
}

export async function saveProfileIdentity(user: SessionUser, input: z.output<typeof profileCreationSchema>) {
  const profile = await ownProfile(user.id);
  const searchText = profileSearchText({ ...input, specializationSectors: profile?.specializationSectors ?? [] });
  if (!profile) {
    // New profiles await validation (spec §4); a concurrent double submit hits the unique index.
    invalidate("profiles");
    await db
      .insert(profiles)
      .values({ ...input, userId: user.id, searchText, onboardingStatus: "account_created", profileStatus: "pending_validation" })
      .onConflictDoNothing();
    return;
  }
  if (!(await isOpen(profile, "profile"))) stepClosed();
  invalidate("profiles");
  await db.update(profiles).set({ ...input, searchText, updatedAt: new Date() }).where(eq(profiles.id, profile.id));
}

export async function signCharter(user: SessionUser) {
  const profile = await ownProfile(user.id);
  if (!profile || !(await isOpen(profile, "charter"))) stepClosed();
  invalidate("profiles");
  await db
    .update(profiles)
    .set({ onboardingStatus: advance(profile.onboardingStatus, "charter_signed"), charterSignedAt: new Date(), updatedAt: new Date() })
    .where(eq(profiles.id, profile.id));
}

export async function saveDetails(user: SessionUser, input: z.output<typeof detailsSchema>) {
  const profile = await ownProfile(user.id);
  if (!profile || !(await isOpen(profile, "details"))) stepClosed();
  invalidate("profiles");
  await db
    .update(profiles)
    .set({
      experienceDescription: input.experienceDescription,
      recentOperations: input.recentOperations,
      linkedinUrl: input.linkedinUrl ?? null,
      onboardingStatus: advance(profile.onboardingStatus, "profile_completed"),
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, profile.id));
}

/** The verification evidence step: SIREN/SIRET, registration, insurance certificate. */
export async function saveVerification(user: SessionUser, input: VerificationInput, file: UploadedFile | null) {
  const profile = await ownProfile(user.id);
  if (!profile || !(await isOpen(profile, "verification"))) stepClosed();
  await saveEvidence(profile.id, input, file);
}

/** The member's profession and today's date, which the verification form's rules depend on. */
export async function getVerificationContext(user: SessionUser): Promise<{ profession: string } | null> {
  const profile = await ownProfile(user.id);
  return profile ? { profession: profile.profession } : null;
}

export async function saveSponsors(user: SessionUser, sponsors: Sponsor[]) {
  const profile = await ownProfile(user.id);
  if (!profile || !(await isOpen(profile, "recommendations"))) stepClosed();
  await db.transaction(async (tx) => {
    await replaceSponsors(tx, { profileId: profile.id, firstName: profile.firstName, lastName: profile.lastName, company: profile.company }, sponsors);
    invalidate("profiles");
    await tx
      .update(profiles)
      .set({ onboardingStatus: advance(profile.onboardingStatus, "recommendations_pending"), updatedAt: new Date() })
      .where(eq(profiles.id, profile.id));
  });
}

/** Free start: payment_completed with membership freemium (spec §4). */
export async function chooseFreeStart(user: SessionUser) {
  const profile = await ownProfile(user.id);
  if (!profile || onboardingStep(profile.onboardingStatus).step !== "payment") stepClosed();
  invalidate("profiles");
  await db
    .update(profiles)
    .set({ onboardingStatus: "payment_completed", membershipType: "freemium", updatedAt: new Date() })
    .where(and(eq(profiles.id, profile.id), eq(profiles.onboardingStatus, "recommendations_pending")));
}

export async function getOwnProfileForPayment(user: SessionUser) {
  const profile = await ownProfile(user.id);
  if (!profile || onboardingStep(profile.onboardingStatus).step !== "payment") stepClosed();
  return profile;
}
