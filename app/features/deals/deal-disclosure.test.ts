import { describe, expect, it } from "vitest";
import { type DisclosableDeal, publicDealView } from "./deal-disclosure";

const base: DisclosableDeal = {
  year: 2024,
  sector: "C",
  acquirerCedant: "Capital Fontaine / Prévost SA",
  dealDescription: "Reprise par Capital Fontaine",
  disclosure: "anonymised",
  sizeBand: "5to20",
  region: "Bretagne",
  partiesConsentAt: null,
};

describe("publicDealView", () => {
  const cases: Array<{ name: string; deal: Partial<DisclosableDeal>; named: boolean; title: string | RegExp; description: string | null }> = [
    { name: "anonymised with size and region", deal: {}, named: false, title: "Opération confidentielle — valeur 5 à 20 M€, Bretagne", description: null },
    { name: "anonymised without size nor region (migrated rows)", deal: { sizeBand: null, region: null }, named: false, title: "Opération confidentielle", description: null },
    { name: "unknown size band and region are left out", deal: { sizeBand: "huge", region: "Atlantide" }, named: false, title: "Opération confidentielle", description: null },
    { name: "named with consent", deal: { disclosure: "named", partiesConsentAt: "2026-01-01T00:00:00.000Z" }, named: true, title: "Capital Fontaine / Prévost SA", description: "Reprise par Capital Fontaine" },
    { name: "named without consent stays anonymised", deal: { disclosure: "named", partiesConsentAt: null }, named: false, title: /^Opération confidentielle/, description: null },
    { name: "consent without the choice stays anonymised", deal: { partiesConsentAt: new Date() }, named: false, title: /^Opération confidentielle/, description: null },
    { name: "an unknown disclosure value is anonymised", deal: { disclosure: "public", partiesConsentAt: new Date() }, named: false, title: /^Opération confidentielle/, description: null },
  ];
  it.each(cases)("$name", ({ deal, named, title, description }) => {
    const view = publicDealView({ ...base, ...deal });
    expect(view.named).toBe(named);
    if (typeof title === "string") expect(view.title).toBe(title);
    else expect(view.title).toMatch(title);
    expect(view.dealDescription).toBe(description);
    if (!named) expect(JSON.stringify(view)).not.toMatch(/Fontaine|Prévost/);
  });
});
