// The directory's filters, read from the URL query (shareable, works without JavaScript).
import { z } from "zod";
import { DEPARTMENT_CODES, PROFESSION_CODES, SECTOR_CODES } from "~/db/reference";

export { directoryQueryString } from "./directory-query";

export const ALL = "all";
export const DIRECTORY_PAGE_SIZE = 24;

const optionalCode = <T extends readonly [string, ...string[]]>(codes: T) =>
  z
    .string()
    .optional()
    .transform((v) => (v && (codes as readonly string[]).includes(v) ? (v as T[number]) : undefined));

export const directoryQuerySchema = z.object({
  q: z
    .string()
    .optional()
    .transform((v) => (v ?? "").replace(/\s+/g, " ").trim().slice(0, 100)),
  departement: optionalCode(DEPARTMENT_CODES),
  secteur: optionalCode(SECTOR_CODES),
  profession: optionalCode(PROFESSION_CODES),
  page: z
    .string()
    .optional()
    .transform((v) => {
      const n = Number.parseInt(v ?? "1", 10);
      return Number.isFinite(n) && n >= 1 && n <= 10_000 ? n : 1;
    }),
});

export type DirectoryQuery = z.output<typeof directoryQuerySchema>;

/** Unknown or malformed parameters are ignored rather than refused: a directory URL never 400s. */
export function parseDirectoryQuery(params: URLSearchParams): DirectoryQuery {
  return directoryQuerySchema.parse(Object.fromEntries(params));
}
