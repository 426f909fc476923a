// Collaboration files (issue 13): opened by the confirmation of a connection with the
// introduction log as its timeline; only its two members reach it; stages, the two-sided
// closing, abandonment, messages with their e-mails; and the route's forged posts.
import { eq, sql } from "drizzle-orm";
import { TIMELINE_PAGE_SIZE, timelineGroup } from "~/features/collaboration/timeline";
import { beforeEach, describe, expect, it } from "vitest";
import { collaborationEvents, collaborationFiles, collaborationMessages, mailOutbox, mandateMatchRequests, mandates, rateLimitCounters } from "~/db/schema";
import { COLLABORATION_MESSAGES } from "~/features/collaboration/collaboration-rules";
import { abandonFile, confirmClosing, markFileRead, moveStage, postFileMessage, proposeClosing } from "~/features/collaboration/collaboration.server";
import { getFileView, type FileView } from "~/features/collaboration/file-view.server";
import { listMyFiles } from "~/features/collaboration/file-list.server";
import { fileActor, type FileActor } from "~/features/collaboration/file-access.server";
import { createMatchRequest, respondToMatchRequest, signUndertaking } from "~/features/connections/connections.server";
import { MATCH_REQUEST_MESSAGES } from "~/features/connections/connection-rules";
import { UNDERTAKING_REQUIRED } from "~/features/connections/connections.schema";
import { signFileUndertaking } from "~/features/collaboration/file-undertaking.server";
import { createMandate, mandateActor, type MandateActor } from "~/features/mandates/mandates.server";
import { parisToday } from "~/features/mandates/mandate-rules";
import { action as overviewAction, loader as overviewLoader } from "~/routes/member/dashboard/file/overview";
import { loader as layoutLoader } from "~/routes/member/dashboard/file/layout";
import { loader as listLoader } from "~/routes/member/dashboard/files";
import { createMember, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { checkTimelineEvents } from "./file-helpers";
import { bodyOf, locationOf, mandateInput, signIn, statusOf, toastOf, type Browser, sellerFields } from "./mandates-helpers";

const t = useTestDatabase();
checkTimelineEvents(t);

let alice: CreatedMember;
let bob: CreatedMember;
let carol: CreatedMember;
let admin: CreatedMember;
let a: FileActor;
let b: FileActor;
let c: FileActor;


const CLIENT_CANARY = "Canari Confidentiel SAS";

/** Two mandates, a request each way, both accepted: the file opens. */
async function confirmedFile(): Promise<{ fileId: string; buyer: string; seller: string }> {
  const am: MandateActor = mandateActor(alice.profile);
  const bm: MandateActor = mandateActor(bob.profile);
  const buyer = await createMandate(am, mandateInput({ clientCode: "AL-B", clientName: "Acheteur Alice SAS", clientAddress: "1 rue Alice" }));
  const seller = await createMandate(bm, mandateInput({ ...sellerFields, clientCode: "BO-S", clientName: CLIENT_CANARY, clientAddress: "2 rue du Canari" }));
  const r1 = await createMatchRequest(am, { mandateId: buyer.id, targetMandateId: seller.id, message: "Bonjour" });
  const r2 = await createMatchRequest(bm, { mandateId: seller.id, targetMandateId: buyer.id, message: null });
  const first = await respondToMatchRequest(bm, r1.requestId, "accepted");
  expect(first.fileId).toBeNull();
  const second = await respondToMatchRequest(am, r2.requestId, "accepted");
  expect(second.confirmed).toBe(true);
  expect(second.fileId).toBeTruthy();
  return { fileId: second.fileId!, buyer: buyer.id, seller: seller.id };
}

async function statusCode(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (error) {
    return statusOf(error);
  }
}

function req(method: "GET" | "POST", path: string, browser: Browser, fields?: Record<string, string>) {
  return new Request(`http://localhost:3000${path}`, {
    method,
    headers: browser.headers,
    body: fields ? new URLSearchParams(fields) : undefined,
  });
}

async function call<T>(fn: (args: never) => Promise<T>, request: Request, params: Record<string, string>) {
  try {
    return { value: await fn({ request, params, context: { requestId: "test" } } as never) };
  } catch (thrown) {
    return { thrown };
  }
}

beforeEach(async () => {
  const db = t.db!;
  await db.delete(collaborationFiles);
  await db.delete(mailOutbox);
  await db.delete(mandates);
  await db.delete(rateLimitCounters);
  if (!alice) {
    seedFactories(131);
    alice = await createMember(db, { profile: { membershipType: "premium", notifyMessages: true, notifyMatchRequests: true } });
    bob = await createMember(db, { profile: { membershipType: "founding_member", notifyMessages: true, notifyMatchRequests: true } });
    carol = await createMember(db, { profile: { membershipType: "premium" } });
    admin = await createMember(db, { admin: true, profile: { membershipType: "premium" } });
    await setEmailFrequency(db, [alice, bob], "immediate");
    a = fileActor(alice.profile);
    b = fileActor(bob.profile);
    c = fileActor(carol.profile);
  }
});

describe("opening", () => {
  it("opens one file at the second acceptance, with the introduction log as its timeline", async () => {
    const { fileId, buyer, seller } = await confirmedFile();
    const files = await t.db!.select().from(collaborationFiles);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ id: fileId, stage: "introduction", mandateALabel: expect.stringMatching(/«\u00a0(AL-B|BO-S)\u00a0»/) });
    expect([files[0].mandateAId, files[0].mandateBId].sort()).toEqual([buyer, seller].sort());
    const view = await getFileView(a, fileId);
    expect(view.timeline.map((e) => e.kind)).toEqual([
      "connection:requested",
      "connection:requested",
      "connection:accepted",
      "connection:accepted",
      "file_opened",
    ]);
    expect(view.counterpart.name).toBe(`${bob.profile.firstName} ${bob.profile.lastName}`);
    expect(view.myMandate.label).toBe("Mandat acquéreur «\u00a0AL-B\u00a0»");
    expect(view.theirMandate.label).toBe("Mandat cédant «\u00a0BO-S\u00a0»");
  });

  it("shows the counterpart's client only after the actor signed the undertaking", async () => {
    const { fileId, buyer } = await confirmedFile();
    expect((await getFileView(a, fileId)).client).toBeNull();
    expect(JSON.stringify(await getFileView(a, fileId))).not.toContain(CLIENT_CANARY);
    const [toBuyer] = await t.db!.select({ id: mandateMatchRequests.id }).from(mandateMatchRequests).where(eq(mandateMatchRequests.targetMandateId, buyer));
    await signUndertaking(mandateActor(alice.profile), toBuyer.id);
    const view = await getFileView(a, fileId);
    expect(view.client).toEqual({ name: CLIENT_CANARY, address: "2 rue du Canari" });
    expect(view.timeline.map((e) => e.kind)).toContain("connection:undertaking_signed");
    // Bob did not sign: Alice's client stays hidden from him.
    expect((await getFileView(b, fileId)).client).toBeNull();
  });

  it("signs the undertaking from the file's own page: one signature, the same as the matching panel's", async () => {
    const { fileId } = await confirmedFile();
    const aliceBrowser = await signIn(alice);
    const path = `/dashboard/dossiers/${fileId}`;
    const unticked = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "undertaking" }), { fileId });
    expect(statusOf(unticked.value)).toBe(400);
    expect(bodyOf<{ error: string }>(unticked.value).error).toBe(UNDERTAKING_REQUIRED);
    expect((await getFileView(a, fileId)).client).toBeNull();
    // A third member's forged post: 404, nothing signed.
    const carolBrowser = await signIn(carol);
    const forged = await call(overviewAction, req("POST", path, carolBrowser, { intent: "undertaking", accept: "on" }), { fileId });
    expect(statusOf(forged.thrown)).toBe(404);
    const signed = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "undertaking", accept: "on" }), { fileId });
    expect((await toastOf(signed.value))?.title).toBe(MATCH_REQUEST_MESSAGES.undertakingSigned);
    await signFileUndertaking(mandateActor(alice.profile), fileId);
    const view = await getFileView(a, fileId);
    expect(view.client).toEqual({ name: CLIENT_CANARY, address: "2 rue du Canari" });
    expect(view.undertakingSigned).toBe(true);
    expect(view.timeline.filter((e) => e.kind === "connection:undertaking_signed")).toHaveLength(1);
    expect((await getFileView(b, fileId)).client).toBeNull();
  });

  it("lists the file for both members, newest activity first, and for nobody else", async () => {
    const { fileId } = await confirmedFile();
    expect((await listMyFiles(a)).items.map((i) => i.id)).toEqual([fileId]);
    expect((await listMyFiles(b)).items).toHaveLength(1);
    expect((await listMyFiles(c)).total).toBe(0);
  });
});

describe("the overview's timeline, paged on the server", () => {
  it("reads one page of events, newest first, filtered by group, clamped past the end; the facts it shows still come from every event", async () => {
    const { fileId, buyer } = await confirmedFile();
    const [toBuyer] = await t.db!.select({ id: mandateMatchRequests.id }).from(mandateMatchRequests).where(eq(mandateMatchRequests.targetMandateId, buyer));
    await signUndertaking(mandateActor(alice.profile), toBuyer.id);
    await moveStage(a, fileId, "exchanges");
    // 45 documents shared, each an event, older than nothing above: the file's long tail.
    await t.db!.execute(sql`insert into collaboration_events (file_id, kind, actor_profile_id, actor_name, details, created_at)
      select ${fileId}::uuid, 'document_shared', ${bob.profile.id}::uuid, 'Bob', json_build_object('name', 'doc-' || lpad(n::text, 2, '0') || '.pdf'), now() + (n || ' seconds')::interval
      from generate_series(1, 45) n`);
    const all = await getFileView(a, fileId);
    expect(all.timelinePage).toBeNull();
    const total = all.timeline.length;
    expect(total).toBeGreaterThan(50);
    const first = await getFileView(a, fileId, { page: 1, group: null });
    expect(first.timelinePage).toMatchObject({ page: 1, total, pageCount: Math.ceil(total / TIMELINE_PAGE_SIZE), group: null });
    expect(first.timelinePage!.groups).toEqual(expect.arrayContaining(["steps", "documents", "signatures"]));
    // Oldest first within the page, as the whole timeline is; the page holds the newest events.
    expect(first.timeline.map((e) => e.id)).toEqual(all.timeline.slice(-TIMELINE_PAGE_SIZE).map((e) => e.id));
    const pages: string[] = [];
    for (let page = first.timelinePage!.pageCount; page >= 1; page--) pages.push(...(await getFileView(a, fileId, { page, group: null })).timeline.map((e) => e.id));
    expect(pages).toEqual(all.timeline.map((e) => e.id));
    // Past the last page: the last page; the stepper, the signature and the client still read every event.
    const late = await getFileView(a, fileId, { page: 999, group: null });
    expect(late.timelinePage!.page).toBe(first.timelinePage!.pageCount);
    expect(late).toMatchObject({ undertakingSigned: true, stagesReached: ["exchanges"], client: { name: CLIENT_CANARY } });
    // One group: only its events, counted alone.
    const docs = await getFileView(a, fileId, { page: 3, group: "documents" });
    expect(docs.timelinePage).toMatchObject({ page: 3, total: 45, pageCount: 3, group: "documents" });
    expect(docs.timeline.map((e) => e.detail)).toEqual(["doc-01.pdf", "doc-02.pdf", "doc-03.pdf", "doc-04.pdf", "doc-05.pdf"]);
    const steps = await getFileView(a, fileId, { page: 1, group: "steps" });
    expect(steps.timeline.every((e) => timelineGroup(e.kind) === "steps")).toBe(true);
    expect(steps.timeline.map((e) => e.kind)).toContain("stage_changed");
    // Through the page's URL: ?page= and ?historique=, junk is page 1 of everything.
    const browser = await signIn(alice);
    const viaUrl = await call(overviewLoader, req("GET", `/dashboard/dossiers/${fileId}?historique=documents&page=2`, browser), { fileId });
    expect((viaUrl.value as { file: FileView }).file.timelinePage).toMatchObject({ page: 2, group: "documents" });
    const junk = await call(overviewLoader, req("GET", `/dashboard/dossiers/${fileId}?historique=__proto__&page=-3`, browser), { fileId });
    expect((junk.value as { file: FileView }).file.timelinePage).toMatchObject({ page: 1, group: null, total });
  });
});

describe("only the two members", () => {
  it("404s every use case for a third member and for an admin", async () => {
    const { fileId } = await confirmedFile();
    const adminActor = fileActor(admin.profile);
    for (const actor of [c, adminActor]) {
      expect(await statusCode(getFileView(actor, fileId))).toBe(404);
      expect(await statusCode(moveStage(actor, fileId, "exchanges"))).toBe(404);
      expect(await statusCode(postFileMessage(actor, fileId, "Intrusion"))).toBe(404);
      expect(await statusCode(proposeClosing(actor, fileId, { closingDate: parisToday(), amountBand: null }))).toBe(404);
      expect(await statusCode(abandonFile(actor, fileId, { reason: "price", text: null }))).toBe(404);
      expect(await statusCode(markFileRead(actor, fileId))).toBe(404);
    }
    expect(await statusCode(getFileView(a, "not-a-uuid"))).toBe(404);
    expect(await statusCode(getFileView(a, "00000000-0000-4000-8000-000000000000"))).toBe(404);
    expect((await t.db!.select().from(collaborationMessages)).length).toBe(0);
    expect((await t.db!.select().from(collaborationFiles))[0].stage).toBe("introduction");
  });

  it("the routes answer 404 to a third member, through the layout, the page and its actions", async () => {
    const { fileId } = await confirmedFile();
    const carolBrowser = await signIn(carol);
    const path = `/dashboard/dossiers/${fileId}`;
    const params = { fileId };
    expect(statusOf((await call(layoutLoader, req("GET", path, carolBrowser), params)).thrown)).toBe(404);
    expect(statusOf((await call(overviewLoader, req("GET", path, carolBrowser), params)).thrown)).toBe(404);
    const forged = await call(overviewAction, req("POST", path, carolBrowser, { intent: "message", body: "Intrusion" }), params);
    expect(statusOf(forged.thrown)).toBe(404);
    expect((await t.db!.select().from(collaborationMessages)).length).toBe(0);
  });
});

describe("stages", () => {
  it("moves one step at a time, either way, by either member, each change in the timeline", async () => {
    const { fileId } = await confirmedFile();
    await moveStage(a, fileId, "exchanges");
    await moveStage(b, fileId, "documents");
    await moveStage(a, fileId, "exchanges");
    expect(await statusCode(moveStage(a, fileId, "offer"))).toBe(409);
    expect(await statusCode(moveStage(a, fileId, "concluded"))).toBe(409);
    const view = await getFileView(b, fileId);
    expect(view.stage).toBe("exchanges");
    expect(view.stagesReached).toEqual(["exchanges", "documents", "exchanges"]);
    const changes = view.timeline.filter((e) => e.kind === "stage_changed");
    expect(changes.map((e) => [e.detail, e.byMe])).toEqual([
      ["Mise en relation → Échanges confidentiels", false],
      ["Échanges confidentiels → Documents partagés", true],
      ["Documents partagés → Échanges confidentiels", false],
    ]);
  });

  it("concludes only when the other member confirms the proposed closing", async () => {
    const { fileId } = await confirmedFile();
    expect(await statusCode(proposeClosing(a, fileId, { closingDate: parisToday(), amountBand: "1m_3m" }))).toBe(409);
    for (const s of ["exchanges", "documents", "offer"] as const) await moveStage(a, fileId, s);
    await proposeClosing(a, fileId, { closingDate: parisToday(), amountBand: "1m_3m" });
    // The proposer cannot confirm their own proposal, nor propose twice.
    expect(await statusCode(confirmClosing(a, fileId))).toBe(409);
    expect(await statusCode(proposeClosing(a, fileId, { closingDate: parisToday(), amountBand: null }))).toBe(409);
    expect((await getFileView(a, fileId)).stage).toBe("offer");
    await confirmClosing(b, fileId);
    const view = await getFileView(a, fileId);
    expect(view.stage).toBe("concluded");
    expect(view.closing).toMatchObject({ closingDate: parisToday(), amountBandLabel: "De 1\u00a0M€ à 3\u00a0M€" });
    expect(view.closing.concludedAt).not.toBeNull();
    // A second confirmation, or any change, after the closing: refused.
    expect(await statusCode(confirmClosing(b, fileId))).toBe(409);
    expect(await statusCode(moveStage(a, fileId, "protocol"))).toBe(409);
    expect(await statusCode(abandonFile(a, fileId, { reason: "price", text: null }))).toBe(409);
    const mails = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "collaboration-closing"));
    expect(mails.map((m) => m.toAddress)).toEqual([bob.email]);
  });

  it("moving back below the offer withdraws a pending closing proposal", async () => {
    const { fileId } = await confirmedFile();
    for (const s of ["exchanges", "documents", "offer"] as const) await moveStage(a, fileId, s);
    await proposeClosing(b, fileId, { closingDate: parisToday(), amountBand: null });
    await moveStage(a, fileId, "documents");
    await moveStage(a, fileId, "offer");
    expect(await statusCode(confirmClosing(a, fileId))).toBe(409);
  });

  it("abandons with a reason from the list; 'autre' needs a text", async () => {
    const { fileId } = await confirmedFile();
    expect(await statusCode(abandonFile(a, fileId, { reason: "other", text: "  " }))).toBe(400);
    await abandonFile(a, fileId, { reason: "other", text: "Le client a cédé à un proche" });
    const view = await getFileView(b, fileId);
    expect(view.stage).toBe("abandoned");
    expect(view.abandon).toMatchObject({ reasonLabel: "Autre motif", text: "Le client a cédé à un proche" });
    expect(await statusCode(moveStage(b, fileId, "exchanges"))).toBe(409);
  });
});

describe("messages", () => {
  it("posts, marks unread for the other side, e-mails them without any client identity", async () => {
    const { fileId } = await confirmedFile();
    await postFileMessage(a, fileId, "Bonjour Bob, voici où nous en sommes.");
    const bobView = await getFileView(b, fileId);
    expect(bobView.messages).toMatchObject([{ body: "Bonjour Bob, voici où nous en sommes.", byMe: false, unread: true }]);
    expect(bobView.unread).toBe(1);
    expect((await listMyFiles(b)).items[0]).toMatchObject({ unread: 1, pending: "unread-messages" });
    expect((await getFileView(a, fileId)).unread).toBe(0);
    await markFileRead(b, fileId);
    expect((await getFileView(b, fileId)).unread).toBe(0);
    const [mail] = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "collaboration-message"));
    expect(mail.toAddress).toBe(bob.email);
    expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(new RegExp(`${CLIENT_CANARY}|Acheteur Alice SAS|voici où nous en sommes`));
    expect(mail.text).toContain(`/dashboard/dossiers/${fileId}`);
  });

  it("respects the recipient's preference, and refuses empty or oversized messages", async () => {
    const { fileId } = await confirmedFile();
    await setEmailFrequency(t.db!, [bob], "off", ["messages"]);
    await postFileMessage(a, fileId, "Silencieux");
    expect(await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "collaboration-message"))).toHaveLength(0);
    await setEmailFrequency(t.db!, [bob], "immediate", ["messages"]);
    expect(await statusCode(postFileMessage(a, fileId, "   "))).toBe(400);
    expect(await statusCode(postFileMessage(a, fileId, "x".repeat(5001)))).toBe(400);
  });
});

describe("the page's actions", () => {
  it("maps intents to use cases with French toasts and errors", async () => {
    const { fileId } = await confirmedFile();
    const aliceBrowser = await signIn(alice);
    const path = `/dashboard/dossiers/${fileId}`;
    const params = { fileId };
    const moved = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "move", to: "exchanges" }), params);
    expect(locationOf(moved.value)).toBe(path);
    expect((await toastOf(moved.value))?.title).toBe(COLLABORATION_MESSAGES.stageChanged);

    const skipped = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "move", to: "protocol" }), params);
    expect(statusOf(skipped.value)).toBe(409);
    expect(bodyOf<{ error: string }>(skipped.value).error).toBe(COLLABORATION_MESSAGES.stageNotAllowed);

    const badStage = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "move", to: "nowhere" }), params);
    expect(statusOf(badStage.value)).toBe(400);

    const future = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "propose-closing", closingDate: "2999-01-01" }), params);
    expect(statusOf(future.value)).toBe(400);
    expect(bodyOf<{ error: string }>(future.value).error).toBe(COLLABORATION_MESSAGES.closingDateInvalid);

    const noReason = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "abandon" }), params);
    expect(statusOf(noReason.value)).toBe(400);

    const unknown = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "drop-table" }), params);
    expect(statusOf(unknown.thrown)).toBe(400);

    const sent = await call(overviewAction, req("POST", path, aliceBrowser, { intent: "message", body: "Bonjour" }), params);
    expect(locationOf(sent.value)).toBe(`${path}#messages`);

    const list = await call(listLoader, req("GET", "/dashboard/dossiers", aliceBrowser), {});
    expect((list.value as { items: Array<{ id: string }> }).items.map((i) => i.id)).toEqual([fileId]);
    const events = await t.db!.select().from(collaborationEvents).where(eq(collaborationEvents.fileId, fileId));
    expect(events.filter((e) => e.kind === "stage_changed")).toHaveLength(1);
  });
});
