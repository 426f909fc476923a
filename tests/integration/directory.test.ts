import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parseDirectoryQuery } from "~/features/directory/directory.schema";
import { searchDirectory } from "~/features/directory/directory.server";
import { getPublicProfile, PUBLIC_PROFILE_KEYS } from "~/features/profiles/public-profile.server";
import { profileIdFromSlug } from "~/lib/slug";
import { loader as annuaireLoader } from "~/routes/public/annuaire";
import { loader as consultantLoader } from "~/routes/public/consultant";
import { createDeal, createMember, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();
const q = (s: string) => parseDirectoryQuery(new URLSearchParams(s));
const names = (cards: { lastName: string }[]) => cards.map((c) => c.lastName);

let ids: Record<string, string> = {};

beforeAll(async () => {
  seedFactories(42);
  const db = t.db!;
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));
  const base = { profileStatus: "validated" as const, onboardingStatus: "validated" as const, conseilType: null };
  const members = [
    { key: "dupre", firstName: "Élodie", lastName: "Dupré", company: "Société Générale de Conseil", profession: "avocat_affaires" as const, membershipType: "freemium" as const, locationDepartment: "75", specializationSectors: ["C", "G"], createdAt: day(10) },
    { key: "martin", firstName: "Paul", lastName: "Martin", company: "Martin & Associés", profession: "expert_comptable" as const, membershipType: "premium" as const, locationDepartment: "69", specializationSectors: ["I"], createdAt: day(5) },
    { key: "leroy", firstName: "Anne", lastName: "Leroy", company: "Étude Leroy", profession: "notaire" as const, membershipType: "founding_member" as const, locationDepartment: "2A", specializationSectors: ["L", "F", "G", "I", "K"], createdAt: day(1) },
    { key: "bernard", firstName: "Luc", lastName: "Bernard", company: "Cession Commerce Conseil", profession: "conseil_cession_commerce" as const, membershipType: "freemium" as const, locationDepartment: "75", specializationSectors: ["G"], createdAt: day(20) },
  ];
  for (const m of members) {
    const { key, ...profile } = m;
    const created = await createMember(db, { profile: { ...base, ...profile } });
    ids[key] = created.profile.id;
  }
  const pending = await createMember(db, { profile: { ...base, lastName: "Attente", company: "Société En Attente", profileStatus: "pending_validation" } });
  const suspended = await createMember(db, { profile: { ...base, lastName: "Suspendu", company: "Société Suspendue", profileStatus: "suspended" } });
  ids = { ...ids, pending: pending.profile.id, suspended: suspended.profile.id };
  await createDeal(db, ids.martin, { status: "validated", year: 2024, sector: "I", acquirerCedant: "Cession d'un groupe hôtelier", disclosure: "named", partiesConsentAt: new Date() });
  await createDeal(db, ids.martin, { status: "pending", year: 2025 });
  await createDeal(db, ids.dupre, { status: "validated", year: 2023 });
  await createDeal(db, ids.leroy, { status: "validated", year: 2022, sector: "C", acquirerCedant: "Reprise d'une menuiserie" });
});

describe("directory search", () => {
  it("lists only validated profiles, premium and founding first, then newest", async () => {
    const page = await searchDirectory(q(""));
    expect(page.total).toBe(4);
    expect(names(page.cards)).toEqual(["Martin", "Leroy", "Bernard", "Dupré"]);
  });

  it.each([
    ["q=societe", ["Dupré"]],
    ["q=SOCIÉTÉ", ["Dupré"]],
    ["q=elodie dupre", ["Dupré"]],
    ["q=notaire", ["Leroy"]],
    ["q=expert comptable", ["Martin"]],
    ["q=paul martin", ["Martin"]],
    ["q=martin  associes", ["Martin"]],
    ["q=hébergement", ["Martin", "Leroy"]],
    ["q=commerce", ["Leroy", "Bernard", "Dupré"]],
    ["q=100%25", []],
    ["q=zzzz", []],
    ["departement=75", ["Bernard", "Dupré"]],
    ["departement=2A", ["Leroy"]],
    ["secteur=G", ["Leroy", "Bernard", "Dupré"]],
    ["profession=expert_comptable", ["Martin"]],
    ["departement=75&secteur=C", ["Dupré"]],
    ["q=conseil&departement=75", ["Bernard", "Dupré"]],
    ["departement=all&secteur=all&profession=all", ["Martin", "Leroy", "Bernard", "Dupré"]],
    ["departement=99&secteur=Z&profession=pirate", ["Martin", "Leroy", "Bernard", "Dupré"]],
  ])("%s → %j", async (query, expected) => {
    const page = await searchDirectory(q(query));
    expect(names(page.cards)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it("never shows pending or suspended profiles, even by name", async () => {
    expect((await searchDirectory(q("q=attente"))).total).toBe(0);
    expect((await searchDirectory(q("q=suspendu"))).total).toBe(0);
  });

  it("carries validated deals only for premium cards", async () => {
    const page = await searchDirectory(q(""));
    const martin = page.cards.find((c) => c.lastName === "Martin")!;
    expect(martin.deals).toEqual([{ year: 2024, sectorName: "Hébergement et restauration", title: "Cession d'un groupe hôtelier" }]);
    expect(martin.moreDealsLabel).toBeNull();
    const dupre = page.cards.find((c) => c.lastName === "Dupré")!;
    expect(dupre.deals).toEqual([]);
    expect(dupre.moreDealsLabel).toBeNull();
    expect(dupre.presentation).toBeNull();
    expect(profileIdFromSlug(martin.slug)).toBe(martin.id);
  });

  it("resolves what a card displays: sector chips, badges (the page's bundle has no reference table)", async () => {
    const page = await searchDirectory(q(""));
    const card = (lastName: string) => page.cards.find((c) => c.lastName === lastName)!;
    // Standard card: labels cut at 25 characters, the full name as title; its validated deal is
    // neither shown nor gives a badge.
    expect(card("Dupré")).toMatchObject({
      professionLabel: "Avocat d’affaires / M&A",
      sectors: {
        shown: [
          { label: "Industrie manufacturière", name: "Industrie manufacturière" },
          { label: "Commerce\u00a0; réparation d’a…", name: "Commerce\u00a0; réparation d’automobiles et de motocycles" },
        ],
        more: null,
      },
      badges: [],
    });
    expect(card("Martin")).toMatchObject({
      sectors: { shown: [{ label: "Hébergement et restauration", name: "Hébergement et restauration" }], more: null },
      badges: ["deals-certified"],
    });
    // Premium (founding) card: full names, 3 chips then '+2 autres' titled with the others.
    expect(card("Leroy").badges).toEqual(["founding-member", "deals-certified", "expert"]);
    expect(card("Leroy").sectors).toEqual({
      shown: [
        { label: "Activités immobilières", name: "Activités immobilières" },
        { label: "Construction", name: "Construction" },
        { label: "Commerce\u00a0; réparation d’automobiles et de motocycles", name: "Commerce\u00a0; réparation d’automobiles et de motocycles" },
      ],
      more: { label: "+2 autres", names: "Hébergement et restauration, Activités financières et d’assurance" },
    });
    expect(card("Leroy").deals).toEqual([{ year: 2022, sectorName: "Industrie manufacturière", title: "Opération confidentielle" }]);
    // The card is a projection: only what the card shows, no codes to look up.
    expect(Object.keys(card("Martin")).sort()).toEqual(
      [
        "badges", "company", "deals", "firstName", "id", "lastName", "locationCity", "locationDepartment", "logoUrl",
        "moreDealsLabel", "photoUrl", "premium", "presentation", "professionLabel", "sectors", "slug", "verification",
      ].sort(),
    );
  });

  it("cuts a premium card's presentation at 200 characters and counts the deals beyond 3", async () => {
    const db = t.db!;
    const long = `${"Cabinet de transmission. ".repeat(10)}Fin`;
    const member = await createMember(db, {
      profile: { profileStatus: "validated", membershipType: "premium", company: "Cabinet Quintuple", detailedPresentation: long, specializationSectors: [] },
    });
    for (const year of [2019, 2020, 2021, 2022, 2023]) {
      await createDeal(db, member.profile.id, { status: "validated", year, sector: "M", acquirerCedant: `Opération ${year}` });
    }
    await createDeal(db, member.profile.id, { status: "pending", year: 2024 });
    const [card] = (await searchDirectory(q("q=quintuple"))).cards;
    expect(card.presentation).toEqual({ text: `${long.slice(0, 200)}…`, truncated: true });
    expect(card.deals.map((d) => d.year)).toEqual([2023, 2022, 2021]);
    expect(card.deals[0].sectorName).toBe("Activités spécialisées, scientifiques et techniques");
    expect(card.moreDealsLabel).toBe("+2 autres transactions certifiées");
    expect(card.sectors).toEqual({ shown: [], more: null });
  });

  it("paginates 24 per page and clamps the page number", async () => {
    const db = t.db!;
    for (let i = 0; i < 26; i++) {
      await createMember(db, { profile: { profileStatus: "validated", company: `Cabinet Pagination ${i}`, membershipType: "freemium" } });
    }
    const first = await searchDirectory(q("q=pagination"));
    expect(first.total).toBe(26);
    expect(first.pageCount).toBe(2);
    expect(first.cards).toHaveLength(24);
    const second = await searchDirectory(q("q=pagination&page=2"));
    expect(second.cards).toHaveLength(2);
    const beyond = await searchDirectory(q("q=pagination&page=40"));
    expect(beyond.page).toBe(2);
    const all = new Set([...first.cards, ...second.cards].map((c) => c.id));
    expect(all.size).toBe(26);
  });

  it("uses the trigram index for the text search", async () => {
    const db = t.db!;
    await db.execute(sql`set enable_seqscan = off`);
    const plan = await db.execute(sql`explain select id from profiles p where p.search_text like '%societe%'`);
    await db.execute(sql`set enable_seqscan = on`);
    expect(JSON.stringify(plan), JSON.stringify(plan)).toContain("profiles_search_trgm_idx");
  });
});

describe("public profile projection", () => {
  it("has exactly the allowed keys and nothing internal", async () => {
    const p = await getPublicProfile(ids.martin);
    expect(p).not.toBeNull();
    expect(Object.keys(p!).sort()).toEqual([...PUBLIC_PROFILE_KEYS].sort());
    const json = JSON.stringify(p);
    expect(json).not.toMatch(/internalPresentation|userId|email|profileStatus|searchText/);
    expect(p!.certifiedDeals.map((d) => d.year)).toEqual([2024]);
  });

  it("is null for pending and suspended profiles", async () => {
    expect(await getPublicProfile(ids.pending)).toBeNull();
    expect(await getPublicProfile(ids.suspended)).toBeNull();
  });

  it("hides the presentation and deals of freemium members", async () => {
    const p = await getPublicProfile(ids.dupre);
    expect(p!.detailedPresentation).toBeNull();
    expect(p!.certifiedDeals).toEqual([]);
  });
});

describe("page loaders: labels resolved, nothing more", () => {
  type Args = Parameters<typeof annuaireLoader>[0];
  const args = (url: string, params: Record<string, string> = {}) =>
    ({ request: new Request(`http://localhost${url}`), params, context: { requestId: "test" } }) as unknown as Args;

  it("/annuaire sends the cards and the filters' option lists", async () => {
    const out = (await annuaireLoader(args("/annuaire?secteur=G"))) as unknown as Record<string, unknown> & {
      options: { departments: unknown[]; sectors: { value: string; label: string }[]; professions: unknown[] };
    };
    expect(Object.keys(out).sort()).toEqual(["cards", "failed", "options", "page", "pageCount", "query", "total"]);
    expect(Object.keys(out.options).sort()).toEqual(["departments", "professions", "sectors"]);
    expect(out.options.sectors).toHaveLength(21);
    expect(out.options.sectors[2]).toEqual({ value: "C", label: "C - Industrie manufacturière" });
    expect(out.options.departments).toHaveLength(101);
    expect(out.options.professions).toHaveLength(11);
  });

  it("/consultant/{slug} sends the profile's labels (its sectors and its deals' only) and badges", async () => {
    const leroy = (await getPublicProfile(ids.leroy))!;
    const out = await consultantLoader(args(`/consultant/${leroy.slug}`, { slug: leroy.slug }) as unknown as Parameters<typeof consultantLoader>[0]);
    expect(Object.keys(out).sort()).toEqual(["badges", "closingsLine", "jsonLd", "labels", "memberRatings", "metaTags", "profile", "viewerEmail"]);
    expect(Object.keys(out.profile).sort()).toEqual([...PUBLIC_PROFILE_KEYS].sort());
    expect(out.badges).toEqual(["founding-member", "deals-certified", "expert"]);
    expect(out.labels).toEqual({
      profession: "Notaire",
      department: "Corse-du-Sud",
      sectors: {
        L: "Activités immobilières",
        F: "Construction",
        G: "Commerce\u00a0; réparation d’automobiles et de motocycles",
        I: "Hébergement et restauration",
        K: "Activités financières et d’assurance",
        C: "Industrie manufacturière",
      },
    });
    // Meta keywords and JSON-LD are built here too, with the names.
    expect(metaContent(out.metaTags, "keywords")).toBe(
      "Activités immobilières, Construction, Commerce\u00a0; réparation d’automobiles et de motocycles, Hébergement et restauration, Activités financières et d’assurance, Notaire, transmission d’entreprise",
    );
    const person = JSON.parse(out.jsonLd) as Record<string, unknown>;
    expect(person).toMatchObject({ "@type": "Person", name: "Anne Leroy", jobTitle: "Notaire", address: { addressRegion: "Corse-du-Sud", addressCountry: "FR" } });
    expect(person.knowsAbout).toEqual(["Activités immobilières", "Construction", "Commerce\u00a0; réparation d’automobiles et de motocycles", "Hébergement et restauration", "Activités financières et d’assurance"]);
  });

  it("/consultant/{slug} of a standard member: no deal, no badge, its sector only", async () => {
    const dupre = (await getPublicProfile(ids.dupre))!;
    const out = await consultantLoader(args(`/consultant/${dupre.slug}`, { slug: dupre.slug }) as unknown as Parameters<typeof consultantLoader>[0]);
    expect(out.badges).toEqual([]);
    expect(out.labels).toEqual({
      profession: "Avocat d’affaires / M&A",
      department: "Paris",
      sectors: { C: "Industrie manufacturière", G: "Commerce\u00a0; réparation d’automobiles et de motocycles" },
    });
    expect(metaContent(out.metaTags, "keywords")).toBe("Industrie manufacturière, Commerce\u00a0; réparation d’automobiles et de motocycles, Avocat d’affaires / M&A, transmission d’entreprise");
  });
});

/** The content of a named meta tag among the loader's meta tags. */
function metaContent(tags: ReadonlyArray<Record<string, unknown>>, name: string): unknown {
  return tags.find((t) => t.name === name)?.content;
}
