import { describe, expect, it } from "vitest";
import { winAnsiSubstitutes } from "./text-pdf.server";

describe("characters WinAnsi lacks, written with ones it has", () => {
  it.each([
    ["Échanges → Documents", "Échanges -> Documents"],
    ["a ⇒ b ← c", "a => b <- c"],
    ["≤ 3 M€, ≥ 1 M€", "<= 3 M€, >= 1 M€"],
    ["−5 %", "-5 %"],
    ["« Projet » — l’acte", "« Projet » — l’acte"],
  ])("%s → %s", (input, output) => expect(winAnsiSubstitutes(input)).toBe(output));
});
