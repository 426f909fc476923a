// The errors of a failed Conform submission (`submission.error`), as the routes show them: the
// fields' messages (empty entries dropped), or the first message of the form.
export type SubmissionErrors = Record<string, string[] | null> | null | undefined;

/** The fields that have at least one message, with their messages. */
export function fieldErrors(error: SubmissionErrors): Record<string, string[]> {
  return Object.fromEntries(Object.entries(error ?? {}).filter((e): e is [string, string[]] => Array.isArray(e[1]) && e[1].length > 0));
}

/** The first message of the form, or the fallback. */
export function firstFormError(error: SubmissionErrors, fallback = "Formulaire invalide"): string {
  return (
    Object.values(error ?? {})
      .flat()
      .find((m): m is string => typeof m === "string") ?? fallback
  );
}
