import { describe, expect, it } from "vitest";
import { type NetworkRecord, type NetworkViewer, showsNetworkEvidence, visibleNetworkEvidence } from "./signer-network";

describe("showsNetworkEvidence (decision 036)", () => {
  it.each<[NetworkRecord, NetworkViewer, boolean]>([
    // A signature: the proof of consent, for both parties of the agreement.
    ["signature", "self", true],
    ["signature", "party", true],
    ["signature", "other", false],
    // Everything else: the member's own only.
    ["session", "self", true],
    ["session", "party", false],
    ["session", "other", false],
    ["sign-in", "self", true],
    ["sign-in", "party", false],
    ["sign-in", "other", false],
    ["document-opening", "self", true],
    ["document-opening", "party", false],
    ["document-opening", "other", false],
  ])("%s seen by %s → %s", (record, viewer, shown) => {
    expect(showsNetworkEvidence(record, viewer)).toBe(shown);
  });

  it("blanks both fields when hidden, passes them unchanged when shown", () => {
    const evidence = { ipAddress: "203.0.113.9", userAgent: "Firefox" };
    expect(visibleNetworkEvidence("signature", "party", evidence)).toEqual(evidence);
    expect(visibleNetworkEvidence("session", "party", evidence)).toEqual({ ipAddress: null, userAgent: null });
  });
});
