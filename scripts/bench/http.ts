// One request as a browser makes it (Chromium's encodings accepted): bytes on the wire, time to
// first byte and to the end of the body.
import http from "node:http";

/** What Chromium sends: the server answers it with brotli, as it answers members' browsers. */
export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

export type Fetched = { status: number; wireBytes: number; encoding: string | undefined; ttfbMs: number; totalMs: number };

export function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(url, { headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING, accept: "text/html", ...headers } }, (res) => {
      const ttfb = performance.now() - t0;
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          wireBytes: bytes,
          encoding: res.headers["content-encoding"],
          ttfbMs: ttfb,
          totalMs: performance.now() - t0,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** Median (by total time) of `runs` requests after one warm-up. */
export async function fetchMedian(url: string, runs: number, headers: Record<string, string> = {}): Promise<Fetched> {
  await fetchRaw(url, headers);
  const all: Fetched[] = [];
  for (let i = 0; i < runs; i++) all.push(await fetchRaw(url, headers));
  all.sort((a, b) => a.totalMs - b.totalMs);
  return all[Math.floor(all.length / 2)];
}
