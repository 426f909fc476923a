// npx tsx scripts/bench/large-file-ab.ts <database-url> <build dir A> <build dir B> [rounds]
// The large file's rows only, measured on two builds against one seeded database, interleaved
// (A, B, A, B…) so that the shared machine's load weighs on both alike; the baseline is each
// build's own static copy of the member's /dashboard, as in `npm run bench`.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { closeDatabase, db, initDatabase } from "~/db/client.server";
import { seedDemoData } from "../seed-lib";
import { seedLargeFile } from "./large-file";
import { fetchMedian } from "./http";
import { runLoad } from "./load";
import { signInCookie, MEMBER_STATIC_PATH } from "./member";
import { startServer } from "./server";

const [url, dirA, dirB, roundsArg] = process.argv.slice(2);
if (!url || !dirA || !dirB) throw new Error("usage: large-file-ab.ts <database-url> <buildA> <buildB> [rounds]");
const rounds = Number(roundsArg ?? 2);

await initDatabase({ url, poolMax: 4 });
await seedDemoData(db, { members: 400, mandates: 400, log: () => {} });
const large = await seedLargeFile();
if (!large) throw new Error("no open file for the large file");
await db.execute(sql`vacuum analyze`);
await closeDatabase();

const dataDir = "/tmp/deal-ab/data";
mkdirSync(dataDir, { recursive: true });
const servers = [];
for (const dir of [dirA, dirB]) {
  const s = await startServer(
    { NODE_ENV: "production", DATABASE_URL: url, DATA_DIR: dataDir, SMTP_URL: "", RATE_LIMIT_SCALE: "1000", QUERY_STATS: "1", JOBS_START_DELAY_MS: String(7_200_000) },
    { capture: true, cwd: dir },
  );
  servers.push({ dir, s });
}
try {
  const base = `/dashboard/dossiers/${large.fileId}`;
  const pages = [`${base}/documents`, `${base}/diligences`, base];
  const out: Record<string, Record<string, number[]>> = {};
  const rec = (dir: string, key: string, v: number) => (((out[dir] ??= {})[key] ??= []).push(v));
  const cookies = new Map<string, string>();
  for (const { dir, s } of servers) {
    const cookie = await signInCookie(s.baseUrl, large.memberEmail);
    cookies.set(dir, cookie);
    const dash = await fetch(`${s.baseUrl}/dashboard`, { headers: { cookie, accept: "text/html" } });
    const staticFile = path.join(dir, "build/client", MEMBER_STATIC_PATH);
    writeFileSync(staticFile, await dash.text());
  }
  for (let r = 0; r < rounds; r++) {
    for (const { dir, s } of servers) {
      const cookie = cookies.get(dir)!;
      const st = await fetchMedian(`${s.baseUrl}${MEMBER_STATIC_PATH}`, 15);
      await fetchMedian(`${s.baseUrl}${MEMBER_STATIC_PATH}`, 15);
      const stLoad = await runLoad({ baseUrl: s.baseUrl, paths: [MEMBER_STATIC_PATH], label: "static", connections: 10, durationS: 4 });
      rec(dir, "static ms", st.totalMs);
      rec(dir, "static req/s", stLoad.reqPerSec);
      for (const p of pages) {
        const headers = { cookie };
        await fetchMedian(`${s.baseUrl}${p}`, 15, headers);
        const m = await fetchMedian(`${s.baseUrl}${p}`, 15, headers);
        if (m.status !== 200) throw new Error(`${p}: HTTP ${m.status}`);
        const load = await runLoad({ baseUrl: s.baseUrl, paths: [p], label: p, connections: 10, durationS: 4, headers });
        const one = await fetch(`${s.baseUrl}${p}`, { headers: { cookie, accept: "text/html" } });
        const html = await one.text();
        const key = p.replace(large.fileId, "{id}");
        rec(dir, `${key} ms`, m.totalMs);
        rec(dir, `${key} req/s`, load.reqPerSec);
        rec(dir, `${key} ratio`, m.totalMs / st.totalMs);
        rec(dir, `${key} tput ratio`, load.reqPerSec / stLoad.reqPerSec);
        rec(dir, `${key} KB wire`, m.wireBytes / 1024);
        rec(dir, `${key} KB html`, html.length / 1024);
        rec(dir, `${key} queries`, Number(one.headers.get("x-query-count") ?? -1));
        rec(dir, `${key} failed`, load.errors + load.non2xx);
      }
    }
  }
  console.log(JSON.stringify(out, null, 1));
  writeFileSync("/tmp/deal-ab/results.json", JSON.stringify(out, null, 1));
} finally {
  for (const { dir, s } of servers) {
    await s.stop();
    rmSync(path.join(dir, "build/client", MEMBER_STATIC_PATH), { force: true });
  }
}
