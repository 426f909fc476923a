import { deflateSync } from "node:zlib";
import { PDFDocument } from "pdf-lib";
import { afterAll, describe, expect, it } from "vitest";
import { boundInflatedSize } from "./pdf-bound";
import { PdfPool, UntrustedPdfError } from "./pdf-pool.server";
import { pdfBomb, textPdf } from "./pdf-test-files";

const MB = 1024 * 1024;
const BUDGET = 16 * MB;

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UntrustedPdfError);
  return (error as UntrustedPdfError).problem;
}

describe("the decompressed size bound (before anything is inflated in full)", () => {
  it("counts a normal PDF's streams and stops a bomb at the first byte past the budget", async () => {
    const normal = boundInflatedSize(await textPdf(["Mémorandum"]), BUDGET);
    expect(normal.within).toBe(true);
    expect(boundInflatedSize(pdfBomb(BUDGET + 1), BUDGET)).toEqual({ within: false });
    // The probe's bomb: an object stream, which pdf-lib inflates in full as it loads a document.
    expect(boundInflatedSize(pdfBomb(BUDGET + 1, { in: "object-stream" }), BUDGET)).toEqual({ within: false });
    expect(boundInflatedSize(pdfBomb(BUDGET - 4096), BUDGET).within).toBe(true);
  });

  it("counts a truncated stream (what it holds) and a chain of filters stage by stage", () => {
    expect(boundInflatedSize(pdfBomb(4 * BUDGET, { truncateTo: 40_000 }), BUDGET)).toEqual({ within: false });
    // A stream deflated twice: the outer stage is small, the inner one is the bomb.
    const twice = deflateSync(deflateSync(Buffer.alloc(2 * BUDGET)));
    const pdf = Buffer.concat([
      Buffer.from(`%PDF-1.7\n4 0 obj\n<< /Length ${twice.length} /Filter [/FlateDecode /FlateDecode] >>\nstream\n`, "latin1"),
      twice,
      Buffer.from("\nendstream\nendobj\n%%EOF\n", "latin1"),
    ]);
    expect(boundInflatedSize(pdf, BUDGET)).toEqual({ within: false });
  });

  it("does not count an image (never decoded here) but counts an object stream marked as one", () => {
    const zeros = deflateSync(Buffer.alloc(2 * BUDGET));
    const stream = (dict: string) =>
      Buffer.concat([
        Buffer.from(`%PDF-1.7\n7 0 obj\n<< ${dict} /Length ${zeros.length} /Filter /FlateDecode >>\nstream\n`, "latin1"),
        zeros,
        Buffer.from("\nendstream\nendobj\n", "latin1"),
      ]);
    expect(boundInflatedSize(stream("/Type /XObject /Subtype /Image /Width 1 /Height 1"), BUDGET).within).toBe(true);
    expect(boundInflatedSize(stream("/Type /ObjStm /Subtype /Image /N 1 /First 0"), BUDGET)).toEqual({ within: false });
  });
});

describe("the PDF worker pool", () => {
  const pool = new PdfPool({ size: 1, inflateBudgetBytes: 32 * MB });
  afterAll(() => pool.close());

  it("inspects and stamps a normal PDF off the main thread", async () => {
    const original = await textPdf(["Mémorandum"], 2);
    expect(await pool.inspect(original)).toEqual({ pages: 2 });
    const stamped = await pool.stamp(original, {
      line: "Consulté par Jeanne Martin le 27/11/2026 à 10:00 — document confidentiel",
      openingId: "0b9f3c9e-5d0e-4a53-9e43-1f2a3b4c5d6e",
    });
    const doc = await PDFDocument.load(stamped);
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getKeywords()).toContain("0b9f3c9e-5d0e-4a53-9e43-1f2a3b4c5d6e");
  });

  it("refuses a bomb (and leaves the worker alive), an encrypted, an unreadable PDF", async () => {
    const bomb = pdfBomb(40 * MB);
    expect(await refusal(pool.inspect(bomb))).toBe("inflated-too-large");
    expect(await refusal(pool.stamp(bomb, { line: "x", openingId: "y" }))).toBe("inflated-too-large");
    expect(await refusal(pool.inspect(Buffer.from("%PDF-1.7\ngarbage")))).toBe("unreadable");
    const encrypted = Buffer.from(
      Buffer.from(await textPdf(["x"], 1, { classicTrailer: true }))
        .toString("latin1")
        .replace("trailer\n<<", "trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>"),
      "latin1",
    );
    expect(await refusal(pool.inspect(encrypted))).toBe("encrypted");
    expect(pool.counts.killed).toBe(0);
    expect(await pool.inspect(await textPdf(["encore"]))).toEqual({ pages: 1 });
  });

  it("terminates a worker whose job runs past its time limit, refuses it, and replaces the worker", async () => {
    // A budget large enough for the bomb: inflating 100 MB takes far longer than 20 ms.
    const slow = new PdfPool({
      size: 1,
      inflateBudgetBytes: 1024 * MB,
      timeLimitMs: 20,
    });
    try {
      const bomb = pdfBomb(100 * MB);
      // Warm the worker first: the limit counts from when the worker takes the job.
      await slow.inspect(await textPdf(["prêt"])).catch(() => undefined);
      const started = slow.counts.started;
      expect(await refusal(slow.inspect(bomb))).toBe("time-limit");
      expect(slow.counts.killed).toBeGreaterThanOrEqual(1);
      expect(slow.workers).toBe(0);
      // The next job gets a new worker (whatever becomes of it within 20 ms).
      await slow.inspect(await textPdf(["suite"])).catch(() => undefined);
      expect(slow.counts.started).toBeGreaterThan(started);
    } finally {
      await slow.close();
    }
  });

  it("terminates a worker that runs out of its memory", async () => {
    // 16 MB of heap cannot hold pdf-lib's objects for a PDF of 20 000 small objects.
    const tight = new PdfPool({
      size: 1,
      inflateBudgetBytes: 1024 * MB,
      memoryMb: 16,
    });
    try {
      const parts = [
        "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>\nendobj\n",
      ];
      for (let i = 10; i < 20_010; i++) parts.push(`${i} 0 obj\n<< /A [${"1 ".repeat(40)}] /B (${"x".repeat(40)}) >>\nendobj\n`);
      parts.push("trailer\n<< /Root 1 0 R >>\n%%EOF\n");
      expect(await refusal(tight.inspect(Buffer.from(parts.join(""), "latin1")))).toBe("memory-limit");
      expect(tight.workers).toBe(0);
    } finally {
      await tight.close();
    }
  });
});
