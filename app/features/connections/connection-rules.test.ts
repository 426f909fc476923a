import { describe, expect, it } from "vitest";
import { canRespond, canSeeClientIdentity, eventLabel, isConfirmed, pairKey, panelLists, type RequestStatus } from "./connection-rules";

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

describe("panelLists: counters agree with the lists (issue 15 §4)", () => {
  const rel = (sent: RequestStatus | null, received: RequestStatus | null) => ({
    sent: sent ? { status: sent } : null,
    received: received ? { status: received } : null,
    confirmed: isConfirmed(sent, received),
  });
  it.each([
    // sent, received → toAnswer, answered, sent, confirmed
    [null, "pending", [1, 0, 0, 0]],
    [null, "accepted", [0, 1, 0, 0]],
    [null, "rejected", [0, 1, 0, 0]],
    ["pending", null, [0, 0, 1, 0]],
    ["accepted", null, [0, 0, 1, 0]],
    ["pending", "pending", [1, 0, 1, 0]],
    ["accepted", "accepted", [0, 0, 0, 1]],
    ["accepted", "pending", [1, 0, 1, 0]],
  ] as const)("sent %s, received %s", (sent, received, expected) => {
    const lists = panelLists([rel(sent, received)]);
    expect([lists.toAnswer.length, lists.answered.length, lists.sent.length, lists.confirmed.length]).toEqual(expected);
    expect(lists.counters).toEqual({ sent: lists.sent.length, pendingReceived: lists.toAnswer.length, activeConnections: lists.confirmed.length });
  });
});
