import { describe, expect, it } from "vitest";
import { ALL_RIGHTS, NO_RIGHTS, type Rights } from "~/features/collaboration/participant-rules";
import { ddActorOf, FILE_ACTIONS, mayReach, questionAuthorKey, type FileAction, type ReachActor } from "./participant-reach-rules";

const VIEW: Rights = { voir: true, telecharger: false, deposer: false };
const DEPOSIT: Rights = { voir: true, telecharger: false, deposer: true };
const DOWNLOAD: Rights = { voir: true, telecharger: true, deposer: false };
const founder: ReachActor = { kind: "founder", role: "fondateur", side: "cedant", rights: ALL_RIGHTS, undertakingSigned: true };
const guest = (rights: Rights, extra: Partial<ReachActor> = {}): ReachActor => ({ kind: "guest", role: "expert_comptable", side: "cedant", rights, undertakingSigned: true, ...extra });

// Each row: who, open or closed file, the actions allowed (every other one refused).
const CASES: [string, ReachActor, boolean, FileAction[]][] = [
  ["founder, open file", founder, false, [...FILE_ACTIONS]],
  ["founder, closed file", founder, true, ["overview", "dd-read", "agreement", "archive"]],
  ["guest before the undertaking, all rights", guest(ALL_RIGHTS, { undertakingSigned: false }), false, []],
  ["member before the undertaking", guest(ALL_RIGHTS, { kind: "member", undertakingSigned: false }), false, []],
  ["guest, no rights", guest(NO_RIGHTS), false, ["overview"]],
  ["guest, voir", guest(VIEW), false, ["overview", "dd-read", "dd-ask"]],
  ["guest, voir + déposer (seller's accountant)", guest(DEPOSIT), false, ["overview", "dd-read", "dd-ask", "dd-provide", "dd-status"]],
  ["buyer's lawyer, voir + déposer", guest(DEPOSIT, { role: "avocat", side: "acquereur" }), false, ["overview", "dd-read", "dd-ask", "dd-provide", "dd-status"]],
  ["guest, voir + télécharger", guest(DOWNLOAD), false, ["overview", "dd-read", "dd-ask", "archive"]],
  ["guest, déposer without voir", guest({ voir: false, telecharger: true, deposer: true }), false, ["overview"]],
  ["bank, every right", guest(ALL_RIGHTS, { role: "banque", side: "acquereur" }), false, ["overview", "dd-read", "dd-ask", "archive"]],
  ["notary (commun), every right", guest(ALL_RIGHTS, { role: "notaire", side: "commun", kind: "member" }), false, ["overview", "dd-read", "dd-ask", "dd-provide", "dd-status", "archive"]],
  ["guest, every right, closed file", guest(ALL_RIGHTS), true, ["overview", "dd-read", "archive"]],
  ["lawyer, every right: never the list's structure nor the agreement", guest(ALL_RIGHTS, { role: "avocat", kind: "member" }), false, ["overview", "dd-read", "dd-ask", "dd-provide", "dd-status", "archive"]],
];

describe("mayReach: roles × sides × rights → actions", () => {
  it.each(CASES)("%s", (_label, actor, closed, allowed) => {
    const got = FILE_ACTIONS.filter((action) => mayReach(actor, action, closed));
    expect(got).toEqual(allowed);
  });
});

describe("ddActorOf", () => {
  it("keeps the side, maps a founder to an adviser and a guest to its participant key", () => {
    expect(ddActorOf({ role: "fondateur", side: "acquereur", profileId: "p1", participantId: null })).toEqual({ profileId: "p1", side: "acquereur", role: "conseil", founder: true });
    expect(ddActorOf({ role: "banque", side: "commun", profileId: null, participantId: "x" })).toEqual({ profileId: "participant:x", side: "commun", role: "banque", founder: false });
    expect(questionAuthorKey("p", "x")).toBe("p");
  });
});
