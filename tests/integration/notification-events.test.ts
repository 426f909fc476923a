// One model for what a member must know: each event a use case causes writes one notification in
// its own transaction, opens the to-do of « Ce qui vous attend » when it asks for something (and
// the use case that does it closes it), and its e-mail goes out at once only under the preference
// the rules table names, when the member chose « immédiatement ».
import { and, eq, sql } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeEach, describe, expect, it } from "vitest";
import { collaborationFiles, mailOutbox, mandates, notifications, rateLimitCounters, recommendations, verificationEvidence } from "~/db/schema";
import { decideDeal } from "~/features/admin/deals-admin.server";
import { rejectProfile } from "~/features/admin/profiles-admin.server";
import { closeSettledMandateTasks, sendExpiryReminders } from "~/features/mandates/expiry-reminders.server";
import { decideMediation } from "~/features/mediation/mediation-admin.server";
import { recommendationUrl } from "~/features/recommendations/recommendation-link.server";
import { confirmRecommendation } from "~/features/recommendations/recommendations.server";
import { closeLapsedRatingTasks, rateCounterpart } from "~/features/trust/ratings.server";
import { renewInsurance, sendInsuranceReminders } from "~/features/trust/verification.server";
import { abandonFile, confirmClosing, moveStage, postFileMessage, proposeClosing } from "~/features/collaboration/collaboration.server";
import { shareDocument, withdrawDocument } from "~/features/collaboration/documents.server";
import { fileActor, type FileActor } from "~/features/collaboration/file-access.server";
import { createMatchRequest, respondToMatchRequest, signUndertaking } from "~/features/connections/connections.server";
import { parisToday } from "~/features/mandates/mandate-rules";
import { createMandate, mandateActor, type MandateActor, updateMandate } from "~/features/mandates/mandates.server";
import { mediationActor, openMediation, postMemberMediationMessage } from "~/features/mediation/mediation.server";
import { EVENT_RULES, type EmailKind, type EventKind } from "~/features/notifications/event-rules";
import { getNotificationState, OPEN_TASKS_PAGE_SIZE, openTasksPage } from "~/features/notifications/notifications.server";
import { overviewItems } from "~/features/overview/overview-rules";
import { buildRecommendation, buildVerificationEvidence, createDeal, createMember, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { mandateInput, runLoader, sellerFields, signIn } from "./mandates-helpers";
import { loader as notificationsLoader } from "~/routes/member/dashboard/notifications";

const t = useTestDatabase();

let alice: CreatedMember;
let bob: CreatedMember;
let am: MandateActor;
let bm: MandateActor;
let a: FileActor;
let b: FileActor;

const NO_FIGURES = { newMatches: 0, newMatchesAt: null, expiringSoon: 0, unread: 0, unreadAt: null, activeMandates: 0 };

beforeEach(async () => {
  const db = t.db!;
  await db.delete(collaborationFiles);
  await db.delete(mandates);
  await db.delete(mailOutbox);
  await db.delete(notifications);
  await db.delete(rateLimitCounters);
  if (!alice) {
    seedFactories(3131);
    alice = await createMember(db, { profile: { firstName: "Alice", lastName: "Lemaire", membershipType: "premium" } });
    bob = await createMember(db, { profile: { firstName: "Bruno", lastName: "Martin", membershipType: "founding_member" } });
    am = mandateActor(alice.profile);
    bm = mandateActor(bob.profile);
    a = fileActor(alice.profile);
    b = fileActor(bob.profile);
  }
  await t.db!.execute(sql`delete from email_preferences`);
});

async function notes(m: CreatedMember, kind: EventKind) {
  return t.db!.select().from(notifications).where(and(eq(notifications.userId, m.user.id), eq(notifications.kind, kind)));
}

async function openTasks(m: CreatedMember): Promise<string[]> {
  return (await openTasksPage(m.user.id, null, 1000)).tasks.map((x) => x.key.slice(0, x.key.indexOf(":"))).sort();
}

async function mailsTo(m: CreatedMember) {
  return (await t.db!.select().from(mailOutbox).where(eq(mailOutbox.toAddress, m.email))).map((x) => x.kind);
}

async function twoMandates() {
  const buyer = await createMandate(am, mandateInput({ clientCode: "AL-B", clientName: "Acheteur Secret SAS", clientAddress: "1 rue Cachée" }));
  const seller = await createMandate(bm, mandateInput({ ...sellerFields, clientCode: "BO-S", clientName: "Cédant Secret SAS", clientAddress: "2 rue Discrète" }));
  return { buyer: buyer.id, seller: seller.id };
}

async function confirmedFile() {
  const { buyer, seller } = await twoMandates();
  const r1 = await createMatchRequest(am, { mandateId: buyer, targetMandateId: seller, message: null });
  const r2 = await createMatchRequest(bm, { mandateId: seller, targetMandateId: buyer, message: null });
  await respondToMatchRequest(bm, r1.requestId, "accepted");
  const answer = await respondToMatchRequest(am, r2.requestId, "accepted");
  return { fileId: answer.fileId!, r1: r1.requestId, r2: r2.requestId };
}

async function pdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Bilan", { x: 50, y: 780, size: 14, font });
  return Buffer.from(await doc.save());
}

describe("match requests", () => {
  it("received opens a to-do, answered closes it; accepted and refused tell the requester", async () => {
    const { buyer, seller } = await twoMandates();
    const r = await createMatchRequest(am, { mandateId: buyer, targetMandateId: seller, message: null });
    expect(await notes(bob, "match_request")).toHaveLength(1);
    expect(await openTasks(bob)).toEqual(["match_request"]);
    expect(overviewItems(NO_FIGURES, (await getNotificationState(bob.user.id, { fresh: true })).taskTotals).map((i) => i.label)).toEqual([
      "demande de mise en relation attend votre réponse",
    ]);
    await respondToMatchRequest(bm, r.requestId, "rejected");
    expect(await openTasks(bob)).toEqual([]);
    expect(await notes(alice, "request_refused")).toHaveLength(1);

    const back = await createMatchRequest(bm, { mandateId: seller, targetMandateId: buyer, message: null });
    expect(await openTasks(alice)).toEqual(["match_request"]);
    await respondToMatchRequest(am, back.requestId, "accepted");
    expect(await openTasks(alice)).toEqual([]);
    expect(await notes(bob, "request_accepted")).toHaveLength(1);
  });

  it("a confirmed connection asks each side for its undertaking until it signs", async () => {
    const { r1, r2 } = await confirmedFile();
    expect(await openTasks(alice)).toEqual(["connection_confirmed"]);
    expect(await openTasks(bob)).toEqual(["connection_confirmed"]);
    await signUndertaking(am, r2);
    expect(await openTasks(alice)).toEqual([]);
    // Bob's stays open until he signs his.
    expect(await openTasks(bob)).toEqual(["connection_confirmed"]);
    await signUndertaking(bm, r1);
    expect(await openTasks(bob)).toEqual([]);
  });
});

describe("collaboration files", () => {
  // event → notification kind, to-do opened, e-mail kind, preference it sits under
  const CASES: Array<[string, EventKind, boolean, string, EmailKind, (fileId: string) => Promise<unknown>]> = [
    ["a file message", "file_message", false, "collaboration-message", "messages", (f) => postFileMessage(a, f, "Bonjour, voici où nous en sommes.")],
    ["a stage change", "stage_changed", false, "collaboration-stage", "files", (f) => moveStage(a, f, "exchanges")],
    ["a document shared", "document_shared", false, "collaboration-document", "files", async (f) => shareDocument(a, f, { name: "bilan.pdf", bytes: await pdf() })],
    [
      "a document withdrawn",
      "document_withdrawn",
      false,
      "collaboration-document-withdrawn",
      "files",
      async (f) => {
        const { documentId } = await shareDocument(a, f, { name: "bilan.pdf", bytes: await pdf() });
        await withdrawDocument(a, f, documentId);
      },
    ],
  ];

  it.each(CASES)("%s → a %s notification, to-do %s, e-mail %s under « %s »", async (_name, kind, task, mailKind, preference, act) => {
    expect(EVENT_RULES[kind].email).toBe(preference);
    expect(EVENT_RULES[kind].task !== null).toBe(task);
    const { fileId } = await confirmedFile();
    await t.db!.delete(mailOutbox);
    // The daily digest (the default but for messages): the notification, no e-mail now.
    await setEmailFrequency(t.db!, [bob], "daily", [preference]);
    await act(fileId);
    expect(await notes(bob, kind)).toHaveLength(1);
    expect(await mailsTo(bob)).not.toContain(mailKind);
    // « Immédiatement » under that preference: the e-mail goes out with the notification.
    await setEmailFrequency(t.db!, [bob], "immediate", [preference]);
    const second = await confirmedFileAgain();
    await act(second);
    expect(await mailsTo(bob)).toContain(mailKind);
  });

  it("a closing proposed waits for the other's confirmation; the proposer hears it", async () => {
    const { fileId } = await confirmedFile();
    for (const s of ["exchanges", "documents", "offer"] as const) await moveStage(a, fileId, s);
    await setEmailFrequency(t.db!, [alice], "immediate", ["files"]);
    await proposeClosing(a, fileId, { closingDate: parisToday(), amountBand: "1m_3m" });
    expect(await openTasks(bob)).toContain("closing_proposed");
    expect(overviewItems(NO_FIGURES, (await getNotificationState(bob.user.id, { fresh: true })).taskTotals).map((i) => i.label)).toContain(
      "conclusion de dossier à confirmer",
    );
    await confirmClosing(b, fileId);
    expect(await openTasks(bob)).not.toContain("closing_proposed");
    expect(await notes(alice, "closing_confirmed")).toHaveLength(1);
    expect(await mailsTo(alice)).toContain("collaboration-closing-confirmed");
  });
});

/** A second file between the same members (the first one's mandates stay in it). */
async function confirmedFileAgain(): Promise<string> {
  return (await confirmedFile()).fileId;
}

describe("mediation", () => {
  it("the opener gets an acknowledgement; the other member a to-do, done when they answer", async () => {
    const { fileId } = await confirmedFile();
    const { mediationId } = await openMediation(mediationActor(alice.user, alice.profile), fileId, {
      subject: "Un différend sur les honoraires",
      facts: "Mon confrère conteste la répartition prévue, sans motif écrit.",
    });
    expect(await notes(alice, "mediation_acknowledged")).toHaveLength(1);
    expect(await notes(bob, "mediation_opened")).toHaveLength(1);
    expect(await openTasks(bob)).toContain("mediation_opened");
    expect(overviewItems(NO_FIGURES, (await getNotificationState(bob.user.id, { fresh: true })).taskTotals).map((i) => i.label)).toContain(
      "médiation attend votre réponse",
    );
    // Nothing about the subject or the facts in either notification.
    const all = JSON.stringify(await t.db!.select().from(notifications));
    expect(all).not.toContain("honoraires");
    await postMemberMediationMessage(mediationActor(bob.user, bob.profile), fileId, mediationId, "Je conteste.");
    expect(await openTasks(bob)).not.toContain("mediation_opened");
  });
});

describe("ratings open", () => {
  it("a concluded file asks each member to rate the other, until they do or the window closes", async () => {
    const { fileId } = await confirmedFile();
    for (const s of ["exchanges", "documents", "offer"] as const) await moveStage(a, fileId, s);
    await setEmailFrequency(t.db!, [bob], "immediate", ["files"]);
    await proposeClosing(a, fileId, { closingDate: parisToday(), amountBand: "1m_3m" });
    await confirmClosing(b, fileId);
    expect(EVENT_RULES.rating_open.email).toBe("files");
    expect(await openTasks(alice)).toContain("rating_open");
    expect(await openTasks(bob)).toContain("rating_open");
    // « Immédiatement » for Bob: the e-mail; the daily digest for Alice: none now.
    expect(await mailsTo(bob)).toContain("rating-open");
    expect(await mailsTo(alice)).not.toContain("rating-open");
    await rateCounterpart(a, fileId, { responsiveness: 5, professionalism: 4, confidentiality: 5, comment: null });
    expect(await openTasks(alice)).not.toContain("rating_open");
    expect(await openTasks(bob)).toContain("rating_open");
    // The window closes: nothing is left to do.
    expect(await closeLapsedRatingTasks()).toBe(0);
    await t.db!.execute(sql`update collaboration_files set concluded_at = now() - interval '15 days' where id = ${fileId}::uuid`);
    expect(await closeLapsedRatingTasks()).toBe(1);
    expect(await openTasks(bob)).not.toContain("rating_open");
  });

  it("an abandoned file opens the same to-do", async () => {
    const { fileId } = await confirmedFile();
    await abandonFile(a, fileId, { reason: "other", text: "Le client a renoncé." });
    expect(await openTasks(alice)).toContain("rating_open");
    expect(await openTasks(bob)).toContain("rating_open");
  });
});

describe("mediation answered and decided", () => {
  it("the opener hears the respondent's first answer; both sides hear the decision", async () => {
    const { fileId } = await confirmedFile();
    const { mediationId } = await openMediation(mediationActor(alice.user, alice.profile), fileId, {
      subject: "Un différend sur les honoraires",
      facts: "Mon confrère conteste la répartition prévue, sans motif écrit.",
    });
    await setEmailFrequency(t.db!, [alice], "immediate", ["mediation"]);
    await postMemberMediationMessage(mediationActor(bob.user, bob.profile), fileId, mediationId, "Je conteste.");
    expect(await notes(alice, "mediation_answered")).toHaveLength(1);
    expect(await mailsTo(alice)).toContain("mediation-answered");
    // A second word is a message, not an answer.
    await postMemberMediationMessage(mediationActor(bob.user, bob.profile), fileId, mediationId, "Et je précise.");
    expect(await notes(alice, "mediation_answered")).toHaveLength(1);
    // The opener's own messages answer nothing.
    await postMemberMediationMessage(mediationActor(alice.user, alice.profile), fileId, mediationId, "Voici ma réponse.");
    expect(await notes(bob, "mediation_answered")).toHaveLength(0);

    await decideMediation({ id: alice.user.id }, mediationId, { outcome: "dismissed", decision: "La médiation est classée faute d’éléments suffisants.", against: "none", breachKind: null });
    expect(await notes(alice, "mediation_decided")).toHaveLength(1);
    expect(await notes(bob, "mediation_decided")).toHaveLength(1);
    expect(EVENT_RULES.mediation_decided.email).toBe("mediation");
  });
});

describe("expiring insurance and mandates", () => {
  const inDays = (n: number) => new Date(Date.parse(`${parisToday()}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

  it("insurance: one to-do from 30 days before its end, done when a new certificate is deposited", async () => {
    await t.db!.delete(verificationEvidence);
    await t.db!.insert(verificationEvidence).values([buildVerificationEvidence(bob.profile, { insuranceEndsOn: inDays(30) })]);
    expect(EVENT_RULES.insurance_expiring.email).toBe("account");
    // The default (daily digest): the to-do, no e-mail now; a second run opens nothing more.
    await sendInsuranceReminders();
    await sendInsuranceReminders();
    expect(await notes(bob, "insurance_expiring")).toHaveLength(1);
    expect(await openTasks(bob)).toEqual(["insurance_expiring"]);
    expect(await mailsTo(bob)).not.toContain("insurance-reminder");
    await renewInsurance(bob.profile.id, { insurer: "Assureur", policyNumber: "RC-2027", insuranceEndsOn: inDays(400) }, { name: "attestation.pdf", bytes: await pdf() });
    expect(await openTasks(bob)).toEqual([]);
    // « Immédiatement » under « Compte et mandats »: the e-mail too.
    await t.db!.update(verificationEvidence).set({ insuranceEndsOn: inDays(7) }).where(eq(verificationEvidence.profileId, bob.profile.id));
    await setEmailFrequency(t.db!, [bob], "immediate", ["account"]);
    await sendInsuranceReminders();
    expect(await openTasks(bob)).toEqual(["insurance_expiring"]);
    expect(await mailsTo(bob)).toContain("insurance-reminder");
  });

  it("mandate: one to-do 7 days before its end, done when it is extended or no longer active", async () => {
    const due = await createMandate(am, mandateInput({ clientCode: "AL-DUE", endDate: inDays(5) }));
    await sendExpiryReminders();
    expect(await openTasks(alice)).toEqual(["mandate_expiring"]);
    expect(await mailsTo(alice)).not.toContain("mandate-expiry");
    await updateMandate(am, due.id, mandateInput({ clientCode: "AL-DUE", endDate: inDays(90) }));
    expect(await openTasks(alice)).toEqual([]);

    await setEmailFrequency(t.db!, [alice], "immediate", ["account"]);
    const other = await createMandate(am, mandateInput({ clientCode: "AL-DUE2", endDate: inDays(3) }));
    await sendExpiryReminders();
    expect(await openTasks(alice)).toEqual(["mandate_expiring"]);
    expect(await mailsTo(alice)).toContain("mandate-expiry");
    // Concluded elsewhere (not through the owner's own edit): the job closes it.
    await t.db!.update(mandates).set({ status: "concluded" }).where(eq(mandates.id, other.id));
    expect(await closeSettledMandateTasks()).toBe(1);
    expect(await openTasks(alice)).toEqual([]);
  });
});

describe("admin decisions and sponsors", () => {
  it("a profile refused and a deal decided tell the member, under « Compte et mandats »", async () => {
    const applicant = await createMember(t.db!, { profile: { profileStatus: "pending_validation" } });
    await rejectProfile({ id: alice.user.id }, applicant.profile.id, "Justificatifs incomplets.");
    expect(await notes(applicant, "profile_decision")).toHaveLength(1);
    const deal = await createDeal(t.db!, bob.profile.id, { status: "pending" });
    await decideDeal({ id: alice.user.id }, deal.id, { outcome: "validated" });
    expect(await notes(bob, "deal_decision")).toHaveLength(1);
    expect(EVENT_RULES.profile_decision.email).toBe("account");
    expect(EVENT_RULES.deal_decision.email).toBe("account");
  });

  it("a sponsor's confirmation tells the candidate, and the sponsor when they are a member", async () => {
    const candidate = await createMember(t.db!, { profile: { profileStatus: "pending_validation" } });
    await t.db!.insert(recommendations).values([
      buildRecommendation({ profileId: candidate.profile.id, sponsorEmail: bob.email, sponsorName: "Bruno Martin", confirmedAt: null }),
    ]);
    const url = new URL(recommendationUrl(candidate.profile.id, bob.email));
    const params = { profile: url.searchParams.get("profile"), email: url.searchParams.get("email"), token: url.searchParams.get("token") };
    expect(await confirmRecommendation(params)).toBe("confirmed");
    expect(await notes(candidate, "sponsor_confirmed")).toHaveLength(1);
    expect(await notes(bob, "sponsor_confirmed")).toHaveLength(1);
    // Once: a second click confirms nothing more.
    expect(await confirmRecommendation(params)).toBe("already-confirmed");
    expect(await notes(candidate, "sponsor_confirmed")).toHaveLength(1);
    expect(EVENT_RULES.sponsor_confirmed.email).toBe("account");
  });
});

describe("many open to-dos", () => {
  // 230 requests `step` apart (one twice), then 5 older closings that fall off the listed 200, one of them done.
  async function seedManyOpenTasks(step: string) {
    await t.db!.execute(sql`insert into notifications (user_id, kind, title, task, link, created_at)
      select ${bob.user.id}, 'match_request', 'Nouvelle demande', 'match_request:r' || g, '/mandates?matching=' || g,
        timestamptz '2026-11-20 10:00:00+00' + g * ${step}::interval from generate_series(1, 230) g`);
    await t.db!.execute(sql`insert into notifications (user_id, kind, title, task, link, created_at)
      values (${bob.user.id}, 'match_request', 'Nouvelle demande', 'match_request:r7', '/mandates?matching=7', timestamptz '2026-11-19 10:00:00+00')`);
    await t.db!.execute(sql`insert into notifications (user_id, kind, title, task, link, created_at)
      select ${bob.user.id}, 'closing_proposed', 'Conclusion', 'closing_proposed:f' || g, '/dashboard/dossiers/f' || g,
        timestamptz '2026-11-01 10:00:00+00' + g * interval '1 minute' from generate_series(1, 5) g`);
    await t.db!.execute(sql`update notifications set done_at = now() where task = 'closing_proposed:f1'`);
  }

  it("counts every open to-do per kind, past the list's cap of 200, one per subject", async () => {
    await seedManyOpenTasks("1 minute");

    const state = await getNotificationState(bob.user.id, { fresh: true });
    const items = overviewItems(NO_FIGURES, state.taskTotals);
    expect(items.map((i) => [i.key, i.count, i.to])).toEqual([
      ["match_request", 230, "/mandates?matching=230"],
      ["closing_proposed", 4, "/dashboard/dossiers/f5"],
    ]);
    expect(items[0]!.label).toBe("demandes de mise en relation attendent votre réponse");
  });

  it("pages every open to-do past the list's cap, the oldest one reachable on the last page", async () => {
    // Microseconds apart: the cursor must not round them away.
    await seedManyOpenTasks("1 microsecond");

    const keys: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof openTasksPage>> = await openTasksPage(bob.user.id, cursor);
      keys.push(...page.tasks.map((x) => x.key));
      cursor = page.next;
      pages += 1;
    } while (cursor && pages < 20);
    expect(pages).toBe(Math.ceil(234 / OPEN_TASKS_PAGE_SIZE));
    expect(new Set(keys).size).toBe(234);
    expect(keys).toHaveLength(234);
    expect(keys[0]).toBe("match_request:r230");
    expect(keys.at(-1)).toBe("closing_proposed:f2");
    // The same walk as the member takes it: the notification centre's « Tâches suivantes » links.
    const browser = await signIn(bob);
    const walked: string[] = [];
    let path = "/dashboard/notifications";
    for (let i = 0; i < 20; i++) {
      const { value } = await runLoader(notificationsLoader, path, browser);
      walked.push(...value!.tasks.tasks.map((x) => x.key));
      expect(value!.tasks.paged).toBe(i > 0);
      if (!value!.tasks.next) break;
      path = `/dashboard/notifications?taches=${encodeURIComponent(value!.tasks.next)}`;
    }
    expect(walked).toEqual(keys);
    // A cursor that does not parse reads the first page.
    expect((await openTasksPage(bob.user.id, "not-a-cursor")).tasks[0]!.key).toBe("match_request:r230");
    // Another member's to-dos are not in the page.
    expect((await openTasksPage(alice.user.id)).tasks.map((x) => x.key)).not.toContain("match_request:r1");
  });
});

describe("the bell and the areas", () => {
  it("counts each area's unread notifications with the feed's unread count", async () => {
    await confirmedFile();
    const state = await getNotificationState(bob.user.id, { fresh: true });
    expect(state.unread).toBe(state.items.filter((i) => !i.read).length);
    expect(state.counts.mandates + state.counts.messages + state.counts.files + state.counts.account).toBe(state.unread);
    expect(state.counts.mandates).toBeGreaterThan(0);
  });
});
