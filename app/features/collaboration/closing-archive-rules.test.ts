import { describe, expect, it } from "vitest";
import { manifestJson, safeEntryName, uniquePath } from "./closing-archive-rules";

describe("entry names", () => {
  it.each([
    ["bilan 2025.pdf", "bilan 2025.pdf"],
    ["../../etc/passwd", "__.._etc_passwd"],
    ["a/b\\c:d.pdf", "a_b_c_d.pdf"],
    [".hidden", "_hidden"],
    ["   ", "document"],
    ["nul\u0000.pdf", "nul_.pdf"],
    [`${"x".repeat(120)}.pdf`, `${"x".repeat(96)}.pdf`],
  ])("%j → %j", (input, output) => expect(safeEntryName(input)).toBe(output));

  it("a taken path gets (2), (3)… before its extension, case-insensitively", () => {
    const taken = new Set<string>();
    expect(uniquePath("documents", "Bilan.pdf", taken)).toBe("documents/Bilan.pdf");
    expect(uniquePath("documents", "bilan.pdf", taken)).toBe("documents/bilan (2).pdf");
    expect(uniquePath("documents", "Bilan.pdf", taken)).toBe("documents/Bilan (3).pdf");
    expect(uniquePath("documents", "notes", taken)).toBe("documents/notes");
  });
});

describe("the manifest", () => {
  it("lists entries sorted by path with their SHA-256 and size", () => {
    const json = JSON.parse(
      manifestJson({
        reference: "DR-2026-0001",
        builtAt: new Date("2026-11-28T08:00:00Z"),
        entries: [
          { path: "timeline.json", sha256: "b".repeat(64), size: 2, description: "Historique" },
          { path: "documents/a.pdf", sha256: "a".repeat(64), size: 1, description: "Document" },
        ],
      }),
    );
    expect(json.file).toBe("DR-2026-0001");
    expect(json.algorithm).toBe("SHA-256");
    expect(json.entries.map((e: { path: string }) => e.path)).toEqual(["documents/a.pdf", "timeline.json"]);
  });
});
