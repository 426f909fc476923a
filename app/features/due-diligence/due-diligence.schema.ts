// The forms of the due-diligence list (one zod schema each, on the client and the server).
import { z } from "zod";
import { OPERATION_TYPES } from "~/features/collaboration/agreement-rules";
import { DD_CATEGORIES, DD_LIMITS, DD_MESSAGES, DD_SIDES, DD_STATUSES, isValidDueDate } from "./due-diligence-rules";

const uuid = z.string({ error: "Identifiant invalide" }).trim().uuid("Identifiant invalide");

const title = z
  .string({ error: DD_MESSAGES.titleRequired })
  .trim()
  .min(1, DD_MESSAGES.titleRequired)
  .max(DD_LIMITS.title, DD_MESSAGES.titleTooLong);

const text = (required: string) => z.string({ error: required }).trim().min(1, required).max(DD_LIMITS.body, DD_MESSAGES.bodyTooLong);

export const createListSchema = z.object({ template: z.enum(OPERATION_TYPES, { error: "Choisissez un modèle de liste." }) });

export const addItemSchema = z.object({
  category: z.enum(DD_CATEGORIES, { error: "Choisissez une rubrique." }),
  title,
});

export const updateItemSchema = z.object({
  title,
  // "" (or absent): nobody / no date.
  ownerId: z
    .union([z.literal(""), uuid], { error: DD_MESSAGES.badOwner })
    .optional()
    .transform((v) => v || null),
  dueDate: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || isValidDueDate(v), DD_MESSAGES.badDate)
    .transform((v) => v || null),
});

export const statusSchema = z.object({ status: z.enum(DD_STATUSES, { error: DD_MESSAGES.forbiddenStatus }) });

export const documentRefSchema = z.object({ documentId: uuid });

export const askSchema = z.object({
  // "" (or absent): the question is on the item itself.
  documentId: z
    .union([z.literal(""), uuid])
    .optional()
    .transform((v) => v || null),
  visibility: z.enum(DD_SIDES, { error: DD_MESSAGES.badVisibility }),
  body: text(DD_MESSAGES.bodyRequired),
});

export const answerSchema = z.object({ questionId: uuid, answer: text(DD_MESSAGES.answerRequired) });

export const questionRefSchema = z.object({ questionId: uuid });
