// Issue 14 §2 and §3: ratings after a collaboration (double blind, 14-day window, one answer,
// reports and moderation, consent on the public profile) and the reputation figures refreshed in
// SQL (responsiveness, files, ratings, upheld mediations) with the badges read by the directories.
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog, collaborationFiles, mailOutbox, mandates, memberReputation, messages, profiles } from "~/db/schema";
import { moderateRating, listReportedRatings } from "~/features/admin/ratings-admin.server";
import { abandonFile, confirmClosing, moveStage, proposeClosing } from "~/features/collaboration/collaboration.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { searchDirectory } from "~/features/directory/directory.server";
import { parseDirectoryQuery } from "~/features/directory/directory.schema";
import { searchInternalDirectory } from "~/features/internal-directory/internal-directory.server";
import { parisToday } from "~/features/mandates/mandate-rules";
import { getPublicProfile } from "~/features/profiles/public-profile.server";
import {
  answerRating,
  getFileRatings,
  listReceivedRatings,
  publishDueRatings,
  RATING_MESSAGES,
  rateCounterpart,
  reportRating,
} from "~/features/trust/ratings.server";
import { getReputation, refreshAllReputation, refreshReputation } from "~/features/trust/reputation.server";
import { eq } from "drizzle-orm";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openConfirmedFile } from "./file-helpers";
import { bodyOf, statusOf } from "./mandates-helpers";

const t = useTestDatabase();

let alice: CreatedMember;
let bob: CreatedMember;
let carol: CreatedMember;
let admin: CreatedMember;

const CLIENT = "Canari Notation SAS";

async function confirmedFile(buyerOwner: CreatedMember, sellerOwner: CreatedMember) {
  return (await openConfirmedFile(buyerOwner, sellerOwner, { buyer: "Acheteur Notation SAS", seller: CLIENT })).fileId;
}

async function concludedFile(a: CreatedMember, b: CreatedMember) {
  const fileId = await confirmedFile(a, b);
  for (const s of ["exchanges", "documents", "offer"] as const) await moveStage(fileActor(a.profile), fileId, s);
  await proposeClosing(fileActor(a.profile), fileId, { closingDate: parisToday(), amountBand: null });
  await confirmClosing(fileActor(b.profile), fileId);
  return fileId;
}

const scores = (n: number, comment: string | null = null) => ({ responsiveness: n, professionalism: n, confidentiality: n, comment });

async function failure(p: Promise<unknown>): Promise<{ status: number; message: string | null }> {
  try {
    await p;
    return { status: 200, message: null };
  } catch (error) {
    return { status: statusOf(error), message: (bodyOf<{ message?: string }>(error) ?? {}).message ?? null };
  }
}

beforeEach(async () => {
  const db = t.db!;
  await db.delete(collaborationFiles);
  await db.delete(mailOutbox);
  await db.delete(mandates);
  await db.delete(messages);
  await db.delete(memberReputation);
  await db.execute(sql`delete from rate_limit_counters`);
  if (!alice) {
    seedFactories(1414);
    alice = await createMember(db, { profile: { membershipType: "premium" } });
    bob = await createMember(db, { profile: { membershipType: "premium" } });
    carol = await createMember(db, { profile: { membershipType: "premium" } });
    admin = await createMember(db, { admin: true });
  }
});

describe("ratings after a collaboration", () => {
  it("opens when the file ends, stays double blind until both rated, and e-mails the rated members", async () => {
    const fileId = await confirmedFile(alice, bob);
    expect((await getFileRatings(fileActor(alice.profile), fileId)).eligibility).toEqual({ ok: false, reason: "not-ended" });
    expect(await failure(rateCounterpart(fileActor(alice.profile), fileId, scores(5)))).toEqual({ status: 409, message: RATING_MESSAGES.notEnded });
    // Another member's file is a 404.
    expect((await failure(getFileRatings(fileActor(carol.profile), fileId))).status).toBe(404);

    await abandonFile(fileActor(bob.profile), fileId, { reason: "price", text: null });
    await rateCounterpart(fileActor(alice.profile), fileId, scores(4, "Échanges clairs et suivis."));
    expect(await failure(rateCounterpart(fileActor(alice.profile), fileId, scores(5)))).toEqual({ status: 409, message: RATING_MESSAGES.alreadyRated });

    // Blind: Bob knows Alice rated, not what; nothing counts nor shows yet; no e-mail.
    const bobView = await getFileRatings(fileActor(bob.profile), fileId);
    expect(bobView.counterpartRated).toBe(true);
    expect(bobView.received).toBeNull();
    expect((await getFileRatings(fileActor(alice.profile), fileId)).given?.visible).toBe(false);
    expect(await listReceivedRatings(bob.profile.id)).toEqual([]);
    expect(await ratingMails()).toHaveLength(0);

    // Bob rates: both show at once, each rated member is told (the e-mail names no client).
    await rateCounterpart(fileActor(bob.profile), fileId, scores(3));
    expect((await getFileRatings(fileActor(bob.profile), fileId)).received?.comment).toBe("Échanges clairs et suivis.");
    expect((await getFileRatings(fileActor(alice.profile), fileId)).received?.scores).toEqual({ responsiveness: 3, professionalism: 3, confidentiality: 3 });
    const mails = await ratingMails();
    expect(mails.map((m) => m.toAddress).sort()).toEqual([alice.email, bob.email].sort());
    for (const m of mails) expect(`${m.subject} ${m.html} ${m.text}`).not.toContain(CLIENT);
    expect((await getReputation(bob.profile.id))).toMatchObject({ ratingsCount: 1, ratingAverage: 4, filesAbandoned: 1, filesTotal: 1 });
    // Publishing again sends nothing twice.
    expect(await publishDueRatings()).toBe(0);
  });

  it("shows a lone rating once the 14-day window closed, and closes the window to late raters", async () => {
    const fileId = await concludedFile(alice, bob);
    await rateCounterpart(fileActor(alice.profile), fileId, scores(5));
    expect((await getFileRatings(fileActor(bob.profile), fileId)).received).toBeNull();
    // 15 days later (the file ended then): the window is closed.
    await t.db!.execute(sql`update collaboration_files set concluded_at = now() - interval '15 days' where id = ${fileId}::uuid`);
    await t.db!.execute(sql`update collaboration_ratings set visible_at = now() - interval '1 day' where file_id = ${fileId}::uuid`);
    expect(await failure(rateCounterpart(fileActor(bob.profile), fileId, scores(2)))).toEqual({ status: 409, message: RATING_MESSAGES.windowClosed });
    expect((await getFileRatings(fileActor(bob.profile), fileId)).received?.scores.responsiveness).toBe(5);
    // The job tells Bob and refreshes his figures.
    expect(await publishDueRatings()).toBe(1);
    expect(await ratingMails()).toHaveLength(1);
    expect((await getReputation(bob.profile.id))?.ratingsCount).toBe(1);
  });

  it("refuses a comment naming a client of the file", async () => {
    const fileId = await concludedFile(alice, bob);
    const named = await failure(rateCounterpart(fileActor(alice.profile), fileId, scores(4, `Merci pour le dossier ${CLIENT.toUpperCase()}`)));
    expect(named).toEqual({ status: 400, message: RATING_MESSAGES.clientNamed });
    expect((await getFileRatings(fileActor(alice.profile), fileId)).given).toBeNull();
  });

  it("lets the rated member answer once, members report, admins hide with a reason (audited)", async () => {
    const fileId = await concludedFile(alice, bob);
    await rateCounterpart(fileActor(alice.profile), fileId, scores(2, "Peu disponible."));
    await rateCounterpart(fileActor(bob.profile), fileId, scores(5));
    const rating = (await getFileRatings(fileActor(bob.profile), fileId)).received!;
    // Only the rated member answers, once.
    expect((await failure(answerRating(fileActor(alice.profile), rating.id, { ratingId: rating.id, answer: "Non." }))).status).toBe(404);
    await answerRating(fileActor(bob.profile), rating.id, { ratingId: rating.id, answer: "J'étais en congés deux semaines." });
    expect(await failure(answerRating(fileActor(bob.profile), rating.id, { ratingId: rating.id, answer: "Encore" }))).toEqual({ status: 409, message: RATING_MESSAGES.alreadyAnswered });
    expect((await listReceivedRatings(bob.profile.id))[0]).toMatchObject({ comment: "Peu disponible.", answer: "J'étais en congés deux semaines." });
    expect((await failure(answerRating(fileActor(bob.profile), "not-a-uuid", { ratingId: "x", answer: "x" }))).status).toBe(404);

    // Reported by Bob and by Carol (any member who reads it), once each.
    await reportRating(fileActor(bob.profile), rating.id, { ratingId: rating.id, reason: "Propos inexacts" });
    await reportRating(fileActor(carol.profile), rating.id, { ratingId: rating.id, reason: "Hors sujet" });
    expect(await failure(reportRating(fileActor(carol.profile), rating.id, { ratingId: rating.id, reason: "Encore" }))).toEqual({ status: 409, message: RATING_MESSAGES.alreadyReported });
    const queue = await listReportedRatings();
    expect(queue).toHaveLength(1);
    expect(queue[0].reports.map((r) => r.reason)).toEqual(["Propos inexacts", "Hors sujet"]);

    await moderateRating(admin.user, { decision: "hide", ratingId: rating.id, reason: "Propos non vérifiables" });
    expect(await listReportedRatings()).toEqual([]);
    expect(await listReceivedRatings(bob.profile.id)).toEqual([]);
    expect((await getFileRatings(fileActor(bob.profile), fileId)).received).toMatchObject({ hidden: true, comment: null });
    expect((await getReputation(bob.profile.id))?.ratingsCount).toBe(0);
    const [audit] = await t.db!.select().from(auditLog).where(eq(auditLog.action, "rating.hide"));
    expect(audit).toMatchObject({ actorUserId: admin.user.id, targetType: "rating", targetId: rating.id });
    expect(audit.details).toMatchObject({ reason: "Propos non vérifiables" });
    await expect(moderateRating(admin.user, { decision: "keep", ratingId: rating.id })).rejects.toMatchObject({ status: 409 });
  });

  it("shows the average on the public profile only with the member's consent; always to the internal directory", async () => {
    const fileId = await concludedFile(alice, bob);
    await rateCounterpart(fileActor(alice.profile), fileId, { responsiveness: 5, professionalism: 4, confidentiality: 3, comment: null });
    await rateCounterpart(fileActor(bob.profile), fileId, scores(5));
    expect((await getPublicProfile(bob.profile.id))?.ratings).toBeNull();
    const peers = await searchInternalDirectory({ profile: { id: alice.profile.id } }, parseDirectoryQuery(new URLSearchParams({ q: bob.profile.lastName })));
    expect(peers.rows.find((r) => r.id === bob.profile.id)?.ratings).toEqual({ average: 4, count: 1 });
    await t.db!.update(profiles).set({ showRatingsPublicly: true }).where(eq(profiles.id, bob.profile.id));
    expect((await getPublicProfile(bob.profile.id))?.ratings).toEqual({ average: 4, count: 1 });
  });
});

describe("reputation figures", () => {
  it("counts match requests and internal messages answered within 7 days over 90 days, with the median delay", async () => {
    const db = t.db!;
    const base = { senderName: "x", senderEmail: "x@exemple.fr", subject: "s", content: "c", messageType: "internal" as const };
    const ago = (days: number, hours = 0) => sql`now() - make_interval(days => ${days}, hours => ${hours})`;
    // Carol writes to Alice three times: answered after 2 h, answered after 10 days, never answered.
    await db.insert(messages).values([
      { ...base, senderId: carol.profile.id, recipientId: alice.profile.id, createdAt: ago(30) },
      { ...base, senderId: alice.profile.id, recipientId: carol.profile.id, createdAt: ago(30, -2) },
      { ...base, senderId: carol.profile.id, recipientId: alice.profile.id, createdAt: ago(60) },
      { ...base, senderId: alice.profile.id, recipientId: carol.profile.id, createdAt: ago(50) },
      { ...base, senderId: carol.profile.id, recipientId: alice.profile.id, createdAt: ago(20) },
      // Too old, and too recent to be held against her.
      { ...base, senderId: carol.profile.id, recipientId: alice.profile.id, createdAt: ago(120) },
      { ...base, senderId: carol.profile.id, recipientId: alice.profile.id, createdAt: ago(1) },
    ]);
    await refreshReputation([alice.profile.id]);
    const rep = await getReputation(alice.profile.id);
    // Answered within 7 days: the message of 30 days ago (2 h); 60 days ago took 10 days; 20 days ago never.
    expect(rep).toMatchObject({ messagesReceived: 3, messagesAnswered: 1 });
    expect(rep?.medianResponseHours).toBeCloseTo((2 + 240) / 2, 0);
  });

  it("refreshes on file events and feeds the badges on both directories", async () => {
    for (let i = 0; i < 5; i++) await concludedFile(alice, bob);
    const dropped = await confirmedFile(alice, bob);
    await abandonFile(fileActor(alice.profile), dropped, { reason: "price", text: null });
    const rep = await getReputation(alice.profile.id);
    expect(rep).toMatchObject({ filesTotal: 6, filesConcluded: 5, filesAbandoned: 1, concludedLast12Months: 5, concludedRankShare: 0 });
    // No undertaking was signed in these files: no 'Confidentialité'.
    const page = await searchDirectory(parseDirectoryQuery(new URLSearchParams({ q: alice.profile.lastName })));
    const card = page.cards.find((c) => c.id === alice.profile.id)!;
    expect(card.badges).toEqual(expect.arrayContaining(["top-performer", "high-success-rate"]));
    expect(card.badges).not.toContain("confidential");
    const peers = await searchInternalDirectory({ profile: { id: carol.profile.id } }, parseDirectoryQuery(new URLSearchParams({ q: alice.profile.lastName })));
    expect(peers.rows.find((r) => r.id === alice.profile.id)?.badges).toEqual(expect.arrayContaining(["top-performer", "high-success-rate"]));
    expect((await getPublicProfile(alice.profile.id))?.reputationBadges).toEqual(expect.arrayContaining(["top-performer", "high-success-rate"]));

    // The hourly job recomputes everyone and writes only what changed.
    await db().execute(sql`update member_reputation set refreshed_at = '2000-01-01' where profile_id = ${alice.profile.id}::uuid`);
    expect(await refreshAllReputation()).toBe(true);
    const [row] = await t.db!.select({ at: memberReputation.refreshedAt }).from(memberReputation).where(eq(memberReputation.profileId, alice.profile.id));
    expect(row.at.toISOString()).toBe("2000-01-01T00:00:00.000Z");
  });

  it("counts the mediations upheld against a member", async () => {
    const fileId = await concludedFile(alice, bob);
    await t.db!.execute(sql`insert into mediations (file_id, opened_by, opened_by_name, respondent_id, respondent_name, subject, facts, status, decision, upheld, upheld_against_id, breach_kind)
      values (${fileId}::uuid, ${alice.profile.id}::uuid, 'A', ${bob.profile.id}::uuid, 'B', 'Sujet', 'Faits', 'resolved', 'Fondée', true, ${bob.profile.id}::uuid, 'confidentiality')`);
    await refreshReputation([bob.profile.id]);
    expect(await getReputation(bob.profile.id)).toMatchObject({ upheldMediations: 1, confidentialityBreaches: 1 });
  });
});

function ratingMails() {
  return t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "rating-visible"));
}

function db() {
  return t.db!;
}
