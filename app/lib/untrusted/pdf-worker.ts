// The PDF worker thread (started by pdf-pool.server.ts, never imported by the app): it inspects
// and stamps untrusted PDFs, the decompressed size bounded first (pdf-bound.ts), so that a PDF
// bomb costs this thread — within its memory and time limits — and never the server's event loop.
import { parentPort } from "node:worker_threads";
import { PDFDocument } from "pdf-lib";
import { boundInflatedSize } from "./pdf-bound";
import { stampPdf } from "./pdf-stamp";
import type { PdfJob, PdfJobReply, PdfProblem } from "./pdf-protocol";

function problemOf(error: unknown): PdfProblem {
  // pdf-lib's EncryptedPDFError is compiled to ES5: `instanceof` does not see it, its message does.
  return error instanceof Error && /is encrypted/i.test(error.message) ? "encrypted" : "unreadable";
}

async function run(job: PdfJob): Promise<PdfJobReply> {
  const bytes = new Uint8Array(job.bytes);
  if (!boundInflatedSize(bytes, job.inflateBudgetBytes).within) return { id: job.id, ok: false, problem: "inflated-too-large" };
  let doc: PDFDocument;
  let pages: number;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false });
    pages = doc.getPageCount();
  } catch (error) {
    return { id: job.id, ok: false, problem: problemOf(error) };
  }
  if (pages < 1) return { id: job.id, ok: false, problem: "no-pages" };
  if (job.op === "inspect") return { id: job.id, ok: true, pages };
  try {
    const stamped = await stampPdf(doc, job.stamp);
    return { id: job.id, ok: true, pages, bytes: stamped };
  } catch (error) {
    return { id: job.id, ok: false, problem: problemOf(error) };
  }
}

const port = parentPort;
if (!port) throw new Error("pdf-worker.ts runs as a worker thread only");
port.on("message", (job: PdfJob) => {
  void run(job)
    .catch((): PdfJobReply => ({
      id: job.id,
      ok: false,
      problem: "unreadable",
    }))
    .then((reply) => {
      const transfer = reply.ok && reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : [];
      port.postMessage(reply, transfer);
    });
});
port.postMessage({ ready: true });
