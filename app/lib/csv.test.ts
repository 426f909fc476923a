import { describe, expect, it } from "vitest";
import { csvCell, csvFileName, neutraliseCsvFormula, toCsv } from "./csv";

describe("neutraliseCsvFormula", () => {
  it.each([
    ["=HYPERLINK(\"http://evil\")", "'=HYPERLINK(\"http://evil\")"],
    ["+33 1 23 45 67 89", "'+33 1 23 45 67 89"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "'\r=1+1"],
    ["Jean Dupont", "Jean Dupont"],
    ["jean=dupont@exemple.fr", "jean=dupont@exemple.fr"],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(neutraliseCsvFormula(input)).toBe(expected);
  });
});

describe("csvCell", () => {
  it.each<[Parameters<typeof csvCell>[0], string]>([
    ["simple", "simple"],
    ["Dupont, Martin & Associés", '"Dupont, Martin & Associés"'],
    ['Le "cabinet"', '"Le ""cabinet"""'],
    ["ligne 1\nligne 2", '"ligne 1\nligne 2"'],
    ["ligne 1\r\nligne 2", '"ligne 1\r\nligne 2"'],
    ["=1+1", "'=1+1"],
    ["=SOMME(A1;A2), x", "\"'=SOMME(A1;A2), x\""],
    [" espace", '" espace"'],
    ["Hélène Lefèvre", "Hélène Lefèvre"],
    [42, "42"],
    [-3, "-3"],
    [Number.NaN, ""],
    [null, ""],
    [undefined, ""],
    [true, "oui"],
  ])("%j → %j", (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it("quotes the delimiter in use", () => {
    expect(csvCell("a;b", ";")).toBe('"a;b"');
    expect(csvCell("a,b", ";")).toBe("a,b");
  });
});

describe("toCsv", () => {
  it("writes a BOM, a header line and CRLF-ended rows", () => {
    const csv = toCsv(["Nom", "Email"], [["Dupont, Jean", "jean@exemple.fr"], ["=cmd", null]]);
    expect(csv).toBe('\uFEFFNom,Email\r\n"Dupont, Jean",jean@exemple.fr\r\n\'=cmd,\r\n');
  });

  it("can leave the BOM out", () => {
    expect(toCsv(["a"], [], { bom: false })).toBe("a\r\n");
  });
});

describe("csvFileName", () => {
  it("keeps ASCII only and appends the date", () => {
    expect(csvFileName("recommandations", new Date("2026-03-14T10:00:00Z"))).toBe("recommandations-2026-03-14.csv");
    expect(csvFileName("é\"\r\n/../x", new Date("2026-03-14T10:00:00Z"))).toBe("x-2026-03-14.csv");
  });
});
