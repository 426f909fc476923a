import { describe, expect, it } from "vitest";
import { groupVersions, lineageOf, versionEntryName, versionRefusal } from "./document-versions-rules";

describe("groupVersions", () => {
  it("puts every version of one document under its latest, newest first, in the rows' order", () => {
    const rows = [
      { id: "c", lineageId: null, version: 1 },
      { id: "a3", lineageId: "a", version: 3 },
      { id: "a", lineageId: null, version: 1 },
      { id: "a2", lineageId: "a", version: 2 },
      { id: "b", lineageId: null, version: 1 },
    ];
    const groups = groupVersions(rows);
    expect(groups.map((g) => g.latest.id)).toEqual(["c", "a3", "b"]);
    expect(groups[1]?.earlier.map((r) => r.id)).toEqual(["a2", "a"]);
    expect(groups[0]?.earlier).toEqual([]);
    expect(lineageOf(rows[1]!)).toBe("a");
    expect(lineageOf(rows[0]!)).toBe("c");
  });
});

describe("versionRefusal", () => {
  const ok = { closed: false, visible: true, mayDeposit: true, superseded: false, withdrawn: false };
  it.each([
    [ok, null],
    [{ ...ok, visible: false }, "not-found"],
    [{ ...ok, visible: false, closed: true }, "not-found"],
    [{ ...ok, closed: true }, "closed"],
    [{ ...ok, mayDeposit: false }, "no-right"],
    [{ ...ok, withdrawn: true }, "withdrawn"],
    [{ ...ok, superseded: true }, "not-latest"],
    [{ ...ok, closed: true, mayDeposit: false }, "closed"],
  ] as const)("%o → %s", (input, expected) => {
    expect(versionRefusal(input)).toBe(expected);
  });
});

describe("versionEntryName", () => {
  it("prefixes the version number", () => {
    expect(versionEntryName(2, "bilan.pdf")).toBe("v2-bilan.pdf");
  });
});
