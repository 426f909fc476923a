import { describe, expect, it } from "vitest";
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
  requestsToAnswer: 0,
  requestsAt: null,
  requestsMandateId: null,
  undertakings: 0,
  undertakingsAt: null,
  undertakingsMandateId: null,
  filesAwaiting: 0,
  filesAt: null,
  expiringSoon: 0,
  unread: 0,
  unreadAt: null,
  activeMandates: 0,
};

describe("overviewItems", () => {
  it("nothing waiting: no item", () => {
    expect(overviewItems(NONE)).toEqual([]);
  });

  it("newest first, undated last, zero counts left out", () => {
    const items = overviewItems({
      ...NONE,
      newMatches: 3,
      newMatchesAt: "2026-11-24T10:00:00Z",
      requestsToAnswer: 1,
      requestsAt: "2026-11-25T08:00:00Z",
      requestsMandateId: "m1",
      unread: 2,
      unreadAt: "2026-11-20T08:00:00Z",
      expiringSoon: 1,
    });
    expect(items.map((i) => i.key)).toEqual(["requests", "matches", "unread", "expiring"]);
    expect(items.map((i) => i.to)).toEqual(["/mandates?matching=m1", "/mandates?onglet=opportunites", "/dashboard/messages", "/mandates?filtre=expires"]);
  });

  it.each([
    [{ newMatches: 1, newMatchesAt: "2026-11-24T10:00:00Z" }, "1", "nouveau mandat compatible à 60\u00a0% ou plus depuis votre dernière visite"],
    [{ newMatches: 100, newMatchesAt: "2026-11-24T10:00:00Z" }, "99+", "nouveaux mandats compatibles à 60\u00a0% ou plus depuis votre dernière visite"],
    [{ requestsToAnswer: 2, requestsAt: "2026-11-24T10:00:00Z" }, "2", "demandes de mise en relation attendent votre réponse"],
    [{ requestsToAnswer: 1, requestsAt: "2026-11-24T10:00:00Z" }, "1", "demande de mise en relation attend votre réponse"],
    [{ undertakings: 1, undertakingsAt: "2026-11-24T10:00:00Z" }, "1", "mise en relation confirmée\u00a0: engagement de confidentialité à signer"],
    [{ filesAwaiting: 2, filesAt: "2026-11-24T10:00:00Z" }, "2", "dossiers attendent une action de votre part"],
    [{ unread: 1, unreadAt: "2026-11-24T10:00:00Z" }, "1", "message non lu"],
    [{ expiringSoon: 3 }, "3", "mandats expirent dans les 30 jours"],
  ])("%o → %s %s", (figures, shown, label) => {
    const [item] = overviewItems({ ...NONE, ...figures });
    expect(item.shown).toBe(shown);
    expect(item.label).toBe(label);
  });

  it("a request without its mandate links to the mandates page", () => {
    expect(overviewItems({ ...NONE, requestsToAnswer: 1 })[0].to).toBe("/mandates");
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
