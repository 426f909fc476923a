import { describe, expect, it } from "vitest";
import { hotp, matchingStep, TOTP_STEP_MS } from "./totp-replay.server";

// RFC 4226 appendix D: the ASCII secret "12345678901234567890".
const RFC_SECRET = "12345678901234567890";

describe("hotp (RFC 4226 test vectors)", () => {
  it.each([
    [0, "755224"],
    [1, "287082"],
    [2, "359152"],
    [3, "969429"],
    [9, "520489"],
  ])("counter %i → %s", (counter, code) => expect(hotp(RFC_SECRET, counter)).toBe(code));
});

describe("matchingStep: the step a code belongs to, within ±1 step", () => {
  const now = 100 * TOTP_STEP_MS + 5_000;
  it.each([
    [99, 99],
    [100, 100],
    [101, 101],
    [98, null],
    [102, null],
  ])("code of step %i → %s", (step, expected) => expect(matchingStep(RFC_SECRET, hotp(RFC_SECRET, step), now)).toBe(expected));

  it("refuses what is not six digits", () => {
    expect(matchingStep(RFC_SECRET, "12345", now)).toBeNull();
    expect(matchingStep(RFC_SECRET, "abcdef", now)).toBeNull();
  });
});
