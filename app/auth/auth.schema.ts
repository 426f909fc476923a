// Forms of the /auth screens (spec §5 "Sign-up" / "Sign-in"); messages verbatim from the spec.
import { z } from "zod";

export const PASSWORD_MIN = 6;
export const MESSAGES = {
  emailRequired: "L’adresse e-mail est obligatoire",
  emailInvalid: "Veuillez saisir une adresse e-mail valide",
  passwordRequired: "Le mot de passe est obligatoire",
  passwordTooShort: "Le mot de passe doit contenir au moins 6 caractères",
  passwordMismatch: "Les mots de passe ne correspondent pas",
  emailTaken: "Cette adresse email est déjà utilisée",
  invalidCredentials: "Identifiants invalides",
  signUpSuccess: "Inscription réussie ! Vérifiez votre email pour confirmer votre compte.",
  unexpected: "Une erreur est survenue. Veuillez réessayer.",
  emailNotVerified:
    "Votre adresse e-mail n’est pas encore confirmée. Un nouveau lien de confirmation vient de vous être envoyé.",
  tooManyAttempts: "Trop de tentatives. Veuillez réessayer dans quelques minutes.",
  resetRequested:
    "Si un compte existe pour cette adresse, vous allez recevoir un e-mail contenant un lien pour choisir un nouveau mot de passe.",
  resetDone: "Votre mot de passe a été modifié. Vous pouvez maintenant vous connecter.",
  resetLinkInvalid: "Ce lien de réinitialisation est invalide ou a expiré. Veuillez en demander un nouveau.",
} as const;

const email = z
  .string({ error: MESSAGES.emailRequired })
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(254, MESSAGES.emailInvalid)
  .pipe(z.email({ error: MESSAGES.emailInvalid }))
  .transform((v) => v.toLowerCase());

const newPassword = z
  .string({ error: MESSAGES.passwordRequired })
  .min(PASSWORD_MIN, MESSAGES.passwordTooShort)
  .max(128, "Le mot de passe ne doit pas dépasser 128 caractères");

export const signInSchema = z.object({
  intent: z.literal("sign-in"),
  email,
  password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(128),
});

export const signUpSchema = z
  .object({
    intent: z.literal("sign-up"),
    email,
    password: newPassword,
    confirmPassword: z.string({ error: MESSAGES.passwordMismatch }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: MESSAGES.passwordMismatch,
    path: ["confirmPassword"],
  });

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1).max(512),
    password: newPassword,
    confirmPassword: z.string({ error: MESSAGES.passwordMismatch }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: MESSAGES.passwordMismatch,
    path: ["confirmPassword"],
  });
