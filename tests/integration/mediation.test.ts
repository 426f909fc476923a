// Mediation (issue 14 §4): a member opens one from a collaboration file (subject, facts,
// attachments checked like the file's documents), the team moves it to "en cours", both sides
// exchange, the team decides; the e-mails of each step (never the client, the subject or the
// facts), the audit rows, the file's timeline, the counts the reputation rules read, and the one
// exception to "a file is its two members' only": the team reads the file's timeline and
// documents list while the mediation is active, and nothing else.
import { and, eq } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, collaborationEvents, mailOutbox, mediationAttachments, mediations, memberReputation, user } from "~/db/schema";
import { buildDataExport } from "~/routes/member/settings-export.server";
import { getMediatedFile } from "~/features/mediation/mediation-admin.server";
import { MEDIATION_MESSAGES, mediationUrl } from "~/features/mediation/mediation-rules";
import { upheldMediationCounts } from "~/features/mediation/mediation.server";
import { loader as fileLayoutLoader } from "~/routes/member/dashboard/file/layout";
import { action as memberAction, loader as memberLoader } from "~/routes/member/dashboard/file/mediation";
import { loader as attachmentLoader } from "~/routes/member/mediation-attachment";
import { action as adminAction, loader as adminLoader } from "~/routes/admin/mediation";
import { loader as queueLoader } from "~/routes/admin/mediations";
import { createMember, makeAdmin, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { checkAuditEvents } from "../support/audit";
import { useTestDatabase } from "../support/db";
import { call, openFileBetween, outcomeStatus as status, useFileTestEnvironment, checkTimelineEvents } from "./file-helpers";
import { bodyOf, signIn, type Browser } from "./mandates-helpers";

const t = useTestDatabase();
checkAuditEvents(t);
checkTimelineEvents(t);
const CLIENT_CANARY = "Canari Médiation SAS";
const SUBJECT = "Divulgation du nom du cédant";
const FACTS = "Mon confrère a communiqué le nom du cédant à un tiers le 12 novembre, sans mon accord.";

useFileTestEnvironment(t, "mediation");

let alice: CreatedMember;
let bob: CreatedMember;
let carol: CreatedMember;
let admin: CreatedMember;
let browsers: Record<"alice" | "bob" | "carol" | "admin" | "anonymous", Browser>;

beforeAll(async () => {
  seedFactories(1414);
  const db = t.db!;
  alice = await createMember(db, { profile: { firstName: "Alice", lastName: "Lemaire", membershipType: "premium", notifyMessages: true } });
  bob = await createMember(db, { profile: { firstName: "Bruno", lastName: "Martin", membershipType: "premium", notifyMessages: false } });
  carol = await createMember(db, { profile: { membershipType: "premium" } });
  admin = await createMember(db, { profile: { membershipType: "premium" } });
  await setEmailFrequency(db, [alice], "immediate");
  await setEmailFrequency(db, [bob], "immediate", ["files", "mediation"]);
  await setEmailFrequency(db, [bob], "off", ["messages"]);
  await makeAdmin(db, admin.user.id);
  browsers = {
    alice: await signIn(alice),
    bob: await signIn(bob),
    carol: await signIn(carol),
    admin: await signIn(admin),
    anonymous: { headers: new Headers({ "x-rt-client-ip": "203.0.113.50" }) },
  };
  // After sign-in (better-auth would otherwise ask for the code): an admin with two factors.
  await db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, admin.user.id));
});

async function newFile(): Promise<string> {
  return (await openFileBetween(t.db!, alice, bob, { buyer: "Acheteur Alice SAS", seller: CLIENT_CANARY })).fileId;
}

async function pdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Capture de l'échange", { x: 50, y: 780, size: 14, font });
  return doc.save();
}

const url = (p: string) => `http://localhost:3000${p}`;

function openRequest(b: Browser, fileId: string, fields: { subject?: string; facts?: string }, files: { name: string; bytes: Uint8Array }[] = []) {
  const form = new FormData();
  form.set("subject", fields.subject ?? SUBJECT);
  form.set("facts", fields.facts ?? FACTS);
  for (const f of files) form.append("attachments", new File([new Uint8Array(f.bytes)], f.name, { type: "application/pdf" }));
  if (files.length === 0) form.append("attachments", new File([], "", { type: "application/octet-stream" }));
  return new Request(url(mediationUrl(fileId)), { method: "POST", headers: b.headers, body: form });
}

const open = (b: Browser, fileId: string, fields: { subject?: string; facts?: string } = {}, files: { name: string; bytes: Uint8Array }[] = []) =>
  call(memberAction, openRequest(b, fileId, fields, files), { fileId });

const memberPost = (b: Browser, fileId: string, fields: Record<string, string>) =>
  call(memberAction, new Request(url(mediationUrl(fileId)), { method: "POST", headers: b.headers, body: new URLSearchParams(fields) }), { fileId });

const memberView = (b: Browser, fileId: string) => call(memberLoader, new Request(url(mediationUrl(fileId)), { headers: b.headers }), { fileId });

const adminPost = (b: Browser, mediationId: string, fields: Record<string, string>) =>
  call(adminAction, new Request(url(`/admin/mediations/${mediationId}`), { method: "POST", headers: b.headers, body: new URLSearchParams(fields) }), { mediationId });

const adminView = (b: Browser, mediationId: string) => call(adminLoader, new Request(url(`/admin/mediations/${mediationId}`), { headers: b.headers }), { mediationId });

const attachment = (b: Browser, attachmentId: string) =>
  call(attachmentLoader, new Request(url(`/mediations/pieces/${attachmentId}`), { headers: b.headers }), { attachmentId });

async function mediationOf(fileId: string) {
  const [m] = await t.db!.select().from(mediations).where(eq(mediations.fileId, fileId));
  return m;
}

async function outbox() {
  return t.db!.select().from(mailOutbox);
}

async function auditOf(mediationId: string) {
  return t.db!.select().from(auditLog).where(and(eq(auditLog.targetType, "mediation"), eq(auditLog.targetId, mediationId)));
}

const DECISION = "Après échange avec les deux membres, le manquement à la confidentialité est établi.";

describe("mediation", () => {
  it("a member opens one with an attachment: the file's timeline, the audit log, e-mails to the other member and the team", async () => {
    const fileId = await newFile();
    const outcome = await open(browsers.alice, fileId, {}, [{ name: "capture.pdf", bytes: await pdf() }]);
    expect(status(outcome)).toBe(302);
    const m = await mediationOf(fileId);
    expect(m).toMatchObject({ status: "open", subject: SUBJECT, facts: FACTS, openedBy: alice.profile.id, respondentId: bob.profile.id, upheld: false });
    const attachments = await t.db!.select().from(mediationAttachments).where(eq(mediationAttachments.mediationId, m.id));
    expect(attachments).toHaveLength(1);
    expect(attachments[0].storageKey.startsWith(`documents/${fileId}/mediation/`)).toBe(true);
    const events = await t.db!.select().from(collaborationEvents).where(and(eq(collaborationEvents.fileId, fileId), eq(collaborationEvents.kind, "mediation_opened")));
    expect(events).toHaveLength(1);
    expect((await auditOf(m.id)).map((a) => [a.action, a.actorUserId])).toEqual([["mediation.open", alice.user.id]]);

    const mails = await outbox();
    // Bob is told, the team too, and Alice hears that her request was received.
    expect(mails.map((x) => [x.toAddress, x.kind]).sort()).toEqual(
      [
        [admin.email, "mediation-opened-admin"],
        [alice.email, "mediation-acknowledged"],
        [bob.email, "mediation-opened"],
      ].sort(),
    );
    for (const mail of mails) {
      for (const secret of [CLIENT_CANARY, SUBJECT, FACTS, "capture.pdf"]) {
        expect(mail.subject + mail.html + mail.text).not.toContain(secret);
      }
    }

    // Both members see it; a second one cannot be opened while this one is active.
    const seen = bodyOf<{ mediations: { subject: string; status: string }[]; canOpen: boolean }>((await memberView(browsers.bob, fileId)).value);
    expect(seen.mediations.map((x) => [x.subject, x.status])).toEqual([[SUBJECT, "open"]]);
    expect(seen.canOpen).toBe(false);
    const again = await open(browsers.bob, fileId);
    expect(status(again)).toBe(409);
    expect(bodyOf<{ errors: Record<string, string[]> }>(again.value).errors[""]).toEqual([MEDIATION_MESSAGES.alreadyActive]);
  });

  it("the attachment opens for the member who joined it and the team only", async () => {
    const fileId = await newFile();
    await open(browsers.alice, fileId, {}, [{ name: "preuve.pdf", bytes: await pdf() }]);
    const m = await mediationOf(fileId);
    const [a] = await t.db!.select().from(mediationAttachments).where(eq(mediationAttachments.mediationId, m.id));
    expect(status(await attachment(browsers.alice, a.id))).toBe(200);
    expect(status(await attachment(browsers.admin, a.id))).toBe(200);
    expect(status(await attachment(browsers.bob, a.id))).toBe(404);
    expect(status(await attachment(browsers.carol, a.id))).toBe(404);
    expect(status(await attachment(browsers.anonymous, a.id))).toBe(302);
    expect(status(await attachment(browsers.alice, "not-a-uuid"))).toBe(404);
    // The other member does not even see it listed.
    const seen = bodyOf<{ mediations: { attachments: unknown[] }[] }>((await memberView(browsers.bob, fileId)).value);
    expect(seen.mediations[0].attachments).toEqual([]);
  });

  it("refuses bad input and files that are not documents, and stores nothing", async () => {
    const fileId = await newFile();
    expect(status(await open(browsers.alice, fileId, { subject: "" }))).toBe(400);
    expect(status(await open(browsers.alice, fileId, { facts: "court" }))).toBe(400);
    const fake = await open(browsers.alice, fileId, {}, [{ name: "virus.pdf", bytes: new TextEncoder().encode("MZ not a pdf at all") }]);
    expect(status(fake)).toBe(415);
    const tooMany = await open(browsers.alice, fileId, {}, await Promise.all([1, 2, 3, 4].map(async (i) => ({ name: `p${i}.pdf`, bytes: await pdf() }))));
    expect(status(tooMany)).toBe(400);
    expect(await mediationOf(fileId)).toBeUndefined();
    expect(status(await memberPost(browsers.alice, fileId, { intent: "other" }))).toBe(400);
  });

  it("is a 404 for a member outside the file, before anything is read or written", async () => {
    const fileId = await newFile();
    expect(status(await memberView(browsers.carol, fileId))).toBe(404);
    expect(status(await open(browsers.carol, fileId))).toBe(404);
    await open(browsers.alice, fileId);
    const m = await mediationOf(fileId);
    expect(status(await memberPost(browsers.carol, fileId, { intent: "message", mediationId: m.id, body: "Bonjour" }))).toBe(404);
    // A mediation id of another file, posted through this one: a 404 as well.
    const other = await newFile();
    expect(status(await memberPost(browsers.alice, other, { intent: "message", mediationId: m.id, body: "Bonjour" }))).toBe(404);
    // Members cannot reach the team's pages.
    expect(status(await adminView(browsers.alice, m.id))).toBe(302);
    expect(status(await adminPost(browsers.bob, m.id, { intent: "start", to: "in_progress" }))).toBe(403);
    expect(status(await adminPost(browsers.anonymous, m.id, { intent: "start", to: "in_progress" }))).toBe(403);
    expect((await mediationOf(fileId)).status).toBe("open");
  });

  it("the team reads the file while the mediation is active, and only that file", async () => {
    const fileId = await newFile();
    const quiet = await newFile();
    await open(browsers.alice, fileId);
    const m = await mediationOf(fileId);
    const view = bodyOf<{ file: { id: string; timeline: { label: string }[]; documents: unknown[] } | null }>((await adminView(browsers.admin, m.id)).value);
    expect(view.file?.id).toBe(fileId);
    expect(view.file?.timeline.map((e) => e.label)).toContain("Médiation ouverte");
    expect(JSON.stringify(view)).not.toContain(CLIENT_CANARY);
    // A file without a mediation stays closed to the team, and the members' file pages too.
    await expect(getMediatedFile(quiet)).rejects.toMatchObject({ code: "not-found" });
    expect(status(await call(fileLayoutLoader, new Request(url(`/dashboard/dossiers/${fileId}`), { headers: browsers.admin.headers }), { fileId }))).toBe(404);
    expect(status(await memberView(browsers.admin, fileId))).toBe(404);
    expect(status(await adminView(browsers.admin, "00000000-0000-4000-8000-000000000000"))).toBe(404);
  });

  it("moves ouverte → en cours → résolue with an exchange, e-mails each step and feeds the reputation counts", async () => {
    const fileId = await newFile();
    await open(browsers.alice, fileId);
    const m = await mediationOf(fileId);
    const before = await upheldMediationCounts([bob.profile.id, alice.profile.id]);

    // No decision before the mediation is taken on.
    const early = await adminPost(browsers.admin, m.id, { intent: "decide", outcome: "resolved", decision: DECISION, against: "none" });
    expect(status(early)).toBe(409);
    expect(bodyOf<{ errors: Record<string, string[]> }>(early.value).errors[""]).toEqual([MEDIATION_MESSAGES.startFirst]);

    await t.db!.delete(mailOutbox);
    expect(status(await adminPost(browsers.admin, m.id, { intent: "start", to: "in_progress" }))).toBe(302);
    expect((await mediationOf(fileId)).status).toBe("in_progress");
    expect((await outbox()).map((x) => [x.toAddress, x.kind]).sort()).toEqual(
      [
        [alice.email, "mediation-status"],
        [bob.email, "mediation-status"],
      ].sort(),
    );
    expect(status(await adminPost(browsers.admin, m.id, { intent: "start", to: "in_progress" }))).toBe(409);

    // The team writes: Alice is told, Bob turned message e-mails off.
    await t.db!.delete(mailOutbox);
    expect(status(await adminPost(browsers.admin, m.id, { intent: "message", body: "Pouvez-vous préciser la date\u00a0?" }))).toBe(302);
    expect((await outbox()).map((x) => x.toAddress)).toEqual([alice.email]);
    expect(status(await adminPost(browsers.admin, m.id, { intent: "message", body: "" }))).toBe(400);

    // Bob answers: the team is told (Alice too, once per quarter of an hour).
    await t.db!.delete(mailOutbox);
    expect(status(await memberPost(browsers.bob, fileId, { intent: "message", mediationId: m.id, body: "Je conteste ces faits." }))).toBe(302);
    expect((await outbox()).map((x) => x.toAddress).sort()).toEqual([admin.email, alice.email].sort());
    const thread = bodyOf<{ mediations: { messages: { authorName: string; fromTeam: boolean }[] }[] }>((await memberView(browsers.alice, fileId)).value);
    expect(thread.mediations[0].messages.map((x) => [x.authorName, x.fromTeam])).toEqual([
      ["L’équipe du réseau", true],
      ["Bruno Martin", false],
    ]);

    // The decision: upheld against Bob, a confidentiality breach.
    const missingKind = await adminPost(browsers.admin, m.id, { intent: "decide", outcome: "resolved", decision: DECISION, against: "respondent" });
    expect(status(missingKind)).toBe(400);
    await t.db!.delete(mailOutbox);
    const decided = await adminPost(browsers.admin, m.id, {
      intent: "decide",
      outcome: "resolved",
      decision: DECISION,
      against: "respondent",
      breachKind: "confidentiality",
    });
    expect(status(decided)).toBe(302);
    expect(await mediationOf(fileId)).toMatchObject({
      status: "resolved",
      decision: DECISION,
      upheld: true,
      upheldAgainstId: bob.profile.id,
      breachKind: "confidentiality",
      decidedBy: admin.user.id,
    });
    expect((await outbox()).map((x) => [x.toAddress, x.kind]).sort()).toEqual(
      [
        [alice.email, "mediation-decision"],
        [bob.email, "mediation-decision"],
      ].sort(),
    );
    for (const mail of await outbox()) expect(mail.html + mail.text).not.toContain(DECISION);

    const after = await upheldMediationCounts([bob.profile.id, alice.profile.id]);
    expect(after.get(bob.profile.id)).toEqual({
      upheld: before.get(bob.profile.id)!.upheld + 1,
      confidentialityBreaches: before.get(bob.profile.id)!.confidentialityBreaches + 1,
    });
    expect(after.get(alice.profile.id)).toEqual(before.get(alice.profile.id));
    // The stored reputation (badges) counts it at once.
    const [reputation] = await t.db!.select().from(memberReputation).where(eq(memberReputation.profileId, bob.profile.id));
    expect(reputation).toMatchObject({ upheldMediations: after.get(bob.profile.id)!.upheld, confidentialityBreaches: after.get(bob.profile.id)!.confidentialityBreaches });

    // Members see the decision; the exchange is closed; the team's access to the file ended.
    const seen = bodyOf<{ mediations: { status: string; decision: { text: string; upheld: string | null } | null }[]; canOpen: boolean }>(
      (await memberView(browsers.bob, fileId)).value,
    );
    expect(seen.mediations[0].status).toBe("resolved");
    expect(seen.mediations[0].decision?.text).toBe(DECISION);
    expect(seen.mediations[0].decision?.upheld).toContain("Bruno Martin");
    expect(seen.canOpen).toBe(true);
    expect(status(await memberPost(browsers.alice, fileId, { intent: "message", mediationId: m.id, body: "Merci" }))).toBe(409);
    expect(status(await adminPost(browsers.admin, m.id, { intent: "message", body: "Encore un mot" }))).toBe(409);
    expect(bodyOf<{ file: unknown }>((await adminView(browsers.admin, m.id)).value).file).toBeNull();
    await expect(getMediatedFile(fileId)).rejects.toMatchObject({ code: "not-found" });
    const events = await t.db!.select().from(collaborationEvents).where(and(eq(collaborationEvents.fileId, fileId), eq(collaborationEvents.kind, "mediation_decided")));
    expect(events).toHaveLength(1);
    expect((await auditOf(m.id)).map((a) => a.action).sort()).toEqual(
      ["mediation.decide", "mediation.message", "mediation.message", "mediation.open", "mediation.status"].sort(),
    );
  });

  it("an open request may be classée at once, never with an upheld complaint, and counts for nobody", async () => {
    const fileId = await newFile();
    await open(browsers.bob, fileId);
    const m = await mediationOf(fileId);
    const upheld = await adminPost(browsers.admin, m.id, { intent: "decide", outcome: "dismissed", decision: DECISION, against: "opener", breachKind: "other" });
    expect(status(upheld)).toBe(400);
    const before = await upheldMediationCounts([alice.profile.id, bob.profile.id]);
    expect(status(await adminPost(browsers.admin, m.id, { intent: "decide", outcome: "dismissed", decision: DECISION, against: "none" }))).toBe(302);
    expect(await mediationOf(fileId)).toMatchObject({ status: "dismissed", upheld: false, upheldAgainstId: null });
    expect(await upheldMediationCounts([alice.profile.id, bob.profile.id])).toEqual(before);
  });

  it("the queue lists mediations by status for the team only", async () => {
    expect(status(await call(queueLoader, new Request(url("/admin/mediations?statut=open")), {}))).toBe(302);
    const outcome = await call(queueLoader, new Request(url("/admin/mediations?statut=resolved&page=abc"), { headers: browsers.admin.headers }), {});
    const body = bodyOf<{ queue: { rows: { status: string }[]; counts: Record<string, number> } }>(outcome.value);
    expect(body.queue.rows.length).toBeGreaterThan(0);
    expect(body.queue.rows.every((r) => r.status === "resolved")).toBe(true);
    expect(status(await call(queueLoader, new Request(url("/admin/mediations"), { headers: browsers.carol.headers }), {}))).toBe(302);
  });

  it("the data export carries each member's mediations as they read them (their own attachments only)", async () => {
    const fileId = await newFile();
    await open(browsers.alice, fileId, { subject: "Objet pour l'export" }, [{ name: "export.pdf", bytes: await pdf() }]);
    const mine = (await buildDataExport({ id: alice.user.id, email: alice.email })) as { data?: { mediations?: unknown[] }; mediations?: unknown[] };
    const theirs = (await buildDataExport({ id: bob.user.id, email: bob.email })) as { data?: { mediations?: unknown[] }; mediations?: unknown[] };
    const text = (x: unknown) => JSON.stringify(x);
    expect(text(mine)).toContain("Objet pour l'export");
    expect(text(mine)).toContain("export.pdf");
    expect(text(theirs)).toContain("Objet pour l'export");
    expect(text(theirs)).not.toContain("export.pdf");
  });

  it("upheldMediationCounts ignores ids that are not profile ids and answers zeros for members without any", async () => {
    const counts = await upheldMediationCounts([carol.profile.id, "nope"]);
    expect([...counts.entries()]).toEqual([[carol.profile.id, { upheld: 0, confidentialityBreaches: 0 }]]);
    expect((await upheldMediationCounts([])).size).toBe(0);
  });
});
