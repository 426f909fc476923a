// The profile tab's form (spec §2 "Profile tab", §5 "Profile save"). Identity fields (names,
// company, profession, college) are not part of it: they cannot be changed here.
import { z } from "zod";
import { DEPARTMENT_CODES, SECTOR_CODES } from "~/db/reference";

export const PROFILE_MESSAGES = {
  department: "Veuillez sélectionner un département",
  savedTitle: "Profil mis à jour",
  savedDescription: "Vos modifications ont été sauvegardées",
  errorTitle: "Erreur",
  loadError: "Impossible de charger le profil",
  saveError: "Impossible de sauvegarder les modifications",
  notFound: "Profil non trouvé. Veuillez compléter votre onboarding d'abord.",
  premiumOnly: "Cette fonctionnalité est réservée aux membres Premium",
  imageRemovedDescription: "L’image a été retirée de votre profil",
} as const;

export const PROFILE_LIMITS = {
  city: 100,
  address: 300,
  detailedPresentation: 5000,
  internalPresentation: 2000,
} as const;

/** Optional free text: trimmed, blank becomes undefined (stored as null). */
const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} ne doit pas dépasser ${max} caractères`)
    .optional()
    .transform((v) => (v ? v : undefined));

/** Fields that only premium and founding members may send (spec §6). */
export const PREMIUM_PROFILE_FIELDS = ["detailedPresentation", "internalPresentation"] as const;

export const profileEditorSchema = z.object({
  locationDepartment: z.enum(DEPARTMENT_CODES, { error: PROFILE_MESSAGES.department }),
  locationCity: optionalText("La ville", PROFILE_LIMITS.city),
  fullAddress: optionalText("L’adresse", PROFILE_LIMITS.address),
  specializationSectors: z
    .array(z.enum(SECTOR_CODES, { error: "Secteur d’activité inconnu" }))
    .max(SECTOR_CODES.length)
    .transform((codes) => [...new Set(codes)]),
  detailedPresentation: optionalText("La présentation détaillée", PROFILE_LIMITS.detailedPresentation),
  internalPresentation: optionalText("La présentation interne", PROFILE_LIMITS.internalPresentation),
});

/** The parsed form; optional fields are absent (or undefined) when blank. */
export type ProfileEditorInput = {
  locationDepartment: (typeof DEPARTMENT_CODES)[number];
  locationCity?: string;
  fullAddress?: string;
  specializationSectors: (typeof SECTOR_CODES)[number][];
  detailedPresentation?: string;
  internalPresentation?: string;
};

export const IMAGE_KINDS = ["logo", "photo"] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export const imageKindSchema = z.enum(IMAGE_KINDS);
