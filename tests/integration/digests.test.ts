// The e-mail digests: one per member and period, whatever the number of instances running the
// job; titles and links only (never a client nor a message body); one unsubscribe link per kind;
// nothing for a member who wants those e-mails at once or never.
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { emailDigests, mailOutbox, notifications } from "~/db/schema";
import { sendDigests } from "~/features/account/digests.server";
import { notifyProfile } from "~/features/notifications/notifications.server";
import { createMember, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();

let alice: CreatedMember;
let bob: CreatedMember;

// A Wednesday at 09:00 UTC, and the same day's 07:00 notification.
const NOW = new Date("2026-11-25T09:00:00Z");
const EARLIER = new Date("2026-11-25T07:00:00Z");

beforeEach(async () => {
  const db = t.db!;
  await db.delete(mailOutbox);
  await db.delete(notifications);
  await db.delete(emailDigests);
  await db.execute(sql`delete from email_preferences`);
  if (!alice) {
    seedFactories(3104);
    alice = await createMember(db, { profile: { firstName: "Alice", lastName: "Lemaire", membershipType: "premium" } });
    bob = await createMember(db, { profile: { firstName: "Bruno", lastName: "Martin", membershipType: "premium" } });
  }
});

async function event(m: CreatedMember, kind: "file_message" | "document_shared" | "closing_proposed", body: string | null = null) {
  await notifyProfile(m.profile.id, kind, { title: `Titre ${kind}`, body, link: "/dashboard/dossiers/x" });
  await t.db!.update(notifications).set({ createdAt: EARLIER }).where(eq(notifications.userId, m.user.id));
}

describe("e-mail digests", () => {
  it("two instances in the same period send one digest; the next day's run sends the next one", async () => {
    // Messages leave at once unless the member chose the digest for them.
    await setEmailFrequency(t.db!, [alice], "daily", ["messages"]);
    await event(alice, "document_shared", "Le corps du message, jamais dans l’e-mail");
    await event(alice, "file_message", "Canari Confidentiel SAS");
    const [one, two] = await Promise.all([sendDigests("daily", NOW), sendDigests("daily", NOW)]);
    expect(one + two).toBe(1);
    expect(await sendDigests("daily", new Date(NOW.getTime() + 60 * 60_000))).toBe(0);
    const mails = await t.db!.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: alice.email, kind: "digest-daily" });
    const text = `${mails[0].subject} ${mails[0].text} ${mails[0].html}`;
    expect(text).not.toContain("Canari Confidentiel");
    expect(text).not.toContain("jamais dans l’e-mail");
    expect(mails[0].text).toContain("Titre document_shared");
    expect(mails[0].text).toContain("/dashboard/dossiers/x");
    // One unsubscribe link per kind it carries (the file's e-mails, the messages).
    expect(mails[0].text).toContain("type=files");
    expect(mails[0].text).toContain("type=messages");

    // The next day: only what came after the first digest.
    expect(await sendDigests("daily", new Date(NOW.getTime() + 24 * 60 * 60_000))).toBe(0);
    await notifyProfile(alice.profile.id, "closing_proposed", { title: "Conclusion proposée", body: null, link: "/dashboard/dossiers/x" });
    const tomorrow = new Date(Date.now() + 24 * 60 * 60_000);
    tomorrow.setUTCHours(9, 0, 0, 0);
    expect(await sendDigests("daily", tomorrow)).toBe(1);
    const second = (await t.db!.select().from(mailOutbox)).filter((m) => m.kind === "digest-daily");
    expect(second).toHaveLength(2);
    expect(second.filter((m) => m.text.includes("Conclusion proposée") && !m.text.includes("Titre document_shared"))).toHaveLength(1);
  });

  it("follows each member's frequency: at once or never, no digest; weekly, on the weekly run only", async () => {
    await event(alice, "document_shared");
    await event(bob, "document_shared");
    await setEmailFrequency(t.db!, [alice], "immediate", ["files"]);
    await setEmailFrequency(t.db!, [bob], "weekly", ["files"]);
    expect(await sendDigests("daily", NOW)).toBe(0);
    expect(await sendDigests("weekly", NOW)).toBe(1);
    expect((await t.db!.select().from(mailOutbox)).map((m) => [m.toAddress, m.kind])).toEqual([[bob.email, "digest-weekly"]]);
    await setEmailFrequency(t.db!, [bob], "off", ["files"]);
    await event(bob, "document_shared");
    expect(await sendDigests("weekly", new Date(NOW.getTime() + 7 * 24 * 60 * 60_000))).toBe(0);
  });

  it("waits for the morning of its period", async () => {
    await event(alice, "document_shared");
    expect(await sendDigests("daily", new Date("2026-11-25T05:00:00Z"))).toBe(0);
  });
});
