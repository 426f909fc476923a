import { describe, expect, it } from "vitest";
import { formatEuros } from "~/lib/format";
import {
  addDaysIso,
  canToggleStatus,
  cardBorderClass,
  effectiveStatus,
  formatEuroRange,
  isIsoDate,
  isMatchable,
  isRangeInverted,
  MANDATE_STATUS_LABELS,
  MANDATE_STATUSES,
  mandateExpiry,
  mandateQuota,
  needsAttention,
  parisToday,
  parseAmount,
  quotaBanner,
  quotaWindowStart,
  territoriesSummary,
  territoryLabel,
  toggledStatus,
  timelineLabel,
  opportunityBanner,
  opportunityQuota,
} from "./mandate-rules";

const TODAY = "2026-03-10";

describe("mandateExpiry: 'Expiré' once the end date is past, 'Expire bientôt' within 30 days", () => {
  it.each([
    // [days from today to the end date, expired, expiring soon]
    [-31, true, false],
    [-1, true, false],
    // The end date is the last day of the mandate: still valid, expiring.
    [0, false, true],
    [1, false, true],
    [29, false, true],
    [30, false, true],
    [31, false, false],
    [90, false, false],
  ])("end date in %i day(s) → expired %s, expiring soon %s", (days, expired, soon) => {
    const e = mandateExpiry(addDaysIso(TODAY, days), TODAY);
    expect(e).toEqual({ daysLeft: days, expired, expiringSoon: soon });
  });

  it("counts calendar days across months, leap days and DST changes", () => {
    expect(mandateExpiry("2028-03-01", "2028-02-28").daysLeft).toBe(2);
    expect(mandateExpiry("2026-03-30", "2026-03-28").daysLeft).toBe(2);
    expect(mandateExpiry("2027-01-01", "2026-12-31").daysLeft).toBe(1);
  });
});

describe("effectiveStatus and the card’s status badge", () => {
  it.each([
    ["active", 10, "active"],
    ["on_hold", 10, "on_hold"],
    ["expired", 10, "expired"],
    ["active", 0, "active"],
    ["active", -1, "expired"],
    ["on_hold", -1, "expired"],
    // Past the search: the state says more than the end date.
    ["negotiating", 10, "negotiating"],
    ["negotiating", -1, "negotiating"],
    ["concluded", -30, "concluded"],
  ] as const)("%s ending in %i day(s) → %s", (status, days, shown) => {
    expect(effectiveStatus(status, addDaysIso(TODAY, days), TODAY)).toBe(shown);
  });
});

describe("needsAttention: active mandates ending within 7 days (dashboard)", () => {
  it.each([
    ["active", -1, false],
    ["active", 0, true],
    ["active", 7, true],
    ["active", 8, false],
    ["on_hold", 3, false],
  ] as const)("%s ending in %i day(s) → %s", (status, days, expected) => {
    expect(needsAttention(status, addDaysIso(TODAY, days), TODAY)).toBe(expected);
  });
});

describe("toggledStatus: one toggle, anything other than active becomes active", () => {
  it.each([
    ["active", "on_hold"],
    ["on_hold", "active"],
    ["expired", "active"],
  ] as const)("%s → %s", (from, to) => expect(toggledStatus(from)).toBe(to));

  it.each([
    ["active", true],
    ["on_hold", true],
    ["expired", true],
    ["negotiating", false],
    ["concluded", false],
  ] as const)("canToggleStatus(%s) → %s", (status, expected) => expect(canToggleStatus(status)).toBe(expected));
});

describe("isMatchable: only active and not ended", () => {
  it.each([
    ["active", 5, true],
    ["active", -1, false],
    ["on_hold", 5, false],
    ["negotiating", 5, false],
    ["concluded", 5, false],
    ["expired", 5, false],
  ] as const)("%s ending in %i day(s) → %s", (status, days, expected) => {
    expect(isMatchable(status, addDaysIso(TODAY, days), TODAY)).toBe(expected);
  });
});

describe("labels and card borders of every status", () => {
  it("has a French label and a border for each", () => {
    expect(MANDATE_STATUS_LABELS).toEqual({
      active: "Actif",
      on_hold: "En veille",
      expired: "Expiré",
      negotiating: "En négociation",
      concluded: "Conclu",
    });
    const borders = MANDATE_STATUSES.map(cardBorderClass);
    expect(new Set(borders).size).toBe(MANDATE_STATUSES.length);
  });
});

describe("freemium quota: 3 mandates per rolling six months (creation only)", () => {
  it.each([
    ["freemium", 0, true],
    ["freemium", 2, true],
    ["freemium", 3, false],
    ["freemium", 7, false],
    ["premium", 3, true],
    ["founding_member", 50, true],
    // Any other value is treated as freemium (spec §3).
    ["standard", 3, false],
    [null, 3, false],
  ] as const)("%s with %i created → may create: %s", (membership, used, canCreate) => {
    const q = mandateQuota(membership, used);
    expect(q.canCreate).toBe(canCreate);
    expect(q.limit).toBe(3);
    expect(q.limited).toBe(membership !== "premium" && membership !== "founding_member");
  });

  it("the window starts six calendar months before now", () => {
    expect(quotaWindowStart(new Date("2026-09-15T10:00:00Z")).toISOString()).toBe("2026-03-15T10:00:00.000Z");
    // End of month: 31 August → 28 February.
    expect(quotaWindowStart(new Date("2026-08-31T12:00:00Z")).toISOString()).toBe("2026-02-28T12:00:00.000Z");
  });

  it("banner text", () => {
    expect(quotaBanner(2)).toBe("Compte freemium : 2/3 mandats utilisés ce semestre");
    expect(quotaBanner(5)).toBe("Compte freemium : 3/3 mandats utilisés ce semestre");
  });
});

describe("parseAmount: whole euros; non-numeric → 0 (spec §5); negatives refused", () => {
  it.each([
    [undefined, null],
    [null, null],
    ["", null],
    ["   ", null],
    ["1500000", 1_500_000],
    ["1 500 000", 1_500_000],
    ["1\u202f500\u202f000 €", 1_500_000],
    ["1500000,4", 1_500_000],
    ["1500000.5", 1_500_001],
    ["0", 0],
    ["abc", 0],
    ["12abc", 0],
    [250000, 250_000],
  ])("%j → %j", (raw, value) => {
    expect(parseAmount(raw)).toEqual({ ok: true, value });
  });

  it.each(["-1", "-250000", "2e12"])("%j is refused with a French message", (raw) => {
    const r = parseAmount(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/montant/);
  });

  it("range inversion only when both bounds are given", () => {
    expect(isRangeInverted(10, 5)).toBe(true);
    expect(isRangeInverted(5, 5)).toBe(false);
    expect(isRangeInverted(null, 5)).toBe(false);
    expect(isRangeInverted(10, null)).toBe(false);
  });
});

describe("display helpers", () => {
  it("formats ranges in euros without decimals, 'Non spécifié' when empty", () => {
    expect(formatEuroRange(500_000, 2_000_000)).toBe(`${formatEuros(500_000)} - ${formatEuros(2_000_000)}`);
    expect(formatEuroRange(500_000, null)).toBe(`À partir de ${formatEuros(500_000)}`);
    expect(formatEuroRange(null, 10)).toBe(`Jusqu’à ${formatEuros(10)}`);
    expect(formatEuroRange(null, null)).toBe("Non spécifié");
  });

  it("summarises buyer territories", () => {
    expect(territoriesSummary(["france"])).toBe("France entière");
    expect(territoriesSummary(["75", "france_entiere"])).toBe("France entière");
    expect(territoriesSummary(["75"])).toBe("1 département");
    expect(territoriesSummary(["75", "92", "69"])).toBe("3 départements");
    expect(territoriesSummary(null)).toBe("Non spécifié");
    expect(territoryLabel("france")).toBe("France entière");
    expect(territoryLabel("75")).toBe("75 - Paris");
  });

  it("labels timelines", () => {
    expect(timelineLabel("6_months")).toBe("6 mois");
    expect(timelineLabel(null)).toBe("Non spécifié");
  });

  it("validates calendar dates and computes today in Paris", () => {
    expect(isIsoDate("2026-02-28")).toBe(true);
    expect(isIsoDate("2026-02-30")).toBe(false);
    expect(isIsoDate("28/02/2026")).toBe(false);
    // 23:30 UTC on 31 December is already 1 January in Paris.
    expect(parisToday(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01");
    expect(parisToday(new Date("2026-07-01T21:59:00Z"))).toBe("2026-07-01");
  });
});

describe("opportunity quota (issue 12, finding 4: '3 opportunités par semestre')", () => {
  it.each([
    ["freemium", 0, true, true],
    ["freemium", 2, true, true],
    ["freemium", 3, true, false],
    ["freemium", 7, true, false],
    [null, 3, true, false],
    ["premium", 50, false, true],
    ["founding_member", 50, false, true],
  ] as const)("%s at %i: limited %s, can request %s", (tier, used, limited, canRequest) => {
    expect(opportunityQuota(tier, used)).toEqual({ limited, used, limit: 3, canRequest });
  });

  it.each([
    [0, "Compte freemium\u00a0: 0/3 demande de mise en relation utilisée ce semestre"],
    [1, "Compte freemium\u00a0: 1/3 demande de mise en relation utilisée ce semestre"],
    [2, "Compte freemium\u00a0: 2/3 demandes de mise en relation utilisées ce semestre"],
    [5, "Compte freemium\u00a0: 3/3 demandes de mise en relation utilisées ce semestre"],
  ])("banner at %i", (used, text) => expect(opportunityBanner(used)).toBe(text));
});
