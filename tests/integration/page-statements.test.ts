// Statements per page (issue 17: at most 6 per signed-in page, counted by the server with
// QUERY_STATS): the loaders of one page run in one read-only request scope, as React Router runs
// them, and the statements they send are counted. The root's and the member frame's loaders are
// counted by the benchmark; here, the guards and what each page adds.
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { createMatchRequest, signUndertaking } from "~/features/connections/connections.server";
import { getMatchingPanel } from "~/features/connections/matching-panel.server";
import { shareDocument } from "~/features/collaboration/documents.server";
import { openDocument } from "~/features/collaboration/document-opening.server";
import { postFileMessage } from "~/features/collaboration/collaboration.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { createMandate, deleteMandate, mandateActor } from "~/features/mandates/mandates.server";
import { db } from "~/db/client.server";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "~/db/query.server";
import { recordAdminAction } from "~/features/admin/audit.server";
import { reinstateMember, suspendMember } from "~/features/admin/profiles-admin.server";
import { getMediatedFile } from "~/features/mediation/mediation-admin.server";
import { mediationActor, openMediation, postMemberMediationMessage } from "~/features/mediation/mediation.server";
import { MEDIATION_COLUMNS, mediationViews, type MediationRow } from "~/features/mediation/mediation-views.server";
import { mandateMatchRequests, user, userRoles } from "~/db/schema";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import * as fileLayout from "~/routes/member/dashboard/file/layout";
import * as fileOverview from "~/routes/member/dashboard/file/overview";
import * as fileDocuments from "~/routes/member/dashboard/file/documents";
import * as statsPage from "~/routes/member/dashboard/stats";
import * as notificationsPage from "~/routes/member/dashboard/notifications";
import { getNotificationState, markAllNotificationsRead, notify } from "~/features/notifications/notifications.server";
import * as adminProfiles from "~/routes/admin/profiles";
import * as adminRecommendations from "~/routes/admin/recommendations";
import * as adminJournal from "~/routes/admin/journal";
import * as adminDeals from "~/routes/admin/deals";
import * as adminMediation from "~/routes/admin/mediation";
import * as mandatesPage from "~/routes/member/mandates";
import { useTestDatabase } from "../support/db";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { call, openConfirmedFile, useFileTestEnvironment } from "./file-helpers";
import { mandateInput, sellerFields, signIn, type Browser } from "./mandates-helpers";
import { invalidate } from "~/lib/cache.server";
import { installCache, uninstallCaches } from "../support/instance-cache";

const t = useTestDatabase();
useFileTestEnvironment(t, "statements", { BETTER_AUTH_SECRET: "test-secret-for-statement-tests-0123456789abcdef" });

let alice: CreatedMember;
let bob: CreatedMember;
let browser: Browser;
let fileId: string;
let buyerMandateId: string;

async function pdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  seedFactories(1717);
  alice = await createMember(db, { profile: { firstName: "Alice", lastName: "Lemaire", membershipType: "premium", locationDepartment: "75" } });
  bob = await createMember(db, { profile: { firstName: "Bruno", lastName: "Martin", membershipType: "premium", locationDepartment: "75" } });
  browser = await signIn(alice);
  const opened = await openConfirmedFile(alice, bob, { buyer: "Acheteur Alice SAS", seller: "Cédant Bruno SAS" });
  fileId = opened.fileId;
  buyerMandateId = opened.buyer;
  // What the page shows at its fullest: the undertaking signed (the client revealed), a message,
  // a document of each member, opened by the other.
  const [request] = await db.select({ id: mandateMatchRequests.id }).from(mandateMatchRequests).limit(1);
  await signUndertaking(mandateActor(alice.profile), request!.id).catch(() => undefined);
  await postFileMessage(fileActor(bob.profile), fileId, "Bonjour, voici le mémorandum.");
  const mine = await shareDocument(fileActor(alice.profile), fileId, { name: "bilan.pdf", bytes: await pdf() });
  await shareDocument(fileActor(bob.profile), fileId, { name: "memo.pdf", bytes: await pdf() });
  await openDocument(fileActor(bob.profile), fileId, mine.documentId, "view");
});

/** The loaders of one page, in one GET request scope; their values and the statements sent. */
async function page(path: string, loaders: ((args: never) => Promise<unknown>)[]) {
  const request = new Request(`http://localhost:3000${path}`, { headers: browser.headers });
  return withRequestScope("GET", async () => {
    const outcomes = await Promise.all(loaders.map((l) => call(l, request, { fileId })));
    return { outcomes, queries: currentRequestScope()?.queries ?? 0 };
  });
}

describe("a collaboration file's pages", () => {
  it("'Suivi': the guards (2), the file's access with its header (1), the whole view (1), the due-diligence progress (1)", async () => {
    const { outcomes, queries } = await page(`/dashboard/dossiers/${fileId}`, [fileLayout.loader, fileOverview.loader]);
    for (const o of outcomes) expect(o.thrown).toBeUndefined();
    const view = (outcomes[1]!.value as Awaited<ReturnType<typeof fileOverview.loader>>).file;
    expect(view.messages.map((m) => m.body)).toEqual(["Bonjour, voici le mémorandum."]);
    expect(view.timeline.length).toBeGreaterThan(0);
    expect(queries).toBe(5);
  });

  it("'Documents': the guards (2), the access with the header (1), the documents with their openings and the used space (1)", async () => {
    const { outcomes, queries } = await page(`/dashboard/dossiers/${fileId}/documents`, [fileLayout.loader, fileDocuments.loader]);
    for (const o of outcomes) expect(o.thrown).toBeUndefined();
    const room = (outcomes[1]!.value as Awaited<ReturnType<typeof fileDocuments.loader>>).room;
    expect(room.documents.map((d) => d.name).sort()).toEqual(["bilan.pdf", "memo.pdf"]);
    expect(room.usedBytes).toBeGreaterThan(0);
    expect(room.documents.find((d) => d.name === "bilan.pdf")?.accesses.map((x) => x.byMe)).toEqual([false]);
    expect(room.documents.find((d) => d.name === "memo.pdf")?.accesses).toEqual([]);
    expect(queries).toBe(4);
  });
});

describe("the matching panel", () => {
  it("its own part: the mandate (1), the ranking (1), the requests with counterparts, e-mails, file, events and the revealed client (1)", async () => {
    const { panel, queries } = await withRequestScope("GET", async () => {
      const p = await getMatchingPanel(mandateActor(alice.profile), buyerMandateId);
      return { panel: p, queries: currentRequestScope()?.queries ?? 0 };
    });
    expect(panel.relations).toHaveLength(1);
    const rel = panel.relations[0]!;
    expect(rel.confirmed).toBe(true);
    expect(rel.fileId).toBe(fileId);
    expect(rel.contactEmail).toBe(bob.email);
    expect(rel.client?.name).toBe("Cédant Bruno SAS");
    expect(rel.undertaking.mine).not.toBeNull();
    // The connection's story, in time order: both requests, both answers, the undertaking, the reveal.
    expect([...rel.log.map((l) => l.event)].sort()).toEqual(["accepted", "accepted", "requested", "requested", "revealed", "undertaking_signed"]);
    expect(rel.log.map((l) => l.at)).toEqual([...rel.log.map((l) => l.at)].sort());
    expect(rel.log.findIndex((l) => l.event === "undertaking_signed")).toBeGreaterThan(rel.log.findLastIndex((l) => l.event === "accepted"));
    // The ranking's two passes are one statement (the second runs only when the first did not
    // answer, always with this handful of mandates); the client revealed rides on the requests.
    expect(queries).toBe(3);
  });
});

/**
 * A whole page as React Router loads it on a session's first request: the root's, the member
 * frame's and the page's loaders (with `layout` for the dashboard's), in one GET request scope.
 */
async function wholePage(path: string, page: (args: never) => Promise<unknown>, who: Browser = browser, layout = false) {
  const [root, shell, dashboard] = await Promise.all([import("~/root"), import("~/routes/member/shell"), import("~/routes/member/dashboard/layout")]);
  const request = new Request(`http://localhost:3000${path}`, { headers: who.headers });
  const args = { request, params: {}, context: { requestId: "test", nonce: "n" } } as never;
  return withRequestScope("GET", async () => {
    const loaders = [root.loader, shell.loader, ...(layout ? [dashboard.loader] : []), page] as ((a: never) => Promise<unknown>)[];
    const values = await Promise.all(loaders.map((l) => l(args)));
    return { value: values.at(-1) as never, queries: currentRequestScope()?.queries ?? 0 };
  });
}

// The guards and the frame take 3 statements on a session's first request (session with its user,
// profile with the admin role, the bell's notifications); each page below adds its own.
describe("whole pages (issue 17: at most 6 statements)", () => {
  it("/mandates?matching=…: the list with its figures (1), the panel's ranking (1) and requests (1), the mandate not read again", async () => {
    const { value, queries } = await wholePage(`/mandates?matching=${buyerMandateId}`, mandatesPage.loader);
    const d = value as Awaited<ReturnType<typeof mandatesPage.loader>>;
    expect(d.panel?.mandate.id).toBe(buyerMandateId);
    expect(d.panel?.mandate).not.toHaveProperty("potentialMatches");
    expect(d.panel?.relations[0]?.client?.name).toBe("Cédant Bruno SAS");
    expect(d.quota).toBeNull();
    expect(queries).toBe(6);
  });

  it("/mandates: the list with the cards' figures (1); a premium member's quota is not counted", async () => {
    const { value, queries } = await wholePage("/mandates", mandatesPage.loader);
    const d = value as Awaited<ReturnType<typeof mandatesPage.loader>>;
    expect(d.mandates.map((m) => m.id)).toContain(buyerMandateId);
    expect(d.quota).toBeNull();
    expect(queries).toBe(4);
  });

  it("/mandates?onglet=opportunites: the list (1), every mandate's ranking with the requests sent (1)", async () => {
    // Two more active mandates of Alice's, each with a counterpart; a request sent to one of them.
    const carol = await createMember(db, { profile: { firstName: "Carole", lastName: "Petit", membershipType: "premium", locationDepartment: "75" } });
    const aliceActor = mandateActor(alice.profile);
    const b1 = await createMandate(aliceActor, mandateInput({ clientCode: "OPP-B1" }));
    const b2 = await createMandate(aliceActor, mandateInput({ clientCode: "OPP-B2", searchSectors: ["G"] }));
    const s1 = await createMandate(mandateActor(carol.profile), mandateInput({ ...sellerFields, clientCode: "OPP-S1" }));
    const s2 = await createMandate(mandateActor(carol.profile), mandateInput({ ...sellerFields, clientCode: "OPP-S2", companySector: "G" }));
    await createMatchRequest(aliceActor, { mandateId: b1.id, targetMandateId: s1.id, message: null });

    const { value, queries } = await wholePage("/mandates?onglet=opportunites", mandatesPage.loader);
    const d = value as Awaited<ReturnType<typeof mandatesPage.loader>>;
    expect(d.tab).toBe("opportunites");
    const pairs = (d.opportunities ?? []).map((o) => `${o.own.id}:${o.match.id}`);
    expect(pairs).toEqual(expect.arrayContaining([`${b1.id}:${s1.id}`, `${b2.id}:${s2.id}`]));
    // The statuses of the requests already sent, for the pairs shown.
    expect(d.sentStatuses).toEqual({ [`${b1.id}:${s1.id}`]: "pending" });
    expect(queries).toBe(5);
  });

  it("/dashboard/notifications: the bell's statement serves the list too, one more reads a page of open to-dos", async () => {
    await notify(alice.user.id, "match_request", { title: "Notification de la page", body: null, link: null });
    const { value, queries } = await wholePage("/dashboard/notifications", notificationsPage.loader, browser, true);
    const d = value as Awaited<ReturnType<typeof notificationsPage.loader>>;
    expect(d.state.items[0]?.title).toBe("Notification de la page");
    expect(d.state.unread).toBeGreaterThanOrEqual(1);
    expect(queries).toBe(4);
  });

  it("every member page with the instance's notification states: the bell is not read again; a write drops it at once", async () => {
    installCache("bells");
    try {
      type Page = Awaited<ReturnType<typeof notificationsPage.loader>>;
      const cold = await wholePage("/dashboard/notifications", notificationsPage.loader, browser, true);
      expect(cold.queries).toBe(4);
      const warm = await wholePage("/dashboard/notifications", notificationsPage.loader, browser, true);
      expect(warm.value).toEqual(cold.value);
      expect(warm.queries).toBe(3);
      // A notification through the app's database: this instance forgets the states at once.
      await notify(alice.user.id, "match_request", { title: "Après la mise en cache", body: null, link: null });
      const after = await wholePage("/dashboard/notifications", notificationsPage.loader, browser, true);
      expect(after.queries).toBe(4);
      expect((after.value as Page).state.items[0]?.title).toBe("Après la mise en cache");
      expect((after.value as Page).state.unread).toBe((cold.value as Page).state.unread + 1);
      // The live stream and the polling fallback read it fresh.
      expect((await getNotificationState(alice.user.id, { fresh: true })).items[0]?.title).toBe("Après la mise en cache");
      // Marking them read drops the kept state at once too.
      await markAllNotificationsRead(alice);
      const read = await wholePage("/dashboard/notifications", notificationsPage.loader, browser, true);
      expect(read.queries).toBe(4);
      expect((read.value as Page).state.unread).toBe(0);
    } finally {
      uninstallCaches();
    }
  });

  it("/dashboard/stats: statistics, closings and charts in one statement (1)", async () => {
    const { value, queries } = await wholePage("/dashboard/stats", statsPage.loader, browser, true);
    const d = value as Awaited<ReturnType<typeof statsPage.loader>>;
    expect(d.charted).toBe(true);
    expect(d.stats?.connections).toBe(1);
    expect(d.charts?.months).toHaveLength(12);
    expect(d.closings).toEqual({ concluded: 0, medianDaysToClose: null });
    expect(queries).toBe(4);
  });

  it("a freemium member's /mandates?matching=…: both quotas are counted with the list, not apart", async () => {
    const free = await createMember(db, { profile: { firstName: "Fanny", lastName: "Roux", membershipType: "freemium", locationDepartment: "75" } });
    const own = await createMandate(mandateActor(free.profile), mandateInput({ clientCode: "FREE-B" }));
    const who = await signIn(free);
    const { value, queries } = await wholePage(`/mandates?matching=${own.id}`, mandatesPage.loader, who);
    const d = value as Awaited<ReturnType<typeof mandatesPage.loader>>;
    expect(d.quota).toEqual({ used: 1, canCreate: true });
    expect(d.panel?.opportunities).toEqual({ limited: true, used: 0, limit: 3, canRequest: true });
    expect(queries).toBe(6);
    // The list alone: the quota comes with it.
    const list = await wholePage("/mandates", mandatesPage.loader, who);
    expect((list.value as Awaited<ReturnType<typeof mandatesPage.loader>>).quota).toEqual({ used: 1, canCreate: true });
    expect(list.queries).toBe(4);
    // The stats tab without the charts (not in the freemium tier): the same single statement.
    const stats = await wholePage("/dashboard/stats", statsPage.loader, who, true);
    const sd = stats.value as Awaited<ReturnType<typeof statsPage.loader>>;
    expect(sd.charted).toBe(false);
    expect(sd.charts).toBeNull();
    expect(sd.stats?.total).toBe(1);
    expect(stats.queries).toBe(4);
  });

  it("a freemium member without any mandate: the quota is read apart, and still counts a deleted mandate", async () => {
    const free = await createMember(db, { profile: { firstName: "Gaston", lastName: "Noël", membershipType: "freemium", locationDepartment: "75" } });
    const actor = mandateActor(free.profile);
    const own = await createMandate(actor, mandateInput({ clientCode: "FREE-DEL" }));
    await deleteMandate(actor, own.id);
    const { value, queries } = await wholePage("/mandates", mandatesPage.loader, await signIn(free));
    const d = value as Awaited<ReturnType<typeof mandatesPage.loader>>;
    expect(d.mandates).toEqual([]);
    expect(d.quota).toEqual({ used: 1, canCreate: true });
    expect(queries).toBe(5);
  });
});

/** An admin page as React Router loads it: the root's, the admin frame's and the tab's loaders. */
async function adminPage(path: string, page: (args: never) => Promise<unknown>, who: Browser) {
  const [root, frame] = await Promise.all([import("~/root"), import("~/routes/admin/layout")]);
  const request = new Request(`http://localhost:3000${path}`, { headers: who.headers });
  const args = { request, params: {}, context: { requestId: "test", nonce: "n" } } as never;
  return withRequestScope("GET", async () => {
    const loaders = [root.loader, frame.loader, page] as ((a: never) => Promise<unknown>)[];
    const values = await Promise.all(loaders.map((l) => l(args)));
    return { value: values.at(-1) as never, queries: currentRequestScope()?.queries ?? 0 };
  });
}

// The admin tabs (issue 17): the guards take 2 statements here (the session with its user, the
// profile with the admin role: the admin frame has no bell), then each tab adds its own.
describe("admin tabs (issue 17: at most 6 statements)", () => {
  let admin: Browser;
  let adminUserId: string;
  beforeAll(async () => {
    const member = await createMember(db, { profile: { firstName: "Adèle", lastName: "Admin", membershipType: "premium" } });
    await db.insert(userRoles).values({ userId: member.user.id, role: "admin" });
    admin = await signIn(member);
    adminUserId = member.user.id;
    // Enabled after sign-in (better-auth would otherwise ask for the TOTP code).
    await db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, member.user.id));
  });

  it("/admin: the tiles' counts (1), the page (1), the profiles to review first (1); the list's total is the tiles' (no second count)", async () => {
    const { value, queries } = await adminPage("/admin", adminProfiles.loader, admin);
    const d = value as Awaited<ReturnType<typeof adminProfiles.loader>>;
    expect(d.failed).toBe(false);
    expect(d.total).toBe(d.counts?.total);
    expect(d.rows.length).toBeGreaterThan(0);
    expect(queries).toBe(5);
    const pending = await adminPage("/admin?statut=valides", adminProfiles.loader, admin);
    const p = pending.value as Awaited<ReturnType<typeof adminProfiles.loader>>;
    expect(p.total).toBe(p.counts?.validated);
    expect(pending.queries).toBe(4);
  });

  it("/admin?profil=…: the detail and its checklist in one statement (1), beside the first page's profiles to review (1)", async () => {
    const { value, queries } = await adminPage(`/admin?profil=${bob.profile.id}`, adminProfiles.loader, admin);
    const d = value as Awaited<ReturnType<typeof adminProfiles.loader>>;
    expect(d.detail?.email).toBe(bob.email);
    expect(d.checklist?.steps).toHaveLength(5);
    expect(queries).toBe(6);
  });

  it("/admin?q=…: the search finds its matches once, counts them and reads its page in one statement (1)", async () => {
    const { value, queries } = await adminPage("/admin?q=lemaire", adminProfiles.loader, admin);
    const d = value as Awaited<ReturnType<typeof adminProfiles.loader>>;
    expect(d.rows.map((r) => r.id)).toEqual([alice.profile.id]);
    expect(d.total).toBe(1);
    expect(queries).toBe(4);
  });

  it("/admin/recommandations: the counts (1), the page (1); the list's total is the counts'", async () => {
    const { value, queries } = await adminPage("/admin/recommandations", adminRecommendations.loader, admin);
    const d = value as Awaited<ReturnType<typeof adminRecommendations.loader>>;
    expect(d.total).toBe(d.counts?.total);
    expect(queries).toBe(4);
  });

  it("/admin/mediations/{id}: the mediation, its exchange and attachments, the file's timeline and documents in one statement (1)", async () => {
    const { mediationId } = await openMediation(mediationActor(alice.user, alice.profile), fileId, { subject: "Honoraires non réglés", facts: "Les honoraires convenus restent impayés depuis deux mois." }, [
      { name: "piece.pdf", bytes: await pdf() } as never,
    ]);
    await postMemberMediationMessage(mediationActor(bob.user, bob.profile), fileId, mediationId, "Je conteste : la facture n'a jamais été reçue.");
    const { value, queries } = await adminPage(`/admin/mediations/${mediationId}`, (args: never) => adminMediation.loader({ ...(args as object), params: { mediationId } } as never), admin);
    const d = value as Awaited<ReturnType<typeof adminMediation.loader>>;
    expect(queries).toBe(3);
    // The same view as the separate reads give.
    const rows = await queryRows<MediationRow>(sql`select ${MEDIATION_COLUMNS} from mediations m where m.id = ${mediationId}::uuid`);
    expect(d).toEqual({ mediation: (await mediationViews(rows, { profileId: null }))[0], file: await getMediatedFile(fileId) });
    expect(d.mediation.messages.map((m) => m.body)).toEqual(["Je conteste : la facture n'a jamais été reçue."]);
    expect(d.mediation.attachments.map((a) => a.name)).toEqual(["piece.pdf"]);
    expect(d.file?.documents.map((x) => x.name).sort()).toEqual(["bilan.pdf", "memo.pdf"]);
    expect(d.file?.timeline.length).toBeGreaterThan(0);
  });

  it("/admin/journal: the count (1), the page (1)", async () => {
    const { queries } = await adminPage("/admin/journal", adminJournal.loader, admin);
    expect(queries).toBe(4);
  });

  it("/admin/journal and /admin/recommandations with the instance's admin totals (decision 023): not counted again; a write drops them at once", async () => {
    installCache("admin-totals");
    try {
      type Journal = Awaited<ReturnType<typeof adminJournal.loader>>;
      const cold = await adminPage("/admin/journal", adminJournal.loader, admin);
      expect(cold.queries).toBe(4);
      const warm = await adminPage("/admin/journal", adminJournal.loader, admin);
      expect(warm.queries).toBe(3);
      const total = (cold.value as Journal).total;
      expect((warm.value as Journal).total).toBe(total);
      // A new line in the journal through the app's database: this instance forgets the total at once.
      await recordAdminAction(db, { id: adminUserId }, { action: "profile.validate", targetId: bob.profile.id, details: { target: "Bob", foundingApplied: false } });
      const after = await adminPage("/admin/journal", adminJournal.loader, admin);
      expect(after.queries).toBe(4);
      expect((after.value as Journal).total).toBe(total + 1);

      type Recommendations = Awaited<ReturnType<typeof adminRecommendations.loader>>;
      const first = await adminPage("/admin/recommandations", adminRecommendations.loader, admin);
      expect(first.queries).toBe(4);
      const second = await adminPage("/admin/recommandations", adminRecommendations.loader, admin);
      expect(second.queries).toBe(3);
      expect((second.value as Recommendations).counts).toEqual((first.value as Recommendations).counts);
      await db.execute(sql`update recommendations set confirmed_at = null where id = (select id from recommendations order by id limit 1)`);
      invalidate("recommendations"); // what the recommendations service calls after its write
      expect((await adminPage("/admin/recommandations", adminRecommendations.loader, admin)).queries).toBe(4);

      // The pending deals' total (migration 0020): kept, then dropped by a member's new deal.
      type Deals = Awaited<ReturnType<typeof adminDeals.loader>>;
      const dealsCold = await adminPage("/admin/deals", adminDeals.loader, admin);
      const dealsWarm = await adminPage("/admin/deals", adminDeals.loader, admin);
      expect(dealsWarm.queries).toBe(dealsCold.queries - 1);
      const pendingBefore = (dealsWarm.value as Deals).total;
      await db.execute(sql`insert into certified_deals (profile_id, year, sector, acquirer_cedant) values (${bob.profile.id}::uuid, 2025, 'G', 'Reprise d''une librairie')`);
      invalidate("certified_deals"); // what the deals service calls after its write
      const dealsAfter = await adminPage("/admin/deals", adminDeals.loader, admin);
      expect(dealsAfter.queries).toBe(dealsCold.queries);
      expect((dealsAfter.value as Deals).total).toBe(pendingBefore + 1);
    } finally {
      uninstallCaches();
    }
  });

  it("/admin with the instance's count cache (decision 023): the tiles are not counted again; a decision drops them at once", async () => {
    installCache("profile-totals");
    try {
      const cold = await adminPage("/admin", adminProfiles.loader, admin);
      expect(cold.queries).toBe(5);
      const warm = await adminPage("/admin?statut=valides", adminProfiles.loader, admin);
      const counts = (cold.value as Awaited<ReturnType<typeof adminProfiles.loader>>).counts!;
      expect((warm.value as Awaited<ReturnType<typeof adminProfiles.loader>>).counts).toEqual(counts);
      expect((warm.value as Awaited<ReturnType<typeof adminProfiles.loader>>).total).toBe(counts.validated);
      expect(warm.queries).toBe(3);
      // This instance forgets them with the decision, before any notification.
      await suspendMember({ id: adminUserId }, bob.profile.id);
      const after = await adminPage("/admin", adminProfiles.loader, admin);
      expect((after.value as Awaited<ReturnType<typeof adminProfiles.loader>>).counts).toEqual({ ...counts, validated: counts.validated - 1, suspended: counts.suspended + 1 });
      expect(after.queries).toBe(5);
      await reinstateMember({ id: adminUserId }, bob.profile.id);
      expect((await adminPage("/admin", adminProfiles.loader, admin)).value).toMatchObject({ counts });
    } finally {
      uninstallCaches();
    }
  });
});
