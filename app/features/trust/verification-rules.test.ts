import { describe, expect, it } from "vitest";
import {
  checkInsuranceEndDate,
  checkRegistration,
  insuranceFlag,
  insuranceReminderDue,
  insuranceStatus,
  registrationKind,
  isVerified,
  uncheckedSteps,
  VERIFIED_MARK_RULE,
  verificationMark,
  verificationState,
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

describe("verificationState: the one rule of the 'Profil vérifié' mark", () => {
  const at = "2026-03-12T10:00:00.000Z";
  const steps = (...names: string[]) => ({ steps: names.map((step) => ({ step, checkedAt: at })) });
  const five = steps("charter", "sponsors", "registration", "siren", "insurance");
  it.each([
    // [summary, checked certificate valid until, expected state, missing steps]
    [null, null, "incomplete", ["charter", "sponsors", "registration", "siren", "insurance"]],
    [{ steps: [] }, "2027-01-31", "incomplete", ["charter", "sponsors", "registration", "siren", "insurance"]],
    // Four steps and no insurance: never verified (the older seeded members' state).
    [steps("charter", "sponsors", "registration", "siren"), null, "incomplete", ["insurance"]],
    // The insurance step without the checked certificate's end date proves nothing.
    [five, null, "incomplete", ["insurance"]],
    [steps("charter", "registration", "siren", "insurance"), "2027-01-31", "incomplete", ["sponsors"]],
    [steps("charter", "sponsors", "registration", "siren", "insurance", "bogus"), "2027-01-31", "verified", []],
    [five, "2027-01-31", "verified", []],
    [five, "2026-11-25", "verified", []], // valid through its end date
    [five, "2026-11-24", "insurance_expired", []],
    [five, "2020-01-01", "insurance_expired", []],
  ] as const)("%j until %s → %s %j", (summary, until, kind, missing) => {
    const state = verificationState(summary as never, until, "2026-11-25");
    expect(state.kind).toBe(kind);
    expect(state.kind === "incomplete" ? state.missing : []).toEqual(missing);
    expect(isVerified(summary as never, until, "2026-11-25")).toBe(kind === "verified");
  });

  it("the mark exists only when verified, and lists the five steps without any document content", () => {
    expect(verificationMark(steps("charter", "sponsors", "registration", "siren"), null, "2026-11-25")).toBeNull();
    expect(verificationMark(five, "2026-11-24", "2026-11-25")).toBeNull();
    expect(verificationMark(five, null, "2026-11-25")).toBeNull();
    expect(verificationMark(five, "2027-01-31", "2026-11-25")!.lines).toEqual([
      { label: "Charte d’engagement signée", checkedOn: "12/03/2026" },
      { label: "Recommandé par deux confrères", checkedOn: "12/03/2026" },
      { label: "Inscription professionnelle vérifiée", checkedOn: "12/03/2026" },
      { label: "Entreprise immatriculée (SIREN vérifié)", checkedOn: "12/03/2026" },
      { label: "Assurance responsabilité civile professionnelle en cours", checkedOn: "12/03/2026" },
    ]);
  });

  it("the pages state the same rule: five steps, a valid insurance, an expired one withdraws the mark", () => {
    expect(VERIFIED_MARK_RULE.steps).toMatch(/cinq étapes/);
    expect(VERIFIED_MARK_RULE.steps).toMatch(/assurance en cours de validité/);
    expect(VERIFIED_MARK_RULE.insurance).toMatch(/assurance expirée retire la mention «\u00a0Profil vérifié\u00a0»/);
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
