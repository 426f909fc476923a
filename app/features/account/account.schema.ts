// Forms of the account settings page (/parametres) and the notification preference names.
// Shared by the client (Conform) and the server (parseWithZod).
import { z } from "zod";
import { DEFAULT_EMAIL_FREQUENCIES, EMAIL_FREQUENCIES, EMAIL_KIND_LABELS, EMAIL_KINDS, type EmailKind, isEmailKind } from "~/features/notifications/event-rules";
import { MESSAGES as AUTH_MESSAGES, PASSWORD_MIN } from "~/auth/auth.schema";
import { TWO_FACTOR_MESSAGES, totpCode } from "~/auth/two-factor.schema";

export const ACCOUNT_MESSAGES = {
  currentPasswordRequired: "Veuillez saisir votre mot de passe actuel",
  passwordRequired: "Veuillez saisir votre mot de passe",
  wrongPassword: "Mot de passe incorrect",
  passwordTooShort: AUTH_MESSAGES.passwordTooShort,
  passwordMismatch: AUTH_MESSAGES.passwordMismatch,
  samePassword: "Le nouveau mot de passe doit être différent de l’actuel",
  passwordChanged: "Mot de passe modifié",
  passwordChangedDescription: "Vos autres sessions ont été fermées.",
  invalidCode: TWO_FACTOR_MESSAGES.invalidCode,
  twoFactorEnabled: "Double authentification activée",
  twoFactorDisabled: "Double authentification désactivée",
  twoFactorCanceled: "Configuration annulée",
  twoFactorAlreadyEnabled: "La double authentification est déjà activée",
  backupCodesRegenerated: "Nouveaux codes de secours générés",
  sessionRevoked: "Session fermée",
  otherSessionsRevoked: "Toutes vos autres sessions ont été fermées",
  sessionNotFound: "Session introuvable",
  preferencesSaved: "Préférences enregistrées",
  deleteConfirmRequired: "Veuillez confirmer que vous comprenez que la suppression est définitive",
  lastAdmin:
    "Vous êtes le seul administrateur\u00a0: désignez un autre administrateur avant de supprimer votre compte.",
  accountDeleted: "Votre compte a été supprimé",
  accountDeletedDescription: "Vos données personnelles ont été effacées. Merci d’avoir fait partie du réseau.",
  tooManyAttempts: AUTH_MESSAGES.tooManyAttempts,
  unexpected: AUTH_MESSAGES.unexpected,
  noProfile: "Cette section est disponible une fois votre profil créé.",
} as const;

const password = z.string({ error: ACCOUNT_MESSAGES.passwordRequired }).min(1, ACCOUNT_MESSAGES.passwordRequired).max(128);

export const changePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword: z
      .string({ error: ACCOUNT_MESSAGES.currentPasswordRequired })
      .min(1, ACCOUNT_MESSAGES.currentPasswordRequired)
      .max(128),
    newPassword: z
      .string({ error: ACCOUNT_MESSAGES.passwordTooShort })
      .min(PASSWORD_MIN, ACCOUNT_MESSAGES.passwordTooShort)
      .max(128, "Le mot de passe ne doit pas dépasser 128 caractères"),
    confirmPassword: z.string({ error: ACCOUNT_MESSAGES.passwordMismatch }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: ACCOUNT_MESSAGES.passwordMismatch,
    path: ["confirmPassword"],
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    message: ACCOUNT_MESSAGES.samePassword,
    path: ["newPassword"],
  });

/** Enabling, disabling two-factor and new backup codes all re-ask the password. */
export const enableTwoFactorSchema = z.object({ intent: z.literal("enable-2fa"), password });
export const disableTwoFactorSchema = z.object({ intent: z.literal("disable-2fa"), password });
export const regenerateBackupCodesSchema = z.object({ intent: z.literal("regenerate-backup-codes"), password });

export const verifyTwoFactorSchema = z.object({ intent: z.literal("verify-2fa"), code: totpCode });

export const revokeSessionSchema = z.object({ intent: z.literal("revoke-session"), sessionId: z.string().min(1).max(100) });

// The e-mail preferences are the e-mail kinds of the notification rules, each with a frequency.
export const NOTIFICATION_TYPES = EMAIL_KINDS;
export type NotificationType = EmailKind;
export const NOTIFICATION_LABELS = EMAIL_KIND_LABELS;

export function isNotificationType(value: unknown): value is NotificationType {
  return isEmailKind(value);
}

const frequency = (kind: EmailKind) => z.enum(EMAIL_FREQUENCIES, { error: "Choisissez une fréquence" }).default(DEFAULT_EMAIL_FREQUENCIES[kind]);

export const notificationPreferencesSchema = z.object({
  intent: z.literal("notifications"),
  ...(Object.fromEntries(EMAIL_KINDS.map((k) => [k, frequency(k)])) as Record<EmailKind, ReturnType<typeof frequency>>),
});

export const deleteAccountSchema = z.object({
  intent: z.literal("delete-account"),
  password,
  confirm: z
    .string({ error: ACCOUNT_MESSAGES.deleteConfirmRequired })
    .refine((v) => v === "on", ACCOUNT_MESSAGES.deleteConfirmRequired),
});

