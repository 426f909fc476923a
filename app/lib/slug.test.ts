import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { profileIdFromSlug, profileSlug, slugify } from "~/lib/slug";

const ID = "3f2a8c1e-9b4d-4e7a-8f01-23456789abcd";

describe("slugify", () => {
  it.each([
    ["Élodie Dupré", "elodie-dupre"],
    ["Jeanne d'Arc", "jeanne-darc"],
    ["Jeanne d’Arc", "jeanne-darc"],
    ["Jean  Pierre", "jean-pierre"],
    ["  Jean \t\n Pierre  ", "jean-pierre"],
    ["MARIE CURIE", "marie-curie"],
    ["Cabinet 2024 Conseil", "cabinet-2024-conseil"],
    ["Jean-Pierre Martin", "jean-pierre-martin"],
    ["Jean - Pierre", "jean-pierre"],
    ["Jean--Pierre", "jean-pierre"],
    ["Œuvre cœur", "oeuvre-coeur"],
    ["Lætitia Straße", "laetitia-strasse"],
    ["François Müller", "francois-muller"],
    ["Dupont & Associés!", "dupont-associes"],
    ["Expert-comptable.", "expert-comptable"],
    ["-Bonjour-", "bonjour"],
    ["Avocat d'affaires / M&A", "avocat-daffaires-ma"],
    ["", ""],
    ["!!!", ""],
    ["Zoë Ñúñez", "zoe-nunez"],
  ])("slugify(%j) = %j", (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});

describe("profileSlug", () => {
  it.each([
    [
      { firstName: "Élodie", lastName: "Dupré", profession: "notaire", id: ID },
      `elodie-dupre-notaire-${ID}`,
    ],
    [
      { firstName: "Jeanne", lastName: "d'Arc", profession: "avocat_affaires", id: ID },
      `jeanne-darc-avocat-daffaires-ma-${ID}`,
    ],
    [
      { firstName: "Jean-Pierre", lastName: "Martin", profession: "expert_comptable", id: ID },
      `jean-pierre-martin-expert-comptable-${ID}`,
    ],
    [
      { firstName: "Anne", lastName: "Roy", profession: "expert_evaluation", id: ID.toUpperCase() },
      `anne-roy-expert-en-evaluation-dentreprise-${ID}`,
    ],
    [{ firstName: "", lastName: "", profession: "", id: ID }, ID],
    [{ firstName: null, lastName: "Roy", profession: null, id: ID }, `roy-${ID}`],
    [{ firstName: "Anne", lastName: "Roy", profession: "inconnue", id: ID }, `anne-roy-inconnue-${ID}`],
  ])("profileSlug(%j) = %j", (input, expected) => {
    expect(profileSlug(input)).toBe(expected);
  });
});

describe("profileIdFromSlug", () => {
  it.each<[string, string | null]>([
    [`elodie-dupre-notaire-${ID}`, ID],
    [`jean-pierre-martin-expert-comptable-${ID}`, ID],
    [ID, ID],
    [`marie-curie-${ID.toUpperCase()}`, ID],
    ["elodie-dupre-notaire", null],
    ["", null],
    ["a-b-c-d", null],
    [`elodie-dupre-${ID.slice(0, -1)}`, null],
    [`elodie-dupre-${ID}x`, null],
    [`elodie-dupre-${ID.replace("9b4d", "9b4g")}`, null],
    [`elodie-dupre-${ID.replaceAll("-", "")}`, null],
    [`${ID}-elodie`, null],
    [`elodie-dupre-${ID}-`, null],
  ])("profileIdFromSlug(%j) = %j", (slug, expected) => {
    expect(profileIdFromSlug(slug)).toBe(expected);
  });

  it("round-trips the id and only produces [a-z0-9-] for any name", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.oneof(fc.string(), fc.constantFrom("notaire", "avocat_affaires", "conseil_ma")),
        fc.uuid(),
        (firstName, lastName, profession, id) => {
          const slug = profileSlug({ firstName, lastName, profession, id });
          expect(profileIdFromSlug(slug)).toBe(id);
          expect(slug).toMatch(/^[a-z0-9-]+$/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps slugs clean for arbitrary unicode names", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.uuid(), (first, last, id) => {
        const slug = profileSlug({ firstName: first, lastName: last, profession: "notaire", id });
        expect(profileIdFromSlug(slug)).toBe(id);
        expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      }),
      { numRuns: 100 },
    );
  });
});
