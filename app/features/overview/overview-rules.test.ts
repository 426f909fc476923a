import { describe, expect, it } from "vitest";
import { taskTotals } from "~/features/notifications/event-rules";
import {
  FIRST_VISIT_WINDOW_MS,
  foundingPlacesLabel,
  formatVisit,
  LONGEST_WINDOW_MS,
  nextSteps,
  nextVisit,
  type OverviewFigures,
  overviewItems,
  parseVisit,
  profileCompleteness,
  VISIT_GAP_MS,
} from "./overview-rules";

const ID = "5b0c9d1e-0000-4000-8000-000000000001";
const OTHER = "5b0c9d1e-0000-4000-8000-000000000002";
const NOW = Date.UTC(2026, 10, 25, 9, 0);
const MIN = 60_000;

describe("parseVisit / formatVisit", () => {
  it.each([
    [null, null],
    ["", null],
    ["garbage", null],
    [`${OTHER}.1.0`, null],
    [`${ID}.abc.0`, null],
    [`${ID}.200.100`, { profileId: ID, lastSeen: 200, since: 100 }],
  ])("%s → %o", (value, expected) => {
    expect(parseVisit(value, ID)).toEqual(expected);
  });

  it("round-trips", () => {
    const v = { profileId: ID, lastSeen: NOW, since: NOW - 5 * MIN };
    expect(parseVisit(formatVisit(v), ID)).toEqual(v);
  });
});

describe("nextVisit", () => {
  it.each([
    ["first visit: the last 7 days", null, NOW - FIRST_VISIT_WINDOW_MS],
    ["a reload within the visit keeps its starting point", { lastSeen: NOW - 5 * MIN, since: NOW - 3 * 24 * 60 * MIN }, NOW - 3 * 24 * 60 * MIN],
    ["just under the gap: same visit", { lastSeen: NOW - VISIT_GAP_MS, since: NOW - 2 * VISIT_GAP_MS }, NOW - 2 * VISIT_GAP_MS],
    ["past the gap: a new visit, from the previous one’s last view", { lastSeen: NOW - VISIT_GAP_MS - 1, since: NOW - 10 * VISIT_GAP_MS }, NOW - VISIT_GAP_MS - 1],
    ["never older than 90 days", { lastSeen: NOW - 200 * 24 * 60 * MIN, since: NOW - 300 * 24 * 60 * MIN }, NOW - LONGEST_WINDOW_MS],
    ["a cookie from the future is ignored", { lastSeen: NOW + MIN, since: NOW }, NOW - FIRST_VISIT_WINDOW_MS],
    ["an inconsistent cookie is ignored", { lastSeen: NOW - MIN, since: NOW }, NOW - FIRST_VISIT_WINDOW_MS],
  ])("%s", (_name, previous, since) => {
    const state = nextVisit(previous ? { profileId: ID, ...previous } : null, ID, NOW);
    expect(state).toEqual({ profileId: ID, lastSeen: NOW, since });
  });

  it.each([
    ["first visit", null, NOW - FIRST_VISIT_WINDOW_MS],
    ["away longer than 90 days", { lastSeen: NOW - 200 * 24 * 60 * MIN, since: NOW - 300 * 24 * 60 * MIN }, NOW - LONGEST_WINDOW_MS],
  ])("%s: the moving window starts on the minute, whatever the second", (_name, previous, since) => {
    for (const offset of [1, 29_999, 59_999]) {
      const state = nextVisit(previous ? { profileId: ID, ...previous } : null, ID, NOW + offset);
      expect(state).toEqual({ profileId: ID, lastSeen: NOW + offset, since });
    }
  });
});

const EMPTY_PROFILE = {
  membershipType: "freemium",
  locationDepartment: null,
  locationCity: null,
  fullAddress: null,
  specializationSectors: [],
  detailedPresentation: null,
  internalPresentation: null,
  photoUrl: null,
  logoUrl: null,
};

describe("profileCompleteness", () => {
  it.each([
    ["freemium, nothing filled", {}, 0, ["Département", "Ville", "Adresse complète", "Secteurs d’activité"]],
    ["freemium, blank city counts as missing", { locationDepartment: "69", locationCity: "  ", fullAddress: "1 rue X", specializationSectors: ["62"] }, 75, ["Ville"]],
    ["freemium, complete (premium fields do not count)", { locationDepartment: "69", locationCity: "Lyon", fullAddress: "1 rue X", specializationSectors: ["62"] }, 100, []],
    [
      "premium, the four common fields only",
      { membershipType: "premium", locationDepartment: "69", locationCity: "Lyon", fullAddress: "1 rue X", specializationSectors: ["62"] },
      50,
      ["Présentation détaillée", "Présentation interne", "Photo de profil", "Logo"],
    ],
    [
      "founding member, all but the logo",
      {
        membershipType: "founding_member",
        locationDepartment: "69",
        locationCity: "Lyon",
        fullAddress: "1 rue X",
        specializationSectors: ["62"],
        detailedPresentation: "…",
        internalPresentation: "…",
        photoUrl: "/uploads/p.webp",
      },
      88,
      ["Logo"],
    ],
  ])("%s", (_name, fields, percent, missing) => {
    expect(profileCompleteness({ ...EMPTY_PROFILE, ...fields })).toEqual({ percent, missing });
  });
});

const NONE: OverviewFigures = {
  newMatches: 0,
  newMatchesAt: null,
  expiringSoon: 0,
  unread: 0,
  unreadAt: null,
  activeMandates: 0,
};

const task = (key: string, link: string, createdAt: string) => ({ key, kind: key.slice(0, key.indexOf(":")), link, createdAt });
const totals = (tasks: Array<ReturnType<typeof task>>) => taskTotals(tasks);

describe("overviewItems", () => {
  it("nothing waiting: no item", () => {
    expect(overviewItems(NONE, [])).toEqual([]);
  });

  it("newest first, undated last, zero counts left out; the to-dos are the open ones, one per subject", () => {
    const items = overviewItems(
      { ...NONE, newMatches: 3, newMatchesAt: "2026-11-24T10:00:00Z", unread: 2, unreadAt: "2026-11-20T08:00:00Z", expiringSoon: 1 },
      totals([
        task("match_request:r1", "/mandates?matching=m1", "2026-11-25T08:00:00.000Z"),
        task("match_request:r1", "/mandates?matching=m1", "2026-11-25T07:00:00.000Z"),
        task("agreement_to_sign:f1", "/dashboard/dossiers/f1", "2026-11-22T08:00:00.000Z"),
      ]),
    );
    expect(items.map((i) => i.key)).toEqual(["match_request", "matches", "agreement_to_sign", "unread", "expiring"]);
    expect(items.map((i) => i.to)).toEqual(["/mandates?matching=m1", "/mandates?onglet=opportunites", "/dashboard/dossiers/f1", "/dashboard/messages", "/mandates?filtre=expires"]);
    expect(items[0]).toMatchObject({ count: 1, label: "demande de mise en relation attend votre réponse" });
  });

  it.each([
    [{ newMatches: 1, newMatchesAt: "2026-11-24T10:00:00Z" }, "1", "nouveau mandat compatible à 60\u00a0% ou plus depuis votre dernière visite"],
    [{ newMatches: 100, newMatchesAt: "2026-11-24T10:00:00Z" }, "99+", "nouveaux mandats compatibles à 60\u00a0% ou plus depuis votre dernière visite"],
    [{ unread: 1, unreadAt: "2026-11-24T10:00:00Z" }, "1", "message non lu"],
    [{ expiringSoon: 3 }, "3", "mandats expirent dans les 30 jours"],
  ])("%o → %s %s", (figures, shown, label) => {
    const [item] = overviewItems({ ...NONE, ...figures });
    expect(item.shown).toBe(shown);
    expect(item.label).toBe(label);
  });

  it.each([
    [["match_request:a", "match_request:b"], "2", "demandes de mise en relation attendent votre réponse"],
    [["connection_confirmed:m1:m2"], "1", "engagement de confidentialité à signer"],
    [["mediation_opened:x"], "1", "médiation attend votre réponse"],
    [["closing_proposed:f1", "closing_proposed:f2"], "2", "conclusions de dossier à confirmer"],
  ])("to-dos %o → %s %s", (keys, shown, label) => {
    const [item] = overviewItems(NONE, totals(keys.map((k) => task(k, "/dashboard", "2026-11-24T10:00:00.000Z"))));
    expect(item.shown).toBe(shown);
    expect(item.label).toBe(label);
  });
});

describe("nextSteps", () => {
  it.each([
    [{ activeMandates: 0, profilePercent: 50, premium: false }, ["/mandates?nouveau=1", "/dashboard/profil", "/dashboard/annuaire", "/premium"]],
    [{ activeMandates: 2, profilePercent: 100, premium: true }, ["/mandates?onglet=opportunites", "/dashboard/annuaire"]],
  ])("%o", (input, links) => {
    expect(nextSteps(input).map((s) => s.to)).toEqual(links);
  });
});

describe("foundingPlacesLabel", () => {
  it.each([
    [1, "Plus qu’une place de membre fondateur"],
    [12, "Plus que 12 places de membre fondateur"],
  ])("%i → %s", (n, label) => {
    expect(foundingPlacesLabel(n)).toBe(label);
  });
});
