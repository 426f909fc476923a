import { readFileSync } from "node:fs";
import path from "node:path";
import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "~/auth/password.server";
import type { Db } from "~/db/client.server";
import { DEPARTMENT_CODES, SECTOR_CODES } from "~/db/reference";
import { account, certifiedDeals, collaborationFiles, mandates, messages, profiles, recommendations, user, verificationChecks, verificationEvidence } from "~/db/schema";
import { parisToday } from "~/features/mandates/mandate-rules";
import { isVerified } from "~/features/trust/verification-rules";
import { getFileView } from "~/features/collaboration/file-view.server";
import { listMyFiles } from "~/features/collaboration/file-list.server";
import { profileSearchText } from "~/db/search-text";
import { applicantCount, bulkInsert, demoLoginEmail, seedDemoData, type SeedResult } from "../../scripts/seed-lib";
import { buildProfile } from "../support/factories";
import { createTestDatabase, useTestDatabase } from "../support/db";

const t = useTestDatabase();
const MEMBERS = 200;
const PASSWORD = "secret-demo-42";
let first: SeedResult;

type Counted = typeof user | typeof account | typeof profiles | typeof recommendations | typeof certifiedDeals | typeof messages | typeof mandates;

async function countOf(db: Db, table: Counted) {
  const [row] = await db.select({ n: count() }).from(table);
  return row.n;
}

async function profileSnapshot(db: Db) {
  return db
    .select({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName, company: profiles.company, sectors: profiles.specializationSectors })
    .from(profiles)
    .orderBy(asc(profiles.id));
}

beforeAll(async () => {
  first = await seedDemoData(t.db!, { members: MEMBERS, seed: 7, password: PASSWORD });
}, 60_000);

describe("seedDemoData", () => {
  it("opens a collaboration file for every fifth pair of mandates, the personas' first, readable by both members", async () => {
    const db = t.db!;
    // 200 mandates: pairs at 0, 10, 20… → 20 files.
    expect(first.counts.collaborationFiles).toBe(20);
    const [founding] = await db.select({ id: profiles.id }).from(profiles).innerJoin(user, eq(user.id, profiles.userId)).where(eq(user.email, demoLoginEmail("fondateur", 7)));
    const [premium] = await db.select({ id: profiles.id }).from(profiles).innerJoin(user, eq(user.id, profiles.userId)).where(eq(user.email, demoLoginEmail("premium", 7)));
    const mine = await listMyFiles({ profileId: premium.id });
    expect(mine.total).toBeGreaterThanOrEqual(1);
    const shared = (await listMyFiles({ profileId: founding.id })).items.find((i) => mine.items.some((m) => m.id === i.id));
    expect(shared).toBeDefined();
    const view = await getFileView({ profileId: premium.id }, shared!.id);
    expect(view.stage).toBe("exchanges");
    expect(view.timeline.map((e) => e.kind).slice(0, 5)).toEqual([
      "connection:requested",
      "connection:requested",
      "connection:accepted",
      "connection:accepted",
      "file_opened",
    ]);
    expect(view.messages.length).toBeGreaterThan(0);
    // Every seeded stage reads back through the file page's projection.
    const stages = await db.select({ stage: collaborationFiles.stage }).from(collaborationFiles);
    expect(new Set(stages.map((r) => r.stage))).toEqual(new Set(["exchanges", "introduction", "documents", "offer", "protocol", "concluded", "abandoned"]));
  });

  it("inserts the requested volumes", async () => {
    const db = t.db!;
    const applicants = applicantCount(MEMBERS);
    expect(first.skipped).toBe(false);
    expect(first.counts.members).toBe(MEMBERS);
    expect(first.counts.applicants).toBe(applicants);
    expect(await countOf(db, user)).toBe(MEMBERS + applicants);
    expect(await countOf(db, account)).toBe(MEMBERS + applicants);
    expect(await countOf(db, profiles)).toBe(MEMBERS + applicants);
    expect(await countOf(db, recommendations)).toBe(2 * (MEMBERS + applicants));
    expect(await countOf(db, mandates)).toBe(MEMBERS);
    expect(await countOf(db, certifiedDeals)).toBe(first.counts.certifiedDeals);
    expect(await countOf(db, messages)).toBe(first.counts.messages);
    expect(first.counts.certifiedDeals).toBeGreaterThan(0);

    const [validated] = await db.select({ n: count() }).from(profiles).where(eq(profiles.profileStatus, "validated"));
    expect(validated.n).toBe(MEMBERS);
    const tiers = await db
      .select({ tier: profiles.membershipType, n: count() })
      .from(profiles)
      .where(eq(profiles.profileStatus, "validated"))
      .groupBy(profiles.membershipType);
    const byTier = Object.fromEntries(tiers.map((r) => [r.tier, r.n]));
    expect(byTier.founding_member).toBe(first.counts.foundingMembers);
    expect(byTier.premium).toBe(first.counts.premiumMembers);
    expect(byTier.freemium).toBe(first.counts.freemiumMembers);
    expect(byTier.founding_member).toBeGreaterThan(0);
    expect(byTier.premium).toBeGreaterThan(byTier.founding_member);
    expect(byTier.freemium).toBeGreaterThan(byTier.premium);

    const [unconfirmed] = await db
      .select({ n: count() })
      .from(recommendations)
      .innerJoin(profiles, eq(profiles.id, recommendations.profileId))
      .where(and(eq(profiles.profileStatus, "validated"), isNull(recommendations.confirmedAt)));
    expect(unconfirmed.n).toBe(0);

    const kinds = await db.select({ type: messages.messageType, n: count() }).from(messages).groupBy(messages.messageType);
    expect(kinds.map((k) => k.type).sort()).toEqual(["internal", "public_contact"]);
    const [orphanInternal] = await db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.messageType, "internal"), isNull(messages.senderId)));
    expect(orphanInternal.n).toBe(0);
  });

  it("gives every member a sector, a department, a city and the derived search text", async () => {
    const rows = await t.db!.select().from(profiles);
    for (const p of rows) {
      expect(p.specializationSectors.length).toBeGreaterThanOrEqual(1);
      expect(p.specializationSectors.length).toBeLessThanOrEqual(5);
      for (const s of p.specializationSectors) expect(SECTOR_CODES).toContain(s);
      expect(DEPARTMENT_CODES).toContain(p.locationDepartment);
      expect(p.locationCity).toBeTruthy();
      expect(p.searchText).toBe(profileSearchText(p));
      expect(p.searchText).not.toBe("");
    }
  });

  it("creates active buyer and seller mandates with consistent ranges, many of which match", async () => {
    const rows = await t.db!.select().from(mandates);
    const buyers = rows.filter((m) => m.mandateType === "buyer");
    const sellers = rows.filter((m) => m.mandateType === "seller");
    expect(buyers.length).toBe(MEMBERS / 2);
    expect(sellers.length).toBe(MEMBERS / 2);
    const today = new Date().toISOString().slice(0, 10);
    for (const m of rows) {
      expect(m.status).toBe("active");
      expect(m.endDate > today).toBe(true);
      expect(m.endDate > m.startDate).toBe(true);
      expect(m.clientCode).toMatch(/^[A-Z]{3}-\d{2}$/);
      expect(m.clientName).toBeTruthy();
      expect(m.clientAddress).toBeTruthy();
    }
    for (const b of buyers) {
      expect(b.searchSectors?.length).toBeGreaterThan(0);
      expect(b.searchTerritories?.length).toBeGreaterThan(0);
      expect(b.targetAmountMin!).toBeLessThanOrEqual(b.targetAmountMax!);
      expect(b.contributionMin!).toBeLessThanOrEqual(b.contributionMax!);
      expect(b.companySector).toBeNull();
    }
    for (const s of sellers) {
      expect(s.companySector).toBeTruthy();
      expect(s.companyTerritory).toBeTruthy();
      expect(s.valuationAmount!).toBeGreaterThan(0);
      expect(s.requiredContributionMin!).toBeLessThanOrEqual(s.requiredContributionMax!);
      expect(s.targetBuyerTypes?.length).toBeGreaterThan(0);
      expect(s.searchSectors).toBeNull();
    }
    expect(buyers.some((b) => b.searchTerritories?.includes("france"))).toBe(true);

    // Spec §9 score, computed naively: a good share of buyer/seller pairs must reach "medium".
    let scored = 0;
    for (const b of buyers) {
      for (const s of sellers) {
        if (b.profileId === s.profileId) continue;
        let score = 0;
        if (b.searchSectors!.includes(s.companySector!)) score += 30;
        if (b.searchTerritories!.includes(s.companyTerritory!) || b.searchTerritories!.includes("france")) score += 20;
        if (s.valuationAmount! >= b.targetAmountMin! && s.valuationAmount! <= b.targetAmountMax!) score += 25;
        if (b.contributionMin! <= s.requiredContributionMax! && s.requiredContributionMin! <= b.contributionMax!) score += 25;
        if (score >= 60) scored++;
      }
    }
    expect(scored / (buyers.length * sellers.length)).toBeGreaterThan(0.1);
  });

  it("creates the demo logins with the given password", async () => {
    const db = t.db!;
    expect(first.logins.map((l) => l.email)).toEqual([
      demoLoginEmail("fondateur", 7),
      demoLoginEmail("premium", 7),
      demoLoginEmail("freemium", 7),
      demoLoginEmail("candidat", 7),
    ]);
    const expected = {
      fondateur: { tier: "founding_member", status: "validated" },
      premium: { tier: "premium", status: "validated" },
      freemium: { tier: "freemium", status: "validated" },
      candidat: { tier: "freemium", status: "pending_validation" },
    } as const;
    for (const login of first.logins) {
      const [row] = await db
        .select({ verified: user.emailVerified, hash: account.password, tier: profiles.membershipType, status: profiles.profileStatus, onboarding: profiles.onboardingStatus, profileId: profiles.id })
        .from(user)
        .innerJoin(account, and(eq(account.userId, user.id), eq(account.providerId, "credential"), eq(account.accountId, user.id)))
        .innerJoin(profiles, eq(profiles.userId, user.id))
        .where(eq(user.email, login.email));
      expect(row, login.email).toBeDefined();
      expect(row.verified).toBe(true);
      expect(await verifyPassword({ hash: row.hash!, password: PASSWORD })).toBe(true);
      expect(row.tier).toBe(expected[login.kind].tier);
      expect(row.status).toBe(expected[login.kind].status);
      expect(row.onboarding).toBe(login.kind === "candidat" ? "payment_completed" : "validated");
      const [owned] = await db.select({ n: count() }).from(mandates).where(eq(mandates.profileId, row.profileId));
      if (login.kind !== "candidat") expect(owned.n).toBeGreaterThan(0);
    }
  });

  it("is idempotent for a seed already loaded", async () => {
    const before = await countOf(t.db!, profiles);
    const again = await seedDemoData(t.db!, { members: MEMBERS, seed: 7, password: PASSWORD });
    expect(again.skipped).toBe(true);
    expect(await countOf(t.db!, profiles)).toBe(before);
  });

  it("is deterministic: the same seed gives the same ids and names in another database", async () => {
    const other = await createTestDatabase();
    try {
      const second = await seedDemoData(other.db, { members: MEMBERS, seed: 7, password: PASSWORD });
      expect(second.counts).toEqual(first.counts);
      const a = await profileSnapshot(t.db!);
      const b = await profileSnapshot(other.db);
      expect(b).toEqual(a);
      const ma = await t.db!.select({ id: mandates.id, code: mandates.clientCode }).from(mandates).orderBy(asc(mandates.id));
      const mb = await other.db.select({ id: mandates.id, code: mandates.clientCode }).from(mandates).orderBy(asc(mandates.id));
      expect(mb).toEqual(ma);
    } finally {
      await other.close();
    }
  }, 60_000);

  it("bulkInsert round-trips awkward values exactly", async () => {
    const db = t.db!;
    const id = "bulk-user";
    await bulkInsert(db, user, [{ id, name: "Bulk", email: "bulk@exemple.fr", emailVerified: false }]);
    const tricky = [
      { company: 'Guillemets "doubles" et \\ barre', sectors: ["A", 'x"y', "a,b", "{c}", "NULL", ""], city: null },
      { company: "Société ’Æ œ’ 😀, {accolades}", sectors: [], city: "L'Haÿ-les-Roses" },
    ];
    const rows = tricky.map((v, i) =>
      buildProfile({ userId: i === 0 ? id : "bulk-user-2", company: v.company, specializationSectors: v.sectors, locationCity: v.city }),
    );
    await bulkInsert(db, user, [{ id: "bulk-user-2", name: "Bulk 2", email: "bulk2@exemple.fr" }]);
    await bulkInsert(db, profiles, rows);
    for (const [i, row] of rows.entries()) {
      const [stored] = await db.select().from(profiles).where(eq(profiles.id, row.id));
      expect(stored.company).toBe(tricky[i].company);
      expect(stored.specializationSectors).toEqual(tricky[i].sectors);
      expect(stored.locationCity).toBe(tricky[i].city);
      expect(stored.createdAt.toISOString()).toBe((row.createdAt as Date).toISOString());
      expect(stored.notifyMessages).toBe(true);
      expect(stored.searchText).toBe(row.searchText);
    }
    const [u] = await db.select().from(user).where(eq(user.id, "bulk-user-2"));
    expect(u.emailVerified).toBe(false);
    await db.delete(user).where(eq(user.id, id));
    await db.delete(user).where(eq(user.id, "bulk-user-2"));
  });

  it("loads a different seed alongside without clashing", async () => {
    const before = await countOf(t.db!, profiles);
    const other = await seedDemoData(t.db!, { members: 20, mandates: 6, seed: 8, password: PASSWORD });
    expect(other.skipped).toBe(false);
    expect(other.logins[0].email).toBe("fondateur+s8@demo.reseau-transmission.fr");
    expect(await countOf(t.db!, profiles)).toBe(before + 20 + applicantCount(20));
    const [empty] = await t.db!.select({ n: count() }).from(profiles).where(eq(profiles.searchText, ""));
    expect(empty.n).toBe(0);
  });
});

describe("the 'Profil vérifié' rule on the seeded data (issue 27)", () => {
  it("every validated member's mark follows from evidence and ticks; migration 0023 rewrites a stale summary and changes nothing else", async () => {
    const db = t.db!;
    const today = parisToday();
    const snapshot = async () =>
      db
        .select({ id: profiles.id, summary: profiles.verificationSummary, until: profiles.insuranceValidUntil, evidence: verificationEvidence.profileId })
        .from(profiles)
        .leftJoin(verificationEvidence, eq(verificationEvidence.profileId, profiles.id))
        .where(eq(profiles.profileStatus, "validated"))
        .orderBy(asc(profiles.id));
    const before = await snapshot();
    expect(before.length).toBeGreaterThanOrEqual(MEMBERS);
    // No mark without a certificate on file; some members let theirs expire (no mark either).
    for (const r of before) if (isVerified(r.summary, r.until, today)) expect(r.evidence).not.toBeNull();
    const verified = before.filter((r) => isVerified(r.summary, r.until, today)).length;
    expect(verified).toBeGreaterThan(before.length * 0.9);
    expect(verified).toBeLessThan(before.length);

    // A summary left stale (the insurance tick gone, as a renewal used to leave it).
    const stale = before.find((r) => isVerified(r.summary, r.until, today))!;
    await db.delete(verificationChecks).where(and(eq(verificationChecks.profileId, stale.id), eq(verificationChecks.step, "insurance")));
    const migration = readFileSync(path.join(process.cwd(), "drizzle/0023_verification_summary_recompute.sql"), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) await db.execute(sql.raw(statement));

    const after = await snapshot();
    for (const [i, r] of after.entries()) {
      if (r.id === stale.id) continue;
      expect(r).toEqual(before[i]);
    }
    const fixed = after.find((r) => r.id === stale.id)!;
    expect(fixed.summary?.steps.map((s) => s.step)).toEqual(["charter", "sponsors", "registration", "siren"]);
    expect(fixed.until).toBeNull();
    expect(isVerified(fixed.summary, fixed.until, today)).toBe(false);
  });
});
