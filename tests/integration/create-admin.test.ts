import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "~/auth/password.server";
import { account, user, userRoles } from "~/db/schema";
import { CreateAdminError, createOrPromoteAdmin, describeAdminResult } from "~/features/admin/create-admin.server";
import { createMember, getPasswordHash } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();

async function adminRoles(userId: string) {
  const [row] = await t.db!.select({ n: count() }).from(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.role, "admin")));
  return row.n;
}

describe("createOrPromoteAdmin", () => {
  it("creates a verified user with a credential account and the admin role", async () => {
    const r = await createOrPromoteAdmin(t.db!, { email: "  Admin.Principal@Exemple.FR ", password: "s3cret-admin" });
    expect(r).toMatchObject({ email: "admin.principal@exemple.fr", created: true, roleGranted: true, emailVerified: true });
    expect(describeAdminResult(r)).toContain("Administrateur créé");
    const [u] = await t.db!.select().from(user).where(eq(user.id, r.userId));
    expect(u.email).toBe("admin.principal@exemple.fr");
    expect(u.emailVerified).toBe(true);
    const [acc] = await t.db!.select().from(account).where(eq(account.userId, r.userId));
    expect(acc.providerId).toBe("credential");
    expect(acc.accountId).toBe(r.userId);
    expect(acc.password).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword({ hash: acc.password!, password: "s3cret-admin" })).toBe(true);
    expect(await adminRoles(r.userId)).toBe(1);
  });

  it("is idempotent", async () => {
    const a = await createOrPromoteAdmin(t.db!, { email: "idem@exemple.fr", password: "first-pass" });
    const b = await createOrPromoteAdmin(t.db!, { email: "IDEM@exemple.fr" });
    expect(b).toMatchObject({ userId: a.userId, created: false, roleGranted: false, passwordUpdated: false });
    expect(describeAdminResult(b)).toContain("Déjà administrateur");
    const [users] = await t.db!.select({ n: count() }).from(user).where(eq(user.email, "idem@exemple.fr"));
    expect(users.n).toBe(1);
    const [accounts] = await t.db!.select({ n: count() }).from(account).where(eq(account.userId, a.userId));
    expect(accounts.n).toBe(1);
    expect(await adminRoles(a.userId)).toBe(1);
    // Without --password the password is left alone.
    expect(await verifyPassword({ hash: (await getPasswordHash(t.db!, a.userId))!, password: "first-pass" })).toBe(true);
  });

  it("promotes an existing member, verifies the e-mail and changes the password only when given", async () => {
    const member = await createMember(t.db!, { email: "membre@exemple.fr", password: "old-password", emailVerified: false });
    expect(await adminRoles(member.user.id)).toBe(0);

    const promoted = await createOrPromoteAdmin(t.db!, { email: "membre@exemple.fr" });
    expect(promoted).toMatchObject({ userId: member.user.id, created: false, roleGranted: true, passwordUpdated: false });
    expect(await adminRoles(member.user.id)).toBe(1);
    const [u] = await t.db!.select().from(user).where(eq(user.id, member.user.id));
    expect(u.emailVerified).toBe(true);
    expect(await verifyPassword({ hash: (await getPasswordHash(t.db!, member.user.id))!, password: "old-password" })).toBe(true);

    const again = await createOrPromoteAdmin(t.db!, { email: "membre@exemple.fr", password: "new-password" });
    expect(again).toMatchObject({ roleGranted: false, passwordUpdated: true });
    const hash = (await getPasswordHash(t.db!, member.user.id))!;
    expect(await verifyPassword({ hash, password: "new-password" })).toBe(true);
    expect(await verifyPassword({ hash, password: "old-password" })).toBe(false);
    expect(await adminRoles(member.user.id)).toBe(1);
  });

  it("adds a credential account to an existing user that has none", async () => {
    const id = "user-sans-compte";
    await t.db!.insert(user).values({ id, name: "Sans Compte", email: "sans.compte@exemple.fr" });
    const r = await createOrPromoteAdmin(t.db!, { email: "sans.compte@exemple.fr", password: "a-password" });
    expect(r).toMatchObject({ userId: id, created: false, roleGranted: true, passwordUpdated: true });
    const hash = await getPasswordHash(t.db!, id);
    expect(await verifyPassword({ hash: hash!, password: "a-password" })).toBe(true);
  });

  it("rejects bad input without touching the database", async () => {
    await expect(createOrPromoteAdmin(t.db!, { email: "court@exemple.fr", password: "12345" })).rejects.toThrow(CreateAdminError);
    await expect(createOrPromoteAdmin(t.db!, { email: "court@exemple.fr", password: "12345" })).rejects.toThrow(/au moins 6 caractères/);
    await expect(createOrPromoteAdmin(t.db!, { email: "pas-une-adresse", password: "123456" })).rejects.toThrow(/e-mail invalide/);
    await expect(createOrPromoteAdmin(t.db!, { email: "nouveau@exemple.fr" })).rejects.toThrow(/--password est obligatoire/);
    const [n] = await t.db!.select({ n: count() }).from(user).where(eq(user.email, "court@exemple.fr"));
    expect(n.n).toBe(0);
  });
});
