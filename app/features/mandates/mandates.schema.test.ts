import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { AMOUNT_MESSAGES } from "./mandate-rules";
import { MANDATE_FORM_MESSAGES, mandateFormSchema } from "./mandates.schema";

function form(entries: Array<[string, string]>): FormData {
  const fd = new FormData();
  for (const [k, v] of entries) fd.append(k, v);
  return fd;
}

const base: Array<[string, string]> = [
  ["mandateType", "buyer"],
  ["isExclusive", "on"],
  ["startDate", "2026-03-01"],
  ["endDate", "2026-05-30"],
  ["clientCode", "ABC-01"],
  ["clientName", "Dupont SAS"],
  ["clientAddress", "1 rue de la Paix, 75002 Paris"],
];

function parse(entries: Array<[string, string]>) {
  return parseWithZod(form(entries), { schema: mandateFormSchema });
}

function errors(entries: Array<[string, string]>): Record<string, string[] | null> {
  const s = parse(entries);
  expect(s.status).toBe("error");
  return (s.status === "error" ? s.error : {}) ?? {};
}

describe("mandate form schema (spec §5)", () => {
  it("accepts a buyer mandate: lists from repeated checkboxes, 'France entière' stored as 'france', amounts in euros", () => {
    const s = parse([
      ...base,
      ["searchSectors", "C"],
      ["searchSectors", "G"],
      ["searchTerritories", "france"],
      ["targetAmountMin", "500 000"],
      ["targetAmountMax", "2000000"],
      ["contributionMin", "abc"],
      ["maUsage", "primo_buyer"],
      // Seller fields of a hidden section are dropped.
      ["companySector", "F"],
      ["valuationAmount", "-5"],
    ]);
    expect(s.status).toBe("success");
    if (s.status !== "success") return;
    expect(s.value).toMatchObject({
      mandateType: "buyer",
      isExclusive: true,
      searchSectors: ["C", "G"],
      searchTerritories: ["france"],
      targetAmountMin: 500_000,
      targetAmountMax: 2_000_000,
      // Non-numeric input becomes 0 (spec §5).
      contributionMin: 0,
      contributionMax: null,
      maUsage: "primo_buyer",
      companySector: null,
      valuationAmount: null,
      targetBuyerTypes: null,
      description: null,
    });
  });

  it("accepts a seller mandate and empties the buyer fields; empty lists are null", () => {
    const s = parse([
      ...base.map(([k, v]): [string, string] => (k === "mandateType" ? [k, "seller"] : [k, v])),
      ["searchSectors", "C"],
      ["companySector", "C"],
      ["companyTerritory", "69"],
      ["valuationAmount", "1200000"],
      ["requiredContributionMin", "100000"],
      ["requiredContributionMax", "300000"],
      ["projectTimeline", "6_months"],
      ["targetBuyerTypes", "company"],
    ]);
    expect(s.status).toBe("success");
    if (s.status !== "success") return;
    expect(s.value).toMatchObject({
      mandateType: "seller",
      searchSectors: null,
      companySector: "C",
      companyTerritory: "69",
      valuationAmount: 1_200_000,
      projectTimeline: "6_months",
      targetBuyerTypes: ["company"],
    });
  });

  it("defaults the type to buyer", () => {
    const s = parse(base.filter(([k]) => k !== "mandateType"));
    expect(s.status === "success" && s.value.mandateType).toBe("buyer");
  });

  it("requires the exclusivity certification and the client fields, with the spec's messages", () => {
    const e = errors([["mandateType", "buyer"], ["startDate", "2026-03-01"], ["endDate", "2026-05-30"], ["clientCode", "  "]]);
    expect(e.isExclusive).toEqual([MANDATE_FORM_MESSAGES.exclusive]);
    expect(e.clientCode).toEqual(["Les initiales/nom de code sont obligatoires"]);
    expect(e.clientName).toEqual(["Le nom du client est obligatoire"]);
    expect(e.clientAddress).toEqual(["L'adresse du client est obligatoire"]);
  });

  it("requires the end date strictly after the start date (error on end_date)", () => {
    const same = errors(base.map(([k, v]): [string, string] => (k === "endDate" ? [k, "2026-03-01"] : [k, v])));
    expect(same.endDate).toEqual(["La date de fin doit être postérieure à la date de début"]);
    const before = errors(base.map(([k, v]): [string, string] => (k === "endDate" ? [k, "2026-02-01"] : [k, v])));
    expect(before.endDate).toEqual(["La date de fin doit être postérieure à la date de début"]);
    const missing = errors(base.filter(([k]) => k !== "startDate"));
    expect(missing.startDate).toEqual([MANDATE_FORM_MESSAGES.startRequired]);
    const invalid = errors(base.map(([k, v]): [string, string] => (k === "startDate" ? [k, "2026-02-30"] : [k, v])));
    expect(invalid.startDate).toEqual([MANDATE_FORM_MESSAGES.invalidDate]);
  });

  it("refuses negative amounts and a minimum above its maximum", () => {
    const e = errors([
      ...base,
      ["targetAmountMin", "-10"],
      ["contributionMin", "300000"],
      ["contributionMax", "100000"],
    ]);
    expect(e.targetAmountMin).toEqual([AMOUNT_MESSAGES.negative]);
    expect(e.contributionMax).toEqual([AMOUNT_MESSAGES.minAboveMax]);
    const seller = errors([
      ...base.map(([k, v]): [string, string] => (k === "mandateType" ? [k, "seller"] : [k, v])),
      ["requiredContributionMin", "5"],
      ["requiredContributionMax", "4"],
    ]);
    expect(seller.requiredContributionMax).toEqual([AMOUNT_MESSAGES.minAboveMax]);
  });

  it("refuses unknown codes", () => {
    const e = errors([...base, ["searchSectors", "Z"], ["searchTerritories", "20"]]);
    expect(e.searchSectors).toEqual([MANDATE_FORM_MESSAGES.sector]);
    expect(e.searchTerritories).toEqual([MANDATE_FORM_MESSAGES.territory]);
  });
});
