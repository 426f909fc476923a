// HTTP load with autocannon, latency percentiles computed from every response time (autocannon's
// own histogram has no p95).
import autocannon from "autocannon";
import { BROWSER_ACCEPT_ENCODING } from "./http";

export type LoadResult = {
  path: string;
  connections: number;
  durationS: number;
  requests: number;
  reqPerSec: number;
  bytesPerReq: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  /** Requests without a response: connection errors, resets and timeouts (timeouts included). */
  errors: number;
  timeouts: number;
  /** What the errors were (error code or message → count). */
  errorKinds: Record<string, number>;
  /** Responses by status code. */
  statusCodes: Record<string, number>;
};

/** Requests that failed: no response, or a response outside 2xx (autocannon counts timeouts in errors). */
export function failedRequests(r: Pick<LoadResult, "errors" | "non2xx">): number {
  return r.errors + r.non2xx;
}

/** The load test of the reliability suite: public pages, 50 connections for 60 s, 0 errors expected. */
export const SOAK = { durationS: 60, connections: 50 } as const;

/** The soak's mix: the landing page, the directory and profile pages, a third each. */
export function soakPaths(profilePaths: readonly string[]): string[] {
  const n = Math.max(1, profilePaths.length);
  return [...Array<string>(n).fill("/"), ...Array<string>(n).fill("/annuaire"), ...profilePaths];
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export type LoadOptions = {
  baseUrl: string;
  /** One fixed path, or a list the connections rotate through at random. */
  paths: readonly string[];
  label: string;
  connections: number;
  durationS: number;
  /** Extra request headers (e.g. a cookie that makes the page cache step aside). */
  headers?: Record<string, string>;
};

/** The run in progress, so that Ctrl-C can stop it. */
let current: autocannon.Instance | undefined;

export function stopLoad() {
  current?.stop();
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { paths } = options;
  const pick = () => paths[Math.floor(Math.random() * paths.length)];
  const times: number[] = [];
  let bytes = 0;
  let settle: { resolve: (r: autocannon.Result) => void; reject: (e: unknown) => void } | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const instance = autocannon(
    {
      url: options.baseUrl,
      connections: options.connections,
      duration: options.durationS,
      // As a browser asks: the compression middleware compresses, in the SSR and the static case alike.
      headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING, accept: "text/html", ...options.headers },
      requests: [
        paths.length === 1
          ? { method: "GET", path: paths[0] }
          : { method: "GET", setupRequest: (req) => ({ ...req, path: pick() }) },
      ],
    },
    (error: unknown, result: autocannon.Result) => (error ? settle?.reject(error) : settle?.resolve(result)),
  );
  current = instance;
  const errorKinds: Record<string, number> = {};
  const statusCodes: Record<string, number> = {};
  instance.on("response", (_client, status, resBytes, responseTime) => {
    times.push(responseTime);
    bytes += resBytes;
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
  });
  instance.on("reqError", (error: NodeJS.ErrnoException) => {
    const kind = error.code ?? error.message;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  });
  const result = await done.finally(() => {
    current = undefined;
  });
  times.sort((a, b) => a - b);
  const requests = times.length;
  return {
    path: options.label,
    connections: options.connections,
    durationS: options.durationS,
    requests,
    reqPerSec: requests / options.durationS,
    bytesPerReq: requests ? Math.round(bytes / requests) : 0,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    errorKinds,
    statusCodes,
  };
}
