// Operator command behind `npm run admin:create`: creates an administrator, or promotes an
// existing account. Idempotent: running it twice leaves one user, one account, one role row.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { hashPassword } from "~/auth/password.server";
import type { Db } from "~/db/client.server";
import { account, user, userRoles } from "~/db/schema";
import { invalidate } from "~/lib/cache.server";

export const ADMIN_PASSWORD_MIN = 6;
// Same bound as better-auth's maxPasswordLength (app/auth/auth.server.ts).
export const ADMIN_PASSWORD_MAX = 128;

/** Bad input: the CLI prints the message and exits non-zero. */
export class CreateAdminError extends Error {
  override name = "CreateAdminError";
}

const emailSchema = z.string().trim().toLowerCase().pipe(z.email());

export type CreateAdminInput = { email: string; password?: string };

export type CreateAdminResult = {
  userId: string;
  email: string;
  /** A new user (and credential account) was created. */
  created: boolean;
  /** The admin role was added by this call (false when it was already there). */
  roleGranted: boolean;
  /** The password was set on an existing user. */
  passwordUpdated: boolean;
  emailVerified: boolean;
};

export function normalizeAdminEmail(raw: string): string {
  const parsed = emailSchema.safeParse(raw);
  if (!parsed.success) throw new CreateAdminError(`Adresse e-mail invalide / invalid e-mail address: "${raw.trim()}"`);
  return parsed.data;
}

function checkPassword(password: string) {
  if (password.length < ADMIN_PASSWORD_MIN) {
    throw new CreateAdminError(
      `Le mot de passe doit contenir au moins ${ADMIN_PASSWORD_MIN} caractères / the password must be at least ${ADMIN_PASSWORD_MIN} characters long`,
    );
  }
  if (password.length > ADMIN_PASSWORD_MAX) {
    throw new CreateAdminError(
      `Le mot de passe ne doit pas dépasser ${ADMIN_PASSWORD_MAX} caractères / the password must be at most ${ADMIN_PASSWORD_MAX} characters long`,
    );
  }
}

export async function createOrPromoteAdmin(db: Db, input: CreateAdminInput): Promise<CreateAdminResult> {
  const email = normalizeAdminEmail(input.email);
  if (input.password !== undefined) checkPassword(input.password);
  // Hash outside the transaction: argon2 is slow on purpose.
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;

  return db.transaction(async (tx) => {
    const now = new Date();
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
    let userId: string;
    let created = false;
    let passwordUpdated = false;

    if (!existing) {
      if (passwordHash === undefined) {
        throw new CreateAdminError(
          `Aucun compte pour ${email} : --password est obligatoire pour le créer / no account for ${email}: --password is required to create it`,
        );
      }
      userId = randomUUID();
      await tx.insert(user).values({ id: userId, name: email.split("@")[0], email, emailVerified: true, createdAt: now, updatedAt: now });
      await tx.insert(account).values({
        id: randomUUID(),
        accountId: userId,
        providerId: "credential",
        userId,
        password: passwordHash,
        createdAt: now,
        updatedAt: now,
      });
      created = true;
    } else {
      userId = existing.id;
      invalidate(`user:${existing.id}`);
      await tx.update(user).set({ emailVerified: true, updatedAt: now }).where(eq(user.id, userId));
      if (passwordHash !== undefined) {
        const updated = await tx
          .update(account)
          .set({ password: passwordHash, updatedAt: now })
          .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
          .returning({ id: account.id });
        if (updated.length === 0) {
          await tx.insert(account).values({
            id: randomUUID(),
            accountId: userId,
            providerId: "credential",
            userId,
            password: passwordHash,
            createdAt: now,
            updatedAt: now,
          });
        }
        passwordUpdated = true;
      }
    }

    invalidate("user_roles");
    const granted = await tx
      .insert(userRoles)
      .values({ userId, role: "admin" })
      .onConflictDoNothing({ target: [userRoles.userId, userRoles.role] })
      .returning({ id: userRoles.id });

    return { userId, email, created, roleGranted: granted.length > 0, passwordUpdated, emailVerified: true };
  });
}

/** One line for the operator, French then English. */
export function describeAdminResult(r: CreateAdminResult): string {
  if (r.created) return `Administrateur créé / admin created: ${r.email}`;
  const extra = r.passwordUpdated ? " (mot de passe mis à jour / password updated)" : "";
  if (r.roleGranted) return `Compte existant promu administrateur / existing account promoted to admin: ${r.email}${extra}`;
  return `Déjà administrateur / already an admin: ${r.email}${extra}`;
}
