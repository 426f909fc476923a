import { describe, expect, it } from "vitest";
import { normalizeSearchText, profileSearchText } from "./search-text";

describe("normalizeSearchText", () => {
  it.each([
    ["Société Générale", "societe generale"],
    ["  Hélène   D'ARÇON  ", "helene d arcon"],
    ["Cœur de Lœss", "coeur de loess"],
    ["L’Étoile\tdu\nNord", "l etoile du nord"],
    ["ÉÈÊËÀÂÎÏÔÛÙÜŸÇ", "eeeeaaiiouuuyc"],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(normalizeSearchText(input)).toBe(expected);
  });
});

describe("profileSearchText", () => {
  it.each([
    {
      name: "name, company, profession label and sector names",
      input: {
        firstName: "Hélène",
        lastName: "Lefèvre",
        company: "Étude Lefèvre & Associés",
        profession: "notaire",
        specializationSectors: ["F", "I"],
      },
      expected: "helene lefevre etude lefevre & associes notaire construction hebergement et restauration",
    },
    {
      name: "no sectors",
      input: { firstName: "Jean", lastName: "Martin", company: "JM Conseil", profession: "expert_comptable", specializationSectors: [] },
      expected: "jean martin jm conseil expert comptable",
    },
    {
      name: "null sectors and extra spaces",
      input: { firstName: " Zoé ", lastName: "Bœuf", company: "  ", profession: "conseil_ma", specializationSectors: null },
      expected: "zoe boeuf conseil en fusions acquisitions",
    },
    {
      name: "unknown codes are kept as they are",
      input: { firstName: "A", lastName: "B", company: "C", profession: "autre", specializationSectors: ["Z9"] },
      expected: "a b c autre z9",
    },
  ])("$name", ({ input, expected }) => {
    expect(profileSearchText(input)).toBe(expected);
  });
});
