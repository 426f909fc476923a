// The bench's admin data (scripts/bench/admin.ts, issue 17): administrators made as
// `npm run admin:create` makes them, mediations on every tenth file that no demo persona is in,
// the audit log of a team, and what the bench finds for the admin pages.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/query.server";
import { benchAdminEmail, createBenchAdmins, findAdminData, MEDIATION_EVERY, seedBenchAdminData } from "../../scripts/bench/admin";
import { demoLoginEmail, seedDemoData } from "../../scripts/seed-lib";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();
let added: { mediations: number; auditEntries: number };

beforeAll(async () => {
  await seedDemoData(t.db!, { members: 200, password: "secret-demo-42" });
  await createBenchAdmins(2);
  added = await seedBenchAdminData();
}, 60_000);

const personaEmails = (["fondateur", "premium", "freemium", "candidat"] as const).map((k) => demoLoginEmail(k));

describe("bench admin data", () => {
  it("creates verified administrators with the admin role", async () => {
    const rows = await queryRows<{ email: string; email_verified: boolean; admin: boolean }>(sql`
      select u.email, u.email_verified, exists (select 1 from user_roles r where r.user_id = u.id and r.role = 'admin') as admin
      from "user" u where u.email like 'admin-bench-%' order by u.email`);
    expect(rows).toEqual([
      { email: benchAdminEmail(0), email_verified: true, admin: true },
      { email: benchAdminEmail(1), email_verified: true, admin: true },
    ]);
  });

  it("opens a mediation on every tenth file without a persona, with its opening message", async () => {
    const [files] = await queryRows<{ eligible: number; persona_mediations: number; without_message: number; active: number }>(sql`
      with personas as (select p.id from profiles p join "user" u on u.id = p.user_id where u.email in (${sql.join(personaEmails.map((e) => sql`${e}`), sql`, `)}))
      select
        (select count(*)::int from collaboration_files f where f.member_a_id not in (select id from personas) and f.member_b_id not in (select id from personas)) as eligible,
        (select count(*)::int from mediations m where m.opened_by in (select id from personas) or m.respondent_id in (select id from personas)) as persona_mediations,
        (select count(*)::int from mediations m where not exists (select 1 from mediation_messages x where x.mediation_id = m.id)) as without_message,
        (select count(*)::int from mediations where status in ('open', 'in_progress')) as active`);
    expect(added.mediations).toBe(Math.floor(files!.eligible / MEDIATION_EVERY));
    expect(added.mediations).toBeGreaterThan(0);
    expect(files!.active).toBe(added.mediations);
    expect(files!.persona_mediations).toBe(0);
    expect(files!.without_message).toBe(0);
  });

  it("writes the audit log of a team: one validation per validated member, one opening per mediation", async () => {
    const rows = await queryRows<{ action: string; n: number }>(sql`select action, count(*)::int as n from audit_log group by action order by action`);
    const [validated] = await queryRows<{ n: number }>(sql`select count(*)::int as n from profiles where profile_status = 'validated'`);
    expect(rows).toEqual([
      { action: "mediation.open", n: added.mediations },
      { action: "profile.validate", n: validated!.n },
    ]);
    expect(added.auditEntries).toBe(validated!.n + added.mediations);
  });

  it("finds an applicant, an open mediation and the most common surname for the admin pages", async () => {
    const data = await findAdminData();
    const [applicant] = await queryRows<{ status: string }>(sql`select profile_status::text as status from profiles where id = ${data.applicantId}`);
    expect(applicant!.status).toBe("pending_validation");
    const [mediation] = await queryRows<{ status: string }>(sql`select status::text as status from mediations where id = ${data.mediationId}`);
    expect(["open", "in_progress"]).toContain(mediation!.status);
    expect(data.commonWord.length).toBeGreaterThan(0);
  });
});
