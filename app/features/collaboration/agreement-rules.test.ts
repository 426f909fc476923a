import { describe, expect, it } from "vitest";
import {
  AGREEMENT_MESSAGES,
  agreementBlocks,
  agreementPdfUrl,
  allowedDueTerms,
  canCreateAgreement,
  canSignAgreement,
  certificateBlocks,
  OPERATION_CLAUSES,
  OPERATION_TYPES,
  type DueTerm,
  type OperationType,
  evidenceUrl,
  professionWarnings,
  splitProblem,
  type AgreementTerms,
} from "./agreement-rules";
import { agreementSchema, signAgreementSchema } from "./agreement.schema";
import { SIREN_MESSAGES } from "~/features/trust/siren";
import { STAGES, type Stage } from "./collaboration-rules";

describe("the split", () => {
  it.each([
    [50, 50, null],
    [1, 99, null],
    [99, 1, null],
    [70, 30, null],
    [60, 30, "sum"],
    [60, 60, "sum"],
    [0, 100, "share"],
    [100, 0, "share"],
    [50.5, 49.5, "share"],
    [-10, 110, "share"],
    [Number.NaN, 50, "share"],
    [Number.POSITIVE_INFINITY, 50, "share"],
  ] as const)("%s %% + %s %% → %s", (mine, theirs, expected) => {
    expect(splitProblem(mine, theirs)).toBe(expected);
  });
});

describe("when the shares are due", () => {
  it.each([
    ["fonds_de_commerce", ["deed"]],
    ["location_gerance", ["deed"]],
    ["titres", ["deed", "deed_plus_30"]],
    ["apport_partiel", ["deed", "deed_plus_30"]],
    ["autre", ["deed", "deed_plus_30"]],
  ] as const)("%s: %j", (operation, terms) => {
    expect(allowedDueTerms(operation)).toEqual(terms);
  });
});

describe("stages", () => {
  const cases: [Stage, boolean, boolean][] = [
    ["introduction", true, true],
    ["exchanges", true, true],
    ["documents", true, true],
    ["offer", true, true],
    ["protocol", true, true],
    ["concluded", false, true],
    ["abandoned", false, false],
  ];
  it("covers every stage", () => expect(cases.map((c) => c[0]).sort()).toEqual([...STAGES].sort()));
  it.each(cases)("%s: propose %s, sign %s", (stage, create, sign) => {
    expect(canCreateAgreement(stage)).toBe(create);
    expect(canSignAgreement(stage)).toBe(sign);
  });
});

describe("profession warnings", () => {
  it.each([
    ["avocat_affaires", false, "lawyer-referral", /RIN|Règlement intérieur national.*art\. 11\.3/],
    ["avocat_fiscaliste", true, "lawyer-referral", /percevoir comme de verser/],
    ["notaire", false, "notary-regulated-fees", /émoluments réglementés/],
    ["expert_comptable", false, "accountant-accessory", /titre accessoire/],
  ] as const)("%s (pays: %s) → %s", (profession, pays, code, text) => {
    const [w] = professionWarnings([{ name: "Jeanne Martin", profession, pays }]);
    expect(w.code).toBe(code);
    expect(w.name).toBe("Jeanne Martin");
    expect(w.text).toMatch(text);
    expect(w.text.startsWith("Jeanne Martin est ")).toBe(true);
  });

  it.each([["conseil_ma"], ["conseil_cession_commerce"], ["commissaire_aux_comptes"], ["expert_evaluation"], [null], ["inconnue"]])(
    "%s → none",
    (profession) => {
      expect(professionWarnings([{ name: "X", profession }])).toEqual([]);
    },
  );

  it("one per member concerned, in order", () => {
    const out = professionWarnings([
      { name: "A", profession: "notaire" },
      { name: "B", profession: "avocat_affaires" },
    ]);
    expect(out.map((w) => w.code)).toEqual(["notary-regulated-fees", "lawyer-referral"]);
  });
});

const terms = (overrides: Partial<AgreementTerms> = {}): AgreementTerms => ({
  operationType: "fonds_de_commerce",
  dueTerm: "deed",
  payerSide: "a",
  clauses: null,
  parties: [
    { side: "a", name: "Alice Lemaire", company: "Cabinet Lemaire", profession: "conseil_cession_commerce", mandateLabel: "Mandat cédant «\u00a0C-1\u00a0»", share: 60 },
    { side: "b", name: "Jeanne Martin", company: null, profession: "avocat_affaires", mandateLabel: "Mandat acquéreur «\u00a0A-1\u00a0»", share: 40 },
  ],
  ...overrides,
});

describe("the text of the agreement", () => {
  const meta = { version: 2, fileReference: "DR-2026-0042", createdAt: new Date("2026-11-24T09:30:00Z"), createdByName: "Alice Lemaire" };
  const text = (t: AgreementTerms) => agreementBlocks(t, meta).map((b) => b.text).join("\n");

  it("names the parties, their mandates, the split, who pays whom and when", () => {
    const out = text(terms());
    expect(out).toContain("Convention de partage d’honoraires");
    expect(out).toContain("version 2");
    expect(out).toContain("Alice Lemaire, Conseil en cession de fonds de commerce, Cabinet Lemaire — titulaire du Mandat cédant «\u00a0C-1\u00a0»");
    expect(out).toContain("Alice Lemaire\u00a0: 60\u00a0%\u00a0; Jeanne Martin\u00a0: 40\u00a0%");
    expect(out).toContain("Alice Lemaire perçoit les honoraires auprès de son mandant et reverse à Jeanne Martin sa part, soit 40\u00a0%");
    expect(out).toContain("À la signature de l’acte de cession du fonds de commerce");
    expect(out).toContain("loi Hoguet");
    expect(out).toContain("Néant.");
    expect(out).toContain("Proposée le 24/11/2026 à 10:30 par Alice Lemaire".replace("Proposée", "Version 2 proposée"));
  });

  it("carries the profession warnings, and the Hoguet note only for goodwill", () => {
    const out = text(terms({ operationType: "titres", dueTerm: "deed_plus_30", payerSide: "b", clauses: "Diligences\u00a0: audit juridique." }));
    expect(out).toContain("Avertissement\u00a0: Jeanne Martin est avocat");
    expect(out).toContain("percevoir comme de verser");
    expect(out).not.toContain("loi Hoguet");
    expect(out).toContain("Dans les 30 jours");
    expect(out).toContain("Diligences\u00a0: audit juridique.");
    expect(out).toContain("Jeanne Martin perçoit les honoraires auprès de son mandant et reverse à Alice Lemaire sa part, soit 60\u00a0%");
  });
});

describe("the clauses and legal references follow the operation type", () => {
  const meta = { version: 1, fileReference: "DR-2026-0042", createdAt: new Date("2026-11-24T09:30:00Z"), createdByName: "Alice Lemaire" };
  const text = (t: AgreementTerms) => agreementBlocks(t, meta).map((b) => b.text).join("\n");
  const cases: [OperationType, DueTerm, { has: RegExp[]; hasNot: RegExp[] }][] = [
    [
      "titres",
      "deed_plus_30",
      {
        has: [/la cession de titres \(parts sociales ou actions\) d’une société/, /Dans les 30 jours suivant la signature de l’acte de cession des titres/, /L\. 223-14/, /1582 et suivants du code civil/],
        hasNot: [/Hoguet/i, /carte T/, /70-9/, /Transactions sur immeubles/, /cession d’un fonds/],
      },
    ],
    [
      "fonds_de_commerce",
      "deed",
      {
        has: [/la cession d’un fonds de commerce/, /loi Hoguet/, /carte T/, /mandat écrit/, /article 6 de la loi/, /À la signature de l’acte de cession du fonds de commerce/, /livre Ier, titre IV/],
        hasNot: [/L\. 144-1/, /titres/],
      },
    ],
    [
      "location_gerance",
      "deed",
      {
        has: [/la mise en location-gérance d’un fonds de commerce/, /loi Hoguet/, /carte T/, /L\. 144-1 et suivants du code de commerce/, /À la signature du contrat de location-gérance/],
        hasNot: [/acte de cession/],
      },
    ],
    [
      "apport_partiel",
      "deed",
      {
        has: [/l’apport partiel d’actif d’une branche d’activité/, /traité d’apport/, /L\. 236-27/, /réalisation définitive de l’apport/],
        hasNot: [/Hoguet/i, /carte T/],
      },
    ],
    ["autre", "deed", { has: [/clauses particulières/, /À la signature de l’acte constatant l’opération/], hasNot: [/Hoguet/i] }],
  ];
  it("covers every type", () => expect(cases.map((c) => c[0]).sort()).toEqual([...OPERATION_TYPES].sort()));
  it.each(cases)("%s", (operationType, dueTerm, { has, hasNot }) => {
    const out = text(terms({ operationType, dueTerm }));
    for (const re of has) expect(out).toMatch(re);
    for (const re of hasNot) expect(out).not.toMatch(re);
    expect(OPERATION_CLAUSES[operationType].hoguet).toBe(/Hoguet/.test(out));
  });

  it("the profession warnings stay whatever the type", () => {
    for (const operationType of OPERATION_TYPES) {
      const out = text(terms({ operationType, parties: [
        { side: "a", name: "Alice Lemaire", company: null, profession: "notaire", mandateLabel: "Mandat cédant «\u00a0C-1\u00a0»", share: 50 },
        { side: "b", name: "Jeanne Martin", company: null, profession: "expert_comptable", mandateLabel: "Mandat acquéreur «\u00a0A-1\u00a0»", share: 50 },
      ] }));
      expect(out).toContain("émoluments réglementés");
      expect(out).toContain("titre accessoire");
    }
  });
});

describe("the certificate", () => {
  it("lists each signature with its date, address, browser, method and hash", () => {
    const sha = "a".repeat(64);
    const out = certificateBlocks({
      agreementId: "ag-1",
      version: 1,
      fileReference: "DR-2026-0042",
      documentSha256: sha,
      completedAt: new Date("2026-11-24T10:00:00Z"),
      signatures: [
        { signerName: "Alice Lemaire", signedAt: new Date("2026-11-24T09:00:00Z"), ipAddress: "203.0.113.9", userAgent: "Firefox", method: "password", documentSha256: sha },
        { signerName: "Jeanne Martin", signedAt: new Date("2026-11-24T10:00:00Z"), ipAddress: null, userAgent: null, method: "totp", documentSha256: sha },
      ],
    })
      .map((b) => b.text)
      .join("\n");
    expect(out).toContain("Certificat de signature électronique");
    expect(out).toContain("Signataire 1\u00a0: Alice Lemaire");
    expect(out).toContain("Signé le 24/11/2026 à 10:00 (heure de Paris) — 2026-11-24T09:00:00.000Z (UTC)");
    expect(out).toContain("Adresse IP\u00a0: 203.0.113.9");
    expect(out).toContain("Adresse IP\u00a0: inconnue");
    expect(out).toContain("mot de passe du compte");
    expect(out).toContain("code de double authentification");
    expect(out.split(sha).length - 1).toBe(3);
  });
});

describe("addresses", () => {
  it("builds the section, PDF and export URLs", () => {
    expect(agreementPdfUrl("f", "a", "signed")).toBe("/dashboard/dossiers/f/convention/a?exemplaire=signe");
    expect(agreementPdfUrl("f", "a", "original")).toBe("/dashboard/dossiers/f/convention/a?exemplaire=original");
    expect(evidenceUrl("f")).toBe("/dashboard/dossiers/f/historique");
  });
});

describe("the agreement form", () => {
  const firms = {
    myCompany: " Cabinet  Lemaire ",
    myLegalForm: "SAS",
    mySiren: "412 356 784",
    myAddress: "12 rue de la Paix, 75002 Paris",
    myCapacity: "Présidente",
    theirCompany: "Martin Avocats",
    theirLegalForm: "SELARL",
    theirSiren: "832154769",
    theirAddress: "3 quai des Orfèvres, 69002 Lyon",
    theirCapacity: "Gérante",
  };
  const valid = { operationType: "titres", sellerAdviser: "me", myShare: "70", theirShare: "30", payer: "me", dueTerm: "deed_plus_30", clauses: "", ...firms };
  const errors = (value: Record<string, unknown>) => {
    const r = agreementSchema.safeParse(value);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it("accepts a valid split and drops empty clauses", () => {
    expect(agreementSchema.parse(valid)).toEqual({
      operationType: "titres",
      sellerAdviser: "me",
      amountBand: null,
      myShare: 70,
      theirShare: 30,
      payer: "me",
      dueTerm: "deed_plus_30",
      clauses: null,
      ...firms,
      myCompany: "Cabinet Lemaire",
    });
    expect(agreementSchema.parse({ ...valid, amountBand: "3m_10m" }).amountBand).toBe("3m_10m");
  });

  it.each([
    [{ theirShare: "40" }, AGREEMENT_MESSAGES.sum],
    [{ myShare: "0", theirShare: "100" }, AGREEMENT_MESSAGES.share],
    [{ myShare: "50,5" }, AGREEMENT_MESSAGES.share],
    [{ operationType: "fonds_de_commerce" }, AGREEMENT_MESSAGES.dueTermHoguet],
    [{ payer: "both" }, AGREEMENT_MESSAGES.payer],
    [{ sellerAdviser: undefined }, AGREEMENT_MESSAGES.sellerAdviser],
    [{ operationType: undefined }, AGREEMENT_MESSAGES.operationType],
    [{ amountBand: "4m" }, AGREEMENT_MESSAGES.amountBand],
    [{ mySiren: "412 356 785" }, SIREN_MESSAGES.key],
    [{ theirSiren: "" }, SIREN_MESSAGES.empty],
    [{ theirSiren: undefined }, SIREN_MESSAGES.empty],
    [{ myLegalForm: "  " }, AGREEMENT_MESSAGES.firmLegalForm],
    [{ theirCapacity: undefined }, AGREEMENT_MESSAGES.firmCapacity],
    [{ myAddress: "x".repeat(301) }, AGREEMENT_MESSAGES.firmTooLong],
    [{ clauses: "x".repeat(2001) }, AGREEMENT_MESSAGES.clausesTooLong],
  ])("%j → %s", (change, message) => {
    expect(errors({ ...valid, ...change })).toContain(message);
  });

  it("strips control characters, NUL and lone surrogates from the clauses", () => {
    const out = agreementSchema.parse({ ...valid, clauses: "a\u0000b\uD800c\u202Ed\r\ne\tf" });
    expect(out.clauses).toBe("abcd\ne\tf");
  });

  it("signing needs consent, the version’s hash and a credential of the right shape", () => {
    const base = { agreementId: "00000000-0000-4000-8000-000000000000", documentSha256: "b".repeat(64), consent: "on", password: "secret" };
    expect(signAgreementSchema.safeParse(base).success).toBe(true);
    expect(signAgreementSchema.safeParse({ ...base, consent: undefined }).success).toBe(false);
    expect(signAgreementSchema.safeParse({ ...base, documentSha256: "B".repeat(64) }).success).toBe(false);
    expect(signAgreementSchema.safeParse({ ...base, code: "12 34 56" }).data?.code).toBe("123456");
    expect(signAgreementSchema.safeParse({ ...base, code: "12345" }).success).toBe(false);
  });
});
