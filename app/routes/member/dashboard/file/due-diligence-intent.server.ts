// The actions of the due-diligence pages: each intent parses its form and calls one use case; a
// string returned is a validation error (400), an expected failure is shown in French with its
// status, a 404 is thrown to the error boundary, and a success redirects with its toast.
import { data } from "react-router";
import type { FileActor } from "~/features/collaboration/file-access.server";
import { expectedMessage, expectedStatus } from "~/lib/errors/http";
import { logger } from "~/lib/logger.server";
import { redirectWithToast } from "~/lib/toast.server";
import { AppError } from "~/lib/errors/app-error";

export type DdIntent = { success: string; run: (actor: FileActor, form: FormData) => Promise<string | null> };
export type DdIntentResult = { intent: string; error: string };

export async function runDdIntent(
  intents: Record<string, DdIntent>,
  actor: FileActor,
  form: FormData,
  options: { back: string | ((intent: string) => string); requestId: string },
): Promise<Response | ReturnType<typeof data<DdIntentResult>>> {
  const name = String(form.get("intent") ?? "");
  // Own keys only: « constructor » or « __proto__ » are no intents.
  const intent = Object.hasOwn(intents, name) ? intents[name] : undefined;
  if (!intent) throw new AppError("invalid", "Action inconnue");
  try {
    const error = await intent.run(actor, form);
    if (error) return data({ intent: name, error }, { status: 400 });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === 404) throw error;
    if (status === null) logger.error({ err: error, requestId: options.requestId, intent: name }, "due-diligence command failed");
    return data({ intent: name, error: expectedMessage(error, "L’opération n’a pas pu aboutir. Veuillez réessayer dans un instant.") }, { status: status ?? 500 });
  }
  return redirectWithToast(typeof options.back === "string" ? options.back : options.back(name), { type: "success", title: intent.success });
}
