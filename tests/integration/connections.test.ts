// Match requests and connections: who may request, answer and when; duplicates; the mutual
// acceptance (and its race); the e-mails; the confidentiality undertaking and the introduction
// log; the route's toasts (spec §8 "Match requests").
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { connectionEvents, mailOutbox, mandateMatchRequests, mandates, profiles, rateLimitCounters, user } from "~/db/schema";
import { MATCH_REQUEST_MESSAGES } from "~/features/connections/connection-rules";
import {
  createMatchRequest,
  respondToMatchRequest,
  signUndertaking,
} from "~/features/connections/connections.server";
import { getMatchingPanel } from "~/features/connections/matching-panel.server";
import { notifyMatchRequest, sendConnectionConfirmedEmails } from "~/features/connections/notifications.server";
import { createMandate, mandateActor, toggleMandateStatus, type MandateActor } from "~/features/mandates/mandates.server";
import { addDaysIso, parisToday } from "~/features/mandates/mandate-rules";
import { action, loader } from "~/routes/member/mandates";
import { createMandate as insertMandate, createMember, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { locationOf, mandateInput, runAction, runLoader, signIn, statusOf, toastOf, sellerFields } from "./mandates-helpers";

const t = useTestDatabase();
const today = parisToday();

let alice: CreatedMember; // buyer side
let bob: CreatedMember; // seller side
let carol: CreatedMember; // a third member
let aliceActor: MandateActor;
let bobActor: MandateActor;
let carolActor: MandateActor;


async function pair() {
  const buyer = await createMandate(aliceActor, mandateInput({ clientCode: "ALICE-B", clientName: "Acheteur Alice SAS", clientAddress: "1 rue Alice" }));
  const seller = await createMandate(bobActor, mandateInput({ ...sellerFields, clientCode: "BOB-S", clientName: "Cédant Bob SARL", clientAddress: "2 rue Bob" }));
  return { buyer: buyer.id, seller: seller.id };
}

async function statusCode(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (error) {
    return statusOf(error);
  }
}

beforeEach(async () => {
  const db = t.db!;
  await db.delete(mailOutbox);
  await db.delete(mandates);
  await db.delete(rateLimitCounters);
  if (!alice) {
    seedFactories(81);
    alice = await createMember(db, { profile: { membershipType: "premium", notifyMatchRequests: true } });
    bob = await createMember(db, { profile: { membershipType: "founding_member", notifyMatchRequests: true } });
    carol = await createMember(db, { profile: { membershipType: "premium" } });
    // Request e-mails go out at once for « Immédiatement » (otherwise the digest carries them).
    await setEmailFrequency(db, [alice, bob], "immediate", ["match_requests"]);
    aliceActor = mandateActor(alice.profile);
    bobActor = mandateActor(bob.profile);
    carolActor = mandateActor(carol.profile);
  }
});

describe("creating a request", () => {
  it("creates a pending request with a 'requested' log entry and e-mails the target's owner", async () => {
    const { buyer, seller } = await pair();
    const { requestId } = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: seller, message: "Bonjour Bob" });
    const [row] = await t.db!.select().from(mandateMatchRequests).where(eq(mandateMatchRequests.id, requestId));
    expect(row).toMatchObject({ status: "pending", requesterProfileId: alice.profile.id, message: "Bonjour Bob", respondedAt: null });
    const events = await t.db!.select().from(connectionEvents).where(eq(connectionEvents.matchRequestId, requestId));
    expect(events).toMatchObject([{ event: "requested", actorProfileId: alice.profile.id, details: { message: "Bonjour Bob" } }]);

    expect(await notifyMatchRequest(requestId)).toBe(true);
    const [mail] = await t.db!.select().from(mailOutbox);
    expect(mail).toMatchObject({ toAddress: bob.email, kind: "match-request" });
    expect(mail.text).toContain("ALICE-B");
    expect(mail.text).toContain("Bonjour Bob");
    expect(mail.text).toContain(`/mandates?matching=${seller}`);
    expect(`${mail.text}${mail.html}`).not.toMatch(/Acheteur Alice SAS|1 rue Alice|Cédant Bob SARL/);
  });

  it("respects the target owner's preference", async () => {
    const quiet = await createMember(t.db!, { profile: { notifyMatchRequests: false } });
    await setEmailFrequency(t.db!, [quiet], "off", ["match_requests"]);
    const { buyer } = await pair();
    const target = await insertMandate(t.db!, quiet.profile.id, sellerFields);
    const { requestId } = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: target.id, message: null });
    expect(await notifyMatchRequest(requestId)).toBe(false);
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(0);
  });

  it("refuses another member's mandate as source, own or unknown targets, same type, unavailable targets, duplicates", async () => {
    const { buyer, seller } = await pair();
    const aliceSeller = await createMandate(aliceActor, mandateInput({ ...sellerFields, clientCode: "ALICE-S" }));
    const bobBuyer = await createMandate(bobActor, mandateInput({ clientCode: "BOB-B" }));
    const req = (actor: MandateActor, mandateId: string, targetMandateId: string) =>
      statusCode(createMatchRequest(actor, { mandateId, targetMandateId, message: null }));
    expect(await req(carolActor, buyer, seller)).toBe(404); // not carol's mandate
    expect(await req(aliceActor, buyer, aliceSeller.id)).toBe(404); // own target
    expect(await req(aliceActor, buyer, "00000000-0000-4000-8000-000000000000")).toBe(404);
    expect(await req(aliceActor, buyer, bobBuyer.id)).toBe(409); // buyer → buyer
    await toggleMandateStatus(bobActor, seller);
    expect(await req(aliceActor, buyer, seller)).toBe(409); // target on hold
    await toggleMandateStatus(bobActor, seller);
    await t.db!.update(mandates).set({ startDate: addDaysIso(today, -100), endDate: addDaysIso(today, -1) }).where(eq(mandates.id, buyer));
    expect(await req(aliceActor, buyer, seller)).toBe(409); // own mandate ended
    await t.db!.update(mandates).set({ endDate: addDaysIso(today, 30) }).where(eq(mandates.id, buyer));
    expect(await req(aliceActor, buyer, seller)).toBe(200);
    expect(await req(aliceActor, buyer, seller)).toBe(409); // duplicate
    expect(await t.db!.select().from(mandateMatchRequests)).toHaveLength(1);
  });
});

describe("answering a request", () => {
  it("only the target's owner, only while pending", async () => {
    const { buyer, seller } = await pair();
    const { requestId } = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: seller, message: null });
    expect(await statusCode(respondToMatchRequest(aliceActor, requestId, "accepted"))).toBe(404); // the requester
    expect(await statusCode(respondToMatchRequest(carolActor, requestId, "accepted"))).toBe(404); // a stranger
    expect(await statusCode(respondToMatchRequest(bobActor, "not-a-uuid", "accepted"))).toBe(404);
    const answer = await respondToMatchRequest(bobActor, requestId, "rejected");
    expect(answer).toMatchObject({ status: "rejected", confirmed: false });
    expect(await statusCode(respondToMatchRequest(bobActor, requestId, "accepted"))).toBe(409);
    const [row] = await t.db!.select().from(mandateMatchRequests).where(eq(mandateMatchRequests.id, requestId));
    expect(row.status).toBe("rejected");
    expect(row.respondedAt).not.toBeNull();
  });

  it("confirms the connection when both directions are accepted; e-mails both sides with each other's contact", async () => {
    const { buyer, seller } = await pair();
    const ab = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: seller, message: null });
    const first = await respondToMatchRequest(bobActor, ab.requestId, "accepted");
    expect(first).toMatchObject({ status: "accepted", confirmed: false });
    const ba = await createMatchRequest(bobActor, { mandateId: seller, targetMandateId: buyer, message: null });
    const second = await respondToMatchRequest(aliceActor, ba.requestId, "accepted");
    expect(second).toMatchObject({ status: "accepted", confirmed: true });
    expect(await sendConnectionConfirmedEmails(second.requesterMandateId, second.targetMandateId)).toBe(2);
    // Once per pair and side, whoever asks again.
    expect(await sendConnectionConfirmedEmails(buyer, seller)).toBe(0);
    const mails = await t.db!.select().from(mailOutbox);
    expect(mails.map((m) => m.toAddress).sort()).toEqual([alice.email, bob.email].sort());
    const toAlice = mails.find((m) => m.toAddress === alice.email)!;
    expect(toAlice).toMatchObject({ kind: "match-confirmed", replyTo: bob.email });
    expect(toAlice.text).toContain(bob.email);
    expect(toAlice.text).toContain("BOB-S");
    for (const m of mails) expect(`${m.text}${m.html}`).not.toMatch(/Acheteur Alice SAS|Cédant Bob SARL|1 rue Alice|2 rue Bob/);
  });

  it("two acceptances racing: exactly one confirms, and one pair of e-mails", async () => {
    for (let round = 0; round < 3; round++) {
      await t.db!.delete(mailOutbox);
      const { buyer, seller } = await pair();
      const ab = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: seller, message: null });
      const ba = await createMatchRequest(bobActor, { mandateId: seller, targetMandateId: buyer, message: null });
      const answers = await Promise.all([
        respondToMatchRequest(bobActor, ab.requestId, "accepted"),
        respondToMatchRequest(aliceActor, ba.requestId, "accepted"),
      ]);
      expect(answers.filter((a) => a.confirmed)).toHaveLength(1);
      await Promise.all(answers.filter((a) => a.confirmed).map((a) => sendConnectionConfirmedEmails(a.requesterMandateId, a.targetMandateId)));
      expect(await t.db!.select().from(mailOutbox)).toHaveLength(2);
    }
  });

  it("a double click on Accepter: one acceptance, the other gets 409", async () => {
    const { buyer, seller } = await pair();
    const ab = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: seller, message: null });
    const results = await Promise.allSettled([
      respondToMatchRequest(bobActor, ab.requestId, "accepted"),
      respondToMatchRequest(bobActor, ab.requestId, "accepted"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const events = await t.db!.select().from(connectionEvents).where(eq(connectionEvents.matchRequestId, ab.requestId));
    expect(events.filter((e) => e.event === "accepted")).toHaveLength(1);
  });
});

describe("the matching panel, the undertaking and the introduction log", () => {
  it("shows counters, both directions, 'Déjà proposé' material, and reveals the client only after the undertaking", async () => {
    const { buyer, seller } = await pair();
    const ab = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: seller, message: "Premier contact" });
    let bobPanel = await getMatchingPanel(bobActor, seller);
    expect(bobPanel.counters).toEqual({ sent: 0, pendingReceived: 1, activeConnections: 0 });
    expect(bobPanel.relations[0]).toMatchObject({ received: { status: "pending", message: "Premier contact" }, sent: null, confirmed: false, client: null });
    expect(await statusCode(signUndertaking(bobActor, ab.requestId))).toBe(409);

    await respondToMatchRequest(bobActor, ab.requestId, "accepted");
    const ba = await createMatchRequest(bobActor, { mandateId: seller, targetMandateId: buyer, message: null });
    await respondToMatchRequest(aliceActor, ba.requestId, "accepted");

    bobPanel = await getMatchingPanel(bobActor, seller);
    // A confirmed pair counts as a connection only, as the lists show it (issue 15 §4).
    expect(bobPanel.counters).toEqual({ sent: 0, pendingReceived: 0, activeConnections: 1 });
    const rel = bobPanel.relations[0];
    expect(rel).toMatchObject({ confirmed: true, contactEmail: alice.email, client: null, undertaking: { mine: null, theirs: null } });

    await signUndertaking(bobActor, ba.requestId);
    await signUndertaking(bobActor, ab.requestId); // idempotent, either request of the pair
    bobPanel = await getMatchingPanel(bobActor, seller);
    expect(bobPanel.relations[0].client).toEqual({ name: "Acheteur Alice SAS", address: "1 rue Alice" });
    expect(bobPanel.relations[0].undertaking.mine).not.toBeNull();
    // Alice has not signed: she still does not see Bob's client, but sees that Bob signed.
    const alicePanel = await getMatchingPanel(aliceActor, buyer);
    expect(alicePanel.relations[0].client).toBeNull();
    expect(alicePanel.relations[0].undertaking.theirs).not.toBeNull();
    // The log: every step, with its actor, visible to both.
    const steps = alicePanel.relations[0].log.map((e) => [e.event, e.byMe]);
    expect(steps).toEqual([
      ["requested", true],
      ["accepted", false],
      ["requested", false],
      ["accepted", true],
      ["undertaking_signed", false],
      ["revealed", false],
    ]);
    expect(alicePanel.relations[0].log[0].message).toBe("Premier contact");
    expect(alicePanel.relations[0].log[1].actorName).toBe(`${bob.profile.firstName} ${bob.profile.lastName}`);
    const signed = await t.db!.select().from(connectionEvents).where(eq(connectionEvents.event, "undertaking_signed"));
    expect(signed).toHaveLength(1);
    expect(signed[0]).toMatchObject({ actorProfileId: bob.profile.id });
    expect((signed[0].details as { text: string }).text).toMatch(/ne pas contourner/);
    // Carol sees nothing of it.
    expect(await statusCode(getMatchingPanel(carolActor, seller))).toBe(404);
    expect(await statusCode(signUndertaking(carolActor, ab.requestId))).toBe(404);
  });
});

describe("route actions and toasts (spec §8)", () => {
  it("request → accept → propose → accept, with the spec's messages", async () => {
    const { buyer, seller } = await pair();
    const a = await signIn(alice);
    const b = await signIn(bob);
    const back = `/mandates?matching=${buyer}`;
    const sent = await runAction(action, "/mandates", a, { intent: "request", mandateId: buyer, targetMandateId: seller, message: "  ", returnTo: back });
    expect(locationOf(sent.value)).toBe(back);
    expect((await toastOf(sent.value))?.title).toBe("Demande de mise en relation envoyée !");
    const [request] = await t.db!.select().from(mandateMatchRequests);
    expect(request.message).toBeNull(); // empty message → null
    expect((await t.db!.select().from(mailOutbox)).map((m) => m.toAddress)).toEqual([bob.email]);

    const dup = await runAction(action, "/mandates", a, { intent: "request", mandateId: buyer, targetMandateId: seller, returnTo: back });
    expect(await toastOf(dup.value)).toMatchObject({ type: "error", title: "Erreur lors de l'envoi de la demande", description: MATCH_REQUEST_MESSAGES.duplicate });

    const accepted = await runAction(action, "/mandates", b, { intent: "accept", requestId: request.id, returnTo: `/mandates?matching=${seller}` });
    expect((await toastOf(accepted.value))?.title).toBe("Demande acceptée ! En attente de confirmation de l'autre partie.");
    const again = await runAction(action, "/mandates", b, { intent: "reject", requestId: request.id });
    expect(await toastOf(again.value)).toMatchObject({ type: "error", title: "Erreur lors de la mise à jour" });

    const proposed = await runAction(action, "/mandates", b, { intent: "propose", mandateId: seller, targetMandateId: buyer, returnTo: `/mandates?matching=${seller}` });
    expect((await toastOf(proposed.value))?.title).toBe("Demande de mise en relation envoyée !");
    const panel = await runLoader(loader, `/mandates?matching=${seller}`, b);
    expect(panel.value?.panel?.relations[0]).toMatchObject({ sent: { status: "pending" }, received: { status: "accepted" } });

    const reverse = (await t.db!.select().from(mandateMatchRequests).where(eq(mandateMatchRequests.requesterMandateId, seller)))[0];
    const confirmed = await runAction(action, "/mandates", a, { intent: "accept", requestId: reverse.id, returnTo: back });
    expect((await toastOf(confirmed.value))?.title).toBe("Mise en relation confirmée ! Les coordonnées ont été échangées par email.");
    const kinds = (await t.db!.select().from(mailOutbox)).map((m) => m.kind).sort();
    expect(kinds).toEqual(["match-confirmed", "match-confirmed", "match-request", "match-request"]);

    const refused = await runAction(action, "/mandates", b, { intent: "sign-undertaking", requestId: reverse.id, returnTo: back });
    expect((await toastOf(refused.value))?.title).toBe("Vous devez accepter l’engagement de confidentialité pour consulter l’identité du client");
    const signed = await runAction(action, "/mandates", b, { intent: "sign-undertaking", requestId: reverse.id, accept: "on", returnTo: back });
    expect((await toastOf(signed.value))?.type).toBe("success");
  });

  it("the confirmation toast tells the truth: no e-mail for a member who turned them off (issue 16)", async () => {
    const { buyer, seller } = await pair();
    await t.db!.update(profiles).set({ notifyMatchRequests: false }).where(eq(profiles.id, alice.profile.id));
    try {
      const a = await signIn(alice);
      const b = await signIn(bob);
      const ab = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: seller, message: null });
      const ba = await createMatchRequest(bobActor, { mandateId: seller, targetMandateId: buyer, message: null });
      await runAction(action, "/mandates", b, { intent: "accept", requestId: ab.requestId });
      const confirmed = await runAction(action, "/mandates", a, { intent: "accept", requestId: ba.requestId });
      expect((await toastOf(confirmed.value))?.title).toBe(MATCH_REQUEST_MESSAGES.confirmedWithoutMail);
      const mails = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "match-confirmed"));
      expect(mails.map((m) => m.toAddress)).toEqual([bob.email]);
      expect(mails[0].text).toContain("L’identité des clients n’est jamais envoyée par e-mail");
    } finally {
      await t.db!.update(profiles).set({ notifyMatchRequests: true }).where(eq(profiles.id, alice.profile.id));
    }
  });

  it("'Demande rejetée', a 404 for someone else's request, and the e-mail failure message", async () => {
    const { buyer, seller } = await pair();
    const a = await signIn(alice);
    const b = await signIn(bob);
    const c = await signIn(carol);
    const ab = await createMatchRequest(aliceActor, { mandateId: buyer, targetMandateId: seller, message: null });
    expect(statusOf((await runAction(action, "/mandates", c, { intent: "accept", requestId: ab.requestId })).thrown)).toBe(404);
    expect(statusOf((await runAction(action, "/mandates", a, { intent: "accept", requestId: ab.requestId })).thrown)).toBe(404);
    const rejected = await runAction(action, "/mandates", b, { intent: "reject", requestId: ab.requestId });
    expect((await toastOf(rejected.value))?.title).toBe("Demande rejetée");

    // Confirmation e-mails that cannot be queued (an address the outbox refuses): the acceptance
    // stands, the member is told.
    const buyer2 = await createMandate(aliceActor, mandateInput({ clientCode: "ALICE-B2" }));
    const r1 = await createMatchRequest(aliceActor, { mandateId: buyer2.id, targetMandateId: seller, message: null });
    const r2 = await createMatchRequest(bobActor, { mandateId: seller, targetMandateId: buyer2.id, message: null });
    await respondToMatchRequest(bobActor, r1.requestId, "accepted");
    await t.db!.update(user).set({ email: "adresse-invalide" }).where(eq(user.id, alice.user.id));
    try {
      const out = await runAction(action, "/mandates", a, { intent: "accept", requestId: r2.requestId });
      expect((await toastOf(out.value))?.title).toBe("Demande acceptée ! (Erreur lors de l'envoi des emails de confirmation)");
    } finally {
      await t.db!.update(user).set({ email: alice.email }).where(eq(user.id, alice.user.id));
    }
    const [row] = await t.db!.select().from(mandateMatchRequests).where(eq(mandateMatchRequests.id, r2.requestId));
    expect(row.status).toBe("accepted");
  });

  it("shows the request dialog only for a compatible target of the member's own mandate", async () => {
    const { buyer, seller } = await pair();
    const a = await signIn(alice);
    const ok = await runLoader(loader, `/mandates?matching=${buyer}&demande=${seller}`, a);
    expect(ok.value?.requestTarget).toMatchObject({ own: { id: buyer }, target: { id: seller, clientCode: "BOB-S" }, score: { total: 75 } });
    const fromOpportunities = await runLoader(loader, `/mandates?onglet=opportunites&mandat=${buyer}&demande=${seller}`, a);
    expect(fromOpportunities.value?.requestTarget?.target.id).toBe(seller);
    const c = await signIn(carol);
    const notMine = await runLoader(loader, `/mandates?mandat=${buyer}&demande=${seller}`, c);
    expect(notMine.value?.requestTarget).toBeNull();
  });
});
