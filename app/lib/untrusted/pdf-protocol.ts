// The messages between the PDF pool (main thread) and its workers.
import type { PdfStamp } from "./pdf-stamp";

/** Why an untrusted PDF was refused. */
export type PdfProblem =
  | "inflated-too-large"
  | "encrypted"
  | "unreadable"
  | "no-pages"
  /** The job ran past its time limit: its worker was terminated. */
  | "time-limit"
  /** The worker ran out of its memory: it was terminated. */
  | "memory-limit"
  /** Too many jobs waiting already. */
  | "busy";

type JobBase = { id: number; bytes: ArrayBuffer; inflateBudgetBytes: number };

export type PdfJob = (JobBase & { op: "inspect" }) | (JobBase & { op: "stamp"; stamp: PdfStamp });

export type PdfJobReply = { id: number; ok: true; pages: number; bytes?: Uint8Array } | { id: number; ok: false; problem: PdfProblem };

/** The worker's file in the server build (build/server/), next to index.js: vite.config.ts emits it under this name. */
export const PDF_WORKER_BUILD_FILE = "untrusted-pdf-worker.js";
