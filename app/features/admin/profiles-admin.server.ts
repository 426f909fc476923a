// Profiles in the back office (spec §2 "Admin", §4 "Profile (admin)"): counts, list, detail and
// the decisions. Each decision is one conditional UPDATE (the state it starts from is in the
// WHERE), so two admins deciding at once cannot both win, and it commits together with its
// side effects: membership, e-mail in the outbox, sessions, audit row.
import { and, count, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { collegeLabel, professionLabel } from "~/db/reference";
import { profiles, session, user, verificationChecks } from "~/db/schema";
import { insuranceFlag, uncheckedSteps, VERIFICATION_STEP_LABELS, type InsuranceFlag } from "~/features/trust/verification-rules";
import { parisToday } from "~/features/mandates/mandate-rules";
import { FOUNDING_TERMS } from "~/features/membership/offers";
import { writeVerificationSummary } from "~/features/trust/verification.server";
import { normalizeSearchText } from "~/db/search-text";
import { cached, getCache, keptPage, invalidate } from "~/lib/cache.server";
import { getEnv } from "~/lib/env.server";
import { sendEmail } from "~/lib/mail/render.server";
import { profileRejected } from "~/lib/mail/templates/profile-rejected";
import { profileValidated } from "~/lib/mail/templates/profile-validated";
import { applyFoundingMembershipOnValidation, type PaymentState } from "../membership/membership.server";
import { safeHttpUrl } from "../profiles/public-profile.server";
import { sharesPrivateDomain } from "../recommendations/email-identity";
import type { SponsorView } from "../recommendations/recommendations.server";
import { notificationTexts } from "~/features/notifications/notification-rules";
import { notify } from "~/features/notifications/notifications.server";
import { AdminActionError } from "./admin-errors";
import { ADMIN_PAGE_SIZE, PROFILE_STATUS_PARAMS, type ProfileListQuery, type ProfileStatus } from "./admin.schema";
import { recordAdminAction } from "./audit.server";
import { readProfileReview, type ProfileReview } from "./profile-review.server";
import { checklistOfReview, recordSystemChecks, type VerificationChecklist } from "./verification-admin.server";

export type ProfileCounts = { total: number; pending: number; validated: number; rejected: number; suspended: number };

/**
 * The tiles' counts. Counting every profile on each view of the tab grew with the
 * membership (an index-only scan of every profile), so the instance keeps them with the
 * profiles' other totals until a profile is written: on this instance at once
 * (each decision below writes profiles: app/lib/request-scope.server.ts), on the others by
 * 'rt_public_content' at commit.
 */
export async function getProfileCounts(): Promise<ProfileCounts> {
  return cached(getCache("profile-totals"), "admin-profiles", async () => {
    const [row] = await db
      .select({
        total: count(),
        pending: sql<number>`count(*) filter (where ${profiles.profileStatus} = 'pending_validation')`,
        validated: sql<number>`count(*) filter (where ${profiles.profileStatus} = 'validated')`,
        rejected: sql<number>`count(*) filter (where ${profiles.profileStatus} = 'rejected')`,
        suspended: sql<number>`count(*) filter (where ${profiles.profileStatus} = 'suspended')`,
      })
      .from(profiles);
    return {
      total: Number(row?.total ?? 0),
      pending: Number(row?.pending ?? 0),
      validated: Number(row?.validated ?? 0),
      rejected: Number(row?.rejected ?? 0),
      suspended: Number(row?.suspended ?? 0),
    };
  });
}

const STATUS_COUNT: Record<ProfileStatus, keyof ProfileCounts> = {
  pending_validation: "pending",
  validated: "validated",
  rejected: "rejected",
  suspended: "suspended",
};

/** A row of the profiles table. */
export type AdminProfileRow = {
  id: string;
  firstName: string;
  lastName: string;
  company: string;
  professionLabel: string;
  collegeLabel: string;
  status: ProfileStatus;
  createdAt: string;
  /** A validated member's insurance: expired ("Assurance à renouveler") or renewed and not checked yet. */
  insurance: InsuranceFlag;
};

export type AdminProfilePage = { rows: AdminProfileRow[]; total: number; page: number; pageCount: number };

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const searchWords = (q: string) => normalizeSearchText(q).split(" ").filter(Boolean).slice(0, 6);

/**
 * The list's conditions. Every word must appear in the name, company, profession, sectors or the
 * account's e-mail. To find the matches, each side is read through its trigram index
 * (profiles_search_trgm_idx, user_email_trgm_idx) and the two sets of ids are joined: an OR
 * across the join was a Seq Scan of both tables; `offset 0` keeps the set apart, so that the page
 * reads its matches by primary key and sorts them, where the planner otherwise walked the whole
 * of profiles_created_id_idx to skip a sort. `onRow`: the same conditions checked on the
 * statement's own row (its account by primary key), cheap for the rows of one page.
 */
function profileListWhere(query: Pick<ProfileListQuery, "q" | "statut">, onRow = false): SQL | undefined {
  const parts: SQL[] = [];
  if (query.statut) parts.push(eq(profiles.profileStatus, PROFILE_STATUS_PARAMS[query.statut]));
  for (const word of searchWords(query.q)) {
    const pattern = `%${escapeLike(word)}%`;
    parts.push(
      onRow
        ? sql`(${profiles.searchText} like ${pattern} or exists (select 1 from "user" u where u.id = ${profiles.userId} and lower(u.email) like ${pattern}))`
        : sql`${profiles.id} in (select m.id from (
      select s.id from profiles s where s.search_text like ${pattern}
      union
      select e.id from profiles e join "user" u on u.id = e.user_id where lower(u.email) like ${pattern}) m offset 0)`,
    );
  }
  return parts.length ? and(...parts) : undefined;
}

/** What a row of the list reads. */
const LIST_COLUMNS = {
  id: profiles.id,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  company: profiles.company,
  profession: profiles.profession,
  college: profiles.college,
  status: profiles.profileStatus,
  createdAt: profiles.createdAt,
  insuranceEndsOn: sql<string | null>`(select e.insurance_ends_on::text from verification_evidence e where e.profile_id = ${profiles.id})`,
  // A scalar subquery, not `exists`: PostgreSQL may run an `exists` in the select list as one hash
  // of every insurance check (100 000 rows at 100 000 members) where the page needs 20.
  insuranceChecked: sql<boolean>`coalesce((select true from verification_checks c where c.profile_id = ${profiles.id} and c.step = 'insurance'), false)`,
};

type ListRow = Pick<typeof profiles.$inferSelect, "id" | "firstName" | "lastName" | "company" | "profession" | "college" | "createdAt"> & {
  status: ProfileStatus;
  insuranceEndsOn: string | null;
  insuranceChecked: boolean;
};

function toListRow(r: ListRow, today: string): AdminProfileRow {
  return {
    id: r.id,
    firstName: r.firstName,
    lastName: r.lastName,
    company: r.company,
    professionLabel: professionLabel(r.profession),
    collegeLabel: collegeLabel(r.college),
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    insurance: r.status === "validated" ? insuranceFlag(r.insuranceEndsOn, Boolean(r.insuranceChecked), today) : null,
  };
}

export async function listProfilesForAdmin(query: ProfileListQuery, counts: Promise<ProfileCounts> = getProfileCounts()): Promise<AdminProfilePage> {
  const where = profileListWhere(query);
  const searching = searchWords(query.q).length > 0;
  const today = parisToday();
  // A search finds its matches once (each word reads two trigram indexes) and the same
  // statement counts them and reads the page. Without a search, the total is one of the tiles'
  // counts (every profile has its account), not counted again.
  const matched = db.$with("matched").as(db.select({ id: profiles.id }).from(profiles).where(where));
  const toPage = (rows: ListRow[], total: number, page: number): AdminProfilePage => ({
    rows: rows.map((r) => toListRow(r, today)),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)),
  });

  // A search's page already seen since the last write to profiles: its
  // profiles are read by primary key, the search's conditions checked on each (a profile written
  // meanwhile, its notification not yet here, sends the page back to the search) — a common
  // surname's matches are otherwise found in two trigram indexes and sorted on every view. The
  // list is the same for every administrator: one key for all.
  const slot = keptPage(searching ? getCache("profile-totals") : undefined, `admin-page:${query.statut ?? ""}:${query.page}:${searchWords(query.q).join(" ")}`);
  const kept = slot.page;
  if (kept) {
    const found = await db
      .select({ ...LIST_COLUMNS, stillMatching: sql<boolean>`${profileListWhere(query, true)}` })
      .from(profiles)
      .where(inArray(profiles.id, kept.ids));
    if (found.length === kept.ids.length && found.every((r) => r.stillMatching === true)) {
      const order = new Map(kept.ids.map((id, i) => [id, i]));
      found.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      return toPage(found, kept.total, query.page);
    }
  }

  const readPage = (page: number) =>
    (searching ? db.with(matched) : db)
      .select({
        ...LIST_COLUMNS,
        matches: searching ? sql<number>`(select count(*) from ${matched})`.mapWith(Number) : sql<number>`0`.mapWith(Number),
      })
      .from(profiles)
      .where(searching ? sql`${profiles.id} in (select ${matched.id} from ${matched})` : where)
      // `nulls last` as in profiles_created_id_idx (created_at is never null): the page walks the
      // index and stops instead of sorting every profile.
      .orderBy(sql`${profiles.createdAt} desc nulls last`, profiles.id)
      .limit(ADMIN_PAGE_SIZE)
      .offset((page - 1) * ADMIN_PAGE_SIZE);

  let total: number;
  let rows: Awaited<ReturnType<typeof readPage>> | undefined;
  if (searching) {
    rows = await readPage(query.page);
    // No row: no match, or a page past the last one (counted apart).
    total = rows[0]?.matches ?? Number((await db.select({ n: count() }).from(profiles).where(where))[0]!.n);
  } else {
    const all = await counts;
    total = all[query.statut ? STATUS_COUNT[PROFILE_STATUS_PARAMS[query.statut]] : "total"];
  }
  const page = Math.min(query.page, Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)));
  if (!rows || page !== query.page) rows = await readPage(page);
  else slot.keep({ total, ids: rows.map((r) => r.id) });
  return toPage(rows, total, page);
}

/** Everything the detail overlay shows to help the decision. */
export type AdminProfileDetail = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  professionLabel: string;
  collegeLabel: string;
  linkedinUrl: string | null;
  experienceDescription: string | null;
  recentOperations: string | null;
  status: ProfileStatus;
  onboardingStatus: string;
  membershipType: string;
  charterSignedAt: string | null;
  createdAt: string;
  validatedAt: string | null;
  validatedByEmail: string | null;
  rejectionReason: string | null;
  suspendedAt: string | null;
  /** Each sponsor, flagged when on the applicant's own (non-public) e-mail domain. */
  sponsors: Array<SponsorView & { sharesApplicantDomain: boolean }>;
  payment: PaymentState;
  /** Validation needs a finished onboarding (charter, details, sponsors, membership choice). */
  canValidate: boolean;
  canReject: boolean;
  canSuspend: boolean;
  canReinstate: boolean;
};

/** The detail overlay and its verification checklist, from one statement (readProfileReview). */
export async function getProfileReview(
  profileId: string,
  actor?: Pick<SessionUser, "id">,
  today: string = parisToday(),
): Promise<{ detail: AdminProfileDetail; checklist: VerificationChecklist } | null> {
  const review = await readProfileReview(profileId);
  return review ? { detail: detailOfReview(review, actor), checklist: checklistOfReview(review, today) } : null;
}

export async function getProfileForAdmin(profileId: string, actor?: Pick<SessionUser, "id">): Promise<AdminProfileDetail | null> {
  const review = await readProfileReview(profileId);
  return review ? detailOfReview(review, actor) : null;
}

function detailOfReview(p: ProfileReview, actor?: Pick<SessionUser, "id">): AdminProfileDetail {
  const pending = p.status === "pending_validation";
  return {
    id: p.id,
    firstName: p.firstName,
    lastName: p.lastName,
    email: p.email,
    company: p.company,
    professionLabel: professionLabel(p.profession),
    collegeLabel: collegeLabel(p.college),
    linkedinUrl: safeHttpUrl(p.linkedinUrl),
    experienceDescription: p.experienceDescription,
    recentOperations: p.recentOperations,
    status: p.status,
    onboardingStatus: p.onboardingStatus,
    membershipType: p.membershipType,
    charterSignedAt: p.charterSignedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    validatedAt: p.validatedAt?.toISOString() ?? null,
    validatedByEmail: p.validatedByEmail,
    rejectionReason: p.rejectionReason,
    suspendedAt: p.suspendedAt?.toISOString() ?? null,
    sponsors: p.sponsors.map((s) => ({ ...s, sharesApplicantDomain: sharesPrivateDomain(p.email, s.email) })),
    payment: p.payment,
    canValidate: pending && p.onboardingStatus === "payment_completed",
    canReject: pending,
    canSuspend: p.status === "validated" && p.userId !== actor?.id,
    canReinstate: p.status === "suspended",
  };
}

// ---- Decisions -------------------------------------------------------------------------------

const memberName = (p: { firstName: string; lastName: string; company: string }) => `${p.firstName} ${p.lastName} (${p.company})`;

/** Why a conditional update matched nothing: the profile is missing (404) or in another state (409). */
async function refuse(profileId: string, message: string): Promise<never> {
  const [row] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)).limit(1);
  throw row ? new AdminActionError(409, message) : new AdminActionError(404, "Profil introuvable");
}

export type ValidateOutcome = { foundingApplied: boolean };

/**
 * pending_validation (onboarding finished) → validated: validated_at, validated_by (the admin's
 * user id), onboarding_status validated, a paid founding membership applied, welcome e-mail.
 */
export async function validateProfile(actor: Pick<SessionUser, "id">, profileId: string, options: { reason?: string | null } = {}): Promise<ValidateOutcome> {
  const reason = options.reason?.trim() || null;
  const outcome = await db.transaction(async (tx) => {
    const now = new Date();
    invalidate("profiles");
    const [row] = await tx
      .update(profiles)
      .set({
        profileStatus: "validated",
        onboardingStatus: "validated",
        validatedAt: now,
        validatedBy: actor.id,
        rejectionReason: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(profiles.id, profileId),
          eq(profiles.profileStatus, "pending_validation"),
          eq(profiles.onboardingStatus, "payment_completed"),
        ),
      )
      .returning({ id: profiles.id, userId: profiles.userId, firstName: profiles.firstName, lastName: profiles.lastName, company: profiles.company });
    if (!row) return null;
    // Every verification step ticked, or a written (audited) reason for those that are
    // not. Checked after the conditional update (a missing profile stays a 404); throwing here
    // rolls the update back.
    await recordSystemChecks(tx, row.id);
    const checked = await tx.select({ step: verificationChecks.step }).from(verificationChecks).where(eq(verificationChecks.profileId, row.id));
    const unchecked = uncheckedSteps(checked.map((c) => c.step));
    if (unchecked.length > 0 && !reason) {
      throw new AdminActionError(409, `Étapes de vérification non cochées (${unchecked.map((s) => VERIFICATION_STEP_LABELS[s]).join(", ")})\u00a0: indiquez le motif de la validation.`);
    }
    const foundingApplied = await applyFoundingMembershipOnValidation(row.id, tx);
    const [account] = await tx.select({ email: user.email }).from(user).where(eq(user.id, row.userId)).limit(1);
    await sendEmail(
      profileValidated,
      {
        firstName: row.firstName,
        dashboardUrl: `${getEnv().APP_URL}/dashboard`,
        foundingMember: foundingApplied,
        membershipTerms: `${FOUNDING_TERMS.payment} ${FOUNDING_TERMS.guarantee} ${FOUNDING_TERMS.moneyBack}`,
      },
      { to: account.email, tx },
    );
    await notify(row.userId, "profile_decision", notificationTexts.profileDecision({ validated: true }), tx);
    await recordAdminAction(tx, actor, {
      action: "profile.validate",
      targetId: row.id,
      details: {
        target: memberName(row),
        foundingApplied,
        ...(unchecked.length ? { uncheckedSteps: unchecked.map((s) => VERIFICATION_STEP_LABELS[s]), reason } : {}),
      },
    });
    await writeVerificationSummary(tx, row.id);
    return { foundingApplied };
  });
  return outcome ?? refuse(profileId, "Seul un profil en attente dont le dossier est complet peut être validé.");
}

/** pending_validation → rejected, with the optional reason stored and e-mailed. */
export async function rejectProfile(actor: Pick<SessionUser, "id">, profileId: string, reasonInput?: string | null): Promise<void> {
  const reason = reasonInput?.trim() || null;
  const done = await db.transaction(async (tx) => {
    const now = new Date();
    invalidate("profiles");
    const [row] = await tx
      .update(profiles)
      .set({ profileStatus: "rejected", rejectionReason: reason, updatedAt: now })
      .where(and(eq(profiles.id, profileId), eq(profiles.profileStatus, "pending_validation")))
      .returning({ id: profiles.id, userId: profiles.userId, firstName: profiles.firstName, lastName: profiles.lastName, company: profiles.company });
    if (!row) return false;
    const [account] = await tx.select({ email: user.email }).from(user).where(eq(user.id, row.userId)).limit(1);
    await sendEmail(
      profileRejected,
      { firstName: row.firstName, reason, contactUrl: `${getEnv().APP_URL}/contact` },
      { to: account.email, tx },
    );
    await notify(row.userId, "profile_decision", notificationTexts.profileDecision({ validated: false }), tx);
    await recordAdminAction(tx, actor, {
      action: "profile.reject",
      targetId: row.id,
      details: { target: memberName(row), reason },
    });
    return true;
  });
  if (!done) await refuse(profileId, "Seul un profil en attente peut être rejeté.");
}

/**
 * validated → suspended: every session of the member is deleted (signed out everywhere); the
 * member space (requireMember) and both directories (validated only) no longer show them.
 * An admin cannot suspend their own profile.
 */
export async function suspendMember(actor: Pick<SessionUser, "id">, profileId: string, reasonInput?: string | null): Promise<{ sessionsEnded: number }> {
  const reason = reasonInput?.trim() || null;
  const outcome = await db.transaction(async (tx) => {
    const now = new Date();
    invalidate("profiles");
    const [row] = await tx
      .update(profiles)
      .set({ profileStatus: "suspended", suspendedAt: now, updatedAt: now })
      .where(and(eq(profiles.id, profileId), eq(profiles.profileStatus, "validated"), ne(profiles.userId, actor.id)))
      .returning({ id: profiles.id, userId: profiles.userId, firstName: profiles.firstName, lastName: profiles.lastName, company: profiles.company });
    if (!row) return null;
    invalidate(`user:${row.userId}`);
    const ended = await tx.delete(session).where(eq(session.userId, row.userId)).returning({ id: session.id });
    await recordAdminAction(tx, actor, {
      action: "profile.suspend",
      targetId: row.id,
      details: { target: memberName(row), reason, sessionsEnded: ended.length },
    });
    return { sessionsEnded: ended.length };
  });
  return outcome ?? refuse(profileId, "Seul un membre validé peut être suspendu.");
}

/** suspended → validated (the original validation date and author are kept). */
export async function reinstateMember(actor: Pick<SessionUser, "id">, profileId: string): Promise<void> {
  const done = await db.transaction(async (tx) => {
    invalidate("profiles");
    const [row] = await tx
      .update(profiles)
      .set({ profileStatus: "validated", suspendedAt: null, updatedAt: new Date() })
      .where(and(eq(profiles.id, profileId), eq(profiles.profileStatus, "suspended")))
      .returning({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName, company: profiles.company });
    if (!row) return false;
    await recordAdminAction(tx, actor, { action: "profile.reinstate", targetId: row.id, details: { target: memberName(row) } });
    return true;
  });
  if (!done) await refuse(profileId, "Seul un membre suspendu peut être réintégré.");
}
