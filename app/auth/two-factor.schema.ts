// The sign-in step after the password for members who enabled two-factor authentication
// (authenticator-app code or one of their backup codes). Shared with the settings page.
import { z } from "zod";

export const TWO_FACTOR_MESSAGES = {
  codeRequired: "Veuillez saisir le code à 6 chiffres",
  codeFormat: "Le code doit contenir 6 chiffres",
  invalidCode: "Code invalide",
  codeReused: "Ce code a déjà été utilisé. Attendez le code suivant de votre application (30 secondes au plus).",
  backupCodeRequired: "Veuillez saisir un code de secours",
  invalidBackupCode: "Code de secours invalide",
  expired: "Votre vérification a expiré. Veuillez vous reconnecter.",
  tooManyAttempts: "Trop de tentatives. Veuillez patienter quelques minutes avant de réessayer.",
} as const;

/** A 6-digit code; spaces typed by the member (or pasted "123 456") are ignored. */
export const totpCode = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().min(1, TWO_FACTOR_MESSAGES.codeRequired).regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.codeFormat));

export const backupCode = z
  .string({ error: TWO_FACTOR_MESSAGES.backupCodeRequired })
  .trim()
  .min(1, TWO_FACTOR_MESSAGES.backupCodeRequired)
  .max(64, TWO_FACTOR_MESSAGES.invalidBackupCode);

export const twoFactorSignInSchema = z.discriminatedUnion("method", [
  z.object({ intent: z.literal("two-factor"), method: z.literal("totp"), code: totpCode }),
  z.object({ intent: z.literal("two-factor"), method: z.literal("backup"), code: backupCode }),
]);
