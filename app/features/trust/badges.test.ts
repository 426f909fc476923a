import { describe, expect, it } from "vitest";
import { ALL_BADGE_LABELS, BADGE_LABELS, BADGE_MEANINGS, profileBadges } from "./badges";

describe("profileBadges (spec §3 'Badges derived')", () => {
  it.each([
    [{ membershipType: "founding_member", certifiedDealsCount: 0, sectorsCount: 0 }, ["founding-member"]],
    [{ membershipType: "premium", certifiedDealsCount: 0, sectorsCount: 0 }, []],
    [{ membershipType: "freemium", certifiedDealsCount: 0, sectorsCount: 0 }, []],
    [{ membershipType: null, certifiedDealsCount: 0, sectorsCount: 0 }, []],
    [{ membershipType: "standard", certifiedDealsCount: 0, sectorsCount: 0 }, []],
    [{ membershipType: "freemium", certifiedDealsCount: 1, sectorsCount: 0 }, ["deals-certified"]],
    [{ membershipType: "freemium", certifiedDealsCount: 12, sectorsCount: 0 }, ["deals-certified"]],
    [{ membershipType: "freemium", certifiedDealsCount: 0, sectorsCount: 3 }, []],
    [{ membershipType: "freemium", certifiedDealsCount: 0, sectorsCount: 4 }, ["expert"]],
    [{ membershipType: "freemium", certifiedDealsCount: 0, sectorsCount: 21 }, ["expert"]],
    [
      { membershipType: "founding_member", certifiedDealsCount: 2, sectorsCount: 5 },
      ["founding-member", "deals-certified", "expert"],
    ],
  ])("%j → %j", (input, expected) => {
    expect(profileBadges(input)).toEqual(expected);
  });
});

describe("BADGE_LABELS", () => {
  it("names every badge as the spec does", () => {
    expect(BADGE_LABELS).toEqual({
      "founding-member": "Founding Member",
      "deals-certified": "Deals Certifiés",
      expert: "Expert Agréé",
    });
  });
});

describe("BADGE_MEANINGS", () => {
  it("explains every badge, 'Expert Agréé' as the specification’s rule", () => {
    for (const [kind, label] of Object.entries(ALL_BADGE_LABELS)) {
      expect(BADGE_MEANINGS[kind as keyof typeof BADGE_MEANINGS], label).toMatch(/\.$/);
    }
    expect(BADGE_MEANINGS.expert).toContain("Plus de 3 secteurs d’expertise");
    expect(ALL_BADGE_LABELS["fair-player"]).toBe("Fair Player");
    expect(ALL_BADGE_LABELS["high-success-rate"]).toBe("Taux de réussite élevé");
  });
});
