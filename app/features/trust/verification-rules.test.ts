import { describe, expect, it } from "vitest";
import {
  checkInsuranceEndDate,
  checkRegistration,
  insuranceFlag,
  insuranceReminderDue,
  insuranceStatus,
  registrationKind,
  uncheckedSteps,
  verificationMark,
} from "./verification-rules";

describe("registrationKind", () => {
  it.each([
    ["avocat_affaires", "bar"],
    ["avocat_fiscaliste", "bar"],
    ["expert_comptable", "order"],
    ["notaire", "office"],
    ["conseiller_patrimoine", "intermediary"],
    ["conseil_cession_commerce", "intermediary"],
    ["conseil_immobilier_commercial", "intermediary"],
    ["commissaire_aux_comptes", "other"],
    ["expert_evaluation", "other"],
    ["inconnue", "other"],
  ])("%s → %s", (profession, kind) => {
    expect(registrationKind(profession)).toBe(kind);
  });
});

describe("checkRegistration", () => {
  it.each([
    // [profession, value, year, ok or failing field]
    ["avocat_affaires", "Barreau de Lyon", "2008", "ok"],
    ["avocat_affaires", "Barreau de Lyon", "", "year"],
    ["avocat_affaires", "Barreau de Lyon", "1949", "year"],
    ["avocat_affaires", "Barreau de Lyon", "2027", "year"],
    ["avocat_affaires", "Barreau de Lyon", "20O8", "year"],
    ["avocat_fiscaliste", "", "2008", "value"],
    ["expert_comptable", "14 000 123 401", null, "ok"],
    ["expert_comptable", "n°14000123401!", null, "value"],
    ["notaire", "Office notarial de Bordeaux Chartrons", null, "ok"],
    ["conseiller_patrimoine", "12 345 678", null, "ok"],
    ["conseil_immobilier_commercial", "CPI 7501 2016 000 012 345", null, "ok"],
    ["conseil_immobilier_commercial", "cpi75012016000012345", null, "ok"],
    ["conseil_cession_commerce", "1234567", null, "value"],
    ["conseil_cession_commerce", "CPI 7501", null, "value"],
    ["expert_evaluation", "Membre de la Compagnie des experts en évaluation", null, "ok"],
    ["expert_evaluation", "voir https://exemple.fr", null, "value"],
    ["commissaire_aux_comptes", "x".repeat(121), null, "value"],
    ["commissaire_aux_comptes", "   ", null, "value"],
  ])("%s %j %j → %s", (profession, value, year, expected) => {
    const r = checkRegistration(profession, { value, year }, 2026);
    if (expected === "ok") expect(r.ok).toBe(true);
    else expect(r).toMatchObject({ ok: false, field: expected });
  });

  it("keeps the year for lawyers only and the value as typed", () => {
    expect(checkRegistration("avocat_affaires", { value: " Barreau  de Paris ", year: "1999" }, 2026)).toEqual({
      ok: true,
      registration: { kind: "bar", value: "Barreau de Paris", year: 1999 },
    });
    expect(checkRegistration("notaire", { value: "Office de Nantes", year: "1999" }, 2026)).toMatchObject({ registration: { year: null } });
  });
});

describe("insuranceStatus", () => {
  it.each([
    ["2026-12-31", "2026-11-25", "valid"],
    ["2026-12-26", "2026-11-25", "valid"],
    ["2026-12-25", "2026-11-25", "expiring"],
    ["2026-11-25", "2026-11-25", "expiring"],
    ["2026-11-24", "2026-11-25", "expired"],
    ["2025-01-01", "2026-11-25", "expired"],
  ])("ends %s, today %s → %s", (endsOn, today, expected) => {
    expect(insuranceStatus(endsOn, today)).toBe(expected);
  });
});

describe("insuranceReminderDue", () => {
  it.each([
    ["2026-12-26", "2026-11-25", null], // 31 days
    ["2026-12-25", "2026-11-25", 30],
    ["2026-12-03", "2026-11-25", 30], // 8 days
    ["2026-12-02", "2026-11-25", 7],
    ["2026-11-25", "2026-11-25", 7],
    ["2026-11-24", "2026-11-25", null],
    ["2027-03-29", "2027-02-27", 30], // across the end of February
    ["2028-03-07", "2028-02-29", 7], // leap day
  ])("ends %s, today %s → %s", (endsOn, today, expected) => {
    expect(insuranceReminderDue(endsOn, today)).toBe(expected);
  });
});

describe("checkInsuranceEndDate", () => {
  it.each([
    ["2027-06-30", null],
    ["2026-11-25", null],
    ["2026-11-24", "expiré"],
    ["2026-02-30", "date valide"],
    ["30/06/2027", "date valide"],
    ["2040-01-01", "lointaine"],
  ])("%s → %s", (endsOn, problem) => {
    const r = checkInsuranceEndDate(endsOn, "2026-11-25");
    if (problem === null) expect(r).toBeNull();
    else expect(r).toContain(problem);
  });
});

describe("uncheckedSteps", () => {
  it.each([
    [[], ["charter", "sponsors", "registration", "siren", "insurance"]],
    [["insurance", "charter"], ["sponsors", "registration", "siren"]],
    [["charter", "sponsors", "registration", "siren", "insurance", "other"], []],
  ])("%j → %j", (checked, expected) => {
    expect(uncheckedSteps(checked)).toEqual(expected);
  });
});

describe("verificationMark", () => {
  const all = { steps: ["charter", "sponsors", "registration", "siren", "insurance"].map((step) => ({ step, checkedAt: "2026-03-12T10:00:00.000Z" })) };
  it.each([
    // [summary, valid until, audience, lines, to renew]
    [null, null, "public", null, false],
    [{ steps: [] }, null, "public", null, false],
    [all, "2027-01-31", "public", 5, false],
    [all, "2026-11-25", "public", 5, false],
    [all, "2026-11-24", "public", 4, false],
    [all, "2026-11-24", "private", 4, true],
    [all, null, "private", 4, true],
    [{ steps: [{ step: "charter", checkedAt: "2026-03-12T10:00:00.000Z" }, { step: "bogus", checkedAt: "x" }] }, null, "private", 1, false],
  ] as const)("%j until %s (%s) → %s lines, renew %s", (summary, until, audience, lines, renew) => {
    const mark = verificationMark(summary as never, until, "2026-11-25", audience);
    if (lines === null) expect(mark).toBeNull();
    else expect(mark).toMatchObject({ insuranceToRenew: renew, lines: expect.any(Array) });
    if (lines !== null) expect(mark!.lines).toHaveLength(lines);
  });

  it("names each line without any document content", () => {
    expect(verificationMark(all, "2027-01-31", "2026-11-25", "public")!.lines.map((l) => l.label)).toEqual([
      "Charte d'engagement signée",
      "Recommandé par deux confrères",
      "Inscription professionnelle vérifiée",
      "Entreprise immatriculée (SIREN vérifié)",
      "Assurance responsabilité civile professionnelle en cours",
    ]);
  });
});

describe("insuranceFlag (admin profiles list)", () => {
  const today = "2026-11-25";
  it.each([
    [null, false, null],
    ["2026-10-25", true, "to_renew"],
    ["2026-11-24", false, "to_renew"],
    ["2026-11-25", false, "to_check"],
    ["2027-11-25", true, null],
  ] as const)("insuranceFlag(%s, checked %s) → %s", (endsOn, checked, flag) => {
    expect(insuranceFlag(endsOn, checked, today)).toBe(flag);
  });
});
