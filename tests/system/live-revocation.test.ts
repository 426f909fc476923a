// Live notification streams end with their session on every instance (issue 26 §2): two
// production servers on one PostgreSQL. A tab's stream on B whose session is revoked on A
// (« Déconnecter les autres sessions », then a password change) ends within seconds and is
// refused on reconnection, while the streams of the session that acted go on receiving; and a
// fourth stream of one session closes its oldest (decision 035).
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { postgresUrl } from "./support/database";
import { endsWithin, openStream, postForm, signIn, useTwoInstances } from "./support/live-stream";
import { recordReliability } from "./support/report";

const CHECK = "2 instances : flux en direct fermé à la révocation de sa session";
if (!postgresUrl) {
  recordReliability({ check: CHECK, measured: "non mesuré : TEST_DATABASE_URL absent (il faut PostgreSQL : PGlite n'admet qu'un processus)", status: "SKIP" });
}

describe.skipIf(!postgresUrl)("live streams follow their session on two instances (PostgreSQL only: set TEST_DATABASE_URL)", () => {
  const s = useTwoInstances(26);

  const notifyMember = (title: string) =>
    s.handle.db.execute(sql`insert into notifications (user_id, kind, title, link)
      select id, 'message', ${title}, '/dashboard' from "user" where email = ${s.email}`);

  it("a fourth stream of one session on B closes its oldest", async () => {
    const cookie = await signIn(s.b, s.email, s.password);
    const streams = [];
    for (let i = 0; i < 4; i++) {
      const stream = await openStream(s.b, cookie);
      await stream.waitFor(/event: state/);
      streams.push(stream);
    }
    expect(await endsWithin(streams[0]!, 5000)).toBe(true);
    expect(await Promise.all(streams.slice(1).map((s) => endsWithin(s, 300)))).toEqual([false, false, false]);
    await Promise.all(streams.map((s) => s.cancel()));
  });

  it("a session revoked on A: its stream on B ends, the acting session's goes on; a password change on A ends the rest", async () => {
    const phone = await signIn(s.a, s.email, s.password);
    const laptop = await signIn(s.a, s.email, s.password);
    const revokedOnB = await openStream(s.b, phone);
    const actingOnB = await openStream(s.b, laptop);
    await Promise.all([revokedOnB.waitFor(/event: state/), actingOnB.waitFor(/event: state/)]);

    const started = Date.now();
    const revoke = await postForm(s.a, "/parametres?section=sessions", laptop, { intent: "revoke-other-sessions" });
    expect(revoke.status).toBe(302);
    expect(await endsWithin(revokedOnB, 5000), "stream on B of the session revoked on A").toBe(true);
    const revokedMs = Date.now() - started;
    expect((await fetch(`${s.b.baseUrl}/api/notifications/stream`, { headers: { cookie: phone } })).status).toBe(401);

    // The session that acted keeps its stream, which still hears what happens.
    await notifyMember("Message après la révocation");
    await actingOnB.waitFor(/Message après la révocation/);
    expect(revokedOnB.text()).not.toContain("Message après la révocation");

    // A password change on A replaces every session, the acting one's included.
    const changed = await postForm(s.a, "/parametres?section=mot-de-passe", laptop, {
      intent: "change-password",
      currentPassword: s.password,
      newPassword: "nouveau-mot-de-passe-26",
      confirmPassword: "nouveau-mot-de-passe-26",
    });
    expect(changed.status).toBe(302);
    expect(await endsWithin(actingOnB, 5000), "stream on B of the session replaced by a password change on A").toBe(true);
    expect((await fetch(`${s.b.baseUrl}/api/notifications/stream`, { headers: { cookie: laptop } })).status).toBe(401);

    recordReliability({ check: CHECK, measured: `flux de B fermé ${revokedMs} ms après « Déconnecter les autres sessions » sur A ; idem après un changement de mot de passe`, ok: true });
  });
});
