import { isValid, parseISO } from "date-fns";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { formatDate, formatDateTime, parisParts, parisPartsFromIntl, parseIsoDateTime } from "./dates";

// parseIsoDateTime replaces date-fns' parseISO in the browser bundle of the public pages: on the
// forms this app produces (JSON dates, PostgreSQL's text output, datetime-local values) it must
// give the same instant, and refuse what parseISO refuses.
describe("parseIsoDateTime agrees with parseISO", () => {
  const cases = [
    "2024-01-15T10:00:00.000Z",
    "2024-01-15T10:00:00Z",
    "2024-01-15 10:00:00+00",
    "2024-01-15 10:00:00.123456+01",
    "2024-07-01 23:59:59.999-05:30",
    "2024-01-15T10:00:00+0100",
    "2024-01-15T10:00:00",
    "2024-01-15T10:00",
    "2024-02-29T12:00:00Z",
    "2000-02-29T00:00:00Z",
    "0099-06-01T08:00:00Z",
  ];
  it.each(cases)("%s", (text) => {
    const expected = parseISO(text);
    expect(isValid(expected)).toBe(true);
    expect(parseIsoDateTime(text)?.getTime()).toBe(expected.getTime());
  });

  const refused = ["", "hello", "2024-13-01T10:00:00Z", "2023-02-29T10:00:00Z", "2024-04-31T10:00:00Z", "2024-01-15T24:30:00Z", "2024-01-15T10:60:00Z", "2024-01-15T10:00:61Z", "15/01/2024 10:00", "2024-01-15t10:00:00z"];
  it.each(refused)("refuses %j", (text) => {
    expect(parseIsoDateTime(text)).toBeNull();
  });
});

describe("formatters on strings", () => {
  it.each([
    ["2024-01-15T23:30:00Z", "16/01/2024", "16/01/2024 00:30"],
    ["2024-07-15 21:45:00+00", "15/07/2024", "15/07/2024 23:45"],
    ["2024-07-15", "15/07/2024", "15/07/2024 00:00"],
    ["2023-02-30", "", ""],
    ["n'importe quoi", "", ""],
  ])("%s → %s, %s", (input, date, dateTime) => {
    expect(formatDate(input)).toBe(date);
    expect(formatDateTime(input)).toBe(dateTime);
  });
});

// parisParts keeps Paris's offset per UTC hour: it must agree with Intl to the minute,
// on both sides of each change of offset and anywhere else.
describe("parisParts agrees with Intl's Europe/Paris", () => {
  const utc = (text: string) => new Date(text);
  it.each([
    // Summer time starts: 2026-03-29 01:00 UTC (02:00 → 03:00 in Paris).
    ["2026-03-29T00:59:59.999Z", { year: 2026, month: 3, day: 29, hour: 1, minute: 59 }],
    ["2026-03-29T01:00:00.000Z", { year: 2026, month: 3, day: 29, hour: 3, minute: 0 }],
    // Summer time ends: 2026-10-25 01:00 UTC (03:00 → 02:00 in Paris).
    ["2026-10-25T00:59:00.000Z", { year: 2026, month: 10, day: 25, hour: 2, minute: 59 }],
    ["2026-10-25T01:00:00.000Z", { year: 2026, month: 10, day: 25, hour: 2, minute: 0 }],
    // Midnight and the new year in Paris, the day before in UTC.
    ["2026-12-31T23:00:00.000Z", { year: 2027, month: 1, day: 1, hour: 0, minute: 0 }],
    ["2026-06-30T22:30:00.000Z", { year: 2026, month: 7, day: 1, hour: 0, minute: 30 }],
    ["2024-02-28T23:15:00.000Z", { year: 2024, month: 2, day: 29, hour: 0, minute: 15 }],
    // Before 1977 (no cache: Intl each time).
    ["1950-05-01T12:00:00.000Z", parisPartsFromIntl(new Date("1950-05-01T12:00:00.000Z"))],
  ])("%s", (text, expected) => {
    expect(parisParts(utc(text))).toEqual(expected);
    expect(parisParts(utc(text))).toEqual(parisPartsFromIntl(utc(text)));
  });

  it("on any instant from 1970 to 2100", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }), (ms) => {
        expect(parisParts(new Date(ms))).toEqual(parisPartsFromIntl(new Date(ms)));
      }),
      { numRuns: 2000 },
    );
  });

  it("formatDateTime shows Paris time across the change of offset", () => {
    expect(formatDateTime("2026-03-29T00:30:00Z")).toBe("29/03/2026 01:30");
    expect(formatDateTime("2026-03-29T01:30:00Z")).toBe("29/03/2026 03:30");
    expect(formatDate("2026-12-31T23:30:00Z")).toBe("01/01/2027");
  });
});
