import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, type ShouldRevalidateFunctionArgs, useFetcher } from "react-router";
import { can } from "~/auth/permissions";
import { requireMember } from "~/auth/session.server";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card } from "~/components/ui/card";
import { closingArchiveUrl, evidenceUrl } from "~/features/collaboration/agreement-rules";
import { COLLABORATION_MESSAGES, fileUrl } from "~/features/collaboration/collaboration-rules";
import { abandonSchema, closingSchema, fileMessageSchema, moveStageSchema } from "~/features/collaboration/collaboration.schema";
import {
  abandonFile,
  cancelClosingProposal,
  confirmClosing,
  markFileRead,
  moveStage,
  postFileMessage,
  proposeClosing,
} from "~/features/collaboration/collaboration.server";
import { getFileView } from "~/features/collaboration/file-view.server";
import { changeMandateFromFile, DEAL_PROPOSAL_MESSAGES, proposeFileAsDeal, type DealProposalActor } from "~/features/collaboration/closings.server";
import { DealProposalCard, MandateStateCard } from "~/features/collaboration/components/file-after-offer";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { FileUndertaking } from "~/features/collaboration/components/file-undertaking";
import { signFileUndertaking } from "~/features/collaboration/file-undertaking.server";
import { MATCH_REQUEST_MESSAGES } from "~/features/connections/connection-rules";
import { UNDERTAKING_REQUIRED } from "~/features/connections/connections.schema";
import { FileMessages } from "~/features/collaboration/components/file-messages";
import { FileStages, type IntentResult } from "~/features/collaboration/components/file-stages";
import { FileTimeline } from "~/features/collaboration/components/file-timeline";
import { assertFileMember, fileActor } from "~/features/collaboration/file-access.server";
import { NEGOTIATION_MESSAGES } from "~/features/collaboration/negotiation-rules";
import { parisToday } from "~/features/mandates/mandate-rules";
import { isUuid } from "~/lib/uuid";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { memberActor } from "~/auth/actor";
import { DdProgressCard } from "~/features/due-diligence/components/dd-badges";
import { getDueDiligenceProgress } from "~/features/due-diligence/due-diligence-read.server";
import { logger } from "~/lib/logger.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/overview";
import { requestedPage } from "~/lib/paging";
import { isTimelineGroup } from "~/features/collaboration/timeline";
import { readForm } from "~/lib/form.server";
import { firstFormError } from "~/lib/form-errors";
import { fileNextAction, type FileAction } from "~/features/collaboration/next-action-rules";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  // The timeline is paged (?page=) and filtered (?historique=) on the server: a long file reads one page.
  const group = new URL(request.url).searchParams.get("historique");
  return {
    file: await getFileView({ profileId: profile.id }, params.fileId, { page: requestedPage(request.url), group: isTimelineGroup(group) ? group : null }),
    ddProgress: await getDueDiligenceProgress({ profileId: profile.id }, params.fileId),
    canProposeDeals: can(profile.membershipType, "certifiedDeals"),
  };
});

type Intent = { success: string; run: (actor: DealProposalActor, fileId: string, form: FormData) => Promise<string | null> };

// Each intent parses its form and calls one use case; a string returned is a validation error.
const INTENTS: Record<string, Intent> = {
  move: {
    success: COLLABORATION_MESSAGES.stageChanged,
    run: async (actor, fileId, form) => {
      const s = parseWithZod(form, { schema: moveStageSchema });
      if (s.status !== "success") return firstFormError(s.error);
      await moveStage(actor, fileId, s.value.to);
      return null;
    },
  },
  "propose-closing": {
    success: COLLABORATION_MESSAGES.closingProposed,
    run: async (actor, fileId, form) => {
      const s = parseWithZod(form, { schema: closingSchema(parisToday()) });
      if (s.status !== "success") return firstFormError(s.error);
      await proposeClosing(actor, fileId, s.value);
      return null;
    },
  },
  "confirm-closing": { success: COLLABORATION_MESSAGES.closingConfirmed, run: async (actor, fileId) => (await confirmClosing(actor, fileId), null) },
  "withdraw-closing": {
    success: COLLABORATION_MESSAGES.closingCancelled,
    run: async (actor, fileId) => (await cancelClosingProposal(actor, fileId), null),
  },
  abandon: {
    success: COLLABORATION_MESSAGES.abandoned,
    run: async (actor, fileId, form) => {
      const s = parseWithZod(form, { schema: abandonSchema });
      if (s.status !== "success") return firstFormError(s.error);
      await abandonFile(actor, fileId, s.value);
      return null;
    },
  },
  // The actor's own mandate of the file and the certified deal of a concluded file.
  negotiate: { success: NEGOTIATION_MESSAGES.negotiating, run: async (actor, fileId) => (await changeMandateFromFile(actor, fileId, "negotiate"), null) },
  "resume-search": { success: NEGOTIATION_MESSAGES.resumed, run: async (actor, fileId) => (await changeMandateFromFile(actor, fileId, "resume"), null) },
  "conclude-mandate": { success: NEGOTIATION_MESSAGES.concluded, run: async (actor, fileId) => (await changeMandateFromFile(actor, fileId, "conclude"), null) },
  "propose-deal": { success: DEAL_PROPOSAL_MESSAGES.proposed, run: async (actor, fileId) => (await proposeFileAsDeal(actor, fileId), null) },
  undertaking: {
    success: MATCH_REQUEST_MESSAGES.undertakingSigned,
    run: async (actor, fileId, form) => {
      if (form.get("accept") !== "on") return UNDERTAKING_REQUIRED;
      await signFileUndertaking(actor, fileId);
      return null;
    },
  },
  message: {
    success: COLLABORATION_MESSAGES.messageSent,
    run: async (actor, fileId, form) => {
      const s = parseWithZod(form, { schema: fileMessageSchema });
      if (s.status !== "success") return firstFormError(s.error);
      await postFileMessage(actor, fileId, s.value.body);
      return null;
    },
  },
};

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const { profile } = await requireMember(request);
  const actor: DealProposalActor = { ...fileActor(profile), ...memberActor(profile) };
  // Forged posts to another member's file: 404 before anything else is read.
  await assertFileMember(actor, params.fileId);
  const form = await readForm(request);
  const intentName = String(form.get("intent") ?? "");
  if (intentName === "mark-read") {
    // Up to the newest message the page showed (one read state with « Messages »).
    const raw = form.get("upTo");
    const upTo = raw === null || raw === "" ? null : raw;
    if (upTo !== null && !isUuid(upTo)) throw data({ message: "Requête invalide" }, { status: 400 });
    await markFileRead(actor, params.fileId, upTo);
    return { ok: true };
  }
  const intent = Object.hasOwn(INTENTS, intentName) ? INTENTS[intentName] : undefined;
  if (!intent) throw data({ message: "Action inconnue" }, { status: 400 });
  try {
    const error = await intent.run(actor, params.fileId, form);
    if (error) return data({ intent: intentName, error } satisfies IntentResult, { status: 400 });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === 404) throw error;
    if (status === null) logger.error({ err: error, requestId: context.requestId, intent: intentName }, "file command failed");
    const message = expectedMessage(error, "L’opération n’a pas pu aboutir. Veuillez réessayer dans un instant.");
    return data({ intent: intentName, error: message } satisfies IntentResult, { status: status ?? 500 });
  }
  const anchor = intentName === "message" ? "#messages" : "";
  return redirectWithToast(`${fileUrl(params.fileId)}${anchor}`, { type: "success", title: intent.success });
});

/**
 * Marking the messages read must not reload the page: the "Nouveau" marks stay on the messages
 * the member is looking at, until the next visit.
 */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === "mark-read") return false;
  return defaultShouldRevalidate;
}

export default function FileOverview({ loaderData, actionData }: Route.ComponentProps) {
  const { file, canProposeDeals, ddProgress } = loaderData;
  const result = actionData && "intent" in actionData ? (actionData as IntentResult) : undefined;
  const markRead = useFetcher({ key: `file-read-${file.id}` });
  const unread = file.unread;
  useEffect(() => {
    // Marked read once shown (a GET may be a prefetch).
    if (unread > 0 && markRead.state === "idle" && !markRead.data) {
      // Nothing shown changes with it (the bell follows its live stream), so nothing is read again: a
      // revalidation would race a navigation the member starts meanwhile (decision 082).
      void markRead.submit({ intent: "mark-read", upTo: file.lastMessageId ?? "" }, { method: "post", defaultShouldRevalidate: false });
    }
  }, [unread, markRead, file.lastMessageId]);
  const undertakingToSign = !file.client && !file.undertakingSigned && Boolean(file.myMandate.id && file.theirMandate.id);
  // One primary action on the tab: the member's next step; every other command is outline.
  const primary = fileNextAction({
    stage: file.stage,
    undertakingToSign,
    closing: file.closing,
    myMandateCommands: file.myMandate.id && file.myMandate.status ? file.myMandate.commands : [],
    dealProposable: canProposeDeals && !file.dealProposed,
    canWrite: !file.counterpart.gone,
  });
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="grid min-w-0 content-start gap-6">
        <ClientCard file={file} result={result} undertakingToSign={undertakingToSign} primary={primary} />
        <FileStages file={file} result={result} primary={primary} />
        <DdProgressCard fileId={file.id} progress={ddProgress} />
        <DealProposalCard file={file} canProposeDeals={canProposeDeals} result={result} primary={primary} />
        <MandateStateCard file={file} result={result} primary={primary} />
        <FileMessages file={file} result={result} primary={primary} />
      </div>
      <div className="min-w-0">
        <FileTimeline
          entries={file.timeline}
          paging={file.timelinePage ? { ...file.timelinePage, path: fileUrl(file.id) } : undefined}
          exportUrl={evidenceUrl(file.id)}
          archiveUrl={file.stage === "concluded" ? closingArchiveUrl(file.id) : undefined}
        />
      </div>
    </div>
  );
}

type ClientCardProps = { file: Route.ComponentProps["loaderData"]["file"]; result?: IntentResult; undertakingToSign: boolean; primary: FileAction | null };

function ClientCard({ file, result, undertakingToSign, primary }: ClientCardProps) {
  return (
    <Card className="grid gap-2 p-4" aria-labelledby="client-title">
      <h3 id="client-title" className="text-lg font-semibold">
        Client de votre confrère
      </h3>
      {file.client ? (
        <dl className="grid gap-1 text-sm" data-testid="file-client">
          <dt className="text-muted-foreground">Identité</dt>
          <dd className="break-words font-medium">{file.client.name}</dd>
          <dt className="text-muted-foreground">Adresse</dt>
          <dd className="break-words">{file.client.address}</dd>
        </dl>
      ) : undertakingToSign ? (
        <FileUndertaking result={result} primary={primary === "undertaking"} />
      ) : (
        <p className="text-sm text-muted-foreground">L’identité du client n’est plus disponible&nbsp;: l’un des mandats du dossier a été supprimé.</p>
      )}
      {file.counterpart.email ? (
        <p className="break-words text-sm">
          Contact de votre confrère&nbsp;:{" "}
          <a className="text-primary underline" href={`mailto:${file.counterpart.email}`}>
            {file.counterpart.email}
          </a>
        </p>
      ) : null}
      {file.counterpart.gone ? (
        <Alert>
          <AlertDescription>{COLLABORATION_MESSAGES.counterpartGone}</AlertDescription>
        </Alert>
      ) : null}
    </Card>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <FileErrorAlert error={error} />;
}
