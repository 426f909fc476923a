// Untrusted PDFs are opened off the main thread: a small pool of worker threads, each
// with a memory limit, each job with a time limit. A job past its limit terminates its worker,
// which is replaced by the next job; the caller gets an UntrustedPdfError. Used by every upload
// that takes a PDF (file documents, mediation attachments, insurance certificates) and by the
// stamp of every served PDF.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { PDF_WORKER_BUILD_FILE, type PdfJob, type PdfJobReply, type PdfProblem } from "./pdf-protocol";
import type { PdfStamp } from "./pdf-stamp";

export type { PdfProblem } from "./pdf-protocol";
export type { PdfStamp } from "./pdf-stamp";

export type PdfPoolOptions = {
  /** Worker threads at most. */
  size: number;
  /** Decompressed bytes a PDF may hold in all its decodable streams. */
  inflateBudgetBytes: number;
  /** Time limit of one job, from the moment its worker takes it. */
  timeLimitMs: number;
  /** A worker's heap (old generation), in MB. */
  memoryMb: number;
  /** Jobs waiting for a worker at most; beyond, a refusal ("busy"). */
  maxQueued: number;
  /** An idle worker ends after this long (its memory goes back). */
  idleMs: number;
};

export const PDF_POOL_DEFAULTS: PdfPoolOptions = {
  // One core of two stays with the server's event loop.
  size: Math.max(1, Math.min(4, availableParallelism() - 1)),
  inflateBudgetBytes: 64 * 1024 * 1024,
  timeLimitMs: 15_000,
  memoryMb: 256,
  maxQueued: 32,
  idleMs: 60_000,
};

export class UntrustedPdfError extends Error {
  constructor(readonly problem: PdfProblem) {
    super(`untrusted PDF refused: ${problem}`);
    this.name = "UntrustedPdfError";
  }
}

type Pending = {
  job: PdfJob;
  resolve: (reply: PdfJobReply & { ok: true }) => void;
  reject: (error: Error) => void;
};

type Slot = {
  worker: Worker;
  ready: boolean;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
  idleTimer: NodeJS.Timeout | null;
};

/**
 * How a worker thread is started. From the bundle (build/server/index.js, `npm run serve`), the
 * worker is the file the server build emits next to it; from the sources (tsx, Vite's dev
 * server, Vitest), it is pdf-worker.ts, loaded through tsx's hooks registered inside the worker
 * (Node 20 does not apply a parent's loader to a worker's entry file).
 */
function workerEntry(): { code: string | URL; evaluate: boolean } {
  const here = import.meta.url;
  if (!/\.tsx?$/.test(new URL(here).pathname)) {
    // Next to index.js; one level up should the bundler ever move this module into assets/.
    const candidates = [new URL(PDF_WORKER_BUILD_FILE, here), new URL(`../${PDF_WORKER_BUILD_FILE}`, here)];
    const built = candidates.find((url) => existsSync(fileURLToPath(url)));
    if (!built) throw new Error(`PDF worker missing from the server build: ${fileURLToPath(candidates[0]!)}`);
    return { code: built, evaluate: false };
  }
  const tsxApi = pathToFileURL(createRequire(here).resolve("tsx/esm/api")).href.replace(/\.cjs$/, ".mjs");
  const entry = new URL("./pdf-worker.ts", here).href;
  return {
    code: `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    evaluate: true,
  };
}

export class PdfPool {
  readonly options: PdfPoolOptions;
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers started and terminated for a job past its limits, since the pool began. */
  readonly counts = { started: 0, killed: 0 };

  constructor(options: Partial<PdfPoolOptions> = {}) {
    this.options = { ...PDF_POOL_DEFAULTS, ...options };
  }

  /** The page count of an untrusted PDF; refuses a bomb, an encrypted or unreadable PDF. */
  async inspect(bytes: Uint8Array): Promise<{ pages: number }> {
    const reply = await this.submit({
      op: "inspect",
      bytes: copyOf(bytes),
      inflateBudgetBytes: this.options.inflateBudgetBytes,
      id: 0,
    });
    return { pages: reply.pages };
  }

  /** The stamped copy of an untrusted PDF (pdf-stamp.ts). */
  async stamp(bytes: Uint8Array, stamp: PdfStamp): Promise<Uint8Array> {
    const reply = await this.submit({
      op: "stamp",
      bytes: copyOf(bytes),
      inflateBudgetBytes: this.options.inflateBudgetBytes,
      stamp,
      id: 0,
    });
    if (!reply.bytes) throw new UntrustedPdfError("unreadable");
    return reply.bytes;
  }

  /** Workers alive now (tests). */
  get workers(): number {
    return this.slots.size;
  }

  /** Ends every worker; waiting and running jobs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new UntrustedPdfError("busy"));
    await Promise.all([...this.slots].map((slot) => this.end(slot, null)));
  }

  private submit(job: PdfJob): Promise<PdfJobReply & { ok: true }> {
    if (this.closed || this.queue.length >= this.options.maxQueued) return Promise.reject(new UntrustedPdfError("busy"));
    job.id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = [...this.slots].find((s) => s.ready && !s.current);
      if (!slot) {
        if (this.slots.size < this.options.size) this.spawn();
        return;
      }
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(): void {
    const { code, evaluate } = workerEntry();
    const worker = new Worker(code, {
      eval: evaluate,
      // Not the server's own flags (its --import hooks): the worker loads only what it needs.
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.memoryMb,
        maxYoungGenerationSizeMb: 32,
        stackSizeMb: 4,
      },
    });
    const slot: Slot = {
      worker,
      ready: false,
      current: null,
      timer: null,
      idleTimer: null,
    };
    this.slots.add(slot);
    this.counts.started += 1;
    worker.unref();
    worker.on("message", (message: PdfJobReply | { ready: true }) => {
      if ("ready" in message) {
        slot.ready = true;
        this.dispatch();
        if (!slot.current) this.idle(slot);
        return;
      }
      const pending = slot.current;
      if (!pending || pending.job.id !== message.id) return;
      this.release(slot);
      if (message.ok) pending.resolve(message);
      else pending.reject(new UntrustedPdfError(message.problem));
      this.dispatch();
      if (!slot.current) this.idle(slot);
    });
    worker.on("error", (error: Error & { code?: string }) => {
      // A worker that cannot start is the server's fault, not the file's: the error as it is.
      if (!slot.ready) return void this.end(slot, error);
      const problem: PdfProblem = error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory-limit" : "unreadable";
      if (problem === "memory-limit") this.counts.killed += 1;
      void this.end(slot, new UntrustedPdfError(problem), error);
    });
    worker.on("exit", () => {
      void this.end(slot, new UntrustedPdfError("unreadable"));
    });
  }

  private start(slot: Slot, pending: Pending): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.current = pending;
    // A running job keeps the process alive (a script awaiting it); an idle worker does not.
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      this.counts.killed += 1;
      void this.end(slot, new UntrustedPdfError("time-limit"));
    }, this.options.timeLimitMs);
    slot.worker.postMessage(pending.job, [pending.job.bytes]);
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
    slot.worker.unref();
  }

  private idle(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => void this.end(slot, null), this.options.idleMs);
    slot.idleTimer.unref();
  }

  /** Terminates a worker; its job, if any, is refused with `error`; the queue goes on. */
  private async end(slot: Slot, error: Error | null, cause?: Error): Promise<void> {
    if (!this.slots.delete(slot)) return;
    const pending = slot.current;
    this.release(slot);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (pending) pending.reject(cause && error ? Object.assign(error, { cause }) : (error ?? new UntrustedPdfError("busy")));
    // A worker that failed before it was ever ready cannot take the queue: refuse it rather than loop.
    if (!slot.ready) for (const waiting of this.queue.splice(0)) waiting.reject(error ?? new UntrustedPdfError("busy"));
    await slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}

function copyOf(bytes: Uint8Array): ArrayBuffer {
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return copy;
}

let shared: PdfPool | undefined;

/** This process's pool, started on first use. */
export function pdfPool(): PdfPool {
  shared ??= new PdfPool();
  return shared;
}
