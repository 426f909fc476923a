import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseDirectoryQuery } from "~/features/directory/directory.schema";
import { directoryCountKey } from "~/features/directory/directory.server";
import {
  INTERNAL_DIRECTORY_PAGE_SIZE,
  type InternalDirectoryActor,
  searchInternalDirectory,
} from "~/features/internal-directory/internal-directory.server";
import { createMandate, createMember, isoDate, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { plant, useInstanceCache } from "../support/instance-cache";
import { caches } from "~/lib/cache.server";

const t = useTestDatabase();
const q = (s: string) => parseDirectoryQuery(new URLSearchParams(s));
const DAY = 86_400_000;
const daysFromNow = (n: number) => new Date(Date.now() + n * DAY);
const names = (rows: { lastName: string }[]) => rows.map((r) => r.lastName);

let actor: InternalDirectoryActor;
const ids: Record<string, string> = {};

beforeAll(async () => {
  seedFactories(11);
  const db = t.db!;
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));
  const base = { profileStatus: "validated" as const, onboardingStatus: "validated" as const, conseilType: null };
  const me = await createMember(db, {
    profile: { ...base, firstName: "Paul", lastName: "Acteur", company: "Acteur Conseil", membershipType: "premium", locationDepartment: "69", specializationSectors: ["C"], createdAt: day(2) },
  });
  actor = { profile: { id: me.profile.id } };
  ids.me = me.profile.id;
  const members = [
    {
      key: "lyon",
      firstName: "Anne",
      lastName: "Lyonnaise",
      company: "Cap Transmission Lyon",
      profession: "conseil_ma" as const,
      membershipType: "founding_member" as const,
      locationCity: "Lyon",
      locationDepartment: "69",
      specializationSectors: ["C", "F", "G", "I", "L"],
      internalPresentation: "Je recherche des cibles industrielles en Rhône-Alpes.",
      logoUrl: "/uploads/lyon/logo.webp",
      createdAt: day(1),
    },
    {
      key: "paris",
      firstName: "Luc",
      lastName: "Parisien",
      company: "Parisien Commerces",
      profession: "conseil_cession_commerce" as const,
      membershipType: "freemium" as const,
      locationCity: "Paris",
      locationDepartment: "75",
      specializationSectors: ["G"],
      internalPresentation: "Ne doit pas apparaître",
      logoUrl: "/uploads/paris/logo.webp",
      createdAt: day(20),
    },
    {
      key: "notaire",
      firstName: "Claire",
      lastName: "Notariale",
      company: "Étude Notariale",
      profession: "notaire" as const,
      membershipType: "premium" as const,
      locationCity: "Paris",
      locationDepartment: "75",
      specializationSectors: ["L", "K"],
      internalPresentation: null,
      logoUrl: null,
      createdAt: day(10),
    },
  ];
  for (const { key, ...profile } of members) {
    ids[key] = (await createMember(db, { profile: { ...base, ...profile } })).profile.id;
  }
  for (const status of ["pending_validation", "suspended", "rejected"] as const) {
    await createMember(db, { profile: { ...base, lastName: `Statut ${status}`, company: "Cabinet Invisible", profileStatus: status } });
  }

  // Mandates of Anne Lyonnaise:
  const lyon = ids.lyon;
  const recent = { startDate: isoDate(daysFromNow(-5)), endDate: isoDate(daysFromNow(85)) };
  await createMandate(db, lyon, { mandateType: "buyer", status: "active", ...recent }); // active, last 12 months
  await createMandate(db, lyon, { mandateType: "buyer", status: "active", ...recent }); // active, last 12 months
  // Status active but ended: shown as expired, so not active; created within 12 months.
  await createMandate(db, lyon, { mandateType: "buyer", status: "active", startDate: isoDate(daysFromNow(-200)), endDate: isoDate(daysFromNow(-10)) });
  // Active, but created more than 12 months ago.
  await createMandate(db, lyon, { mandateType: "buyer", status: "active", startDate: isoDate(daysFromNow(-400)), endDate: isoDate(daysFromNow(20)) });
  await createMandate(db, lyon, { mandateType: "seller", status: "active", ...recent }); // active, last 12 months
  await createMandate(db, lyon, { mandateType: "seller", status: "on_hold", ...recent }); // last 12 months only
  await createMandate(db, lyon, { mandateType: "seller", status: "expired", startDate: isoDate(daysFromNow(-400)), endDate: isoDate(daysFromNow(-310)) }); // neither
  // The actor's own mandates count for nobody else.
  await createMandate(db, ids.me, { mandateType: "seller", status: "active", ...recent });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("internal directory", () => {
  it("lists validated peers only, without the actor, premium and founding first then newest", async () => {
    const page = await searchInternalDirectory(actor, q(""));
    expect(names(page.rows)).toEqual(["Notariale", "Lyonnaise", "Parisien"]);
    expect(page).toMatchObject({ total: 3, page: 1, pageCount: 1 });
    expect(page.rows.map((r) => r.id)).not.toContain(ids.me);
  });

  it("counts active and last-12-months mandates per side", async () => {
    const page = await searchInternalDirectory(actor, q(""));
    const lyon = page.rows.find((r) => r.id === ids.lyon)!;
    expect(lyon).toMatchObject({
      activeBuyerMandates: 3,
      activeSellerMandates: 1,
      last12MonthsBuyerMandates: 3,
      last12MonthsSellerMandates: 2,
    });
    for (const r of page.rows.filter((row) => row.id !== ids.lyon)) {
      expect([r.activeBuyerMandates, r.activeSellerMandates, r.last12MonthsBuyerMandates, r.last12MonthsSellerMandates]).toEqual([0, 0, 0, 0]);
    }
  });

  it("returns the internal-directory projection, enriched fields for premium members only", async () => {
    const page = await searchInternalDirectory(actor, q(""));
    const lyon = page.rows.find((r) => r.id === ids.lyon)!;
    const paris = page.rows.find((r) => r.id === ids.paris)!;
    expect(lyon).toMatchObject({
      firstName: "Anne",
      company: "Cap Transmission Lyon",
      professionLabel: expect.any(String),
      locationCity: "Lyon",
      locationDepartment: "69",
      sectors: ["C", "F", "G", "I", "L"],
      membershipType: "founding_member",
      premium: true,
      internalPresentation: "Je recherche des cibles industrielles en Rhône-Alpes.",
      logoUrl: "/uploads/lyon/logo.webp",
    });
    expect(paris).toMatchObject({ premium: false, internalPresentation: null, logoUrl: null });
    // Nothing confidential or private leaves: no address, e-mail, user id or search text.
    expect(Object.keys(lyon).sort()).toEqual(
      [
        "activeBuyerMandates",
        "activeSellerMandates",
        "badges",
        "company",
        "createdAt",
        "firstName",
        "id",
        "internalPresentation",
        "last12MonthsBuyerMandates",
        "last12MonthsSellerMandates",
        "lastName",
        "locationCity",
        "locationDepartment",
        "logoUrl",
        "membershipType",
        "photoUrl",
        "premium",
        "profession",
        "professionLabel",
        "ratings",
        "responsiveness",
        "sectors",
        "verification",
      ].sort(),
    );
  });

  it.each([
    ["q=lyon", ["Lyonnaise"]],
    ["q=ANNE lyonnaise", ["Lyonnaise"]],
    ["q=etude", ["Notariale"]],
    ["q=notaire", ["Notariale"]],
    ["q=commerce", ["Lyonnaise", "Parisien"]],
    ["q=acteur", []],
    ["q=invisible", []],
    ["departement=75", ["Notariale", "Parisien"]],
    ["secteur=G", ["Lyonnaise", "Parisien"]],
    ["profession=notaire", ["Notariale"]],
    ["departement=75&secteur=G", ["Parisien"]],
    ["departement=69", ["Lyonnaise"]],
    ["departement=all&secteur=all&profession=all", ["Notariale", "Lyonnaise", "Parisien"]],
    ["q=zzzz", []],
  ])("%s → %j", async (query, expected) => {
    const page = await searchInternalDirectory(actor, q(query));
    expect(names(page.rows)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it("runs one SQL query for the page, its total and the counts (no N+1)", async () => {
    const spy = vi.spyOn(t.db!, "execute");
    const page = await searchInternalDirectory(actor, q(""));
    expect(page.rows.length).toBe(3);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it("pages the results", async () => {
    const db = t.db!;
    const extra = INTERNAL_DIRECTORY_PAGE_SIZE + 2;
    for (let i = 0; i < extra; i++) {
      await createMember(db, {
        profile: { lastName: `Mayotte${String(i).padStart(2, "0")}`, membershipType: "freemium", locationDepartment: "976", createdAt: new Date(Date.UTC(2025, 0, 1 + i)), profileStatus: "validated" },
      });
    }
    const first = await searchInternalDirectory(actor, q("departement=976"));
    const second = await searchInternalDirectory(actor, q("departement=976&page=2"));
    expect(first).toMatchObject({ total: extra, page: 1, pageCount: 2 });
    expect(first.rows).toHaveLength(INTERNAL_DIRECTORY_PAGE_SIZE);
    expect(names(second.rows)).toEqual(["Mayotte01", "Mayotte00"]);
    expect(second.page).toBe(2);
    // A page number past the end shows the last page.
    const past = await searchInternalDirectory(actor, q("departement=976&page=9"));
    expect(past.page).toBe(2);
    expect(names(past.rows)).toEqual(["Mayotte01", "Mayotte00"]);
  });
});

describe("internal directory with the instance's count cache (decision 023)", () => {
  const counts = useInstanceCache("profile-totals");

  // The actor (department 69, sector C) matches some of these searches and not others: the
  // cached total counts everyone who matches and each reader subtracts their own match. (Scoped
  // by department: the paging test above added members elsewhere.)
  it.each([
    ["departement=69", 1],
    ["departement=69&secteur=C", 1],
    ["departement=69&q=acteur", 0],
    ["departement=69&q=lyon", 1],
    ["departement=75", 2],
    ["departement=75&q=commerce", 1],
    ["departement=75&profession=notaire", 1],
  ])("%s: the same total counted and then read from the cache", async (query, expected) => {
    const counted = await searchInternalDirectory(actor, q(query));
    expect(counted.total).toBe(expected);
    expect(counts().hits).toBe(0);
    const cached = await searchInternalDirectory(actor, q(query));
    expect(cached.total).toBe(expected);
    // The page seen (its members and total) when it had any, else the total.
    expect(counts().hits).toBe(1);
    expect(cached).toEqual(counted);
  });

  it("serves another reader the same key with their own match subtracted", async () => {
    expect((await searchInternalDirectory(actor, q("departement=69"))).total).toBe(1);
    const lyon = { profile: { id: ids.lyon! } };
    const seenByLyon = await searchInternalDirectory(lyon, q("departement=69"));
    expect(counts().hits).toBe(1);
    expect(seenByLyon.total).toBe(1);
    expect(names(seenByLyon.rows)).toEqual(["Acteur"]);
    const paris = { profile: { id: ids.paris! } };
    expect((await searchInternalDirectory(paris, q("departement=69"))).total).toBe(2);
  });

  it("counts again once a profile is written (at once on this instance) or the cache invalidated, and not while the listener is down", async () => {
    expect((await searchInternalDirectory(actor, q("departement=2A"))).total).toBe(0);
    expect(counts().size).toBe(1);
    // A write to profiles through this instance's database drops its totals before it runs.
    await createMember(t.db!, { profile: { lastName: "Corse", locationDepartment: "2A", profileStatus: "validated" } });
    expect(counts().size).toBe(0);
    expect((await searchInternalDirectory(actor, q("departement=2A"))).total).toBe(1);
    // Another instance's write reaches this one as a notification: the listener invalidates.
    expect((await searchInternalDirectory(actor, q("departement=2A"))).total).toBe(1);
    expect(counts().hits).toBe(1);
    counts().clear();
    expect(counts().size).toBe(0);
    caches().setListening(false);
    await createMember(t.db!, { profile: { lastName: "Corsaire", locationDepartment: "2A", profileStatus: "validated" } });
    expect((await searchInternalDirectory(actor, q("departement=2A"))).total).toBe(2);
    expect(counts().size).toBe(0);
  });

  it("still runs one SQL statement, on a miss and on a hit", async () => {
    const spy = vi.spyOn(t.db!, "execute");
    await searchInternalDirectory(actor, q("departement=75"));
    await searchInternalDirectory(actor, q("departement=75"));
    expect(spy).toHaveBeenCalledTimes(2);
    expect(counts().hits).toBe(1);
  });

  it("reads a page seen before by its members' ids: the same cards, with their mandate counts read again", async () => {
    const first = await searchInternalDirectory(actor, q("departement=75"));
    expect(first.rows.length).toBe(2);
    const spy = vi.spyOn(t.db!, "execute");
    const again = await searchInternalDirectory(actor, q("departement=75"));
    expect(again).toEqual(first);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(spy.mock.calls[0]![0])).toContain("with ordinality");
    // The mandate counts are not kept: a new mandate shows at once.
    const paris = first.rows.find((r) => r.id === ids.paris)!;
    await createMandate(t.db!, ids.paris!, { mandateType: "buyer", status: "active", startDate: isoDate(daysFromNow(-1)), endDate: isoDate(daysFromNow(60)) });
    const withMandate = await searchInternalDirectory(actor, q("departement=75"));
    expect(withMandate.rows.find((r) => r.id === ids.paris)!.activeBuyerMandates).toBe(paris.activeBuyerMandates + 1);
    expect(counts().hits).toBe(2);
  });

  it("sends a kept page back to the full statement when one of its members no longer matches", async () => {
    const fresh = await searchInternalDirectory(actor, q("departement=75"));
    // As if a member had been suspended on another instance, its notification not yet arrived:
    // the kept page names a profile the search no longer finds.
    const key = `directory-page:${actor.profile.id}:1:${directoryCountKey(q("departement=75"))}`;
    plant(counts(), key, { total: 3, ids: [...fresh.rows.map((r) => r.id), ids.lyon!] });
    const spy = vi.spyOn(t.db!, "execute");
    const page = await searchInternalDirectory(actor, q("departement=75"));
    expect(spy).toHaveBeenCalledTimes(2);
    expect(page).toEqual(fresh);
  });
});
