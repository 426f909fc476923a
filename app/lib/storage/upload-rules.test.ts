import { describe, expect, it } from "vitest";
import { buildZip, minimalDocx, minimalXlsx } from "../../../tests/support/zip";
import { detectDocumentType, detectImageType, DOCUMENT_FORMATS, precheckFile, UPLOAD_MESSAGES, zipEntryNames } from "./upload-rules";

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

  it("refuses other types with the spec’s messages", () => {
    expect(precheckFile({ type: "image/svg+xml", size: 10 }, 5)).toEqual({
      title: "Type de fichier non supporté",
      description: "Veuillez sélectionner une image",
    });
  });

  it("refuses files over the limit, naming the limit", () => {
    expect(precheckFile({ type: "image/png", size: 6 * 1024 * 1024 }, 5)).toEqual({
      title: "Fichier trop volumineux",
      description: "La taille du fichier ne doit pas dépasser 5\u00a0Mo",
    });
    expect(precheckFile({ type: "image/png", size: 3 * 1024 * 1024 }, 2)?.description).toBe(UPLOAD_MESSAGES.tooLargeDescription(2));
    expect(UPLOAD_MESSAGES.tooLargeDescription(2)).toBe("La taille du fichier ne doit pas dépasser 2\u00a0Mo");
  });
});

describe("detectDocumentType", () => {
  const pk = [0x50, 0x4b, 0x03, 0x04];
  it.each([
    ["PDF", ascii("%PDF-1.7\n%âãÏÓ\n"), "pdf"],
    ["PDF header without the dash", ascii("%PDF1.7"), null],
    ["PDF header not at the start", ascii(" %PDF-1.7"), null],
    ["JPEG", bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), "jpeg"],
    ["PNG", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0), "png"],
    ["WebP (an image, not a document type)", new Uint8Array([...ascii("RIFF"), 1, 2, 3, 4, ...ascii("WEBPVP8 ")]), null],
    ["XLSX", minimalXlsx(), "xlsx"],
    ["DOCX", minimalDocx(), "docx"],
    ["DOCX with an archive comment", buildZip({ "[Content_Types].xml": "<Types/>", "word/document.xml": "<d/>" }, "commentaire"), "docx"],
    ["macro-enabled workbook (XLSM)", minimalXlsx({ "xl/vbaProject.bin": "macro" }), null],
    ["macro-enabled Word document (DOCM)", minimalDocx({ "word/vbaProject.bin": "macro" }), null],
    ["presentation (PPTX)", buildZip({ "[Content_Types].xml": "<Types/>", "ppt/presentation.xml": "<p/>" }), null],
    ["binary workbook (XLSB)", buildZip({ "[Content_Types].xml": "<Types/>", "xl/workbook.bin": "b" }), null],
    ["workbook parts without [Content_Types].xml", buildZip({ "xl/workbook.xml": "<w/>" }), null],
    ["both a workbook and a Word document", buildZip({ "[Content_Types].xml": "<T/>", "xl/workbook.xml": "<w/>", "word/document.xml": "<d/>" }), null],
    ["plain ZIP", buildZip({ "notes.txt": "bonjour" }), null],
    ["ZIP signature then garbage", new Uint8Array([...pk, ...ascii("word/document.xml [Content_Types].xml".repeat(3))]), null],
    ["truncated XLSX (central directory cut off)", minimalXlsx().subarray(0, 200), null],
    ["SVG", ascii("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), null],
    ["HTML", ascii("<!doctype html><title>x</title>"), null],
    ["empty", bytes(), null],
  ])("%s → %s", (_name, input, expected) => {
    expect(detectDocumentType(input)).toBe(expected);
  });

  it("reads the entry names from the central directory", () => {
    expect(zipEntryNames(minimalDocx())).toEqual(["[Content_Types].xml", "_rels/.rels", "word/document.xml"]);
    expect(zipEntryNames(ascii("PK not a zip"))).toBeNull();
  });

  it("refuses a central directory that points outside the archive", () => {
    const zip = Buffer.from(minimalXlsx());
    zip.writeUInt32LE(zip.length, zip.length - 6); // directory offset past the end record
    expect(zipEntryNames(zip)).toBeNull();
  });

  it("stores each type under its extension and content type", () => {
    expect(DOCUMENT_FORMATS).toEqual({
      pdf: { extension: "pdf", contentType: "application/pdf" },
      jpeg: { extension: "jpg", contentType: "image/jpeg" },
      png: { extension: "png", contentType: "image/png" },
      xlsx: { extension: "xlsx", contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
      docx: { extension: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
    });
  });
});
