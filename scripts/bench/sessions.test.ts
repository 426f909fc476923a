// The session mix's pure parts (scripts/bench/sessions.ts): the steps of a session and the URL
// each sends, the percentiles per step, and the ramp's decision.
import { describe, expect, it } from "vitest";
import { percentile } from "./load";
import { actionRedirect, levelPasses, rampDecision, sessionSteps, stepUrl, summarizeSteps, type PreparedMember } from "./sessions";
import type { ManifestRoute } from "./navigation";

const member: PreparedMember = {
  email: "a@b.fr",
  fileId: "f1",
  mandateId: "m1",
  commonWord: "Martin",
  documentPath: "/dashboard/dossiers/f1/documents/d1?mode=view",
  replyFields: new URLSearchParams({ intent: "reply", message: "" }),
  mandateFields: new URLSearchParams({ intent: "update", mandateId: "m1" }),
  signInFields: new URLSearchParams({ intent: "sign-in", email: "", password: "" }),
};

const r = (id: string, parentId: string | undefined, path: string | undefined, index = false): ManifestRoute => ({ id, parentId, path, index, hasLoader: true, hasClientLoader: false });
const ROUTES: ManifestRoute[] = [
  r("root", undefined, ""),
  r("auth", "root", "auth"),
  r("shell", "root", undefined),
  r("dash", "shell", "dashboard"),
  r("overview", "dash", undefined, true),
  r("directory", "dash", "annuaire"),
  r("messages", "dash", "messages"),
  r("conversation", "dash", "messages/:conversationId"),
  r("file", "dash", "dossiers/:fileId"),
  r("fileOverview", "file", undefined, true),
  r("documents", "file", "documents"),
  r("document", "file", "documents/:documentId"),
  r("mandates", "shell", "mandates"),
];

describe("sessionSteps", () => {
  const steps = sessionSteps(member);

  it("signs in through the form with the member's credentials, then opens the overview as a document", () => {
    expect(steps[0]).toMatchObject({ key: "signIn", kind: "form", path: "/auth" });
    expect(steps[0]!.body?.get("email")).toBe("a@b.fr");
    expect(steps[0]!.body?.get("intent")).toBe("sign-in");
    expect(steps[0]!.body?.get("password")).not.toBe("");
    expect(steps[1]).toMatchObject({ key: "dashboard", kind: "document", path: "/dashboard" });
  });

  it("navigates with the .data request of each page from the one before", () => {
    const urls = Object.fromEntries(steps.map((s) => [s.key, stepUrl(s, ROUTES)]));
    expect(urls.directory).toBe("/dashboard/annuaire.data?_routes=directory");
    expect(urls.search).toBe("/dashboard/annuaire.data?q=Martin");
    // From the search results: the search goes away, so every loader runs again.
    expect(urls.mandates).toBe("/mandates.data");
    expect(urls.matching).toBe("/mandates.data?matching=m1");
    expect(urls.documents).toBe("/dashboard/dossiers/f1/documents.data?_routes=documents");
    expect(urls.conversation).toBe("/dashboard/messages/dossier-f1.data?_routes=conversation");
    expect(urls.pdf).toBe(member.documentPath);
  });

  it("posts the reply and the mandate form as .data actions, then revalidates every loader", () => {
    const send = steps.find((s) => s.key === "send")!;
    expect(stepUrl(send, ROUTES)).toBe("/dashboard/messages/dossier-f1.data");
    expect(send.body?.get("intent")).toBe("reply");
    expect(send.body?.get("message")).not.toBe("");
    expect(stepUrl(steps.find((s) => s.key === "sendReload")!, ROUTES)).toBe("/dashboard/messages/dossier-f1.data");
    const save = steps.find((s) => s.key === "editSave")!;
    expect(stepUrl(save, ROUTES)).toBe("/mandates.data?modifier=m1");
    expect(save.body?.get("mandateId")).toBe("m1");
  });
});

describe("percentiles", () => {
  it("takes the nearest rank", () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 95)).toBe(95);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([], 95)).toBeNaN();
  });

  it("summarizes each step from unsorted times", () => {
    expect(summarizeSteps({ a: [30, 10, 20], b: [5] })).toEqual({ a: { p50: 20, p95: 30, count: 3 }, b: { p50: 5, p95: 5, count: 1 } });
  });
});

describe("ramp", () => {
  const level = (concurrency: number, p95s: number[], errors = 0, sessions = 10) => ({
    concurrency, errors, sessions, steps: Object.fromEntries(p95s.map((p95, i) => [`s${i}`, { p50: p95 / 2, p95, count: 10 }])),
  });

  it("passes a level when every step's p95 is under the limit, without errors", () => {
    expect(levelPasses(level(1, [20, 99.9]), 100)).toBe(true);
    expect(levelPasses(level(1, [20, 100]), 100)).toBe(false);
    expect(levelPasses(level(1, [20], 1), 100)).toBe(false);
    expect(levelPasses(level(1, [20], 0, 0), 100)).toBe(false);
  });

  it("goes up while levels pass and names the highest passing one", () => {
    const levels = [1, 2, 4, 8];
    expect(rampDecision([], 100, levels)).toEqual({ best: null, next: 1 });
    expect(rampDecision([level(1, [50])], 100, levels)).toEqual({ best: 1, next: 2 });
    expect(rampDecision([level(1, [50]), level(2, [80])], 100, levels)).toEqual({ best: 2, next: 4 });
    expect(rampDecision([level(1, [50]), level(2, [80]), level(4, [120])], 100, levels)).toEqual({ best: 2, next: null });
    expect(rampDecision([level(1, [1]), level(2, [1]), level(4, [1]), level(8, [1])], 100, levels)).toEqual({ best: 8, next: null });
  });

  it("runs the first levels even after a failure, and never counts a level above a failed one", () => {
    const levels = [1, 2, 4, 8];
    expect(rampDecision([level(1, [150])], 100, levels)).toEqual({ best: null, next: 2 });
    expect(rampDecision([level(1, [150]), level(2, [90])], 100, levels)).toEqual({ best: null, next: 4 });
    expect(rampDecision([level(1, [150]), level(2, [90]), level(4, [90])], 100, levels)).toEqual({ best: null, next: null });
    expect(rampDecision([level(1, [50]), level(2, [150]), level(4, [90])], 100, levels, 1)).toEqual({ best: 1, next: null });
  });
});

describe("actionRedirect", () => {
  it("reads the redirect of a single-fetch action answer", () => {
    expect(actionRedirect('[{"_1":2,"_3":4},"redirect","/mandates","status",302]')).toBe("/mandates");
    expect(actionRedirect('[{"_1":2},"redirect","/dashboard/messages/dossier-f1#reponse","status",302]')).toBe("/dashboard/messages/dossier-f1");
    expect(actionRedirect('[{"_1":2},"data",{}]')).toBeNull();
  });
});
