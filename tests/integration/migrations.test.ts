import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "~/db/query.server";
import { user, profiles } from "~/db/schema";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();

async function makeUser(id: string) {
  await t.db!.insert(user).values({ id, name: id, email: `${id}@exemple.fr` });
}

describe("schema", () => {
  it("has every table of the product", async () => {
    const rows = await queryRows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const names = rows.map((r) => r.table_name);
    for (const n of [
      "user", "session", "account", "verification", "two_factor", "rate_limit",
      "profiles", "certified_deals", "recommendations", "messages", "user_roles", "mandates",
      "mandate_match_requests", "connection_events", "mail_outbox", "audit_log", "rate_limit_counters",
      "payments", "payment_events", "contact_messages",
    ]) {
      expect(names).toContain(n);
    }
  });

  it("has the unaccent wrapper and trigram extension", async () => {
    const [r] = await queryRows<{ v: string }>(sql`select f_unaccent(lower('Société Générale')) as v`);
    expect(r.v).toBe("societe generale");
    const [s] = await queryRows<{ s: number }>(sql`select similarity('transmission', 'transmision') as s`);
    expect(Number(s.s)).toBeGreaterThan(0.5);
  });

  it("rejects an invalid enum value", async () => {
    await makeUser("u-enum");
    await expect(
      t.db!.execute(sql`insert into profiles (user_id, first_name, last_name, company, profession, college)
        values ('u-enum', 'A', 'B', 'C', 'notaire', 'enterprises')`),
    ).rejects.toThrow();
    await expect(
      t.db!.execute(sql`insert into profiles (user_id, first_name, last_name, company, profession, college, profile_status)
        values ('u-enum', 'A', 'B', 'C', 'notaire', 'transmission_entreprises', 'approved')`),
    ).rejects.toThrow();
  });

  it("rejects a second profile for the same user", async () => {
    await makeUser("u-dup");
    const values = {
      userId: "u-dup", firstName: "Anne", lastName: "Martin", company: "Cabinet Martin",
      profession: "notaire" as const, college: "transmission_entreprises" as const,
    };
    const [p] = await t.db!.insert(profiles).values(values).returning();
    expect(p.profileStatus).toBe("pending_validation");
    expect(p.onboardingStatus).toBe("account_created");
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
    await expect(t.db!.insert(profiles).values(values)).rejects.toThrow();
  });

  it("rejects a mandate whose end is not after its start", async () => {
    await makeUser("u-m");
    const [p] = await t.db!.insert(profiles).values({
      userId: "u-m", firstName: "A", lastName: "B", company: "C", profession: "notaire", college: "transmission_commerces",
    }).returning();
    await expect(
      t.db!.execute(sql`insert into mandates (profile_id, mandate_type, start_date, end_date, client_code, client_name, client_address)
        values (${p.id}, 'buyer', '2026-01-10', '2026-01-10', 'X', 'Y', 'Z')`),
    ).rejects.toThrow();
  });
});
