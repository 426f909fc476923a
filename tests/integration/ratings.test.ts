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
import { createMember, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openConfirmedFile } from "./file-helpers";
import { bodyOf, locationOf, signIn, statusOf, toastOf } from "./mandates-helpers";
import { action as consultantAction, loader as consultantLoader } from "~/routes/public/consultant";
import { profileSlug } from "~/lib/slug";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { loader as internalDirectoryLoader } from "~/routes/member/dashboard/directory";

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
    await setEmailFrequency(db, [alice, bob, carol], "immediate");
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

  it("lets a member report a rating from the profile: once, scoped to that profile, audited, rate-limited; the answer stays", async () => {
    const fileId = await concludedFile(alice, bob);
    await rateCounterpart(fileActor(alice.profile), fileId, scores(2, "Peu disponible."));
    await rateCounterpart(fileActor(bob.profile), fileId, scores(5));
    const rating = (await getFileRatings(fileActor(bob.profile), fileId)).received!;
    await answerRating(fileActor(bob.profile), rating.id, { ratingId: rating.id, answer: "J'étais en congés." });
    const carolBrowser = await signIn(carol);
    const post = async (member: CreatedMember, fields: Record<string, string>) => {
      const slug = profileSlug(member.profile);
      const request = new Request(`http://localhost:3000/consultant/${slug}`, { method: "POST", headers: carolBrowser.headers, body: new URLSearchParams(fields) });
      try {
        return await consultantAction({ request, params: { slug }, context: { requestId: "test" } } as never);
      } catch (thrown) {
        return thrown;
      }
    };
    const report = { intent: "report", ratingId: rating.id, reason: "Propos inexacts" };
    // Alice's rating of Bob shows on Bob's profile, not on Alice's.
    expect(statusOf(await post(alice, report))).toBe(404);
    const done = await post(bob, report);
    expect(locationOf(done)).toBe(`/consultant/${profileSlug(bob.profile)}`);
    expect((await toastOf(done))?.title).toBe(RATING_MESSAGES.reported);
    const again = await post(bob, report);
    expect(statusOf(again)).toBe(409);
    expect(bodyOf(again)).toEqual({ intent: "report", ratingId: rating.id, error: RATING_MESSAGES.alreadyReported });
    expect(statusOf(await post(bob, { intent: "report", ratingId: rating.id, reason: " " }))).toBe(400);
    const audits = (await t.db!.select().from(auditLog).where(eq(auditLog.action, "rating.report"))).filter((a) => a.targetId === rating.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorUserId: carol.user.id, targetType: "rating", targetId: rating.id });
    expect(JSON.stringify(audits[0].details)).not.toContain("inexacts");
    // Reported, the rating and its public answer stay on the profile until an admin decides.
    const page = (await consultantLoader({
      request: new Request(`http://localhost:3000/consultant/${profileSlug(bob.profile)}`, { headers: carolBrowser.headers }),
      params: { slug: profileSlug(bob.profile) },
      context: { requestId: "test" },
    } as never)) as { memberRatings: { list: { id: string; answer: string | null }[] } | null };
    expect(page.memberRatings?.list).toEqual([expect.objectContaining({ id: rating.id, answer: "J'étais en congés." })]);
    // Rate limit: ten reports an hour per member (the counter is shared by both pages).
    await t.db!.execute(sql`insert into rate_limit_counters (key, window_start, count) values (${`rating-report:${alice.profile.id}`}, now(), 1000000) on conflict (key) do update set count = 1000000, window_start = now()`);
    expect(await failure(reportRating(fileActor(alice.profile), rating.id, { ratingId: rating.id, reason: "x" }))).toEqual({ status: 429, message: RATING_MESSAGES.tooManyReports });
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

  it("shows responsiveness to members only (directory card, profile), from 5 received, in the directory's one statement", async () => {
    const db = t.db!;
    const base = { senderName: "x", senderEmail: "x@exemple.fr", subject: "s", content: "c", messageType: "internal" as const };
    const ago = (days: number, hours = 0) => sql`now() - make_interval(days => ${days}, hours => ${hours})`;
    // Carol writes to Bob four times in 90 days, each answered 3 hours later: too little data.
    const exchange = (days: number) => [
      { ...base, senderId: carol.profile.id, recipientId: bob.profile.id, createdAt: ago(days) },
      { ...base, senderId: bob.profile.id, recipientId: carol.profile.id, createdAt: ago(days, -3) },
    ];
    await db.insert(messages).values([...exchange(10), ...exchange(20), ...exchange(30), ...exchange(40)]);
    await refreshReputation([bob.profile.id]);
    const bobRow = async () =>
      (await searchInternalDirectory({ profile: { id: alice.profile.id } }, parseDirectoryQuery(new URLSearchParams({ q: bob.profile.lastName })))).rows.find(
        (r) => r.id === bob.profile.id,
      );
    expect((await bobRow())?.responsiveness).toBeNull();
    // A fifth message, never answered (older than 7 days): 4 of 5 answered within 7 days.
    await db.insert(messages).values({ ...base, senderId: alice.profile.id, recipientId: bob.profile.id, createdAt: ago(50) });
    await refreshReputation([bob.profile.id]);
    expect((await bobRow())?.responsiveness).toEqual({ received: 5, answeredShare: 0.8, medianHours: expect.closeTo(3, 1) });
    // The directory reads the stored figures in its single statement.
    const statements = await withRequestScope("GET", async () => {
      await searchInternalDirectory({ profile: { id: alice.profile.id } }, parseDirectoryQuery(new URLSearchParams()));
      return currentRequestScope()!.queries;
    });
    expect(statements).toBe(1);
    // The whole internal directory page (root, frame, dashboard, directory) within 6 statements.
    const a = await signIn(alice);
    const args = { request: new Request("http://localhost:3000/dashboard/annuaire", { headers: a.headers }), params: {}, context: { requestId: "test", nonce: "n" } } as never;
    const [root, shell, layout] = await Promise.all([import("~/root"), import("~/routes/member/shell"), import("~/routes/member/dashboard/layout")]);
    const pageStatements = await withRequestScope("GET", async () => {
      await Promise.all([root.loader(args), shell.loader(args), layout.loader(args), internalDirectoryLoader(args)]);
      return currentRequestScope()!.queries;
    });
    expect(pageStatements).toBeLessThanOrEqual(6);
    // The filters' option lists are in the page's bundle, not in every navigation's data.
    expect(Object.keys((await internalDirectoryLoader(args)) as object).sort()).toEqual(["canMessage", "failed", "page", "pageCount", "query", "rows", "total"]);
    // The profile: members see it; anonymous visitors never (whatever the ratings consent).
    await db.update(profiles).set({ showRatingsPublicly: true }).where(eq(profiles.id, bob.profile.id));
    const slug = profileSlug(bob.profile);
    const page = async (headers: Headers) =>
      (await consultantLoader({ request: new Request(`http://localhost:3000/consultant/${slug}`, { headers }), params: { slug }, context: { requestId: "test" } } as never)) as {
        memberRatings: { responsiveness: unknown } | null;
        profile: Record<string, unknown>;
      };
    expect((await page(a.headers)).memberRatings?.responsiveness).toMatchObject({ received: 5, answeredShare: 0.8 });
    const anonymous = await page(new Headers());
    expect(anonymous.memberRatings).toBeNull();
    expect(JSON.stringify(anonymous)).not.toMatch(/responsiveness|medianHours|answeredShare/);
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

    // It works in batches (keyset on the profile id): with batches of 2, every validated member
    // gets its row back, with the same figures and the Top Performer rank.
    await db().execute(sql`delete from member_reputation`);
    expect(await refreshAllReputation(2)).toBe(true);
    const counts = (await db().execute(sql`select (select count(*)::int from member_reputation) as rows,
                                    (select count(*)::int from profiles where profile_status = 'validated') as validated`)) as { rows: { rows: number; validated: number }[] };
    const { rows, validated } = counts.rows[0]!;
    expect(validated).toBeGreaterThan(2);
    expect(rows).toBe(validated);
    expect(await getReputation(alice.profile.id)).toMatchObject({ filesTotal: 6, filesConcluded: 5, concludedRankShare: 0 });
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
