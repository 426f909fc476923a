import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeEach, describe, expect, it } from "vitest";
import type { CountCache } from "~/lib/count-cache.server";
import { createKeptCopies, KEPT_COPIES, watermarkedCopy } from "./document-watermark.server";

async function onePagePdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage().drawText(text, { x: 50, y: 700, size: 12, font });
  return pdf.save();
}

/** A stored object whose reads are counted. */
function storedObject(bytes: Uint8Array | null) {
  const reads = { count: 0 };
  return {
    reads,
    stored: async () => {
      reads.count += 1;
      return bytes;
    },
  };
}

const LINE = "Consulté par Jeanne Martin (Cabinet Martin) le 26/11/2026 à 14:05 — document confidentiel";

describe("stamped copies kept for a minute", () => {
  let clock = 1_000_000;
  let copies: CountCache<Uint8Array>;
  beforeEach(() => {
    clock = 1_000_000;
    copies = createKeptCopies(() => clock);
  });
  const keptWatermarks = {
    get size() {
      return { entries: copies.size, bytes: copies.weight };
    },
    limits: KEPT_COPIES,
  };

  it("serves the same stamp again without reading nor stamping the stored PDF", async () => {
    const original = await onePagePdf("Mémorandum");
    const object = storedObject(original);
    const first = await watermarkedCopy("documents/a.pdf", LINE, object.stored, copies);
    expect(first).not.toBeNull();
    expect(first!.byteLength).toBeGreaterThan(original.byteLength);
    const again = await watermarkedCopy("documents/a.pdf", LINE, object.stored, copies);
    expect(again).toBe(first);
    expect(object.reads.count).toBe(1);
    expect(keptWatermarks.size).toEqual({ entries: 1, bytes: first!.byteLength });
  });

  it("stamps again for another line (another viewer, the next minute), another object, or after a minute", async () => {
    const object = storedObject(await onePagePdf("Mémorandum"));
    await watermarkedCopy("documents/a.pdf", LINE, object.stored, copies);
    await watermarkedCopy("documents/a.pdf", LINE.replace("14:05", "14:06"), object.stored, copies);
    await watermarkedCopy("documents/b.pdf", LINE, object.stored, copies);
    expect(object.reads.count).toBe(3);
    clock += keptWatermarks.limits.ttlMs - 1;
    await watermarkedCopy("documents/a.pdf", LINE, object.stored, copies);
    expect(object.reads.count).toBe(3);
    clock += 2;
    await watermarkedCopy("documents/a.pdf", LINE, object.stored, copies);
    expect(object.reads.count).toBe(4);
    expect(keptWatermarks.size.entries).toBe(3);
  });

  it("keeps nothing for a missing object, and at most its number of copies", async () => {
    expect(await watermarkedCopy("documents/gone.pdf", LINE, storedObject(null).stored, copies)).toBeNull();
    expect(keptWatermarks.size.entries).toBe(0);
    const object = storedObject(await onePagePdf("Mémorandum"));
    const max = keptWatermarks.limits.maxEntries;
    for (let i = 0; i <= max; i++) await watermarkedCopy(`documents/${i}.pdf`, LINE, object.stored, copies);
    expect(keptWatermarks.size.entries).toBe(max);
    // The least recently used went first: the first one is stamped again, the last one is kept.
    await watermarkedCopy(`documents/${max}.pdf`, LINE, object.stored, copies);
    expect(object.reads.count).toBe(max + 1);
    await watermarkedCopy("documents/0.pdf", LINE, object.stored, copies);
    expect(object.reads.count).toBe(max + 2);
  });
});
