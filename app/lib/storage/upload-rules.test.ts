import { describe, expect, it } from "vitest";
import { detectImageType, precheckFile, UPLOAD_MESSAGES } from "./upload-rules";

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => new TextEncoder().encode(text);

describe("detectImageType", () => {
  it.each([
    ["JPEG", bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), "jpeg"],
    ["PNG", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0), "png"],
    ["WebP", new Uint8Array([...ascii("RIFF"), 1, 2, 3, 4, ...ascii("WEBPVP8 ")]), "webp"],
    ["SVG", ascii('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), null],
    ["GIF", ascii("GIF89a......"), null],
    ["RIFF that is not WebP (WAV)", new Uint8Array([...ascii("RIFF"), 1, 2, 3, 4, ...ascii("WAVEfmt ")]), null],
    ["truncated PNG signature", bytes(0x89, 0x50, 0x4e), null],
    ["empty", bytes(), null],
  ])("%s → %s", (_name, input, expected) => {
    expect(detectImageType(input)).toBe(expected);
  });
});

describe("precheckFile", () => {
  it("accepts JPEG, PNG and WebP within the limit", () => {
    for (const type of ["image/jpeg", "image/png", "image/webp"]) expect(precheckFile({ type, size: 1000 }, 2)).toBeNull();
  });

  it("refuses other types with the spec's messages", () => {
    expect(precheckFile({ type: "image/svg+xml", size: 10 }, 5)).toEqual({
      title: "Type de fichier non supporté",
      description: "Veuillez sélectionner une image",
    });
  });

  it("refuses files over the limit, naming the limit", () => {
    expect(precheckFile({ type: "image/png", size: 6 * 1024 * 1024 }, 5)).toEqual({
      title: "Fichier trop volumineux",
      description: "La taille du fichier ne doit pas dépasser 5MB",
    });
    expect(precheckFile({ type: "image/png", size: 3 * 1024 * 1024 }, 2)?.description).toBe(UPLOAD_MESSAGES.tooLargeDescription(2));
    expect(UPLOAD_MESSAGES.tooLargeDescription(2)).toBe("La taille du fichier ne doit pas dépasser 2MB");
  });
});
