import { describe, expect, it } from "vitest";
import { AVATAR_COLOURS, avatarColour } from "./avatar-colour";

describe("avatarColour", () => {
  it("is stable for a key, whatever its case or surrounding spaces", () => {
    expect(avatarColour("Hélène Marchand")).toBe(avatarColour(" hélène marchand "));
  });

  it("always gives one of the palette's classes, also for an empty key", () => {
    for (const key of ["", "a", "Jean Dupont", "5b0c9d1e-0000-4000-8000-000000000000"]) {
      expect(AVATAR_COLOURS).toContain(avatarColour(key));
    }
  });

  it("spreads people over the palette", () => {
    const names = Array.from({ length: 60 }, (_, i) => `Membre ${i}`);
    const used = new Set(names.map(avatarColour));
    expect(used.size).toBeGreaterThanOrEqual(AVATAR_COLOURS.length - 2);
  });
});
