import { describe, expect, it } from "vitest";
import { canRespond, canSeeClientIdentity, eventLabel, isConfirmed, pairKey } from "./connection-rules";

describe("connection rules", () => {
  it.each([
    ["accepted", "accepted", true],
    ["accepted", "pending", false],
    ["pending", "accepted", false],
    ["accepted", "rejected", false],
    ["accepted", null, false],
    [undefined, "accepted", false],
  ] as const)("forward %s, reverse %s → confirmed %s", (forward, reverse, confirmed) => {
    expect(isConfirmed(forward, reverse)).toBe(confirmed);
  });

  it("answers only pending requests", () => {
    expect(canRespond("pending")).toBe(true);
    expect(canRespond("accepted")).toBe(false);
    expect(canRespond("rejected")).toBe(false);
  });

  it("reveals a client identity only when confirmed and undertaken", () => {
    expect(canSeeClientIdentity(true, true)).toBe(true);
    expect(canSeeClientIdentity(true, false)).toBe(false);
    expect(canSeeClientIdentity(false, true)).toBe(false);
  });

  it("keys a pair the same way in both directions", () => {
    expect(pairKey("b", "a")).toBe("a:b");
    expect(pairKey("a", "b")).toBe("a:b");
  });

  it("labels every step of the log in French", () => {
    expect(eventLabel("undertaking_signed")).toBe("Engagement de confidentialité signé");
    expect(eventLabel("revealed")).toBe("Identité du client communiquée");
  });
});
