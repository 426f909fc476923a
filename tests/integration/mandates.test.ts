// Mandates: CRUD scoped by owner, the freemium quota (and its race), the route's loader and
// action (toasts, validation, 404 for another member's id), the 7-day expiry reminder and the
// dashboard statistics. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, connectionEvents, mailOutbox, mandateMatchRequests, mandates, rateLimitCounters } from "~/db/schema";
import { createMatchRequest, respondToMatchRequest } from "~/features/connections/connections.server";
import { sendExpiryReminders } from "~/features/mandates/expiry-reminders.server";
import { addDaysIso, MANDATE_MESSAGES, parisToday } from "~/features/mandates/mandate-rules";
import {
  createMandate,
  deleteMandate,
  getMandateQuota,
  getMyMandate,
  listMyMandates,
  mandateActor,
  QuotaReachedError,
  toggleMandateStatus,
  updateMandate,
} from "~/features/mandates/mandates.server";
import { getMandateCharts, getMandateStatistics } from "~/features/mandates/statistics.server";
import { action, loader } from "~/routes/member/mandates";
import { loader as statsLoader } from "~/routes/member/dashboard/stats";
import { createMandate as insertMandate, createMember, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase, testDriver } from "../support/db";
import { bodyOf, locationOf, mandateInput, runAction, runLoader, signIn, statusOf, toastOf } from "./mandates-helpers";

const t = useTestDatabase();
const today = parisToday();

async function statusCode(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (error) {
    return statusOf(error);
  }
}

let owner: CreatedMember;
let other: CreatedMember;

beforeEach(async () => {
  const db = t.db!;
  await db.delete(mailOutbox);
  await db.delete(rateLimitCounters);
  await db.delete(mandates);
  await db.delete(auditLog);
  if (!owner) {
    seedFactories(61);
    owner = await createMember(db, { profile: { membershipType: "premium" } });
    other = await createMember(db, { profile: { membershipType: "premium" } });
  }
});

describe("CRUD scoped by the acting member", () => {
  it("creates, lists newest first, reads, updates, toggles and deletes the member's own mandates", async () => {
    const actor = mandateActor(owner.profile);
    const first = await createMandate(actor, mandateInput({ clientCode: "AAA" }));
    const second = await createMandate(actor, mandateInput({ clientCode: "BBB", mandateType: "seller", searchSectors: null, companySector: "C" }));
    await insertMandate(t.db!, other.profile.id, { clientCode: "OTHER" });
    const list = await listMyMandates(actor);
    expect(list.map((m) => m.clientCode).sort()).toEqual(["AAA", "BBB"]);
    expect(list[0]).toMatchObject({ clientName: "Client Test SAS", status: "active", isExclusive: true, pendingReceived: 0 });

    await updateMandate(actor, first.id, mandateInput({ clientCode: "AAA-2", targetAmountMax: 1_000_000 }));
    expect(await getMyMandate(actor, first.id)).toMatchObject({ clientCode: "AAA-2", targetAmountMax: 1_000_000 });

    expect((await toggleMandateStatus(actor, second.id)).status).toBe("on_hold");
    expect((await toggleMandateStatus(actor, second.id)).status).toBe("active");
    await t.db!.update(mandates).set({ status: "expired" }).where(eq(mandates.id, second.id));
    expect((await toggleMandateStatus(actor, second.id)).status).toBe("active");

    await deleteMandate(actor, second.id);
    expect((await listMyMandates(actor)).map((m) => m.id)).toEqual([first.id]);
  });

  it("answers 404 for another member's mandate and leaves it untouched", async () => {
    const actor = mandateActor(owner.profile);
    const theirs = await insertMandate(t.db!, other.profile.id, { clientCode: "THEIRS" });
    expect(await statusCode(getMyMandate(actor, theirs.id))).toBe(404);
    expect(await statusCode(updateMandate(actor, theirs.id, mandateInput()))).toBe(404);
    expect(await statusCode(toggleMandateStatus(actor, theirs.id))).toBe(404);
    expect(await statusCode(deleteMandate(actor, theirs.id))).toBe(404);
    expect(await statusCode(getMyMandate(actor, "not-a-uuid"))).toBe(404);
    const [row] = await t.db!.select().from(mandates).where(eq(mandates.id, theirs.id));
    expect(row).toMatchObject({ clientCode: "THEIRS", status: "active" });
  });

  it("re-arms the expiry reminder when the end date changes, not otherwise", async () => {
    const actor = mandateActor(owner.profile);
    const { id } = await createMandate(actor, mandateInput());
    await t.db!.update(mandates).set({ expiryReminderSentAt: new Date() }).where(eq(mandates.id, id));
    await updateMandate(actor, id, mandateInput({ description: "Même date" }));
    expect((await t.db!.select().from(mandates).where(eq(mandates.id, id)))[0].expiryReminderSentAt).not.toBeNull();
    await updateMandate(actor, id, mandateInput({ endDate: addDaysIso(today, 120) }));
    expect((await t.db!.select().from(mandates).where(eq(mandates.id, id)))[0].expiryReminderSentAt).toBeNull();
  });

  it("refuses to change the type of a mandate linked by requests", async () => {
    const actor = mandateActor(owner.profile);
    const { id } = await createMandate(actor, mandateInput());
    const target = await insertMandate(t.db!, other.profile.id, { mandateType: "seller" });
    await createMatchRequest(actor, { mandateId: id, targetMandateId: target.id, message: null });
    expect(await statusCode(updateMandate(actor, id, mandateInput({ mandateType: "seller" })))).toBe(409);
  });

  it("keeps the introduction log in the audit log when a connected mandate is deleted", async () => {
    const actor = mandateActor(owner.profile);
    const { id } = await createMandate(actor, mandateInput());
    const target = await insertMandate(t.db!, other.profile.id, { mandateType: "seller" });
    const { requestId } = await createMatchRequest(actor, { mandateId: id, targetMandateId: target.id, message: "Bonjour" });
    await respondToMatchRequest(mandateActor(other.profile), requestId, "accepted");
    await deleteMandate(actor, id);
    expect(await t.db!.select().from(mandateMatchRequests).where(eq(mandateMatchRequests.id, requestId))).toHaveLength(0);
    expect(await t.db!.select().from(connectionEvents).where(eq(connectionEvents.matchRequestId, requestId))).toHaveLength(0);
    const [archived] = await t.db!.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(archived.action).toBe("mandate.deleted_with_connection_log");
    expect((archived.details as { events: Array<{ event: string }> }).events.map((e) => e.event)).toEqual(["requested", "accepted"]);
  });
});

describe("freemium quota: 3 mandates created per rolling six months", () => {
  it("refuses the 4th creation (nothing saved), counts only the window, exempts editing and premium", async () => {
    const free = await createMember(t.db!, { profile: { membershipType: "freemium" } });
    const actor = mandateActor(free.profile);
    // Created seven months ago: outside the window.
    await insertMandate(t.db!, free.profile.id, { createdAt: new Date(Date.now() - 213 * 86_400_000) });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createMandate(actor, mandateInput({ clientCode: `F-${i}` }))).id);
    expect(await getMandateQuota(actor)).toMatchObject({ limited: true, used: 3, limit: 3, canCreate: false });
    await expect(createMandate(actor, mandateInput({ clientCode: "F-3" }))).rejects.toBeInstanceOf(QuotaReachedError);
    expect(await listMyMandates(actor)).toHaveLength(4);
    await updateMandate(actor, ids[0], mandateInput({ clientCode: "F-0-edit" }));
    expect((await getMyMandate(actor, ids[0])).clientCode).toBe("F-0-edit");

    const premium = mandateActor(owner.profile);
    for (let i = 0; i < 4; i++) await createMandate(premium, mandateInput({ clientCode: `P-${i}` }));
    expect((await getMandateQuota(premium)).limited).toBe(false);
  });

  it("holds under concurrency: two simultaneous creations at 2/3, exactly one succeeds", async () => {
    for (let round = 0; round < 3; round++) {
      const free = await createMember(t.db!, { profile: { membershipType: "freemium" } });
      const actor = mandateActor(free.profile);
      await createMandate(actor, mandateInput({ clientCode: "R-1" }));
      await createMandate(actor, mandateInput({ clientCode: "R-2" }));
      const results = await Promise.allSettled([
        createMandate(actor, mandateInput({ clientCode: "R-3a" })),
        createMandate(actor, mandateInput({ clientCode: "R-3b" })),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(rejected).toHaveLength(1);
      expect(rejected[0].reason).toBeInstanceOf(QuotaReachedError);
      expect(await listMyMandates(actor)).toHaveLength(3);
    }
    // On PostgreSQL the two transactions really overlap (pool of 5 connections).
    expect(["pg", "pglite"]).toContain(testDriver);
  });
});

describe("/mandates route", () => {
  const form = (overrides: Record<string, string | string[]> = {}) => ({
    intent: "create",
    mandateType: "buyer",
    isExclusive: "on",
    startDate: today,
    endDate: addDaysIso(today, 90),
    clientCode: "ROUTE-01",
    clientName: "Route SAS",
    clientAddress: "2 avenue du Routeur, 69001 Lyon",
    searchSectors: ["C", "G"],
    searchTerritories: ["france"],
    targetAmountMin: "250 000",
    ...overrides,
  });

  it("requires a validated member", async () => {
    const applicant = await createMember(t.db!, { profile: { profileStatus: "pending_validation", onboardingStatus: "payment_completed" } });
    const b = await signIn(applicant);
    const out = await runLoader(loader, "/mandates", b);
    expect(locationOf(out.thrown)).toBe("/onboarding");
    const post = await runAction(action, "/mandates", b, form());
    expect(statusOf(post.thrown)).toBe(403);
    const anonymous = await runLoader(loader, "/mandates", { headers: new Headers() });
    expect(locationOf(anonymous.thrown)).toBe("/auth");
  });

  it("creates through the form: redirect to the list with the spec's toast", async () => {
    const b = await signIn(owner);
    const out = await runAction(action, "/mandates?nouveau=1", b, form());
    expect(locationOf(out.value)).toBe("/mandates");
    expect((await toastOf(out.value))?.title).toBe(MANDATE_MESSAGES.created);
    const [row] = await t.db!.select().from(mandates).where(eq(mandates.clientCode, "ROUTE-01"));
    expect(row).toMatchObject({
      profileId: owner.profile.id,
      isExclusive: true,
      searchSectors: ["C", "G"],
      searchTerritories: ["france"],
      targetAmountMin: 250_000,
      targetAmountMax: null,
    });
    const page = await runLoader(loader, "/mandates", b);
    expect(page.value?.mandates.map((m) => m.clientCode)).toContain("ROUTE-01");
  });

  it("re-renders validation errors (400) and saves nothing", async () => {
    const b = await signIn(owner);
    const out = await runAction(action, "/mandates?nouveau=1", b, form({ isExclusive: [], clientName: "", endDate: today }));
    expect(statusOf(out.value)).toBe(400);
    const body = bodyOf<{ result: { error: Record<string, string[]> } }>(out.value);
    expect(body.result.error.clientName).toEqual(["Le nom du client est obligatoire"]);
    expect(body.result.error.isExclusive).toEqual(["Vous devez certifier que ce mandat est exclusif"]);
    expect(await t.db!.select().from(mandates)).toHaveLength(0);
  });

  it("shows the freemium limit message and saves nothing", async () => {
    const free = await createMember(t.db!, { profile: { membershipType: "freemium" } });
    const b = await signIn(free);
    for (let i = 0; i < 3; i++) await runAction(action, "/mandates?nouveau=1", b, form({ clientCode: `Q-${i}` }));
    const page = await runLoader(loader, "/mandates?nouveau=1", b);
    expect(page.value?.quota).toEqual({ used: 3, canCreate: false });
    const out = await runAction(action, "/mandates?nouveau=1", b, form({ clientCode: "Q-3" }));
    expect(statusOf(out.value)).toBe(403);
    expect(bodyOf<{ result: { error: Record<string, string[]> } }>(out.value).result.error[""]).toEqual([
      "Limite atteinte : Les membres freemium peuvent créer maximum 3 mandats par semestre",
    ]);
    expect((await toastOf(out.value))?.title).toBe(MANDATE_MESSAGES.quotaReached);
    expect(await t.db!.select().from(mandates).where(eq(mandates.profileId, free.profile.id))).toHaveLength(3);
  });

  it("toggles, updates and deletes with the spec's toasts", async () => {
    const b = await signIn(owner);
    const { id } = await createMandate(mandateActor(owner.profile), mandateInput());
    const hold = await runAction(action, "/mandates", b, { intent: "toggle-status", mandateId: id, returnTo: "/mandates?onglet=opportunites" });
    expect(locationOf(hold.value)).toBe("/mandates?onglet=opportunites");
    expect((await toastOf(hold.value))?.title).toBe("Mandat mis en veille");
    const back = await runAction(action, "/mandates", b, { intent: "toggle-status", mandateId: id, returnTo: "https://evil.example/" });
    expect(locationOf(back.value)).toBe("/mandates");
    expect((await toastOf(back.value))?.title).toBe("Mandat réactivé");
    const upd = await runAction(action, `/mandates?modifier=${id}`, b, form({ intent: "update", mandateId: id, clientCode: "UPD" }));
    expect((await toastOf(upd.value))?.title).toBe("Mandat mis à jour avec succès");
    expect(locationOf(upd.value)).toBe("/mandates");
    const del = await runAction(action, "/mandates", b, { intent: "delete", mandateId: id, returnTo: `/mandates?supprimer=${id}` });
    expect(locationOf(del.value)).toBe("/mandates");
    expect((await toastOf(del.value))?.title).toBe("Mandat supprimé");
  });

  it("answers 404 for another member's id in the URL or in a form", async () => {
    const b = await signIn(owner);
    const theirs = await insertMandate(t.db!, other.profile.id);
    for (const param of ["details", "modifier", "supprimer", "matching"]) {
      expect(statusOf((await runLoader(loader, `/mandates?${param}=${theirs.id}`, b)).thrown)).toBe(404);
    }
    for (const intent of ["toggle-status", "delete"]) {
      expect(statusOf((await runAction(action, "/mandates", b, { intent, mandateId: theirs.id })).thrown)).toBe(404);
    }
    const upd = await runAction(action, "/mandates", b, form({ intent: "update", mandateId: theirs.id }));
    expect(statusOf(upd.thrown)).toBe(404);
  });

  it("shows the list failure message when the list cannot be loaded", async () => {
    const b = await signIn(owner);
    // A column the list reads disappears: the lookup fails, the page still renders.
    await t.db!.execute(sql`alter table mandates rename column client_code to client_code_tmp`);
    try {
      const page = await runLoader(loader, "/mandates", b);
      expect(page.value?.loadError).toBe("Erreur lors du chargement des mandats");
      expect(page.value?.mandates).toEqual([]);
      const stats = await runLoader(statsLoader, "/dashboard/stats", b);
      expect(stats.value?.stats).toBeNull();
    } finally {
      await t.db!.execute(sql`alter table mandates rename column client_code_tmp to client_code`);
    }
  });
});

describe("7-day expiry reminder", () => {
  it("e-mails the owner once when the end date is at most 7 days away; editing the date re-arms it", async () => {
    // The e-mail goes out at once for « Immédiatement » under « Compte et mandats » (otherwise the digest).
    await setEmailFrequency(t.db!, [owner], "immediate", ["account"]);
    const due = await insertMandate(t.db!, owner.profile.id, { clientCode: "DUE-7", startDate: addDaysIso(today, -60), endDate: addDaysIso(today, 7) });
    await insertMandate(t.db!, owner.profile.id, { clientCode: "LATER", startDate: addDaysIso(today, -60), endDate: addDaysIso(today, 8) });
    await insertMandate(t.db!, owner.profile.id, { clientCode: "HOLD", status: "on_hold", startDate: addDaysIso(today, -60), endDate: addDaysIso(today, 3) });
    await insertMandate(t.db!, owner.profile.id, { clientCode: "ENDED", startDate: addDaysIso(today, -60), endDate: addDaysIso(today, -1) });
    const runs = await Promise.all([sendExpiryReminders(), sendExpiryReminders()]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(await sendExpiryReminders()).toBe(0);
    const mails = await t.db!.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: owner.email, kind: "mandate-expiry" });
    expect(mails[0].subject).toContain("DUE-7");
    expect(mails[0].text).toContain(`/mandates?modifier=${due.id}`);
    expect(mails[0].text).not.toContain(due.clientName);

    await updateMandate(mandateActor(owner.profile), due.id, mandateInput({ clientCode: "DUE-7", endDate: addDaysIso(today, 5), startDate: addDaysIso(today, -60) }));
    expect(await sendExpiryReminders()).toBe(1);
  });
});

describe("dashboard statistics", () => {
  it("counts the member's mandates, connections and pending requests", async () => {
    const actor = mandateActor(owner.profile);
    const buyer = await createMandate(actor, mandateInput({ clientCode: "S-B" }));
    await createMandate(actor, mandateInput({ clientCode: "S-SOON", endDate: addDaysIso(today, 3) }));
    await insertMandate(t.db!, owner.profile.id, { mandateType: "seller", clientCode: "S-OLD", startDate: addDaysIso(today, -100), endDate: addDaysIso(today, -10) });
    const theirs = await insertMandate(t.db!, other.profile.id, { mandateType: "seller" });
    const theirs2 = await insertMandate(t.db!, other.profile.id, { mandateType: "seller" });
    const otherActor = mandateActor(other.profile);
    // A confirmed connection (both directions accepted) and one pending request received.
    const r1 = await createMatchRequest(actor, { mandateId: buyer.id, targetMandateId: theirs.id, message: null });
    const r2 = await createMatchRequest(otherActor, { mandateId: theirs.id, targetMandateId: buyer.id, message: null });
    await respondToMatchRequest(otherActor, r1.requestId, "accepted");
    await respondToMatchRequest(actor, r2.requestId, "accepted");
    await createMatchRequest(otherActor, { mandateId: theirs2.id, targetMandateId: buyer.id, message: null });

    const s = await getMandateStatistics(actor);
    expect(s).toMatchObject({ total: 3, active: 2, buyer: 2, seller: 1, expiringSoon: 1, expired: 1, connections: 1, pendingReceived: 1, pendingMandateId: buyer.id });
    expect(s.latest).toHaveLength(3);
    expect(s.latest.find((m) => m.clientCode === "S-OLD")?.status).toBe("expired");
    expect(s.expiring.map((m) => m.clientCode)).toEqual(["S-SOON"]);

    const charts = await getMandateCharts(actor);
    expect(charts.months).toHaveLength(12);
    const thisMonth = charts.months[11];
    expect(thisMonth.month).toBe(today.slice(0, 7));
    expect(thisMonth.buyer).toBe(2);
    expect(charts.requests).toEqual([
      { status: "pending", sent: 0, received: 1 },
      { status: "accepted", sent: 1, received: 1 },
      { status: "rejected", sent: 0, received: 0 },
    ]);
  });
});
