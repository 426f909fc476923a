import { describe, expect, it } from "vitest";
import {
  NOT_SPECIFIED,
  placesLeftLabel,
  countLabel,
  formatAdminDate,
  formatDate,
  formatDatePattern,
  formatDateTime,
  formatEuros,
  initials,
  messagePreview,
  plural,
  truncate,
} from "~/lib/format";

/** U+202F narrow no-break space (thousands separator) and U+00A0 no-break space (before €). */
const NNBSP = "\u202f";
const NBSP = "\u00a0";

describe("formatDate", () => {
  it.each<[Date | string | null | undefined, string]>([
    ["2024-02-29", "29/02/2024"],
    ["2026-12-31", "31/12/2026"],
    ["2025-01-01", "01/01/2025"],
    ["0999-03-04", "04/03/0999"],
    // Calendar dates are never shifted, even near a midnight.
    ["2024-10-27", "27/10/2024"],
    // Timestamps are shown in Europe/Paris.
    ["2024-03-15T23:30:00Z", "16/03/2024"],
    ["2024-07-14T22:15:00.000Z", "15/07/2024"],
    ["2024-07-14T21:59:59Z", "14/07/2024"],
    ["2026-12-31T23:00:00Z", "01/01/2027"],
    ["2024-07-14 22:15:00+00", "15/07/2024"],
    ["2024-07-15T00:15:00+02:00", "15/07/2024"],
    [new Date(Date.UTC(2024, 1, 29, 12)), "29/02/2024"],
    [new Date(Date.UTC(2024, 1, 29, 23, 30)), "01/03/2024"],
    [new Date(Date.UTC(2026, 11, 31, 0, 0)), "31/12/2026"],
    [null, ""],
    [undefined, ""],
    ["", ""],
    ["pas une date", ""],
    ["2023-02-29", ""],
    ["2024-13-01", ""],
    [new Date(Number.NaN), ""],
  ])("formatDate(%j) = %j", (input, expected) => {
    expect(formatDate(input)).toBe(expected);
  });
});

describe("formatDateTime", () => {
  it.each<[Date | string | null | undefined, string]>([
    ["2024-03-15T23:30:00Z", "16/03/2024 00:30"],
    ["2024-07-14T22:15:00Z", "15/07/2024 00:15"],
    ["2024-01-05T08:05:00Z", "05/01/2024 09:05"],
    ["2024-07-05T08:05:00Z", "05/07/2024 10:05"],
    ["2024-12-31T23:59:00Z", "01/01/2025 00:59"],
    // Daylight-saving transitions in Paris.
    ["2024-03-31T00:59:00Z", "31/03/2024 01:59"],
    ["2024-03-31T01:00:00Z", "31/03/2024 03:00"],
    ["2024-10-27T00:59:00Z", "27/10/2024 02:59"],
    ["2024-10-27T01:00:00Z", "27/10/2024 02:00"],
    [new Date(Date.UTC(2024, 5, 1, 11, 0)), "01/06/2024 13:00"],
    ["2024-02-29", "29/02/2024 00:00"],
    [null, ""],
    ["n’importe quoi", ""],
  ])("formatDateTime(%j) = %j", (input, expected) => {
    expect(formatDateTime(input)).toBe(expected);
  });
});

describe("formatDatePattern", () => {
  it.each<[Date | string, string, string]>([
    ["2024-02-29", "EEEE d MMMM yyyy", "jeudi 29 février 2024"],
    ["2024-07-14T22:15:00Z", "d MMMM yyyy HH:mm", "15 juillet 2024 00:15"],
    ["2026-12-31", "dd/MM/yyyy", "31/12/2026"],
  ])("formatDatePattern(%j, %j) = %j", (input, pattern, expected) => {
    expect(formatDatePattern(input, pattern)).toBe(expected);
  });
});

describe("formatAdminDate", () => {
  it.each<[Date | string | null | undefined, string]>([
    ["2024-02-29", "29/02/2024"],
    ["2024-03-15T23:30:00Z", "16/03/2024"],
    [new Date(Date.UTC(2026, 11, 31, 22, 30)), "31/12/2026"],
    [new Date(Date.UTC(2026, 11, 31, 23, 30)), "01/01/2027"],
    [null, ""],
    ["invalide", ""],
  ])("formatAdminDate(%j) = %j", (input, expected) => {
    expect(formatAdminDate(input)).toBe(expected);
  });
});

describe("formatEuros", () => {
  it.each<[number | bigint | string | null | undefined, string]>([
    [0, `0${NBSP}€`],
    [-0, `0${NBSP}€`],
    [1234, `1${NNBSP}234${NBSP}€`],
    [1234567, `1${NNBSP}234${NNBSP}567${NBSP}€`],
    [250000, `250${NNBSP}000${NBSP}€`],
    [2500, `2${NNBSP}500${NBSP}€`],
    [-1500, `-1${NNBSP}500${NBSP}€`],
    [1234.4, `1${NNBSP}234${NBSP}€`],
    [1234.5, `1${NNBSP}235${NBSP}€`],
    [-0.4, `0${NBSP}€`],
    [1234567n, `1${NNBSP}234${NNBSP}567${NBSP}€`],
    ["750000.00", `750${NNBSP}000${NBSP}€`],
    [null, NOT_SPECIFIED],
    [undefined, NOT_SPECIFIED],
    [Number.NaN, NOT_SPECIFIED],
    [Number.POSITIVE_INFINITY, NOT_SPECIFIED],
    ["", NOT_SPECIFIED],
    ["abc", NOT_SPECIFIED],
  ])("formatEuros(%s) = %j", (input, expected) => {
    expect(formatEuros(input)).toBe(expected);
  });

  it("matches the Intl fr-FR output", () => {
    const intl = new Intl.NumberFormat("fr-FR", {
      style: "currency",
      currency: "EUR",
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    });
    for (const n of [0, 1234, 1234567, 250000, -1500]) expect(formatEuros(n)).toBe(intl.format(n));
  });

  it("uses the French missing-value label", () => {
    expect(NOT_SPECIFIED).toBe("Non spécifié");
  });
});

describe("plural and countLabel", () => {
  it.each<[number, string, string]>([
    [0, "professionnel trouvé", "0 professionnel trouvé"],
    [1, "professionnel trouvé", "1 professionnel trouvé"],
    [2, "professionnels trouvés", "2 professionnels trouvés"],
    [1000, "professionnels trouvés", `1${NNBSP}000 professionnels trouvés`],
  ])("count %i", (count, word, label) => {
    expect(plural(count, "professionnel trouvé", "professionnels trouvés")).toBe(word);
    expect(countLabel(count, "professionnel trouvé", "professionnels trouvés")).toBe(label);
  });

  it.each<[number, string]>([
    [0, "confrère"],
    [1, "confrère"],
    [2, "confrères"],
    [1000, "confrères"],
  ])("default plural form for %i", (count, expected) => {
    expect(plural(count, "confrère")).toBe(expected);
  });
});

describe("truncate", () => {
  const long = "a".repeat(150);
  it.each<[string | null | undefined, number, string]>([
    ["Activités spécialisées, scientifiques et techniques", 25, "Activités spécialisées, s…"],
    ["Construction", 25, "Construction"],
    ["x".repeat(25), 25, "x".repeat(25)],
    ["x".repeat(26), 25, `${"x".repeat(25)}…`],
    [long, 100, `${"a".repeat(100)}…`],
    ["", 10, ""],
    [null, 10, ""],
    [undefined, 10, ""],
    ["😀😀😀", 2, "😀😀…"],
  ])("truncate(%j, %i) = %j", (text, max, expected) => {
    expect(truncate(text, max)).toBe(expected);
  });

  it.each<[string, string]>([
    ["Bonjour", "Bonjour"],
    ["b".repeat(100), "b".repeat(100)],
    ["b".repeat(101), `${"b".repeat(100)}…`],
  ])("messagePreview(%j)", (text, expected) => {
    expect(messagePreview(text)).toBe(expected);
  });
});

describe("initials", () => {
  it.each<[string | null | undefined, string | null | undefined, string]>([
    ["Élodie", "Dupré", "ÉD"],
    ["jean-pierre", "martin", "JM"],
    ["  anne ", " roy", "AR"],
    ["Anne", "", "A"],
    [null, undefined, ""],
  ])("initials(%j, %j) = %j", (first, last, expected) => {
    expect(initials(first, last)).toBe(expected);
  });
});

describe("placesLeftLabel", () => {
  it.each([
    [1, "Plus qu’une place de membre fondateur"],
    [2, "Plus que 2 places de membre fondateur"],
    [249, "Plus que 249 places de membre fondateur"],
    [1000, "Plus que 1\u202f000 places de membre fondateur"],
  ])("%i → %s", (n, text) => expect(placesLeftLabel(n, ["place de membre fondateur", "places de membre fondateur"])).toBe(text));
});
