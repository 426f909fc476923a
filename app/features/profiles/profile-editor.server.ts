// The member's own profile, as the profile tab reads and writes it (spec §2 "Profile tab",
// §6). Every query is scoped to the acting member's profile; premium-only fields are refused
// from freemium members; every write recomputes search_text and updated_at.
import { eq, sql } from "drizzle-orm";
import { can, normaliseMembership, type MembershipType } from "~/auth/permissions";
import { db } from "~/db/client.server";
import { builtOnce } from "~/db/query.server";
import { collegeLabel, professionLabel } from "~/db/reference";
import { profiles } from "~/db/schema";
import { profileSearchText } from "~/db/search-text";
import type { MemberActor } from "~/auth/actor";
import { PREMIUM_PROFILE_FIELDS, PROFILE_MESSAGES, type ImageKind, type ProfileEditorInput } from "./profile.schema";
import { invalidate } from "~/lib/cache.server";
import { AppError } from "~/lib/errors/app-error";

/** What the profile tab receives: the explicit projection of the member's own profile. */
export type ProfileEditorData = {
  firstName: string;
  lastName: string;
  company: string;
  profession: string;
  professionLabel: string;
  college: string;
  collegeLabel: string;
  membershipType: MembershipType;
  premium: boolean;
  locationDepartment: string | null;
  locationCity: string | null;
  fullAddress: string | null;
  specializationSectors: string[];
  /** Premium-only fields: null for freemium members, whatever is stored. */
  detailedPresentation: string | null;
  internalPresentation: string | null;
  logoUrl: string | null;
  photoUrl: string | null;
};

const editorColumns = {
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  company: profiles.company,
  profession: profiles.profession,
  college: profiles.college,
  membershipType: profiles.membershipType,
  specializationSectors: profiles.specializationSectors,
  locationDepartment: profiles.locationDepartment,
  locationCity: profiles.locationCity,
  fullAddress: profiles.fullAddress,
  detailedPresentation: profiles.detailedPresentation,
  internalPresentation: profiles.internalPresentation,
  logoUrl: profiles.logoUrl,
  photoUrl: profiles.photoUrl,
};

const ownRowQuery = builtOnce((handle) => handle.select(editorColumns).from(profiles).where(eq(profiles.id, sql.placeholder("profileId"))).limit(1));

async function ownRow(actor: MemberActor) {
  const rows = await ownRowQuery().execute({ profileId: actor.profileId });
  return rows[0] ?? null;
}

function premiumOnly(): never {
  throw new AppError("forbidden", PROFILE_MESSAGES.premiumOnly);
}

/** The acting member's profile for the editor; null when there is none. */
export async function getProfileEditor(actor: MemberActor): Promise<ProfileEditorData | null> {
  const p = await ownRow(actor);
  if (!p) return null;
  const premium = can(p.membershipType, "enrichedProfile");
  return {
    firstName: p.firstName,
    lastName: p.lastName,
    company: p.company,
    profession: p.profession,
    professionLabel: professionLabel(p.profession),
    college: p.college,
    collegeLabel: collegeLabel(p.college),
    membershipType: normaliseMembership(p.membershipType),
    premium,
    locationDepartment: p.locationDepartment,
    locationCity: p.locationCity,
    fullAddress: p.fullAddress,
    specializationSectors: p.specializationSectors ?? [],
    detailedPresentation: premium ? p.detailedPresentation : null,
    internalPresentation: premium ? p.internalPresentation : null,
    logoUrl: premium ? p.logoUrl : null,
    photoUrl: premium ? p.photoUrl : null,
  };
}

/**
 * Saves the editable fields. A freemium member sending a premium-only field gets a 403 and
 * nothing is saved (their form never shows those fields, so only a forged request does this).
 * For a premium member, a blank presentation clears it.
 */
export async function updateOwnProfile(actor: MemberActor, input: ProfileEditorInput): Promise<void> {
  const current = await ownRow(actor);
  if (!current) throw new AppError("not-found", PROFILE_MESSAGES.notFound);
  const premium = can(current.membershipType, "enrichedProfile");
  if (!premium && PREMIUM_PROFILE_FIELDS.some((field) => input[field] !== undefined)) premiumOnly();
  const sectors = input.specializationSectors;
  invalidate("profiles");
  await db
    .update(profiles)
    .set({
      locationDepartment: input.locationDepartment,
      locationCity: input.locationCity ?? null,
      fullAddress: input.fullAddress ?? null,
      specializationSectors: sectors,
      ...(premium
        ? { detailedPresentation: input.detailedPresentation ?? null, internalPresentation: input.internalPresentation ?? null }
        : {}),
      searchText: profileSearchText({ ...current, specializationSectors: sectors }),
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, actor.profileId));
}

/**
 * Points the profile's logo or photo at `url` (null removes it); premium only. Returns the
 * previous URL so that the caller can delete the file it replaced.
 */
export async function setOwnProfileImage(actor: MemberActor, kind: ImageKind, url: string | null): Promise<{ previousUrl: string | null }> {
  const current = await ownRow(actor);
  if (!current) throw new AppError("not-found", PROFILE_MESSAGES.notFound);
  if (!can(current.membershipType, "enrichedProfile")) premiumOnly();
  invalidate("profiles");
  await db
    .update(profiles)
    .set({
      ...(kind === "logo" ? { logoUrl: url } : { photoUrl: url }),
      searchText: profileSearchText(current),
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, actor.profileId));
  return { previousUrl: kind === "logo" ? current.logoUrl : current.photoUrl };
}
