import { describe, expect, it } from "vitest";
import { dealsSummary, presentationExcerpt, sectorChips, STANDARD_SECTOR_LABEL_MAX } from "./card-rules";
import { sectorNames } from "./labels.server";

// sectorChips takes names; the tables give codes, resolved as the loaders resolve them.
const chipsOf = (codes: string[] | null | undefined, maxLabel?: number) => sectorChips(sectorNames(codes), maxLabel);

describe("sectorChips: at most 3 names, then '+N autres' (spec §9)", () => {
  it.each([
    [[], [], null],
    [["C"], ["Industrie manufacturière"], null],
    [["C", "F", "L"], ["Industrie manufacturière", "Construction", "Activités immobilières"], null],
    [["C", "F", "L", "P"], ["Industrie manufacturière", "Construction", "Activités immobilières"], "+1 autre"],
    [["C", "F", "L", "P", "S", "U"], ["Industrie manufacturière", "Construction", "Activités immobilières"], "+3 autres"],
  ])("%j → shown %j, more %j", (codes, shown, more) => {
    const chips = chipsOf(codes);
    expect(chips.shown).toEqual(shown);
    expect(chips.moreLabel).toBe(more);
    expect(chips.hidden).toHaveLength(Math.max(0, codes.length - 3));
  });

  it("names the hidden sectors (for the '+N autres' tooltip)", () => {
    expect(chipsOf(["C", "F", "L", "P", "S"]).hidden).toEqual(["Enseignement", "Autres activités de services"]);
  });

  it("shows the names it is given, without looking codes up", () => {
    expect(sectorChips(["C", "Construction"]).shown).toEqual(["C", "Construction"]);
    expect(sectorChips(["Un secteur au nom plus long que vingt-cinq"], STANDARD_SECTOR_LABEL_MAX).shown).toEqual([
      "Un secteur au nom plus lo…",
    ]);
  });

  it("treats a missing list as empty", () => {
    expect(sectorChips(null)).toEqual({ shown: [], hidden: [], moreLabel: null });
    expect(sectorChips(undefined)).toEqual({ shown: [], hidden: [], moreLabel: null });
  });

  it.each([
    // 25 characters exactly: unchanged.
    ["H", "Transports et entreposage"],
    // 24 characters.
    ["C", "Industrie manufacturière"],
    // 27 characters: cut at 25, then '…'.
    ["I", "Hébergement et restaurati…"],
    ["D", "Production et distributio…"],
    // Unknown code: the code itself, cut like any label.
    ["ZZ", "ZZ"],
    ["CODE-INCONNU-DE-PLUS-DE-25-CAR", "CODE-INCONNU-DE-PLUS-DE-2…"],
  ])("standard card label of %j is %j", (code, label) => {
    expect(STANDARD_SECTOR_LABEL_MAX).toBe(25);
    expect(chipsOf([code], STANDARD_SECTOR_LABEL_MAX).shown).toEqual([label]);
  });

  it("keeps full names on premium cards (no maximum)", () => {
    expect(chipsOf(["I", "D"]).shown).toEqual([
      "Hébergement et restauration",
      "Production et distribution d’électricité, de gaz, de vapeur et d’air conditionné",
    ]);
  });

  it("falls back to the code for an unknown sector", () => {
    expect(chipsOf(["C", "ZZ"]).shown).toEqual(["Industrie manufacturière", "ZZ"]);
  });
});

describe("presentationExcerpt: 'Lire la suite' only beyond 200 characters", () => {
  it.each([
    [199, false],
    [200, false],
    [201, true],
    [1000, true],
  ])("%i characters → truncated %s", (length, truncated) => {
    const text = "a".repeat(length);
    const excerpt = presentationExcerpt(text);
    expect(excerpt.truncated).toBe(truncated);
    expect(excerpt.text).toBe(truncated ? `${"a".repeat(200)}…` : text);
  });

  it.each([
    [null, ""],
    [undefined, ""],
    ["", ""],
    ["   ", ""],
    ["  Cabinet fondé en 1998.  ", "Cabinet fondé en 1998."],
  ])("%j → %j, not truncated", (input, text) => {
    expect(presentationExcerpt(input)).toEqual({ text, truncated: false });
  });

  it("counts characters after trimming", () => {
    expect(presentationExcerpt(`  ${"a".repeat(200)}  `)).toEqual({ text: "a".repeat(200), truncated: false });
  });
});

describe("dealsSummary: at most 3 deals, then '+N autres transactions certifiées'", () => {
  it.each([
    [0, 0, null],
    [1, 1, null],
    [2, 2, null],
    [3, 3, null],
    [4, 3, "+1 autre transaction certifiée"],
    [5, 3, "+2 autres transactions certifiées"],
  ])("%i deals → %i shown, more %j", (count, shown, more) => {
    const deals = Array.from({ length: count }, (_, i) => ({ year: 2020 + i }));
    const summary = dealsSummary(deals);
    expect(summary.shown).toEqual(deals.slice(0, shown));
    expect(summary.moreLabel).toBe(more);
  });

  it("counts from the total when only the first deals were loaded", () => {
    const loaded = [{ year: 2025 }, { year: 2024 }, { year: 2023 }];
    expect(dealsSummary(loaded, 7)).toEqual({ shown: loaded, moreLabel: "+4 autres transactions certifiées" });
    expect(dealsSummary(loaded, 3).moreLabel).toBeNull();
  });
});
