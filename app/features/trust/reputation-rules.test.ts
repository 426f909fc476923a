import { describe, expect, it } from "vitest";
import {
  canRate,
  EMPTY_FIGURES,
  hasHighSuccessRate,
  isConfidential,
  isFairPlayer,
  isTopPerformer,
  medianDelayLabel,
  responsiveness,
  responsivenessShortLabel,
  RESPONSIVENESS_EMPTY,
  mentionsClient,
  ratingMean,
  ratingSummaryLabel,
  ratingWindowEnd,
  reputationBadges,
  successRate,
} from "./reputation-rules";

describe("Fair Player", () => {
  it.each([
    [0, 3, 4, true],
    [0, 3, 4.67, true],
    [0, 3, 3.99, false],
    [0, 2, 5, false],
    [1, 10, 5, false],
    [0, 0, null, false],
  ])("upheld %i, %i ratings, confidentiality %s → %s", (upheldMediations, ratingsCount, confidentialityAverage, expected) => {
    expect(isFairPlayer({ upheldMediations, ratingsCount, confidentialityAverage })).toBe(expected);
  });
});

describe("Top Performer", () => {
  it.each([
    [3, 0, true],
    [3, 0.09, true],
    [3, 0.1, false],
    [2, 0, false],
    [12, 0.5, false],
    [5, null, false],
  ])("%i concluded in 12 months, rank share %s → %s", (concludedLast12Months, concludedRankShare, expected) => {
    expect(isTopPerformer({ concludedLast12Months, concludedRankShare })).toBe(expected);
  });
});

describe("Confidentialité", () => {
  it.each([
    [1, 1, 0, true],
    [4, 4, 0, true],
    [4, 3, 0, false],
    [4, 4, 1, false],
    [0, 0, 0, false],
  ])("%i files, undertaking in %i, %i breaches → %s", (filesTotal, filesWithUndertaking, confidentialityBreaches, expected) => {
    expect(isConfidential({ filesTotal, filesWithUndertaking, confidentialityBreaches })).toBe(expected);
  });
});

describe("Taux de réussite élevé", () => {
  it.each([
    [3, 2, true],
    [5, 0, true],
    [2, 3, false],
    [4, 0, false],
    [10, 10, true],
    [0, 0, false],
  ])("%i concluded, %i abandoned → %s", (filesConcluded, filesAbandoned, expected) => {
    expect(hasHighSuccessRate({ filesConcluded, filesAbandoned })).toBe(expected);
  });

  it("computes the rate over the files that ended", () => {
    expect(successRate({ filesConcluded: 0, filesAbandoned: 0 })).toBeNull();
    expect(successRate({ filesConcluded: 1, filesAbandoned: 3 })).toBe(0.25);
  });
});

describe("reputationBadges", () => {
  it("has none without figures", () => {
    expect(reputationBadges(null)).toEqual([]);
    expect(reputationBadges(EMPTY_FIGURES)).toEqual([]);
  });

  it("lists every badge earned in the specification’s order", () => {
    expect(
      reputationBadges({
        filesTotal: 6,
        filesConcluded: 5,
        filesAbandoned: 1,
        filesWithUndertaking: 6,
        concludedLast12Months: 5,
        concludedRankShare: 0,
        confidentialityAverage: 4.5,
        ratingsCount: 4,
        upheldMediations: 0,
        confidentialityBreaches: 0,
      }),
    ).toEqual(["fair-player", "top-performer", "confidential", "high-success-rate"]);
  });
});

describe("canRate", () => {
  const ended = new Date("2026-03-01T10:00:00Z");
  const base = { stage: "concluded", endedAt: ended, now: new Date("2026-03-05T10:00:00Z"), alreadyRated: false, counterpartPresent: true };
  it.each([
    [{}, { ok: true }],
    [{ stage: "abandoned" }, { ok: true }],
    [{ stage: "offer", endedAt: null }, { ok: false, reason: "not-ended" }],
    [{ stage: "concluded", endedAt: null }, { ok: false, reason: "not-ended" }],
    [{ alreadyRated: true }, { ok: false, reason: "already-rated" }],
    [{ counterpartPresent: false }, { ok: false, reason: "counterpart-gone" }],
    [{ now: new Date("2026-03-15T09:59:59Z") }, { ok: true }],
    [{ now: new Date("2026-03-15T10:00:00Z") }, { ok: false, reason: "window-closed" }],
  ])("%o → %o", (change, expected) => {
    expect(canRate({ ...base, ...change })).toEqual(expected);
  });

  it("closes the window 14 days after the end", () => {
    expect(ratingWindowEnd(ended).toISOString()).toBe("2026-03-15T10:00:00.000Z");
  });
});

describe("ratings display", () => {
  it.each([
    [null, 0, null],
    [4, 0, null],
    [4.25, 1, "4,3/5 (1 évaluation)"],
    [3, 12, "3,0/5 (12 évaluations)"],
  ])("average %s over %i → %s", (avg, n, expected) => {
    expect(ratingSummaryLabel(avg, n)).toBe(expected);
  });

  it("averages the three criteria", () => {
    expect(ratingMean({ responsiveness: 5, professionalism: 4, confidentiality: 3 })).toBe(4);
  });
});

describe("mentionsClient", () => {
  it.each([
    ["Très bon suivi du dossier Dupont Industrie", ["Dupont Industrie"], true],
    ["très bon suivi — DUPONT-INDUSTRIE, merci", ["Dupont Industrie"], true],
    ["Échanges avec la société Sérénité clairs", ["Serenite"], true],
    ["Dupontel a été réactif", ["Dupont"], false],
    ["Très professionnel", ["Dupont Industrie", null], false],
    ["ab est un mot", ["ab"], false],
  ])("%s / %o → %s", (comment, names, expected) => {
    expect(mentionsClient(comment, names)).toBe(expected);
  });
});

describe("Responsiveness (shown from 5 requests or messages received in 90 days)", () => {
  const f = (requestsReceived: number, requestsAnswered: number, messagesReceived: number, messagesAnswered: number, medianResponseHours: number | null = 5) => ({
    requestsReceived,
    requestsAnswered,
    messagesReceived,
    messagesAnswered,
    medianResponseHours,
  });
  it.each([
    ["no row", null, null],
    ["nothing received", f(0, 0, 0, 0, null), null],
    ["4 received: too little", f(2, 2, 2, 2), null],
    ["5 received, all answered", f(3, 3, 2, 2), { received: 5, answeredShare: 1, medianHours: 5 }],
    ["5 messages, 4 answered", f(0, 0, 5, 4), { received: 5, answeredShare: 0.8, medianHours: 5 }],
    ["10 requests, none answered", f(10, 0, 0, 0, null), { received: 10, answeredShare: 0, medianHours: null }],
    ["answered never above received", f(5, 6, 0, 0), { received: 5, answeredShare: 1, medianHours: 5 }],
  ] as const)("%s", (_label, figures, expected) => {
    expect(responsiveness(figures)).toEqual(expected);
  });

  it.each([
    [null, null],
    [-1, null],
    [0, "moins d’une heure"],
    [0.99, "moins d’une heure"],
    [1, "1\u00a0h"],
    [5.4, "5\u00a0h"],
    [47.4, "47\u00a0h"],
    [47.5, "2\u00a0jours"],
    [84, "4\u00a0jours"],
    [150, "6\u00a0jours"],
  ])("median %s h → %s", (hours, expected) => {
    expect(medianDelayLabel(hours)).toBe(expected);
  });

  it("states the window, in the short label and the empty state", () => {
    expect(responsivenessShortLabel({ received: 5, answeredShare: 0.8, medianHours: 5 })).toBe("80\u202f% de réponses sous 7\u00a0jours, sur les 90 derniers jours");
    expect(RESPONSIVENESS_EMPTY).toContain("sur les 90 derniers jours");
    expect(RESPONSIVENESS_EMPTY).toContain("au moins 5");
  });
});
