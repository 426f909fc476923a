// Reading a page action's form. An unreadable body (a multipart body whose parts do not parse,
// a truncated stream) made `request.formData()` throw, a 500: every page
// action reads its form through here and answers 400 with a French message instead.
import { data } from "react-router";

export const UNREADABLE_FORM = "Requête invalide\u00a0: le formulaire envoyé est illisible. Rechargez la page et réessayez.";

export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: UNREADABLE_FORM }, { status: 400 });
  }
}
