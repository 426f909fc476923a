import { describe, expect, it } from "vitest";
import { type DirectoryQuery, directoryQueryString, parseDirectoryQuery } from "./directory.schema";

const parse = (query: string) => parseDirectoryQuery(new URLSearchParams(query));
const EMPTY: DirectoryQuery = { q: "", departement: undefined, secteur: undefined, profession: undefined, page: 1 };

describe("parseDirectoryQuery", () => {
  it("gives no filter, page 1, for an empty query", () => {
    expect(parse("")).toEqual(EMPTY);
  });

  it("keeps known codes", () => {
    expect(parse("departement=2A&secteur=G&profession=notaire")).toEqual({
      ...EMPTY,
      departement: "2A",
      secteur: "G",
      profession: "notaire",
    });
    expect(parse("departement=974").departement).toBe("974");
    expect(parse("departement=01").departement).toBe("01");
  });

  it.each([
    ["departement=99", "departement"],
    ["departement=20", "departement"],
    ["departement=1", "departement"],
    ["departement=75%20", "departement"],
    ["secteur=Z", "secteur"],
    ["secteur=g", "secteur"],
    ["secteur=GG", "secteur"],
    ["profession=pirate", "profession"],
    ["profession=NOTAIRE", "profession"],
    ["departement=", "departement"],
  ] as const)("ignores the unknown code in %s", (query, key) => {
    expect(parse(query)[key]).toBeUndefined();
  });

  it("reads 'all' as no filter", () => {
    expect(parse("departement=all&secteur=all&profession=all")).toEqual(EMPTY);
  });

  it("ignores unknown parameters", () => {
    expect(parse("tri=nom&foo=bar")).toEqual(EMPTY);
  });

  it.each([
    ["", 1],
    ["page=1", 1],
    ["page=2", 2],
    ["page=10000", 10000],
    ["page=10001", 1],
    ["page=0", 1],
    ["page=-3", 1],
    ["page=abc", 1],
    ["page=", 1],
    ["page=3.9", 3],
    ["page=99999999999999999999", 1],
  ])("page of %j is %i", (query, page) => {
    expect(parse(query).page).toBe(page);
  });

  it.each([
    ["q=", ""],
    ["q=%20%20", ""],
    ["q=%20%20Dupr%C3%A9%20%20", "Dupré"],
    ["q=jean%20%20%20pierre", "jean pierre"],
    ["q=jean%09%0Apierre", "jean pierre"],
  ])("q of %j is %j (trimmed, spaces squeezed)", (query, q) => {
    expect(parse(query).q).toBe(q);
  });

  it("cuts q at 100 characters", () => {
    expect(parse(`q=${"a".repeat(150)}`).q).toBe("a".repeat(100));
    expect(parse(`q=${"a".repeat(100)}`).q).toBe("a".repeat(100));
    expect(parse(`q=${"a".repeat(99)}`).q).toBe("a".repeat(99));
  });

  it("squeezes before cutting", () => {
    expect(parse(`q=${encodeURIComponent(`${"a".repeat(50)}      ${"b".repeat(60)}`)}`).q).toBe(
      `${"a".repeat(50)} ${"b".repeat(49)}`,
    );
  });
});

describe("directoryQueryString", () => {
  it("is empty without filters and on page 1", () => {
    expect(directoryQueryString({})).toBe("");
    expect(directoryQueryString(EMPTY)).toBe("");
  });

  it("writes only the filters that are set", () => {
    expect(directoryQueryString({ q: "notaire", page: 1 })).toBe("?q=notaire");
    expect(directoryQueryString({ departement: "75", page: 3 })).toBe("?departement=75&page=3");
  });

  it.each<DirectoryQuery>([
    EMPTY,
    { ...EMPTY, q: "Élodie Dupré & associés" },
    { ...EMPTY, q: "100% conseil", page: 4 },
    { ...EMPTY, departement: "2B", secteur: "I", profession: "conseil_ma" },
    { q: "cession fonds de commerce", departement: "971", secteur: "G", profession: "notaire", page: 2 },
  ])("round-trips %j", (query) => {
    expect(parseDirectoryQuery(new URLSearchParams(directoryQueryString(query)))).toEqual(query);
  });
});
