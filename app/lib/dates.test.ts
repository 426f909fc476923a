import { isValid, parseISO } from "date-fns";
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, parseIsoDateTime } from "./dates";

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
