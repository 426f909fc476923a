import { describe, expect, it } from "vitest";
import { canMoveMediation, decisionProblem, isActive, MEDIATION_MESSAGES, MEDIATION_STATUSES, type MediationStatus } from "./mediation-rules";
import { mediationDecisionSchema, openMediationSchema } from "./mediation.schema";

describe("canMoveMediation", () => {
  // Every pair of statuses: ouverte → en cours → résolue / classée; an open request may be classée.
  const allowed = new Set(["open>in_progress", "open>dismissed", "in_progress>resolved", "in_progress>dismissed"]);
  const cases = MEDIATION_STATUSES.flatMap((from) => MEDIATION_STATUSES.map((to) => [from, to, allowed.has(`${from}>${to}`)] as const));
  it.each(cases)("%s → %s: %s", (from, to, ok) => {
    expect(canMoveMediation(from, to).ok).toBe(ok);
  });

  it.each<[MediationStatus, MediationStatus, string]>([
    ["open", "open", MEDIATION_MESSAGES.sameStatus],
    ["resolved", "dismissed", MEDIATION_MESSAGES.alreadyDecided],
    ["dismissed", "in_progress", MEDIATION_MESSAGES.alreadyDecided],
    ["open", "resolved", MEDIATION_MESSAGES.startFirst],
    ["in_progress", "open", MEDIATION_MESSAGES.moveNotAllowed],
  ])("%s → %s explains why not", (from, to, message) => {
    expect(canMoveMediation(from, to)).toEqual({ ok: false, message });
  });
});

describe("isActive", () => {
  it.each<[MediationStatus, boolean]>([
    ["open", true],
    ["in_progress", true],
    ["resolved", false],
    ["dismissed", false],
  ])("%s → %s", (status, active) => expect(isActive(status)).toBe(active));
});

describe("decisionProblem", () => {
  it.each([
    [{ outcome: "resolved", against: "none", breachKind: null }, null],
    [{ outcome: "dismissed", against: "none", breachKind: null }, null],
    [{ outcome: "resolved", against: "respondent", breachKind: "confidentiality" }, null],
    [{ outcome: "resolved", against: "opener", breachKind: "other" }, null],
    [{ outcome: "resolved", against: "respondent", breachKind: null }, MEDIATION_MESSAGES.breachKindRequired],
    [{ outcome: "dismissed", against: "respondent", breachKind: "other" }, MEDIATION_MESSAGES.upheldNeedsResolved],
  ] as const)("%o → %s", (input, expected) => {
    expect(decisionProblem(input)).toBe(expected);
  });
});

describe("forms", () => {
  it("an opening needs a subject and facts within their lengths", () => {
    expect(openMediationSchema.safeParse({ subject: "Retard", facts: "x".repeat(20) }).success).toBe(true);
    expect(openMediationSchema.safeParse({ subject: "abc", facts: "x".repeat(20) }).success).toBe(false);
    expect(openMediationSchema.safeParse({ subject: "Retard", facts: "trop court" }).success).toBe(false);
    expect(openMediationSchema.safeParse({ subject: "x".repeat(121), facts: "x".repeat(20) }).success).toBe(false);
  });

  it("a decision drops the kind when nothing is upheld, and needs it otherwise", () => {
    const decision = "La médiation a permis un accord entre les deux membres.";
    expect(mediationDecisionSchema.parse({ outcome: "resolved", decision, against: "none", breachKind: "other" })).toMatchObject({ breachKind: null });
    expect(mediationDecisionSchema.safeParse({ outcome: "resolved", decision, against: "respondent" }).success).toBe(false);
    expect(mediationDecisionSchema.safeParse({ outcome: "dismissed", decision, against: "opener", breachKind: "other" }).success).toBe(false);
    expect(mediationDecisionSchema.parse({ outcome: "resolved", decision, against: "respondent", breachKind: "confidentiality" })).toMatchObject({
      against: "respondent",
      breachKind: "confidentiality",
    });
  });
});
