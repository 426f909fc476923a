// The render cache (decision 025) on the production server: a signed-in member's page rendered
// from the same data is sent again with the request's own nonce and request id, another member
// never shares it, a change to the data is a new render at once, and a hard reload renders anew.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInCookie } from "../../scripts/bench/member";
import { demoLoginEmail } from "../../scripts/seed-lib";
import { createSystemDatabase, runScript, type SystemDatabase } from "./support/database";
import { expectPersonalisedCopy } from "./support/personalised";
import { startServer, type RunningServer } from "./support/server";

let database: SystemDatabase;
let server: RunningServer;
let premium: string;
let founding: string;

beforeAll(async () => {
  database = await createSystemDatabase();
  runScript(database, ["scripts/seed.ts", "--members", "12", "--seed", "12"]);
  server = await startServer(database.env, { capture: true });
  premium = await signInCookie(server.baseUrl, demoLoginEmail("premium", 12));
  founding = await signInCookie(server.baseUrl, demoLoginEmail("fondateur", 12));
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function view(path: string, cookie: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { cookie, ...headers } });
  return { res, body: await res.text(), cache: res.headers.get("x-render-cache") };
}

describe("a member's page rendered from the same data", () => {
  it.each(["/dashboard", "/mandates", "/dashboard/annuaire", "/dashboard/notifications"])(
    "%s is sent again, with this response's nonce and request id",
    async (path) => {
      const first = await view(path, premium);
      expect(first.res.status).toBe(200);
      const second = await view(path, premium);
      expect(second.res.status).toBe(200);
      expect(second.cache).toBe("HIT");
      expectPersonalisedCopy(first, second);
      // Sent compressed as kept (decision 027): gzip with this response's own tokens…
      const gz = await view(path, premium, { "accept-encoding": "gzip" });
      expect(gz.cache).toBe("HIT");
      expect(gz.res.headers.get("content-encoding")).toBe("gzip");
      expect(gz.res.headers.get("vary")).toMatch(/accept-encoding/i);
      expectPersonalisedCopy(first, gz);
      // …and as text to a client that does not accept gzip.
      const plain = await view(path, premium, { "accept-encoding": "br;q=1, gzip;q=0" });
      expect(plain.cache).toBe("HIT");
      expect(plain.res.headers.get("content-encoding")).not.toBe("gzip");
      expectPersonalisedCopy(first, plain);
    },
  );

  it("is never another member's: the same URL is rendered from their own data", async () => {
    expect((await view("/dashboard", premium)).body).toContain("Thomas Garnier");
    const mine = await view("/dashboard", founding);
    expect(mine.res.status).toBe(200);
    expect(mine.body).toContain("Hélène Marchand");
    expect(mine.body).not.toContain("Thomas Garnier");
    const again = await view("/dashboard", founding);
    expect(again.cache).toBe("HIT");
    expect(again.body).toContain("Hélène Marchand");
  });

  it("is rendered anew on a hard reload (Cache-Control: no-cache)", async () => {
    await view("/mandates", premium);
    const reload = await view("/mandates", premium, { "cache-control": "no-cache" });
    expect(reload.res.status).toBe(200);
    expect(reload.cache).toBeNull();
  });

  it("is not used for pages that are not a 200", async () => {
    const missing = await view("/dashboard/dossiers/00000000-0000-4000-8000-000000000000", premium);
    expect(missing.res.status).toBe(404);
    expect(missing.cache).toBeNull();
  });

  it("shows a change to the data at once, with no invalidation to wait for", async (ctx) => {
    if (database.driver !== "pg") {
      ctx.skip(); // PGlite: one process owns the database; the key's rules are unit tests.
      return;
    }
    await view("/dashboard/messages", premium);
    expect((await view("/dashboard/messages", premium)).cache).toBe("HIT");
    const subject = `Nouveau message ${Date.now()}`;
    const inserted = await asAnotherInstance(
      `insert into messages (recipient_id, subject, content, sender_name, sender_email, message_type)
       select p.id, $1, 'Bonjour', 'Jean Martin', 'jean.martin@exemple.fr', 'public_contact' from profiles p join "user" u on u.id = p.user_id where u.email = $2`,
      [subject, demoLoginEmail("premium", 12)],
    );
    expect(inserted).toBe(1);
    const after = await view("/dashboard/messages", premium);
    expect(after.cache).toBe("MISS");
    expect(after.body).toContain(subject);
  });

  it("shows a notification written by another instance once it is notified, and this instance's own writes at once", async (ctx) => {
    if (database.driver !== "pg") {
      ctx.skip(); // PGlite: one process owns the database.
      return;
    }
    // The bell's state is kept per member (count-cache.server.ts) and dropped by the
    // notifications trigger's NOTIFY, which reaches this instance just after the other's commit.
    await view("/dashboard/notifications", premium);
    expect((await view("/dashboard/notifications", premium)).cache).toBe("HIT");
    const title = `Nouvelle notification ${Date.now()}`;
    const inserted = await asAnotherInstance(`insert into notifications (user_id, kind, title) select u.id, 'message', $1 from "user" u where u.email = $2`, [
      title,
      demoLoginEmail("premium", 12),
    ]);
    expect(inserted).toBe(1);
    let after = await view("/dashboard/notifications", premium);
    for (let i = 0; i < 50 && !after.body.includes(title); i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await view("/dashboard/notifications", premium);
    }
    expect(after.body).toContain(title);
    expect(after.body).not.toContain("Tout est lu");
    // Marked read here: the page the action leads to shows it read, with no NOTIFY to wait for.
    const form = new URLSearchParams({ intent: "read-all" });
    const marked = await fetch(`${server.baseUrl}/dashboard/notifications`, {
      method: "POST",
      headers: { cookie: premium, origin: server.baseUrl, "content-type": "application/x-www-form-urlencoded" },
      body: form,
      redirect: "manual",
    });
    expect(marked.status).toBeLessThan(400);
    expect((await view("/dashboard/notifications", premium)).body).toContain("Tout est lu");
  });
});

/** A statement run by another client of the database, as another instance would. */
async function asAnotherInstance(text: string, values: unknown[]): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text, values)).rowCount ?? 0;
  } finally {
    await client.end();
  }
}
