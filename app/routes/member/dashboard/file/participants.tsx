// /dashboard/dossiers/:fileId/intervenants: the file's participants and its folders
// (§2). The two founding members invite, withdraw, approve, remove and set rights; a member
// participant reads the list. Every command goes through participants.server.ts.
import { parseWithZod } from "@conform-to/zod/v4";
import { FolderPlus, UserPlus } from "lucide-react";
import { data, Form } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Checkbox, Input, Label, NativeSelect } from "~/components/ui/input";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import {
  DEFAULT_RIGHTS,
  FOLDER_VISIBILITIES,
  PARTICIPANT_MESSAGES,
  PARTICIPANT_ROLES,
  PARTICIPANT_SIDES,
  RIGHT_LABELS,
  RIGHTS,
  ROLE_LABELS,
  SIDE_LABELS,
  VISIBILITY_LABELS,
  INVITATION_DAYS,
  type Rights,
} from "~/features/collaboration/participant-rules";
import { folderSchema, inviteSchema, participantIdSchema, rightsSchema } from "~/features/collaboration/participants.schema";
import {
  approveParticipant,
  createFolder,
  inviteParticipant,
  listParticipants,
  listVisibleFolders,
  removeParticipant,
  requireFileParticipant,
  setParticipantRights,
  withdrawInvitation,
} from "~/features/collaboration/participants.server";
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

function RightsBoxes({ prefix, rights }: { prefix: string; rights: Rights }) {
  return (
    <fieldset className="flex flex-wrap gap-x-4 gap-y-2">
      <legend className="mb-1 text-sm font-medium">Droits</legend>
      {RIGHTS.map((r) => (
        <label key={r} htmlFor={`${prefix}-${r}`} className="flex items-center gap-2 text-sm">
          <Checkbox id={`${prefix}-${r}`} name={r} defaultChecked={rights[r]} />
          {RIGHT_LABELS[r]}
        </label>
      ))}
    </fieldset>
  );
}

function InviteForm() {
  return (
    <Card className="p-4">
      <Form method="post" className="grid gap-3" aria-labelledby="invite-title">
        <h4 id="invite-title" className="font-semibold">
          Inviter un professionnel
        </h4>
        <input type="hidden" name="intent" value="invite" />
        <div className="grid gap-2">
          <Label htmlFor="invite-email">Adresse e-mail</Label>
          <Input id="invite-email" name="email" type="email" required autoComplete="off" maxLength={254} />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="invite-role">Rôle</Label>
            <NativeSelect id="invite-role" name="role" required defaultValue="expert_comptable">
              {PARTICIPANT_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="invite-side">Côté</Label>
            <NativeSelect id="invite-side" name="side" required defaultValue="cedant">
              {PARTICIPANT_SIDES.map((s) => (
                <option key={s} value={s}>
                  {SIDE_LABELS[s]}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
        <RightsBoxes prefix="invite" rights={DEFAULT_RIGHTS.expert_comptable} />
        <p className="text-sm text-muted-foreground">
          L’invitation est valable {INVITATION_DAYS}&nbsp;jours. Un professionnel extérieur au réseau reçoit un compte invité limité à ce dossier&nbsp;; l’autre
          membre fondateur doit l’approuver avant qu’il ne voie quoi que ce soit.
        </p>
        <div>
          <Button type="submit">
            <UserPlus aria-hidden="true" />
            Envoyer l’invitation
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function FolderForm({ side }: { side: string }) {
  const allowed = FOLDER_VISIBILITIES.filter((v) => v === "both" || v === side);
  return (
    <Card className="p-4">
      <Form method="post" className="grid gap-3" aria-labelledby="folder-title">
        <h4 id="folder-title" className="font-semibold">
          Créer un dossier de documents
        </h4>
        <input type="hidden" name="intent" value="folder" />
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="folder-name">Nom</Label>
            <Input id="folder-name" name="name" required maxLength={80} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="folder-visibility">Visibilité</Label>
            <NativeSelect id="folder-visibility" name="visibility" defaultValue="both">
              {allowed.map((v) => (
                <option key={v} value={v}>
                  {VISIBILITY_LABELS[v]}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
        <div>
          <Button type="submit" variant="outline">
            <FolderPlus aria-hidden="true" />
            Créer le dossier
          </Button>
        </div>
      </Form>
    </Card>
  );
}

function CommandButton({ intent, participantId, label, confirm }: { intent: Intent; participantId: string; label: string; confirm?: string }) {
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (confirm && !window.confirm(confirm)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="participantId" value={participantId} />
      <Button type="submit" size="sm" variant={intent === "approve" ? "default" : "outline"}>
        {label}
      </Button>
    </Form>
  );
}

const day = (iso: string) => formatDatePattern(iso, "dd/MM/yyyy");

export default function FileParticipants({ loaderData, actionData }: Route.ComponentProps) {
  const { founder, side, participants, folders } = loaderData;
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
      {founder ? <InviteForm /> : null}
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
                  {p.canApprove ? <CommandButton intent="approve" participantId={p.id} label="Approuver l’accès" /> : null}
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
