import { describe, expect, it } from "vitest";
import { bellLabel, clip, isInternalLink, notificationTexts, reconnectDelayMs, retentionCutoff, sseMessage, unreadBadge } from "./notification-rules";

describe("isInternalLink", () => {
  it.each([
    ["/dashboard", true],
    ["/mandates?matching=1f0e", true],
    ["/dashboard/dossiers/abc#messages", true],
    ["//evil.example", false],
    ["/\\evil.example", false],
    ["https://evil.example", false],
    ["javascript:alert(1)", false],
    ["dashboard", false],
    ["/a b", false],
  ])("%s → %s", (link, expected) => expect(isInternalLink(link)).toBe(expected));
});

describe("unread badge and label", () => {
  it.each([
    [0, null, "Notifications, aucune non lue"],
    [1, "1", "Notifications, 1 non lue"],
    [2, "2", "Notifications, 2 non lues"],
    [99, "99", "Notifications, 99 non lues"],
    [100, "99+", "Notifications, 100 non lues"],
  ])("%i", (n, badge, label) => {
    expect(unreadBadge(n)).toBe(badge);
    expect(bellLabel(n)).toBe(label);
  });
});

describe("retention and reconnection", () => {
  it("cuts off 90 days before now", () => {
    expect(retentionCutoff(new Date("2026-04-01T00:00:00Z")).toISOString()).toBe("2026-01-01T00:00:00.000Z");
  });
  it.each([
    [1, 1000],
    [2, 2000],
    [3, 4000],
    [5, 16000],
    [6, 30000],
    [20, 30000],
  ])("failure %i waits %i ms", (n, ms) => expect(reconnectDelayMs(n)).toBe(ms));
});

describe("sseMessage", () => {
  it("frames one event; a payload's line breaks cannot start a new event", () => {
    expect(sseMessage("state", { a: 1 })).toBe('event: state\ndata: {"a":1}\n\n');
    const framed = sseMessage("state", { t: "x\n\nevent: forged" });
    expect(framed.split("\n\n")).toHaveLength(2);
    expect(framed).not.toMatch(/^event: forged/m);
  });
});

describe("texts", () => {
  it("clips on a word boundary with an ellipsis", () => {
    expect(clip("  a   b  ", 10)).toBe("a b");
    expect(clip("abcdefghij", 5)).toBe("abcd…");
  });
  it("says 'aujourd'hui', 1 jour, n jours", () => {
    expect(notificationTexts.mandateExpiring({ clientCode: "C", days: 0, mandateId: "m" }).body).toContain("expire aujourd’hui");
    expect(notificationTexts.mandateExpiring({ clientCode: "C", days: 1, mandateId: "m" }).body).toContain("dans 1 jour\u00a0:");
    expect(notificationTexts.mandateExpiring({ clientCode: "C", days: 7, mandateId: "m" }).body).toContain("dans 7 jours");
  });
});
