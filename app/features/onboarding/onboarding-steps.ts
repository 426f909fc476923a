// Onboarding step and progress from onboarding_status (spec §4). Pure.
export type OnboardingStep = "profile" | "charter" | "details" | "verification" | "recommendations" | "payment" | "waiting" | "done";

export const ONBOARDING_STATUSES = [
  "account_created",
  "charter_signed",
  "profile_completed",
  "recommendations_pending",
  "payment_completed",
  "validated",
] as const;
export type OnboardingStatus = (typeof ONBOARDING_STATUSES)[number];

const BY_STATUS: Record<OnboardingStatus, { step: OnboardingStep; progress: number }> = {
  account_created: { step: "charter", progress: 0 },
  charter_signed: { step: "details", progress: 20 },
  profile_completed: { step: "recommendations", progress: 40 },
  recommendations_pending: { step: "payment", progress: 60 },
  payment_completed: { step: "waiting", progress: 80 },
  validated: { step: "done", progress: 100 },
};

/**
 * No profile, or any unknown status, shows the profile creation form at 0 %. The verification
 * evidence is a step of its own between the details and the sponsors, without a status
 * of its own: at profile_completed, a member without evidence sees it, at the same 40 % as the
 * sponsors step (the specification's progress values stay).
 */
export function onboardingStep(status: string | null | undefined, hasEvidence = true): { step: OnboardingStep; progress: number } {
  if (status === "profile_completed" && !hasEvidence) return { step: "verification", progress: BY_STATUS.profile_completed.progress };
  if (status && Object.hasOwn(BY_STATUS, status)) return BY_STATUS[status as OnboardingStatus];
  return { step: "profile", progress: 0 };
}

/** Where each editable step sits in the journey (to allow going back before payment). */
const STEP_ORDER: OnboardingStep[] = ["profile", "charter", "details", "verification", "recommendations", "payment", "waiting", "done"];

export function stepIndex(step: OnboardingStep) {
  return STEP_ORDER.indexOf(step);
}

/**
 * A member may reopen an earlier step to correct it while they have not paid (or chosen the
 * free start): the charter cannot be "un-signed", so only profile, details, verification evidence
 * and sponsors reopen.
 */
export function canRevisit(current: OnboardingStep, target: OnboardingStep): boolean {
  if (!["profile", "details", "verification", "recommendations"].includes(target)) return false;
  if (!["charter", "details", "verification", "recommendations", "payment"].includes(current)) return false;
  return stepIndex(target) < stepIndex(current);
}

/** Status after finishing a step: never moves a member backwards. */
export function advance(current: string | null | undefined, reached: OnboardingStatus): OnboardingStatus {
  const i = ONBOARDING_STATUSES.indexOf(current as OnboardingStatus);
  const j = ONBOARDING_STATUSES.indexOf(reached);
  return i > j ? (current as OnboardingStatus) : reached;
}

export const FOUNDING_PLACES = 250;

/** Remaining founding places = max(1, 250 − validated non-freemium members) (spec §9). */
export function remainingPlaces(validatedPaidMembers: number): number {
  return Math.max(1, FOUNDING_PLACES - Math.max(0, Math.floor(validatedPaidMembers)));
}
