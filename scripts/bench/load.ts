// HTTP load with autocannon, latency percentiles computed from every response time (autocannon's
// own histogram has no p95).
import autocannon from "autocannon";

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
  errors: number;
  timeouts: number;
};

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
      // As a browser asks: the compression middleware gzips, in the SSR and the static case alike.
      headers: { "accept-encoding": "gzip", accept: "text/html", ...options.headers },
      requests: [
        paths.length === 1
          ? { method: "GET", path: paths[0] }
          : { method: "GET", setupRequest: (req) => ({ ...req, path: pick() }) },
      ],
    },
    (error: unknown, result: autocannon.Result) => (error ? settle?.reject(error) : settle?.resolve(result)),
  );
  current = instance;
  instance.on("response", (_client, _status, resBytes, responseTime) => {
    times.push(responseTime);
    bytes += resBytes;
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
  };
}
