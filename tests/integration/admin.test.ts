import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getAuth } from "~/auth/auth.server";
import { auditLog, certifiedDeals, mailOutbox, payments, profiles, recommendations, session, user, userRoles } from "~/db/schema";
import { AdminActionError } from "~/features/admin/admin-errors";
import { AUDIT_TARGET_LABELS, auditActionLabel } from "~/lib/audit/audit-events";
import { listAuditLog } from "~/features/admin/audit.server";
import { decideDeal, getDealForAdmin, listPendingDeals } from "~/features/admin/deals-admin.server";
import {
  getProfileCounts,
  getProfileForAdmin,
  listProfilesForAdmin,
  rejectProfile,
  reinstateMember,
  suspendMember,
  validateProfile,
} from "~/features/admin/profiles-admin.server";
import {
  exportRecommendationsCsv,
  exportSponsorEmails,
  getRecommendationCounts,
  listRecommendationsForAdmin,
  RECOMMENDATIONS_CSV_HEADERS,
} from "~/features/admin/recommendations-admin.server";
import { searchDirectory } from "~/features/directory/directory.server";
import { parseDirectoryQuery } from "~/features/directory/directory.schema";
import { searchInternalDirectory } from "~/features/internal-directory/internal-directory.server";
import { getPublicProfile } from "~/features/profiles/public-profile.server";
import { action as dealsAction, loader as dealsLoader } from "~/routes/admin/deals";
import { loader as journalLoader } from "~/routes/admin/journal";
import { loader as layoutLoader } from "~/routes/admin/layout";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { loader as recommendationsCsvLoader } from "~/routes/admin/recommendations-csv";
import { loader as recommendationsEmailsLoader } from "~/routes/admin/recommendations-emails";
import { loader as recommendationsLoader } from "~/routes/admin/recommendations";
import { loader as dashboardLoader } from "~/routes/member/dashboard/layout";
import { loader as onboardingLoader } from "~/routes/member/onboarding";
import {
  createApplicant,
  createDeal,
  createMember,
  createRecommendation,
  type CreatedMember,
  seedFactories,
} from "../support/factories";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { recordAccountEvent } from "~/features/account/account.server";
import { checkAuditEvents } from "../support/audit";
import { useTestDatabase } from "../support/db";
import { plant, useInstanceCache } from "../support/instance-cache";
import { invalidate } from "~/lib/cache.server";

const t = useTestDatabase();
checkAuditEvents(t);

let admin: CreatedMember;
const actor = () => ({ id: admin.user.id });

beforeAll(async () => {
  seedFactories(70);
  admin = await createMember(t.db!, { admin: true, email: "admin@exemple.fr", profile: { firstName: "Ada", lastName: "Admin" } });
});

// ---- helpers ---------------------------------------------------------------------------------

/** Signs in through better-auth and returns the session cookie header. */
async function signInCookie(email: string, password: string): Promise<string> {
  const res = (await getAuth().api.signInEmail({ body: { email, password }, asResponse: true })) as Response;
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

type Args = { request: Request; params: Record<string, string>; context: { requestId: string } };
const args = (request: Request) => ({ request, params: {}, context: { requestId: "test" } }) as Args;

function get(path: string, cookie?: string) {
  return new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} });
}

function post(path: string, fields: Record<string, string>, cookie?: string) {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}

/** Runs a loader or action; a thrown Response / data() becomes { status, location }. */
async function run(fn: (a: never) => unknown, request: Request): Promise<{ status: number; location: string | null; body: unknown }> {
  try {
    const out = (await fn(args(request) as never)) as unknown;
    if (out instanceof Response) return { status: out.status, location: out.headers.get("location"), body: out };
    const wrapped = out as { type?: string; data?: unknown; init?: { status?: number } } | null;
    if (wrapped && wrapped.type === "DataWithResponseInit") return { status: wrapped.init?.status ?? 200, location: null, body: wrapped.data };
    return { status: 200, location: null, body: out };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location"), body: thrown };
    const wrapped = thrown as { type?: string; data?: unknown; init?: { status?: number } };
    if (wrapped?.type === "DataWithResponseInit") return { status: wrapped.init?.status ?? 500, location: null, body: wrapped.data };
    throw thrown;
  }
}

async function profileRow(id: string) {
  const [p] = await t.db!.select().from(profiles).where(eq(profiles.id, id));
  return p;
}

async function auditRows(targetId: string) {
  return t.db!.select().from(auditLog).where(eq(auditLog.targetId, targetId));
}

async function mailsTo(to: string) {
  return t.db!.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
}

async function addSession(userId: string) {
  const token = randomUUID();
  await t.db!.insert(session).values({ id: randomUUID(), token, userId, expiresAt: new Date(Date.now() + 86_400_000) });
}

function directoryHas(cards: Array<{ id: string }>, id: string) {
  return cards.some((c) => c.id === id);
}

async function inDirectory(profileId: string, name: string) {
  const result = await searchDirectory(parseDirectoryQuery(new URLSearchParams({ q: name })));
  return directoryHas(result.cards, profileId);
}

/** The members' internal directory, as seen by another member (`viewerProfileId`). */
async function inInternalDirectory(profileId: string, name: string, viewerProfileId: string) {
  const result = await searchInternalDirectory({ profile: { id: viewerProfileId } }, parseDirectoryQuery(new URLSearchParams({ q: name })));
  return result.rows.some((r) => r.id === profileId);
}

// ---- profiles --------------------------------------------------------------------------------

describe("profile validation", () => {
  it("validates a pending profile: status fields, founding membership when paid, welcome e-mail, audit row", async () => {
    const applicant = await createApplicant(t.db!, { profile: { firstName: "Claire", lastName: "Fontaine", company: "Fontaine Conseil" } });
    await t.db!.insert(payments).values({
      profileId: applicant.profile.id,
      provider: "local",
      checkoutSessionId: `local_${randomUUID().replace(/-/g, "")}`,
      status: "paid",
      amountCents: 25_000,
      paidAt: new Date(),
    });

    const outcome = await validateProfile(actor(), applicant.profile.id);
    expect(outcome).toEqual({ foundingApplied: true });

    const p = await profileRow(applicant.profile.id);
    expect(p.profileStatus).toBe("validated");
    expect(p.onboardingStatus).toBe("validated");
    expect(p.validatedAt).toBeInstanceOf(Date);
    expect(p.validatedBy).toBe(admin.user.id);
    expect(p.membershipType).toBe("founding_member");

    const mails = await mailsTo(applicant.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe("profile-validated");
    expect(mails[0].text).toContain("/dashboard");
    expect(mails[0].text).toContain("Claire");
    expect(mails[0].text).toContain("membre fondateur");

    const audit = await auditRows(applicant.profile.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "profile.validate", actorUserId: admin.user.id, targetType: "profile" });
    expect(audit[0].details).toMatchObject({ target: "Claire Fontaine (Fontaine Conseil)", foundingApplied: true });

    // The new member is public now.
    expect(await inDirectory(applicant.profile.id, "Claire Fontaine")).toBe(true);
    expect(await getPublicProfile(applicant.profile.id)).not.toBeNull();
  });

  it("keeps a free-start member freemium", async () => {
    const applicant = await createApplicant(t.db!);
    expect(await validateProfile(actor(), applicant.profile.id)).toEqual({ foundingApplied: false });
    const p = await profileRow(applicant.profile.id);
    expect(p.membershipType).toBe("freemium");
    expect((await mailsTo(applicant.email))[0].text).not.toContain("membre fondateur est active");
  });

  it("rejects a pending profile with an optional reason, e-mailed and stored", async () => {
    const applicant = await createApplicant(t.db!);
    await rejectProfile(actor(), applicant.profile.id, "Parrainages non confirmés après relance.");
    const p = await profileRow(applicant.profile.id);
    expect(p.profileStatus).toBe("rejected");
    expect(p.rejectionReason).toBe("Parrainages non confirmés après relance.");
    expect(p.validatedAt).toBeNull();
    const [mail] = await mailsTo(applicant.email);
    expect(mail.kind).toBe("profile-rejected");
    expect(mail.text).toContain("Motif indiqué\u00a0: Parrainages non confirmés après relance.");
    const [audit] = await auditRows(applicant.profile.id);
    expect(audit).toMatchObject({ action: "profile.reject", actorUserId: admin.user.id });
    expect(audit.details).toMatchObject({ reason: "Parrainages non confirmés après relance." });

    const other = await createApplicant(t.db!);
    await rejectProfile(actor(), other.profile.id);
    expect((await profileRow(other.profile.id)).rejectionReason).toBeNull();
    expect((await mailsTo(other.email))[0].text).not.toContain("Motif");
  });

  it("decides only pending profiles (validation also needs a finished onboarding); nothing changes otherwise", async () => {
    const member = await createMember(t.db!, { profile: { profileStatus: "validated" } });
    const rejected = await createApplicant(t.db!, { profile: { profileStatus: "rejected" } });
    const unfinished = await createApplicant(t.db!, { profile: { onboardingStatus: "recommendations_pending" } });
    const before = await t.db!.select().from(mailOutbox);
    for (const id of [member.profile.id, rejected.profile.id, unfinished.profile.id]) {
      await expect(validateProfile(actor(), id)).rejects.toMatchObject({ status: 409 });
    }
    await expect(rejectProfile(actor(), member.profile.id)).rejects.toBeInstanceOf(AdminActionError);
    await expect(rejectProfile(actor(), rejected.profile.id)).rejects.toMatchObject({ status: 409 });
    await expect(validateProfile(actor(), randomUUID())).rejects.toMatchObject({ status: 404 });
    expect((await profileRow(member.profile.id)).profileStatus).toBe("validated");
    expect((await profileRow(rejected.profile.id)).profileStatus).toBe("rejected");
    expect((await profileRow(unfinished.profile.id)).profileStatus).toBe("pending_validation");
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(before.length);
    for (const id of [member.profile.id, rejected.profile.id, unfinished.profile.id]) expect(await auditRows(id)).toHaveLength(0);

    // An unfinished application can still be rejected.
    await rejectProfile(actor(), unfinished.profile.id);
    expect((await profileRow(unfinished.profile.id)).profileStatus).toBe("rejected");
  });

  it("two admins deciding at once: exactly one wins", async () => {
    const applicant = await createApplicant(t.db!);
    const results = await Promise.allSettled([validateProfile(actor(), applicant.profile.id), rejectProfile(actor(), applicant.profile.id)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await auditRows(applicant.profile.id)).toHaveLength(1);
    expect(await mailsTo(applicant.email)).toHaveLength(1);
  });

  it("shows the detail an admin needs: e-mail, sponsors and their confirmation, charter, payment", async () => {
    const applicant = await createApplicant(t.db!, {
      confirmedRecommendations: 1,
      profile: { linkedinUrl: "javascript:alert(1)", charterSignedAt: new Date("2026-01-05T10:00:00Z") },
    });
    const d = await getProfileForAdmin(applicant.profile.id, actor());
    expect(d).toMatchObject({
      email: applicant.email,
      company: applicant.profile.company,
      linkedinUrl: null,
      status: "pending_validation",
      charterSignedAt: "2026-01-05T10:00:00.000Z",
      payment: { status: "none", paidAt: null },
      canValidate: true,
      canReject: true,
      canSuspend: false,
    });
    expect(d!.sponsors).toHaveLength(2);
    expect(d!.sponsors.filter((s) => s.confirmedAt !== null)).toHaveLength(1);
    expect(await getProfileForAdmin(randomUUID())).toBeNull();
  });

  it("counts, searches (name, company, e-mail) and filters by status", async () => {
    const counts = await getProfileCounts();
    expect(counts.total).toBe(counts.pending + counts.validated + counts.rejected + counts.suspended);
    const target = await createApplicant(t.db!, { email: "zoe.quintal@etude-quintal.fr", profile: { firstName: "Zoé", lastName: "Quintal", company: "Étude Quintal" } });
    const byName = await listProfilesForAdmin({ q: "zoe quintal", page: 1, statut: undefined, profil: undefined });
    expect(byName.rows.map((r) => r.id)).toEqual([target.profile.id]);
    const byEmail = await listProfilesForAdmin({ q: "etude-quintal.fr", page: 1, statut: undefined, profil: undefined });
    expect(byEmail.rows.map((r) => r.id)).toEqual([target.profile.id]);
    const validatedOnly = await listProfilesForAdmin({ q: "quintal", page: 1, statut: "valides", profil: undefined });
    expect(validatedOnly.total).toBe(0);
    const pendingOnly = await listProfilesForAdmin({ q: "", page: 1, statut: "en-attente", profil: undefined });
    expect(pendingOnly.rows.every((r) => r.status === "pending_validation")).toBe(true);
    expect(pendingOnly.total).toBe((await getProfileCounts()).pending);
  });
});

describe("sponsor checklist (issue 12, finding 5)", () => {
  it("flags a sponsor on the applicant's own e-mail domain, not on a public mail provider", async () => {
    const applicant = await createApplicant(t.db!, { email: `eve-${randomUUID().slice(0, 6)}@cabinet-martin.fr` });
    await t.db!.delete(recommendations).where(eq(recommendations.profileId, applicant.profile.id));
    await t.db!.insert(recommendations).values([
      { profileId: applicant.profile.id, sponsorName: "Paul Collègue", sponsorEmail: "paul@cabinet-martin.fr" },
      { profileId: applicant.profile.id, sponsorName: "Anne Confrère", sponsorEmail: "anne@gmail.com" },
    ]);
    const d = await getProfileForAdmin(applicant.profile.id, actor());
    expect(d!.sponsors.map((s) => [s.email, s.sharesApplicantDomain]).sort()).toEqual([
      ["anne@gmail.com", false],
      ["paul@cabinet-martin.fr", true],
    ]);
  });
});

describe("suspension", () => {
  it("signs the member out everywhere, hides them from the directory and the public profile; reinstating restores them", async () => {
    const member = await createMember(t.db!, { profile: { firstName: "Bastien", lastName: "Suspendu", profileStatus: "validated" } });
    await addSession(member.user.id);
    await addSession(member.user.id);
    const other = await createMember(t.db!);
    await addSession(other.user.id);
    expect(await inDirectory(member.profile.id, "Bastien Suspendu")).toBe(true);
    expect(await inInternalDirectory(member.profile.id, "Bastien Suspendu", other.profile.id)).toBe(true);

    const { sessionsEnded } = await suspendMember(actor(), member.profile.id, "Plainte d'un client en cours d'examen");
    expect(sessionsEnded).toBe(2);
    const p = await profileRow(member.profile.id);
    expect(p.profileStatus).toBe("suspended");
    expect(p.suspendedAt).toBeInstanceOf(Date);
    expect(await t.db!.select().from(session).where(eq(session.userId, member.user.id))).toHaveLength(0);
    expect(await t.db!.select().from(session).where(eq(session.userId, other.user.id))).toHaveLength(1);
    expect(await inDirectory(member.profile.id, "Bastien Suspendu")).toBe(false);
    expect(await inInternalDirectory(member.profile.id, "Bastien Suspendu", other.profile.id)).toBe(false);
    expect(await getPublicProfile(member.profile.id)).toBeNull();
    const [audit] = await auditRows(member.profile.id);
    expect(audit).toMatchObject({ action: "profile.suspend", actorUserId: admin.user.id });
    expect(audit.details).toMatchObject({ reason: "Plainte d'un client en cours d'examen", sessionsEnded: 2 });

    // Signing in again does not open the member space: /dashboard → /onboarding, which explains.
    const cookie = await signInCookie(member.email, member.password);
    expect(await run(dashboardLoader, get("/dashboard", cookie))).toMatchObject({ status: 302, location: "/onboarding" });
    const onboarding = await run(onboardingLoader, get("/onboarding", cookie));
    expect(onboarding.status).toBe(200);
    expect((onboarding.body as { closed: unknown }).closed).toEqual({ status: "suspended", reason: null });

    await expect(suspendMember(actor(), member.profile.id)).rejects.toMatchObject({ status: 409 });
    await reinstateMember(actor(), member.profile.id);
    const back = await profileRow(member.profile.id);
    expect(back.profileStatus).toBe("validated");
    expect(back.suspendedAt).toBeNull();
    expect(await inDirectory(member.profile.id, "Bastien Suspendu")).toBe(true);
    expect(await inInternalDirectory(member.profile.id, "Bastien Suspendu", other.profile.id)).toBe(true);
    expect(await getPublicProfile(member.profile.id)).not.toBeNull();
    expect((await auditRows(member.profile.id)).map((a) => a.action).sort()).toEqual(["profile.reinstate", "profile.suspend"]);
    await expect(reinstateMember(actor(), member.profile.id)).rejects.toMatchObject({ status: 409 });
  });

  it("refuses to suspend a pending profile or the admin's own profile", async () => {
    const applicant = await createApplicant(t.db!);
    await expect(suspendMember(actor(), applicant.profile.id)).rejects.toMatchObject({ status: 409 });
    await expect(suspendMember(actor(), admin.profile.id)).rejects.toMatchObject({ status: 409 });
    expect((await profileRow(admin.profile.id)).profileStatus).toBe("validated");
  });

  it("shows a rejected applicant the decision and the reason on /onboarding", async () => {
    const applicant = await createApplicant(t.db!);
    await rejectProfile(actor(), applicant.profile.id, "Activité hors du périmètre du réseau");
    const cookie = await signInCookie(applicant.email, applicant.password);
    const out = await run(onboardingLoader, get("/onboarding", cookie));
    expect((out.body as { closed: unknown }).closed).toEqual({ status: "rejected", reason: "Activité hors du périmètre du réseau" });
  });
});

// ---- deals -----------------------------------------------------------------------------------

describe("certified deals", () => {
  it("lists pending deals with their professional and validates one: validated_at, validated_by, public profile, e-mail, audit", async () => {
    const member = await createMember(t.db!, { profile: { membershipType: "premium", firstName: "Inès", lastName: "Deal" } });
    const deal = await createDeal(t.db!, member.profile.id, { status: "pending", acquirerCedant: "Groupe Alpha / Beta SAS", year: 2024, sector: "C" });
    await createDeal(t.db!, member.profile.id, { status: "validated" });

    const list = await listPendingDeals({ page: 1, deal: undefined });
    const row = list.rows.find((r) => r.id === deal.id);
    expect(row).toMatchObject({ memberName: "Inès Deal", year: 2024, acquirerCedant: "Groupe Alpha / Beta SAS", sector: "C", status: "pending" });
    expect(list.rows.every((r) => r.status === "pending")).toBe(true);
    expect((await getPublicProfile(member.profile.id))!.certifiedDeals.map((d) => d.id)).not.toContain(deal.id);

    await decideDeal(actor(), deal.id, { outcome: "validated" });
    const [saved] = await t.db!.select().from(certifiedDeals).where(eq(certifiedDeals.id, deal.id));
    expect(saved.status).toBe("validated");
    expect(saved.validatedAt).toBeInstanceOf(Date);
    expect(saved.validatedBy).toBe(admin.user.id);
    expect((await getPublicProfile(member.profile.id))!.certifiedDeals.map((d) => d.id)).toContain(deal.id);
    const [mail] = await mailsTo(member.email);
    expect(mail.kind).toBe("deal-reviewed");
    expect(mail.subject).toBe("Votre référence a été validée");
    const [audit] = await auditRows(deal.id);
    expect(audit).toMatchObject({ action: "deal.validate", actorUserId: admin.user.id, targetType: "deal" });
    expect(audit.details).toMatchObject({ deal: "Groupe Alpha / Beta SAS (2024)" });

    await expect(decideDeal(actor(), deal.id, { outcome: "rejected" })).rejects.toMatchObject({ status: 409 });
    await expect(decideDeal(actor(), randomUUID(), { outcome: "validated" })).rejects.toMatchObject({ status: 404 });
  });

  it("rejects a pending deal and stores the reason for the member", async () => {
    const member = await createMember(t.db!, { profile: { membershipType: "premium" } });
    const deal = await createDeal(t.db!, member.profile.id, { status: "pending" });
    await decideDeal(actor(), deal.id, { outcome: "rejected", reason: "Justificatif illisible" });
    const detail = await getDealForAdmin(deal.id);
    expect(detail).toMatchObject({ status: "rejected", rejectionReason: "Justificatif illisible" });
    const [saved] = await t.db!.select().from(certifiedDeals).where(eq(certifiedDeals.id, deal.id));
    expect(saved.validatedAt).toBeNull();
    expect((await mailsTo(member.email))[0].text).toContain("Motif indiqué\u00a0: Justificatif illisible");
    const [audit] = await auditRows(deal.id);
    expect(audit).toMatchObject({ action: "deal.reject" });
    expect(audit.details).toMatchObject({ reason: "Justificatif illisible" });
    expect((await getPublicProfile(member.profile.id))!.certifiedDeals.map((d) => d.id)).not.toContain(deal.id);
  });
});

// ---- recommendations -------------------------------------------------------------------------

describe("recommendations", () => {
  let tricky: CreatedMember;
  beforeAll(async () => {
    tricky = await createMember(t.db!, { profile: { firstName: "Jean \"Jo\"", lastName: "Virgule", company: "Dupont, Durand & Associés" } });
    await createRecommendation(t.db!, tricky.profile.id, {
      sponsorName: '=HYPERLINK("http://evil.example","clic")',
      sponsorEmail: "parrain.formule@exemple.fr",
      confirmedAt: null,
      createdAt: new Date(),
    });
    await createRecommendation(t.db!, tricky.profile.id, {
      sponsorName: "Hélène\nSur deux lignes",
      sponsorEmail: "helene.lefevre@cabinet-lefevre.fr",
      confirmedAt: new Date("2026-02-01T09:00:00Z"),
      createdAt: new Date("2026-01-20T09:00:00Z"),
    });
  });

  it("counts total, confirmed and pending", async () => {
    const all = await t.db!.select().from(recommendations);
    const counts = await getRecommendationCounts();
    expect(counts.total).toBe(all.length);
    expect(counts.confirmed).toBe(all.filter((r) => r.confirmedAt).length);
    expect(counts.pending).toBe(all.filter((r) => !r.confirmedAt).length);
  });

  it("searches by sponsor name, sponsor e-mail, member name or company (accents ignored)", async () => {
    const ids = async (q: string) => (await listRecommendationsForAdmin({ q, page: 1 })).rows.map((r) => r.sponsorEmail).sort();
    expect(await ids("helene")).toEqual(["helene.lefevre@cabinet-lefevre.fr"]);
    expect(await ids("parrain.formule@")).toEqual(["parrain.formule@exemple.fr"]);
    expect(await ids("virgule")).toEqual(["helene.lefevre@cabinet-lefevre.fr", "parrain.formule@exemple.fr"]);
    expect(await ids("durand associes")).toEqual(["helene.lefevre@cabinet-lefevre.fr", "parrain.formule@exemple.fr"]);
    expect(await ids("introuvable-xyz")).toEqual([]);
  });

  it("exports the filtered sponsor e-mails (distinct) and records the export", async () => {
    const emails = await exportSponsorEmails(actor(), "virgule");
    expect(emails).toEqual(["helene.lefevre@cabinet-lefevre.fr", "parrain.formule@exemple.fr"]);
    const [audit] = await t.db!.select().from(auditLog).where(eq(auditLog.action, "recommendations.export_emails"));
    expect(audit.details).toMatchObject({ search: "virgule", count: 2 });
  });

  it("exports a CSV: BOM, header, commas, quotes, newlines quoted, formulas neutralised; audited", async () => {
    const { csv, count } = await exportRecommendationsCsv(actor(), "virgule");
    expect(count).toBe(2);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const [header, ...rest] = csv.slice(1).split("\r\n");
    expect(header).toBe(RECOMMENDATIONS_CSV_HEADERS.join(","));
    const body = rest.join("\r\n");
    // Newest first: the formula sponsor (created now) then Hélène (created in January).
    expect(body).toContain(`"'=HYPERLINK(""http://evil.example"",""clic"")",parrain.formule@exemple.fr,"Jean ""Jo"" Virgule","Dupont, Durand & Associés",En attente,`);
    expect(body).toContain(`"Hélène\nSur deux lignes",helene.lefevre@cabinet-lefevre.fr,"Jean ""Jo"" Virgule","Dupont, Durand & Associés",Confirmée,20/01/2026,01/02/2026`);
    expect(body.indexOf("parrain.formule")).toBeLessThan(body.indexOf("helene.lefevre"));
    expect(body).not.toMatch(/(^|,)=HYPERLINK/m);
    const rows = await t.db!.select().from(auditLog).where(eq(auditLog.action, "recommendations.export_csv"));
    expect(rows.at(-1)!.details).toMatchObject({ search: "virgule", count: 2 });
  });
});

// ---- routes: guards, actions, resource routes, audit view ------------------------------------

describe("admin routes", () => {
  let member: CreatedMember;
  let memberCookie: string;
  let adminCookie: string;
  beforeAll(async () => {
    member = await createMember(t.db!, { profile: { profileStatus: "validated" } });
    memberCookie = await signInCookie(member.email, member.password);
    // Signed in before the factor is on (afterwards better-auth asks for the code): the session
    // then belongs to an admin with two-factor authentication, as in real life after enrolment.
    adminCookie = await signInCookie(admin.email, admin.password);
    await t.db!.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, admin.user.id));
  });

  const pages: Array<[string, (a: never) => unknown, string]> = [
    ["layout", layoutLoader, "/admin"],
    ["profiles", profilesLoader, "/admin"],
    ["deals", dealsLoader, "/admin/deals"],
    ["recommendations", recommendationsLoader, "/admin/recommandations?emails=1"],
    ["csv", recommendationsCsvLoader, "/admin/recommandations/export.csv"],
    ["emails", recommendationsEmailsLoader, "/admin/recommandations/emails"],
    ["journal", journalLoader, "/admin/journal"],
  ];

  it.each(pages)("%s loader redirects a non-admin member and a visitor to /", async (_name, loader, path) => {
    const before = await t.db!.select().from(auditLog);
    expect(await run(loader, get(path, memberCookie))).toMatchObject({ status: 302, location: "/" });
    expect(await run(loader, get(path))).toMatchObject({ status: 302, location: "/" });
    expect(await t.db!.select().from(auditLog)).toHaveLength(before.length);
  });

  it("sends an admin without two-factor authentication to enrol (pages) and refuses their POSTs", async () => {
    const plain = await createMember(t.db!, { admin: true });
    const cookie = await signInCookie(plain.email, plain.password);
    for (const [, loader, path] of pages) {
      expect(await run(loader, get(path, cookie))).toMatchObject({ status: 302, location: "/parametres/securite?admin=1" });
    }
    const applicant = await createApplicant(t.db!);
    expect((await run(profilesAction, post("/admin?index", { profileId: applicant.profile.id, intent: "validate" }, cookie))).status).toBe(403);
    expect((await profileRow(applicant.profile.id)).profileStatus).toBe("pending_validation");
  });

  it("answers 403 to a non-admin POST on every admin action and changes nothing", async () => {
    const applicant = await createApplicant(t.db!);
    const validated = await createMember(t.db!, { profile: { profileStatus: "validated" } });
    const suspended = await createMember(t.db!, { profile: { profileStatus: "suspended" } });
    const deal = await createDeal(t.db!, validated.profile.id, { status: "pending" });
    const posts: Array<[(a: never) => unknown, string, Record<string, string>]> = [
      [profilesAction, "/admin?index", { profileId: applicant.profile.id, intent: "validate" }],
      [profilesAction, "/admin?index", { profileId: applicant.profile.id, intent: "reject", reason: "x" }],
      [profilesAction, "/admin?index", { profileId: validated.profile.id, intent: "suspend" }],
      [profilesAction, "/admin?index", { profileId: suspended.profile.id, intent: "reinstate" }],
      [dealsAction, "/admin/deals", { dealId: deal.id, intent: "validate" }],
      [dealsAction, "/admin/deals", { dealId: deal.id, intent: "reject", reason: "x" }],
    ];
    const auditBefore = (await t.db!.select().from(auditLog)).length;
    const mailBefore = (await t.db!.select().from(mailOutbox)).length;
    for (const [action, path, fields] of posts) {
      expect((await run(action, post(path, fields, memberCookie))).status).toBe(403);
      expect((await run(action, post(path, fields))).status).toBe(403);
    }
    expect((await profileRow(applicant.profile.id)).profileStatus).toBe("pending_validation");
    expect((await profileRow(validated.profile.id)).profileStatus).toBe("validated");
    expect((await profileRow(suspended.profile.id)).profileStatus).toBe("suspended");
    const [d] = await t.db!.select().from(certifiedDeals).where(eq(certifiedDeals.id, deal.id));
    expect(d.status).toBe("pending");
    expect(await t.db!.select().from(auditLog)).toHaveLength(auditBefore);
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(mailBefore);
  });

  it("lets an admin validate through the action: redirect to the list with a toast", async () => {
    const applicant = await createApplicant(t.db!);
    const out = await run(profilesAction, post(`/admin?statut=en-attente&profil=${applicant.profile.id}&index`, { profileId: applicant.profile.id, intent: "validate" }, adminCookie));
    expect(out).toMatchObject({ status: 302, location: "/admin?statut=en-attente" });
    expect((out.body as Response).headers.get("set-cookie")).toContain("rt_toast=");
    expect((await profileRow(applicant.profile.id)).profileStatus).toBe("validated");

    // Deciding again: back to the detail with the error toast, nothing changed.
    const again = await run(profilesAction, post(`/admin?index`, { profileId: applicant.profile.id, intent: "reject" }, adminCookie));
    expect(again).toMatchObject({ status: 302, location: `/admin?profil=${applicant.profile.id}` });
    expect((await profileRow(applicant.profile.id)).profileStatus).toBe("validated");
  });

  it("refuses a too long reason with a French message", async () => {
    const applicant = await createApplicant(t.db!);
    const out = await run(profilesAction, post("/admin?index", { profileId: applicant.profile.id, intent: "reject", reason: "x".repeat(1001) }, adminCookie));
    expect(out.status).toBe(400);
    expect(JSON.stringify(out.body)).toContain("Le motif ne doit pas dépasser 1000 caractères");
    expect((await profileRow(applicant.profile.id)).profileStatus).toBe("pending_validation");
  });

  it("lets an admin reject a deal with a reason through the action", async () => {
    const owner = await createMember(t.db!, { profile: { membershipType: "premium" } });
    const deal = await createDeal(t.db!, owner.profile.id, { status: "pending" });
    const out = await run(dealsAction, post(`/admin/deals?deal=${deal.id}`, { dealId: deal.id, intent: "reject", reason: "Doublon" }, adminCookie));
    expect(out).toMatchObject({ status: 302, location: "/admin/deals" });
    const [d] = await t.db!.select().from(certifiedDeals).where(eq(certifiedDeals.id, deal.id));
    expect(d).toMatchObject({ status: "rejected", rejectionReason: "Doublon" });
  });

  it("serves the CSV as a UTF-8 attachment and the e-mails as JSON, each export audited", async () => {
    const csv = (await run(recommendationsCsvLoader, get("/admin/recommandations/export.csv?q=virgule", adminCookie))).body as Response;
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="recommandations-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const json = (await run(recommendationsEmailsLoader, get("/admin/recommandations/emails?q=virgule", adminCookie))).body as Response;
    expect(await json.json()).toEqual({ emails: ["helene.lefevre@cabinet-lefevre.fr", "parrain.formule@exemple.fr"] });

    // Without JavaScript, ?emails=1 puts the addresses in the page.
    const page = await run(recommendationsLoader, get("/admin/recommandations?q=virgule&emails=1", adminCookie));
    expect((page.body as { emails: string[] }).emails).toEqual(["helene.lefevre@cabinet-lefevre.fr", "parrain.formule@exemple.fr"]);
  });

  it("the audit log lists every admin action, newest first, filterable by action", async () => {
    const all = await listAuditLog({ page: 1, action: undefined });
    expect(all.total).toBeGreaterThan(5);
    const times = all.entries.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.entries[0].adminEmail).toBe("admin@exemple.fr");
    const actions = new Set((await t.db!.select({ a: auditLog.action }).from(auditLog)).map((r) => r.a));
    for (const a of ["profile.validate", "profile.reject", "profile.suspend", "profile.reinstate", "deal.validate", "deal.reject", "recommendations.export_csv", "recommendations.export_emails"]) {
      expect(actions.has(a)).toBe(true);
    }
    const onlyDeals = await listAuditLog({ page: 1, action: "deal.reject" });
    expect(onlyDeals.total).toBeGreaterThan(0);
    expect(onlyDeals.entries.every((e) => e.action === "deal.reject")).toBe(true);

    const page = await run(journalLoader, get("/admin/journal?action=deal.validate", adminCookie));
    expect(page.status).toBe(200);
    expect((page.body as { entries: Array<{ action: string }> }).entries.every((e) => e.action === "deal.validate")).toBe(true);
  });

  it("the journal says who acted and what, in French: an admin's decision, a member's own account event (issue 16)", async () => {
    const member = await createMember(t.db!);
    await recordAccountEvent({ id: member.user.id }, "account.two_factor_enabled", {}, t.db!);
    const { entries } = await listAuditLog({ page: 1, action: undefined });
    const own = entries.find((e) => e.action === "account.two_factor_enabled" && e.adminEmail === member.email)!;
    expect(own.actorRole).toBe("member");
    expect(auditActionLabel(own.action)).toBe("Double authentification activée");
    expect((AUDIT_TARGET_LABELS as Record<string, string>)[own.targetType!]).toBe("Compte");
    expect(entries.find((e) => e.action === "deal.validate")!.actorRole).toBe("admin");
    for (const key of ["account.password_changed", "account.data_exported", "account.deleted", "account.session_revoked"]) {
      expect(auditActionLabel(key)).not.toContain("account.");
    }
  });

  it("nothing in the back office can grant the admin role", async () => {
    const before = await t.db!.select().from(userRoles);
    const applicant = await createApplicant(t.db!);
    await run(profilesAction, post("/admin?index", { profileId: applicant.profile.id, intent: "validate", role: "admin" }, adminCookie));
    expect(await t.db!.select().from(userRoles).where(and(eq(userRoles.userId, applicant.user.id)))).toHaveLength(0);
    expect(await t.db!.select().from(userRoles)).toHaveLength(before.length);
  });
});

// Last in the file: its 23 applicants (and their sponsors) would show in the other searches.
describe("profile search across pages", () => {
  it("counts every match, pages them newest first, brings a page past the last back to the last", async () => {
    const word = `zephyrin${randomUUID().slice(0, 6)}`;
    const made: string[] = [];
    for (let i = 0; i < 23; i++) {
      const m = await createApplicant(t.db!, { email: `${word}.${i}@exemple.fr`, profile: { firstName: "Paul", lastName: i % 2 ? word : "Durand", company: i % 2 ? "Cabinet" : `Étude ${word}` } });
      made.push(m.profile.id);
    }
    const first = await listProfilesForAdmin({ q: word, page: 1, statut: undefined, profil: undefined });
    expect(first).toMatchObject({ total: 23, page: 1, pageCount: 2 });
    expect(first.rows).toHaveLength(20);
    const second = await listProfilesForAdmin({ q: word, page: 2, statut: undefined, profil: undefined });
    expect(second.rows).toHaveLength(3);
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id))).toEqual(new Set(made));
    // Newest first across the pages.
    const dates = [...first.rows, ...second.rows].map((r) => r.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const past = await listProfilesForAdmin({ q: word, page: 9, statut: undefined, profil: undefined });
    expect(past).toMatchObject({ total: 23, page: 2, pageCount: 2 });
    expect(past.rows.map((r) => r.id)).toEqual(second.rows.map((r) => r.id));
    // Found by the e-mail only (the odd ones' company does not hold the word): every word must match.
    expect((await listProfilesForAdmin({ q: `${word} durand`, page: 1, statut: undefined, profil: undefined })).total).toBe(12);
    const none = await listProfilesForAdmin({ q: `${word} introuvable`, page: 3, statut: undefined, profil: undefined });
    expect(none).toMatchObject({ rows: [], total: 0, page: 1, pageCount: 1 });
  });
});

describe("profile search with the instance's count cache (decision 023)", () => {
  const counts = useInstanceCache("profile-totals");

  // A search's total is its own count: the tiles' counts (the loader reads them for the tiles) are not used.
  const tiles = Promise.resolve({ total: 0, pending: 0, validated: 0, rejected: 0, suspended: 0 });
  const search = (q: string, page = 1, statut?: "en-attente") => listProfilesForAdmin({ q, page, statut, profil: undefined }, tiles);
  const counted = (q: string) => withRequestScope("GET", async () => ({ page: await search(q, 2), statements: currentRequestScope()?.queries ?? 0 }));

  it("reads a page seen before by its profiles' ids, in the same order, with the same total", async () => {
    const word = `ysaure${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 22; i++) await createApplicant(t.db!, { email: `${word}.${i}@exemple.fr`, profile: { firstName: "Anne", lastName: i % 2 ? word : "Martin" } });
    const first = await search(word, 2);
    expect(first).toMatchObject({ total: 22, page: 2, pageCount: 2 });
    const again = await counted(word);
    expect(again.page).toEqual(first);
    expect(again.statements).toBe(1);
    expect(counts().hits).toBe(1);
    // What is kept: the page's ids in order and the total; a repeated view serves exactly those.
    const key = `admin-page::2:${word}`;
    expect(counts().lookup(key).value).toEqual({ total: 22, ids: first.rows.map((r) => r.id) });
    plant(counts(), key, { total: 22, ids: first.rows.map((r) => r.id).reverse() });
    expect((await search(word, 2)).rows.map((r) => r.id)).toEqual(first.rows.map((r) => r.id).reverse());
    // Another page, another filter: their own keys.
    expect((await search(word, 1)).rows).toHaveLength(20);
    expect((await search(word, 1, "en-attente")).total).toBe(22);
    const hits = counts().hits;
    expect((await search(word, 1)).rows).toHaveLength(20);
    expect(counts().hits).toBe(hits + 1);
  });

  it("searches again when a kept profile no longer matches, or once a profile is written", async () => {
    const word = `ysolde${randomUUID().slice(0, 6)}`;
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await createApplicant(t.db!, { email: `${word}.${i}@exemple.fr`, profile: { lastName: "Morel" } })).profile.id);
    const fresh = await search(word);
    expect(fresh.total).toBe(3);
    // As if a profile written on another instance (its notification not yet here) named a
    // profile the search no longer finds: the page is searched again.
    const other = (await createApplicant(t.db!, { email: `autre.${randomUUID().slice(0, 6)}@exemple.fr` })).profile.id;
    const key = `admin-page::1:${word}`;
    plant(counts(), key, { total: 4, ids: [...fresh.rows.map((r) => r.id), other] });
    const again = await withRequestScope("GET", async () => ({ page: await search(word), statements: currentRequestScope()?.queries ?? 0 }));
    expect(again.page).toEqual(fresh);
    expect(again.statements).toBe(2);
    // A decision on this instance drops the kept pages at once: the status filter sees it.
    expect((await search(word, 1, "en-attente")).total).toBe(3);
    await t.db!.update(profiles).set({ profileStatus: "rejected" }).where(eq(profiles.id, made[0]!));
    invalidate("profiles"); // as rejectProfile does
    expect((await search(word, 1, "en-attente")).total).toBe(2);
    // A new account matching the search shows at once too.
    await createApplicant(t.db!, { email: `${word}.new@exemple.fr` });
    expect((await search(word)).total).toBe(4);
  });
});

