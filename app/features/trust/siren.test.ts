import { describe, expect, it } from "vitest";
import { checkSiren, luhnValid } from "./siren";

describe("checkSiren", () => {
  it.each([
    // [typed, expected kind or problem, stored digits]
    ["732829320", "siren", "732829320"],
    ["732 829 320", "siren", "732829320"],
    ["  732 829 320  ", "siren", "732829320"],
    ["732\u00a0829\u00a0320", "siren", "732829320"],
    ["73282932000074", "siret", "73282932000074"],
    ["732 829 320 00074", "siret", "73282932000074"],
    ["552 100 554", "siren", "552100554"],
    ["356 000 000 00048", "siret", "35600000000048"], // La Poste's head office follows Luhn
    ["356 000 000 09075", "siret", "35600000009075"], // a La Poste office: digits add up to a multiple of 5
    ["", "empty", null],
    ["   ", "empty", null],
    ["732-829-320", "characters", null],
    ["732.829.320", "characters", null],
    ["FR732829320", "characters", null],
    ["73282932", "length", null],
    ["7328293200007", "length", null],
    ["732829321", "key", null],
    ["73282932000075", "key", null],
    ["35600000009076", "key", null],
    ["12345678200015", "key", null], // SIRET key right, SIREN key wrong
  ])("%j → %s", (typed, expected, digits) => {
    const r = checkSiren(typed);
    if (digits) {
      expect(r).toMatchObject({ ok: true, kind: expected, digits });
    } else {
      expect(r).toEqual({ ok: false, problem: expected });
    }
  });

  it("keeps the typed formatting for display", () => {
    expect(checkSiren(" 732 829  320 ")).toMatchObject({ display: "732 829 320" });
  });
});

describe("luhnValid", () => {
  it.each([
    ["0", true],
    ["18", true],
    ["79927398713", true],
    ["79927398710", false],
    ["", false],
    ["12a", false],
  ])("%j → %s", (digits, expected) => {
    expect(luhnValid(digits)).toBe(expected);
  });
});
