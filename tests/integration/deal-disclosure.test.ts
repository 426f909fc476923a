// Issue 27 §5: an anonymised certified deal never publishes its parties — not on the public
// profile (loader data and JSON-LD), not in the directory; a named one needs the consent stamp.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { certifiedDeals } from "~/db/schema";
import { parseDirectoryQuery } from "~/features/directory/directory.schema";
import { searchDirectory } from "~/features/directory/directory.server";
import { createOwnDeal } from "~/features/deals/deals.server";
import { memberActor } from "~/auth/actor";
import { profileSlug } from "~/lib/slug";
import { loader as consultantLoader } from "~/routes/public/consultant";
import { createDeal, createMember, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();
const year = new Date().getFullYear();
const SECRET_PARTIES = "Capital Fontaine / Prévost SA";

async function premium(lastName: string) {
  return createMember(t.db!, { profile: { lastName, membershipType: "premium", profileStatus: "validated", onboardingStatus: "validated" } });
}

async function consultant(m: CreatedMember) {
  const slug = profileSlug(m.profile);
  const out = await consultantLoader({ request: new Request(`http://localhost/consultant/${slug}`), params: { slug }, context: { requestId: "test" } } as never);
  return out as unknown as { jsonLd: string; profile: { certifiedDeals: Array<{ title: string; named: boolean }> } };
}

describe("certified deal disclosure on public pages", () => {
  it("an anonymised deal shows sector, size band, region and year, never the parties nor the description", async () => {
    const m = await premium("Anonyme");
    await createDeal(t.db!, m.profile.id, {
      status: "validated",
      year: year - 1,
      sector: "C",
      acquirerCedant: SECRET_PARTIES,
      dealDescription: "Reprise de Prévost SA par Capital Fontaine",
      sizeBand: "5to20",
      region: "Bretagne",
    });
    await createDeal(t.db!, m.profile.id, {
      status: "validated",
      year: year - 2,
      sector: "F",
      acquirerCedant: "Groupe Nommé / Cible SAS",
      disclosure: "named",
      partiesConsentAt: new Date(),
    });
    const data = await consultant(m);
    const everything = JSON.stringify(data);
    expect(everything).not.toContain("Fontaine");
    expect(everything).not.toContain("Prévost");
    expect(data.jsonLd).not.toContain("Fontaine");
    expect(data.profile.certifiedDeals.map((d) => [d.title, d.named])).toEqual([
      ["Opération confidentielle — valeur 5 à 20 M€, Bretagne", false],
      ["Groupe Nommé / Cible SAS", true],
    ]);

    const page = await searchDirectory(parseDirectoryQuery(new URLSearchParams("q=Anonyme")));
    const card = page.cards.find((c) => c.id === m.profile.id);
    expect(card?.deals.map((d) => d.title)).toEqual(["Opération confidentielle — valeur 5 à 20 M€, Bretagne", "Groupe Nommé / Cible SAS"]);
    expect(JSON.stringify(page)).not.toContain("Fontaine");
  });

  it("a deal stored without a choice (as the migration left existing ones) is anonymised", async () => {
    const m = await premium("Ancien");
    const deal = await createDeal(t.db!, m.profile.id, { status: "validated", acquirerCedant: SECRET_PARTIES });
    const [row] = await t.db!.select({ disclosure: certifiedDeals.disclosure }).from(certifiedDeals).where(eq(certifiedDeals.id, deal.id));
    expect(row.disclosure).toBe("anonymised");
    expect(JSON.stringify(await consultant(m))).not.toContain("Fontaine");
  });

  it("the database refuses a named deal without the consent stamp", async () => {
    const m = await premium("Sans accord");
    await expect(createDeal(t.db!, m.profile.id, { acquirerCedant: SECRET_PARTIES, disclosure: "named", partiesConsentAt: null })).rejects.toThrow();
  });

  it("the member's write names the parties only with the consent certified", async () => {
    const m = await premium("Membre");
    const actor = memberActor(m.profile);
    const base = { year: year - 1, sector: "C" as const, acquirerCedant: SECRET_PARTIES };
    const withoutConsent = await createOwnDeal(actor, { ...base, disclosure: "named" });
    const withConsent = await createOwnDeal(actor, { ...base, disclosure: "named", partiesConsent: "on" });
    const rows = await t.db!
      .select({ id: certifiedDeals.id, disclosure: certifiedDeals.disclosure, consent: certifiedDeals.partiesConsentAt })
      .from(certifiedDeals)
      .where(eq(certifiedDeals.profileId, m.profile.id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(withoutConsent.id)).toMatchObject({ disclosure: "anonymised", consent: null });
    expect(byId.get(withConsent.id)?.disclosure).toBe("named");
    expect(byId.get(withConsent.id)?.consent).toBeInstanceOf(Date);
  });
});
