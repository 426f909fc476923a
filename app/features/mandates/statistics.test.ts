import { describe, expect, it } from "vitest";
import { daysToClose, lastTwelveMonths, median, niceMax } from "./statistics";

describe("lastTwelveMonths", () => {
  it("ends with the current month, oldest first, across a year boundary", () => {
    const months = lastTwelveMonths("2026-03-15");
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ month: "2025-04", shortLabel: "avr", label: "avril 2025" });
    expect(months[8]).toEqual({ month: "2025-12", shortLabel: "déc", label: "décembre 2025" });
    expect(months[11]).toEqual({ month: "2026-03", shortLabel: "mar", label: "mars 2026" });
  });

  it("handles December", () => {
    expect(lastTwelveMonths("2026-12-01").map((m) => m.month)).toEqual([
      "2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06",
      "2026-07", "2026-08", "2026-09", "2026-10", "2026-11", "2026-12",
    ]);
  });
});

describe("niceMax", () => {
  it.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [3, 5],
    [7, 10],
    [11, 20],
    [42, 50],
    [101, 200],
  ])("%i → %i", (value, max) => expect(niceMax(value)).toBe(max));
});

describe("statistics helpers", () => {
  it("days to close and median", () => {
    expect(daysToClose(new Date("2026-01-01T10:00:00Z"), new Date("2026-01-31T09:00:00Z"))).toBe(29);
    expect(daysToClose(new Date("2026-01-02"), new Date("2026-01-01"))).toBe(0);
    expect(median([])).toBeNull();
    expect(median([5])).toBe(5);
    expect(median([9, 1, 5])).toBe(5);
    expect(median([1, 2, 3, 10])).toBe(3);
  });
});
