// /dashboard/dossiers/:fileId/intervenants: the file's participants and its folders
// (§2). The two founding members invite, withdraw, approve, remove and set rights; a member
// participant reads the list. Every command goes through participants.server.ts.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { FolderForm, InviteForm, RightsBoxes } from "~/features/collaboration/components/participant-forms";
import { PARTICIPANT_MESSAGES, VISIBILITY_LABELS } from "~/features/collaboration/participant-rules";
import { folderSchema, inviteSchema, participantIdSchema, rightsSchema } from "~/features/collaboration/participants.schema";
import { createFolder, listParticipants, listVisibleFolders } from "~/features/collaboration/participants.server";
import { approveParticipant, inviteParticipant, removeParticipant, setParticipantRights, withdrawInvitation } from "~/features/collaboration/participant-invitations.server";
import { requireFileParticipant } from "~/features/collaboration/participant-access.server";
import { db } from "~/db/client.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { firstFormError } from "~/lib/form-errors";
import { formatDatePattern } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/participants";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Intervenants du dossier"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireMember(request);
  const { access, participants } = await listParticipants(user.id, params.fileId);
  return {
    founder: access.kind === "founder",
    side: access.side,
    participants,
    folders: await listVisibleFolders(access),
  };
});

const INTENTS = ["invite", "withdraw", "approve", "remove", "rights", "folder"] as const;
type Intent = (typeof INTENTS)[number];
type ActionResult = { intent: Intent; error: string };

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireMember(request);
  // Someone else's file: a 404 before the form is read.
  await requireFileParticipant(db, user.id, params.fileId);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "") as Intent;
  if (!INTENTS.includes(intent)) throw data({ message: "Action inconnue" }, { status: 400 });
  const fail = (error: string, status: number) => data({ intent, error } satisfies ActionResult, { status });
  const back = new URL(request.url).pathname;
  try {
    if (intent === "invite") {
      const s = parseWithZod(form, { schema: inviteSchema });
      if (s.status !== "success") return fail(firstFormError(s.error), 400);
      await inviteParticipant(user.id, params.fileId, s.value);
      return redirectWithToast(back, { type: "success", title: PARTICIPANT_MESSAGES.invited, description: s.value.email });
    }
    if (intent === "folder") {
      const s = parseWithZod(form, { schema: folderSchema });
      if (s.status !== "success") return fail(firstFormError(s.error), 400);
      await createFolder(user.id, params.fileId, s.value);
      return redirectWithToast(back, { type: "success", title: PARTICIPANT_MESSAGES.folderCreated, description: s.value.name });
    }
    if (intent === "rights") {
      const s = parseWithZod(form, { schema: rightsSchema });
      if (s.status !== "success") return fail(firstFormError(s.error), 400);
      await setParticipantRights(user.id, params.fileId, s.value.participantId, s.value.rights);
      return redirectWithToast(back, { type: "success", title: PARTICIPANT_MESSAGES.rightsSaved });
    }
    const s = parseWithZod(form, { schema: participantIdSchema });
    if (s.status !== "success") return fail(firstFormError(s.error), 400);
    const id = s.value.participantId;
    if (intent === "withdraw") await withdrawInvitation(user.id, params.fileId, id);
    else if (intent === "approve") await approveParticipant(user.id, params.fileId, id);
    else await removeParticipant(user.id, params.fileId, id);
    const title = intent === "withdraw" ? PARTICIPANT_MESSAGES.withdrawn : intent === "approve" ? PARTICIPANT_MESSAGES.approved : PARTICIPANT_MESSAGES.removed;
    return redirectWithToast(back, { type: "success", title });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) {
      logger.error({ err: error, requestId: context.requestId, intent }, "participant command failed");
      throw error;
    }
    return fail(expectedMessage(error, "L’opération n’a pas pu aboutir."), status);
  }
});

type CommandProps = { intent: Intent; participantId: string; label: string; confirm?: string; primary?: boolean };

function CommandButton({ intent, participantId, label, confirm, primary = false }: CommandProps) {
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (confirm && !window.confirm(confirm)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="participantId" value={participantId} />
      <Button type="submit" size="sm" variant={primary ? "default" : "outline"}>
        {label}
      </Button>
    </Form>
  );
}

const day = (iso: string) => formatDatePattern(iso, "dd/MM/yyyy");

export default function FileParticipants({ loaderData, actionData }: Route.ComponentProps) {
  const { founder, side, participants, folders } = loaderData;
  // What needs the founder first: the accesses to approve (the first one is the page's primary action), then the invitation.
  const firstToApprove = founder ? participants.find((p) => p.canApprove)?.id : undefined;
  return (
    <section aria-labelledby="participants-title" className="grid grid-cols-1 gap-4">
      <div className="grid gap-1">
        <h3 id="participants-title" className="text-lg font-semibold">
          Intervenants du dossier
        </h3>
        <p className="text-sm text-muted-foreground">
          Experts-comptables, avocats, notaires, banques et conseils de l’opération. Chacun signe l’engagement de confidentialité avant de voir l’identité
          des clients.
        </p>
      </div>
      {actionData?.error ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{actionData.error}</AlertDescription>
        </Alert>
      ) : null}
      {participants.length === 0 ? (
        <p className="text-sm text-muted-foreground">Aucun intervenant invité pour l’instant.</p>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Intervenants">
          {participants.map((p) => (
            <li key={p.id} className="grid gap-2 p-4" data-testid="participant-item">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="grid min-w-0 gap-1">
                  <p className="min-w-0 break-words font-medium">{p.name ?? p.email}</p>
                  <p className="min-w-0 break-words text-sm text-muted-foreground">
                    {[p.roleLabel, p.sideLabel, p.company, p.isGuest ? "Compte invité" : null, founder && p.name ? p.email : null].filter(Boolean).join(" · ")}
                  </p>
                  {p.state === "invited" ? <p className="text-sm text-muted-foreground">Valable jusqu’au {day(p.expiresAt)}</p> : null}
                </div>
                <Badge variant={p.state === "active" ? "default" : "outline"}>{p.stateLabel}</Badge>
              </div>
              {founder ? (
                <div className="flex flex-wrap items-center gap-2">
                  {p.canApprove ? <CommandButton intent="approve" participantId={p.id} label="Approuver l’accès" primary={p.id === firstToApprove} /> : null}
                  {p.state === "invited" ? <CommandButton intent="withdraw" participantId={p.id} label="Retirer l’invitation" /> : null}
                  {p.state === "active" || p.state === "awaiting_approval" ? (
                    <CommandButton
                      intent="remove"
                      participantId={p.id}
                      label={p.state === "active" ? "Retirer du dossier" : "Refuser l’accès"}
                      confirm={`Retirer ${p.name ?? p.email} du dossier\u00a0? Son accès prend fin immédiatement.`}
                    />
                  ) : null}
                </div>
              ) : null}
              {founder && (p.state === "active" || p.state === "awaiting_approval" || p.state === "invited") ? (
                <Form method="post" className="flex flex-wrap items-end gap-3">
                  <input type="hidden" name="intent" value="rights" />
                  <input type="hidden" name="participantId" value={p.id} />
                  <RightsBoxes prefix={`rights-${p.id}`} rights={p.rights} />
                  <Button type="submit" size="sm" variant="ghost">
                    Enregistrer les droits<span className="sr-only"> de {p.name ?? p.email}</span>
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {founder ? <InviteForm primary={!firstToApprove} /> : null}
      <div className="grid gap-1">
        <h3 className="text-lg font-semibold">Dossiers de documents</h3>
        <ul className="grid gap-1 text-sm" aria-label="Dossiers de documents">
          <li>Général · {VISIBILITY_LABELS.both}</li>
          {folders.map((f) => (
            <li key={f.id} className="break-words">
              {f.name} · {VISIBILITY_LABELS[f.visibility]}
            </li>
          ))}
        </ul>
      </div>
      {founder ? <FolderForm side={side} /> : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <FileErrorAlert error={error} />;
}
