// POST /dashboard/dossiers/:fileId/convention/apercu: the proposal form, posted for a draft PDF of
// the version about to be proposed, marked « Projet » on every page and stored nowhere. The
// file's two members only (404 otherwise); an invalid form answers its errors as text.
import { parseWithZod } from "@conform-to/zod/v4";
import { requireMember } from "~/auth/session.server";
import { AGREEMENT_MESSAGES } from "~/features/collaboration/agreement-rules";
import { agreementSchema } from "~/features/collaboration/agreement.schema";
import { previewAgreement } from "~/features/collaboration/agreement-versions.server";
import { assertFileMember, fileActor } from "~/features/collaboration/file-access.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload } from "~/lib/private-download.server";
import { readForm } from "~/lib/form.server";
import type { Route } from "./+types/agreement-preview";

const text = (body: string, status: number, extra: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...extra } });

/** The preview is the posted form's: nothing to GET. */
export const loader = atEdge(function loader() {
  return text("Méthode non autorisée", 405, { allow: "POST" });
});

export const action = atEdge(async function action({ request, params }: Route.ActionArgs) {
  const { profile } = await requireMember(request);
  const actor = fileActor(profile);
  try {
    // Another member's file: 404 before the form is read.
    await assertFileMember(actor, params.fileId);
    const submission = parseWithZod(await readForm(request), { schema: agreementSchema });
    if (submission.status !== "success") {
      const errors = Object.values(submission.error ?? {}).flatMap((e) => e ?? []);
      return text(`Aperçu impossible\u00a0: corrigez le formulaire.\n\n${[...new Set(errors)].map((e) => `- ${e}`).join("\n")}\n`, 400);
    }
    const pdf = await previewAgreement(actor, params.fileId, submission.value);
    return privateDownload({ bytes: pdf.bytes }, { contentType: "application/pdf", disposition: pdf.disposition });
  } catch (error) {
    return expectedFailureResponse(error, AGREEMENT_MESSAGES.notFound);
  }
});
