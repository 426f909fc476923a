// Issue 13, items 7 and 8: two-sided closings in both members' statistics and on their public
// profile, a concluded file proposed as a certified deal (once per member), mandates put in
// negotiation from their file (out of the matching, back to the search, concluded with the file),
// and the matching panel's link to the file.
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { certifiedDeals, collaborationEvents, collaborationFiles, mailOutbox, mandates, rateLimitCounters } from "~/db/schema";
import { COLLABORATION_MESSAGES } from "~/features/collaboration/collaboration-rules";
import { abandonFile, confirmClosing, moveStage, proposeClosing } from "~/features/collaboration/collaboration.server";
import { getFileView } from "~/features/collaboration/file-view.server";
import { listMyFiles } from "~/features/collaboration/file-list.server";
import {
  changeMandateFromFile,
  DEAL_PROPOSAL_MESSAGES,
  proposeFileAsDeal,
  resumeMandateSearch,
  type DealProposalActor,
} from "~/features/collaboration/closings.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { NEGOTIATION_MESSAGES } from "~/features/collaboration/negotiation-rules";
import { createMatchRequest } from "~/features/connections/connections.server";
import { getMatchingPanel } from "~/features/connections/matching-panel.server";
import { sendExpiryReminders } from "~/features/mandates/expiry-reminders.server";
import { addDaysIso, MANDATE_MESSAGES, parisToday } from "~/features/mandates/mandate-rules";
import { createMandate, listMyMandates, mandateActor, toggleMandateStatus, type MandateActor } from "~/features/mandates/mandates.server";
import { getClosingStatistics, getMandateStatistics } from "~/features/mandates/statistics.server";
import { listPotentialMatches } from "~/features/matching/matching.server";
import { memberActor } from "~/auth/actor";
import { getPublicProfile } from "~/features/profiles/public-profile.server";
import { profileSlug } from "~/lib/slug";
import { action as overviewAction, loader as overviewLoader } from "~/routes/member/dashboard/file/overview";
import { action as mandatesAction } from "~/routes/member/mandates";
import { loader as consultantLoader } from "~/routes/public/consultant";
import { loader as statsLoader } from "~/routes/member/dashboard/stats";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openConfirmedFile, checkTimelineEvents } from "./file-helpers";
import { bodyOf, locationOf, mandateInput, runAction, runLoader, signIn, statusOf, toastOf } from "./mandates-helpers";

const t = useTestDatabase();
checkTimelineEvents(t);

let alice: CreatedMember; // premium
let bob: CreatedMember; // founding member
let carol: CreatedMember; // premium, a third member
let dave: CreatedMember; // freemium

const actorOf = (m: CreatedMember): DealProposalActor => ({ ...fileActor(m.profile), ...memberActor(m.profile) });
const mActor = (m: CreatedMember): MandateActor => mandateActor(m.profile);

const ALICE_CLIENT = "Acheteur Alice Holding SAS";
const BOB_CLIENT = "Canari Confidentiel SAS";

/**
 * A confirmed connection between a buyer mandate of `buyerOwner` and a seller mandate of
 * `sellerOwner` (sector K, the buyer searching C): the file opens.
 */
let counter = 0;

function confirmedFile(buyerOwner: CreatedMember, sellerOwner: CreatedMember) {
  counter += 1;
  return openConfirmedFile(buyerOwner, sellerOwner, { buyer: ALICE_CLIENT, seller: BOB_CLIENT }, counter);
}

async function toOffer(fileId: string, by: CreatedMember) {
  for (const s of ["exchanges", "documents", "offer"] as const) await moveStage(fileActor(by.profile), fileId, s);
}

/** Two-sided closing: `proposer` proposes, the other member confirms. */
async function conclude(fileId: string, proposer: CreatedMember, confirmer: CreatedMember, closingDate = parisToday()) {
  await toOffer(fileId, proposer);
  await proposeClosing(fileActor(proposer.profile), fileId, { closingDate, amountBand: "1m_3m" });
  await confirmClosing(fileActor(confirmer.profile), fileId);
}

async function statusCode(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (error) {
    return statusOf(error);
  }
}

async function conflictMessage(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (error) {
    return (bodyOf<{ message?: string }>(error) ?? {}).message ?? null;
  }
}

async function mandateStatus(id: string): Promise<string> {
  const [m] = await t.db!.select({ status: mandates.status }).from(mandates).where(eq(mandates.id, id));
  return m.status;
}

function consultant(m: CreatedMember) {
  const slug = profileSlug(m.profile);
  return consultantLoader({ request: new Request(`http://localhost/consultant/${slug}`), params: { slug }, context: { requestId: "test" } } as never);
}

const fileRequest = (fileId: string, fields: Record<string, string>, headers: Headers) =>
  new Request(`http://localhost:3000/dashboard/dossiers/${fileId}`, { method: "POST", headers, body: new URLSearchParams(fields) });

beforeEach(async () => {
  const db = t.db!;
  await db.delete(collaborationFiles);
  await db.delete(certifiedDeals);
  await db.delete(mailOutbox);
  await db.delete(mandates);
  await db.delete(rateLimitCounters);
  if (!alice) {
    seedFactories(1313);
    alice = await createMember(db, { profile: { membershipType: "premium" } });
    bob = await createMember(db, { profile: { membershipType: "founding_member" } });
    carol = await createMember(db, { profile: { membershipType: "premium" } });
    dave = await createMember(db, { profile: { membershipType: "freemium" } });
  }
});

describe("closings in the statistics and on the public profile", () => {
  it("counts only two-sided closings, for both members, with the median delay in days", async () => {
    expect(await getClosingStatistics(mActor(alice))).toEqual({ concluded: 0, medianDaysToClose: null });

    // One proposal awaiting its confirmation, and an abandoned file: nothing counts.
    const pending = await confirmedFile(alice, bob);
    await toOffer(pending.fileId, alice);
    await proposeClosing(fileActor(alice.profile), pending.fileId, { closingDate: parisToday(), amountBand: null });
    const dropped = await confirmedFile(alice, bob);
    await abandonFile(fileActor(bob.profile), dropped.fileId, { reason: "price", text: null });
    for (const m of [alice, bob]) expect(await getClosingStatistics(mActor(m))).toEqual({ concluded: 0, medianDaysToClose: null });
    expect((await getPublicProfile(alice.profile.id))!.closingsCount).toBe(0);
    expect((await consultant(alice)).closingsLine).toBeNull();

    // The proposal confirmed by Bob: one closing for each of them, 10 days after the introduction.
    await confirmClosing(fileActor(bob.profile), pending.fileId);
    await t.db!.execute(sql`update collaboration_files set created_at = concluded_at - interval '10 days 3 hours' where id = ${pending.fileId}::uuid`);
    for (const m of [alice, bob]) expect(await getClosingStatistics(mActor(m))).toEqual({ concluded: 1, medianDaysToClose: 10 });
    expect(await getClosingStatistics(mActor(carol))).toEqual({ concluded: 0, medianDaysToClose: null });
    expect((await consultant(alice)).closingsLine).toBe("1 rapprochement conclu via le réseau");
    expect((await consultant(bob)).closingsLine).toBe("1 rapprochement conclu via le réseau");

    // A second closing for Alice, with Carol (Alice on the seller side this time): 21 days.
    const second = await confirmedFile(carol, alice);
    await conclude(second.fileId, carol, alice);
    await t.db!.execute(sql`update collaboration_files set created_at = concluded_at - interval '21 days' where id = ${second.fileId}::uuid`);
    expect(await getClosingStatistics(mActor(alice))).toEqual({ concluded: 2, medianDaysToClose: 16 });
    expect(await getClosingStatistics(mActor(bob))).toEqual({ concluded: 1, medianDaysToClose: 10 });
    expect((await getPublicProfile(alice.profile.id))!.closingsCount).toBe(2);
    expect((await consultant(alice)).closingsLine).toBe("2 rapprochements conclus via le réseau");
    expect((await consultant(carol)).closingsLine).toBe("1 rapprochement conclu via le réseau");
    expect((await consultant(dave)).closingsLine).toBeNull();

    // The Stats tab's loader carries them.
    const stats = await runLoader(statsLoader, "/dashboard/stats", await signIn(alice));
    expect((stats.value as { closings: unknown }).closings).toEqual({ concluded: 2, medianDaysToClose: 16 });
  });
});

describe("a concluded file proposed as a certified deal", () => {
  it("creates a pending reference prefilled without any client name, once per member", async () => {
    const { fileId } = await confirmedFile(alice, bob);
    // Not before the closing.
    expect(await conflictMessage(proposeFileAsDeal(actorOf(alice), fileId))).toBe(DEAL_PROPOSAL_MESSAGES.notConcluded);
    const year = new Date().getFullYear() - 1;
    await conclude(fileId, bob, alice, `${year}-06-30`);

    const { dealId } = await proposeFileAsDeal(actorOf(alice), fileId);
    const [deal] = await t.db!.select().from(certifiedDeals).where(eq(certifiedDeals.id, dealId));
    expect(deal).toMatchObject({
      profileId: alice.profile.id,
      year,
      // The seller mandate's sector (the buyer searched C).
      sector: "K",
      acquirerCedant: "Rapprochement conclu via le réseau",
      status: "pending",
      validatedAt: null,
    });
    expect(deal.dealDescription).toContain("Conseil de l’acquéreur");
    expect(JSON.stringify(deal)).not.toMatch(new RegExp(`${ALICE_CLIENT}|${BOB_CLIENT}|ACQ-|CED-|rue`));
    // Pending: not on the public profile until an administrator validates it.
    expect((await getPublicProfile(alice.profile.id))!.certifiedDeals).toEqual([]);

    // A second time: a French 409, nothing more written.
    expect(await statusCode(proposeFileAsDeal(actorOf(alice), fileId))).toBe(409);
    expect(await conflictMessage(proposeFileAsDeal(actorOf(alice), fileId))).toBe(DEAL_PROPOSAL_MESSAGES.already);
    expect(await t.db!.select().from(certifiedDeals).where(eq(certifiedDeals.profileId, alice.profile.id))).toHaveLength(1);

    // The other member proposes their own (the seller's side).
    const bobDeal = await proposeFileAsDeal(actorOf(bob), fileId);
    const [theirs] = await t.db!.select().from(certifiedDeals).where(eq(certifiedDeals.id, bobDeal.dealId));
    expect(theirs).toMatchObject({ profileId: bob.profile.id, sector: "K", status: "pending" });
    expect(theirs.dealDescription).toContain("Conseil du cédant");

    const view = await getFileView(fileActor(alice.profile), fileId);
    expect(view.dealProposed).toBe(true);
    const proposals = view.timeline.filter((e) => e.kind === "deal_proposed");
    expect(proposals.map((e) => [e.label, e.byMe])).toEqual([
      ["Dossier proposé comme transaction certifiée", true],
      ["Dossier proposé comme transaction certifiée", false],
    ]);
    // A third member: 404.
    expect(await statusCode(proposeFileAsDeal(actorOf(carol), fileId))).toBe(404);
  });

  it("keeps the certified deals' rules: premium members only", async () => {
    const { fileId } = await confirmedFile(dave, bob);
    await conclude(fileId, bob, dave);
    expect(await statusCode(proposeFileAsDeal(actorOf(dave), fileId))).toBe(403);
    expect(await t.db!.select().from(certifiedDeals)).toHaveLength(0);
    // Refused: no timeline event either, a premium upgrade can still propose it later.
    expect((await getFileView(fileActor(dave.profile), fileId)).dealProposed).toBe(false);
  });

  it("through the page: toast, then the second attempt is a 409 with its French message", async () => {
    const { fileId } = await confirmedFile(alice, bob);
    await conclude(fileId, alice, bob);
    const browser = await signIn(alice);
    const call = (fields: Record<string, string>) =>
      overviewAction({ request: fileRequest(fileId, fields, browser.headers), params: { fileId }, context: { requestId: "test" } } as never);
    const first = await call({ intent: "propose-deal" });
    expect(locationOf(first)).toBe(`/dashboard/dossiers/${fileId}`);
    expect((await toastOf(first))?.title).toBe(DEAL_PROPOSAL_MESSAGES.proposed);
    const again = await call({ intent: "propose-deal" });
    expect(statusOf(again)).toBe(409);
    expect(bodyOf<{ error: string }>(again).error).toBe(DEAL_PROPOSAL_MESSAGES.already);
    const page = await overviewLoader({
      request: new Request(`http://localhost:3000/dashboard/dossiers/${fileId}`, { headers: browser.headers }),
      params: { fileId },
      context: { requestId: "test" },
    } as never);
    expect(page).toMatchObject({ canProposeDeals: true, file: { dealProposed: true } });
  });
});

describe("mandates in negotiation", () => {
  it("only from the offer stage, only the actor's own mandate, once", async () => {
    const { fileId, buyer, seller } = await confirmedFile(alice, bob);
    expect(await conflictMessage(changeMandateFromFile(fileActor(bob.profile), fileId, "negotiate"))).toBe(NEGOTIATION_MESSAGES.negotiateStage);
    await moveStage(fileActor(alice.profile), fileId, "exchanges");
    await moveStage(fileActor(alice.profile), fileId, "documents");
    expect(await statusCode(changeMandateFromFile(fileActor(bob.profile), fileId, "negotiate"))).toBe(409);
    await moveStage(fileActor(alice.profile), fileId, "offer");
    // Not a member of the file, not the owner of the mandate: 404.
    expect(await statusCode(changeMandateFromFile(fileActor(carol.profile), fileId, "negotiate"))).toBe(404);
    expect(await statusCode(resumeMandateSearch(fileActor(carol.profile), seller))).toBe(404);
    expect(await statusCode(resumeMandateSearch(fileActor(alice.profile), seller))).toBe(404);

    expect(await changeMandateFromFile(fileActor(bob.profile), fileId, "negotiate")).toBe("negotiating");
    // Bob's own mandate only: Alice's stays active.
    expect(await mandateStatus(seller)).toBe("negotiating");
    expect(await mandateStatus(buyer)).toBe("active");
    expect(await conflictMessage(changeMandateFromFile(fileActor(bob.profile), fileId, "negotiate"))).toBe(NEGOTIATION_MESSAGES.alreadyNegotiating);
    // The spec's toggle does not apply to it.
    expect(await conflictMessage(toggleMandateStatus(mActor(bob), seller))).toBe(MANDATE_MESSAGES.toggleBeyondSearch);
    expect(await mandateStatus(seller)).toBe("negotiating");
    // Also from the protocol stage, for Alice.
    await moveStage(fileActor(bob.profile), fileId, "protocol");
    expect(await changeMandateFromFile(fileActor(alice.profile), fileId, "negotiate")).toBe("negotiating");
    const view = await getFileView(fileActor(bob.profile), fileId);
    expect(view.myMandate).toMatchObject({ status: "negotiating", statusLabel: "En négociation", commands: ["resume"] });
    expect(view.timeline.filter((e) => e.kind === "mandate_negotiating").map((e) => [e.detail, e.byMe])).toEqual([
      ["Mandat cédant «\u00a0CED-" + counter + "\u00a0»", true],
      ["Mandat acquéreur «\u00a0ACQ-" + counter + "\u00a0»", false],
    ]);
  });

  it("is hidden from new potential matches, keeps its requests and files, and comes back to the search", async () => {
    const { fileId, seller } = await confirmedFile(alice, bob);
    // Carol's buyer mandate searches what Bob's seller offers.
    const carolBuyer = await createMandate(mActor(carol), mandateInput({ clientCode: "CAR-B", searchSectors: ["K"], searchTerritories: ["75"] }));
    const seen = async () => (await listPotentialMatches(mActor(carol), carolBuyer.id)).matches.map((m) => m.id);
    expect(await seen()).toContain(seller);

    await toOffer(fileId, bob);
    await changeMandateFromFile(fileActor(bob.profile), fileId, "negotiate");
    expect(await seen()).not.toContain(seller);
    expect(await statusCode(createMatchRequest(mActor(carol), { mandateId: carolBuyer.id, targetMandateId: seller, message: null }))).toBe(409);
    // Its own panel: no potential match, the confirmed connection and its file still there.
    const panel = await getMatchingPanel(mActor(bob), seller);
    expect(panel.matchable).toBe(false);
    expect(panel.potential).toEqual([]);
    expect(panel.relations.filter((r) => r.confirmed).map((r) => r.fileId)).toEqual([fileId]);
    expect((await listMyFiles(fileActor(bob.profile))).items.map((i) => i.id)).toEqual([fileId]);
    // The expiry reminder is for mandates in search: none for a mandate in negotiation.
    await t.db!.execute(sql`update mandates set end_date = ${addDaysIso(parisToday(), 3)}::date where id = ${seller}::uuid`);
    await t.db!.delete(mailOutbox);
    await sendExpiryReminders();
    expect(await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "mandate-expiry"))).toHaveLength(0);
    // In the statistics: in negotiation, neither active nor expired.
    await t.db!.execute(sql`update mandates set start_date = ${addDaysIso(parisToday(), -60)}::date,
      end_date = ${addDaysIso(parisToday(), -2)}::date where id = ${seller}::uuid`);
    const stats = await getMandateStatistics(mActor(bob));
    expect(stats).toMatchObject({ negotiating: 1, concluded: 0, active: 0, expired: 0, expiringSoon: 0 });
    await t.db!.execute(sql`update mandates set end_date = ${addDaysIso(parisToday(), 30)}::date where id = ${seller}::uuid`);

    // « Remettre en recherche active » from the mandate's card (the /mandates action).
    const browser = await signIn(bob);
    const out = await runAction(mandatesAction, "/mandates", browser, { intent: "resume-search", mandateId: seller, returnTo: "/mandates" });
    expect((await toastOf(out.value))?.title).toBe(NEGOTIATION_MESSAGES.resumed);
    expect(await mandateStatus(seller)).toBe("active");
    expect(await seen()).toContain(seller);
    // Resuming an active mandate: a French 409.
    expect(await conflictMessage(resumeMandateSearch(fileActor(bob.profile), seller))).toBe(NEGOTIATION_MESSAGES.alreadyActive);
    // Another member's mandate through the route: 404.
    const forged = await runAction(mandatesAction, "/mandates", await signIn(carol), { intent: "resume-search", mandateId: seller, returnTo: "/mandates" });
    expect(statusOf(forged.thrown)).toBe(404);
  });

  it("concludes both mandates with its file, in the confirmation's transaction: they leave the matching at once (decision 046)", async () => {
    const { fileId, buyer, seller } = await confirmedFile(alice, bob);
    await toOffer(fileId, alice);
    await changeMandateFromFile(fileActor(bob.profile), fileId, "negotiate");
    // Alice's buyer is still in search (and offered) until the file is concluded.
    const aliceOwn = async () => (await listMyMandates(mActor(alice))).find((m) => m.id === buyer)!;
    expect(await mandateStatus(buyer)).toBe("active");
    await proposeClosing(fileActor(alice.profile), fileId, { closingDate: parisToday(), amountBand: null });
    await confirmClosing(fileActor(bob.profile), fileId);
    expect(await mandateStatus(seller)).toBe("concluded");
    expect(await mandateStatus(buyer)).toBe("concluded");
    // Out of the matching: Alice's panel offers nothing, and no one is offered her buyer.
    expect((await listPotentialMatches(mActor(alice), buyer, undefined, await aliceOwn())).matchable).toBe(false);
    const bobView = await getFileView(fileActor(bob.profile), fileId);
    expect(bobView.myMandate).toMatchObject({ status: "concluded", statusLabel: "Conclu", commands: [] });
    expect(
      bobView.timeline
        .filter((e) => e.kind === "mandate_concluded")
        .map((e) => e.detail)
        .sort(),
    ).toEqual([`Mandat acquéreur «\u00a0ACQ-${counter}\u00a0»`, `Mandat cédant «\u00a0CED-${counter}\u00a0»`].sort());
    // A concluded mandate is done: no toggle, no resume.
    expect(await statusCode(toggleMandateStatus(mActor(bob), seller))).toBe(409);
    expect(await conflictMessage(resumeMandateSearch(fileActor(bob.profile), seller))).toBe(NEGOTIATION_MESSAGES.resumeStatus);
    expect((await getMandateStatistics(mActor(bob))).concluded).toBe(1);
    expect((await getMandateStatistics(mActor(alice))).concluded).toBe(1);

    // Nothing left for Alice to mark by hand: a second conclusion is a French 409.
    const aliceView = await getFileView(fileActor(alice.profile), fileId);
    expect(aliceView.myMandate.commands).toEqual([]);
    const browser = await signIn(alice);
    const again = await overviewAction({
      request: fileRequest(fileId, { intent: "conclude-mandate" }, browser.headers),
      params: { fileId },
      context: { requestId: "test" },
    } as never);
    expect(statusOf(again)).toBe(409);
    expect(bodyOf<{ error: string }>(again).error).toBe(NEGOTIATION_MESSAGES.alreadyConcluded);
  });

  it("through the file page: a third member's forged post is a 404 and changes nothing", async () => {
    const { fileId, seller } = await confirmedFile(alice, bob);
    await toOffer(fileId, bob);
    const carolBrowser = await signIn(carol);
    let thrown: unknown;
    try {
      await overviewAction({ request: fileRequest(fileId, { intent: "negotiate" }, carolBrowser.headers), params: { fileId }, context: { requestId: "test" } } as never);
    } catch (error) {
      thrown = error;
    }
    expect(statusOf(thrown)).toBe(404);
    expect(await mandateStatus(seller)).toBe("active");
    const bobBrowser = await signIn(bob);
    const ok = await overviewAction({ request: fileRequest(fileId, { intent: "negotiate" }, bobBrowser.headers), params: { fileId }, context: { requestId: "test" } } as never);
    expect((await toastOf(ok))?.title).toBe(NEGOTIATION_MESSAGES.negotiating);
    expect(await mandateStatus(seller)).toBe("negotiating");
    expect((await t.db!.select().from(collaborationEvents).where(eq(collaborationEvents.kind, "mandate_negotiating"))).length).toBe(1);
    expect(COLLABORATION_MESSAGES.notFound).toBe("Dossier introuvable");
  });
});

describe("the matching panel links each confirmed connection to its file", () => {
  it("gives the file id of a confirmed relation, and none to a pending one", async () => {
    const { fileId, buyer } = await confirmedFile(alice, bob);
    const carolSeller = await createMandate(
      mActor(carol),
      mandateInput({
        mandateType: "seller",
        clientCode: "CAR-S",
        searchSectors: null,
        searchTerritories: null,
        targetAmountMin: null,
        targetAmountMax: null,
        companySector: "C",
        companyTerritory: "75",
        valuationAmount: 400_000,
      }),
    );
    await createMatchRequest(mActor(carol), { mandateId: carolSeller.id, targetMandateId: buyer, message: null });
    const panel = await getMatchingPanel(mActor(alice), buyer);
    const byCounterpart = Object.fromEntries(panel.relations.map((r) => [r.counterpart.clientCode, { confirmed: r.confirmed, fileId: r.fileId }]));
    expect(byCounterpart).toEqual({
      [`CED-${counter}`]: { confirmed: true, fileId },
      "CAR-S": { confirmed: false, fileId: null },
    });
    // Bob sees the same file from his side.
    const [bobMandate] = await t.db!.select({ id: mandates.id }).from(mandates).where(eq(mandates.clientCode, `CED-${counter}`));
    expect((await getMatchingPanel(mActor(bob), bobMandate.id)).relations[0].fileId).toBe(fileId);
  });
});
