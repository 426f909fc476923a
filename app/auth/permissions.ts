// What each membership tier may do (spec §6). Pure: the server enforces it, the UI reads it.
export type MembershipType = "freemium" | "premium" | "founding_member";

export const FREEMIUM_MANDATE_QUOTA = 3;
/** "3 opportunités par semestre" (spec §6, §9): match requests a freemium member may send. */
export const FREEMIUM_OPPORTUNITY_QUOTA = 3;
export const QUOTA_WINDOW_MONTHS = 6;

export type Capabilities = {
  internalMessaging: boolean;
  fullInbox: boolean;
  enrichedProfile: boolean;
  certifiedDeals: boolean;
  statistics: boolean;
  unlimitedMandates: boolean;
  highlightedInDirectory: boolean;
};

/** Any value other than premium or founding_member counts as freemium (spec §3). */
export function normaliseMembership(value: string | null | undefined): MembershipType {
  return value === "premium" || value === "founding_member" ? value : "freemium";
}

export function isPremium(value: string | null | undefined) {
  return normaliseMembership(value) !== "freemium";
}

export function capabilitiesFor(value: string | null | undefined): Capabilities {
  const premium = isPremium(value);
  return {
    internalMessaging: premium,
    fullInbox: premium,
    enrichedProfile: premium,
    certifiedDeals: premium,
    statistics: premium,
    unlimitedMandates: premium,
    highlightedInDirectory: premium,
  };
}

export function can(value: string | null | undefined, capability: keyof Capabilities) {
  return capabilitiesFor(value)[capability];
}
