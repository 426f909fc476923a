import { parseWithZod } from "@conform-to/zod/v4";
import { ClipboardList, Download, FileSpreadsheet, MessageCircleQuestion, Paperclip, Plus } from "lucide-react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label, NativeSelect } from "~/components/ui/input";
import { OPERATION_TYPES } from "~/features/collaboration/agreement-rules";
import { FileErrorAlert } from "~/features/collaboration/components/file-error";
import { fileActor, fileNotFound } from "~/features/collaboration/file-access.server";
import { sharedFileUrl } from "~/features/collaboration/participant-rules";
import { founderOrParticipant, readAsFounder } from "~/features/due-diligence/access.server";
import { DdIntentError, DdProgressBar, DdStatusBadge } from "~/features/due-diligence/components/dd-badges";
import {
  DD_CATEGORIES,
  DD_CATEGORY_LABELS,
  DD_LIMITS,
  DD_MESSAGES,
  DD_SIDE_LABELS,
  dueDiligenceExportUrl,
  dueDiligenceItemUrl,
  dueDiligenceUrl,
} from "~/features/due-diligence/due-diligence-rules";
import { addItemSchema, createListSchema } from "~/features/due-diligence/due-diligence.schema";
import { addItem, createListFromTemplate } from "~/features/due-diligence/due-diligence.server";
import { getDueDiligenceList } from "~/features/due-diligence/due-diligence-read.server";
import { DD_TEMPLATE_LABELS, DD_TEMPLATES } from "~/features/due-diligence/due-diligence-templates";
import { runDdIntent, type DdIntent, type DdIntentResult } from "./due-diligence-intent.server";
import { formatDate } from "~/lib/format";
import { readForm } from "~/lib/form.server";
import { firstFormError } from "~/lib/form-errors";
import { pageMeta } from "~/lib/meta";
import { pageHref, requestedPage } from "~/lib/paging";
import { Pagination } from "~/components/pagination";
import type { Route } from "./+types/due-diligence";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Diligences du dossier"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { user, profile } = await requireMember(request);
  const read = await readAsFounder(user.id, params.fileId, () => getDueDiligenceList({ profileId: profile.id }, params.fileId, requestedPage(request.url)));
  // A participant of the file reads the list on their own pages.
  if (read.participant) throw redirect(`${sharedFileUrl(params.fileId)}/diligences`);
  return { list: read.value };
});

function intentsFor(fileId: string): Record<string, DdIntent> {
  return {
    create: {
      success: DD_MESSAGES.created,
      run: async (actor, form) => {
        const s = parseWithZod(form, { schema: createListSchema });
        if (s.status !== "success") return firstFormError(s.error);
        await createListFromTemplate(actor, fileId, s.value.template);
        return null;
      },
    },
    add: {
      success: DD_MESSAGES.added,
      run: async (actor, form) => {
        const s = parseWithZod(form, { schema: addItemSchema });
        if (s.status !== "success") return firstFormError(s.error);
        await addItem(actor, fileId, s.value);
        return null;
      },
    },
  };
}

export const action = atEdge(async function action({ request, params, context }: Route.ActionArgs) {
  const { user, profile } = await requireMember(request);
  const actor = fileActor(profile);
  // A post from anyone but a founder (participants post on their own pages): 404 before its body is read.
  if ((await founderOrParticipant(user.id, params.fileId)) === "participant") fileNotFound();
  const form = await readForm(request);
  return runDdIntent(intentsFor(params.fileId), actor, form, { back: dueDiligenceUrl(params.fileId), requestId: context.requestId });
});

type List = Route.ComponentProps["loaderData"]["list"];


function CreateList({ list, result }: { list: List; result: DdIntentResult | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "create";
  return (
    <Card className="grid gap-3 p-6" data-testid="dd-empty">
      <div className="flex items-start gap-3">
        <ClipboardList className="mt-1 h-6 w-6 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="grid gap-1">
          <p className="font-semibold">Aucune liste de diligences pour l’instant</p>
          <p className="text-sm text-muted-foreground">
            La liste réunit les pièces demandées au cédant (juridique, social, fiscal, financier, immobilier, contrats), leur responsable, leur échéance
            et les documents qui y répondent.
          </p>
        </div>
      </div>
      {list.canEdit ? (
        <Form method="post" className="grid gap-3">
          <DdIntentError result={result} intents={["create"]} />
          <input type="hidden" name="intent" value="create" />
          <div className="grid gap-2">
            <Label htmlFor="dd-template">Modèle de liste</Label>
            <NativeSelect id="dd-template" name="template" defaultValue={list.suggestedTemplate} aria-describedby="dd-template-hint">
              {OPERATION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {DD_TEMPLATE_LABELS[t]} ({DD_TEMPLATES[t].length} demandes)
                </option>
              ))}
            </NativeSelect>
            <p id="dd-template-hint" className="text-sm text-muted-foreground">
              Proposé d’après la convention d’honoraires ou les mandats du dossier. Vous pourrez ajouter, renommer ou supprimer des demandes.
            </p>
          </div>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? "Création en cours..." : "Créer la liste"}
            </Button>
          </div>
        </Form>
      ) : (
        <p className="text-sm text-muted-foreground">{list.closed ? DD_MESSAGES.closed : "Un conseil du dossier peut créer la liste."}</p>
      )}
    </Card>
  );
}

function AddItem({ result }: { result: DdIntentResult | undefined }) {
  return (
    <Card className="p-4">
      <Form method="post" className="grid gap-3" aria-labelledby="dd-add-title">
        <h4 id="dd-add-title" className="font-semibold">
          Ajouter une demande
        </h4>
        <DdIntentError result={result} intents={["add"]} />
        <input type="hidden" name="intent" value="add" />
        <div className="grid gap-3 sm:grid-cols-[12rem_minmax(0,1fr)]">
          <div className="grid gap-2">
            <Label htmlFor="dd-category">Rubrique</Label>
            <NativeSelect id="dd-category" name="category" defaultValue="juridique">
              {DD_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {DD_CATEGORY_LABELS[c]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="dd-new-title">Intitulé</Label>
            <Input id="dd-new-title" name="title" required maxLength={DD_LIMITS.title} />
          </div>
        </div>
        <div>
          <Button type="submit" variant="outline">
            <Plus aria-hidden="true" />
            Ajouter la demande
          </Button>
        </div>
      </Form>
    </Card>
  );
}

export default function FileDueDiligence({ loaderData, actionData }: Route.ComponentProps) {
  const { list } = loaderData;
  const result = actionData as DdIntentResult | undefined;
  const groups = DD_CATEGORIES.map((c) => ({ category: c, items: list.items.filter((i) => i.category === c) })).filter((g) => g.items.length);
  return (
    <section aria-labelledby="dd-title" className="grid grid-cols-1 gap-4">
      <div className="grid gap-1">
        <h3 id="dd-title" className="text-lg font-semibold">
          Diligences
        </h3>
        <p className="text-sm text-muted-foreground">
          Vous intervenez côté {DD_SIDE_LABELS[list.side].toLowerCase()}. Les questions réservées à un côté ne sont visibles que de ce côté.
        </p>
      </div>
      {list.items.length === 0 ? (
        <CreateList list={list} result={result} />
      ) : (
        <>
          <Card className="grid gap-3 p-4">
            <DdProgressBar {...list.progress} />
            <div className="flex flex-wrap gap-2">
              <Button asChild variant="outline" size="sm">
                <a href={dueDiligenceExportUrl(list.fileId, "xlsx")} download>
                  <FileSpreadsheet aria-hidden="true" />
                  Exporter en XLSX
                </a>
              </Button>
              <Button asChild variant="outline" size="sm">
                <a href={dueDiligenceExportUrl(list.fileId, "pdf")} download>
                  <Download aria-hidden="true" />
                  Exporter en PDF
                </a>
              </Button>
            </div>
          </Card>
          {groups.map((g) => (
            <section key={g.category} aria-labelledby={`dd-${g.category}`} className="grid gap-2">
              <h4 id={`dd-${g.category}`} className="font-semibold">
                {DD_CATEGORY_LABELS[g.category]} <span className="text-sm font-normal text-muted-foreground">({list.byCategory[g.category] ?? g.items.length})</span>
              </h4>
              <ul className="divide-y rounded-lg border" aria-label={`Demandes ${DD_CATEGORY_LABELS[g.category].toLowerCase()}`}>
                {g.items.map((item) => (
                  <li key={item.id} className="grid gap-1 p-3" data-testid="dd-item">
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <Link to={dueDiligenceItemUrl(list.fileId, item.id)} className="min-w-0 break-words font-medium text-primary underline-offset-4 hover:underline">
                        {item.title}
                      </Link>
                      <DdStatusBadge status={item.status} />
                    </div>
                    <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-muted-foreground">
                      <span>{item.ownerName ? `Responsable\u00a0: ${item.ownerName}` : "Sans responsable"}</span>
                      {item.dueDate ? (
                        <span className={item.overdue ? "font-medium text-destructive" : undefined}>
                          Échéance&nbsp;: <time dateTime={item.dueDate}>{formatDate(item.dueDate)}</time>
                          {item.overdue ? " (en retard)" : null}
                        </span>
                      ) : null}
                      <span className="inline-flex items-center gap-1">
                        <Paperclip className="h-3.5 w-3.5" aria-hidden="true" />
                        {item.documents} document{item.documents > 1 ? "s" : ""}
                      </span>
                      {item.openQuestions ? (
                        <span className="inline-flex items-center gap-1">
                          <MessageCircleQuestion className="h-3.5 w-3.5" aria-hidden="true" />
                          {item.openQuestions} question{item.openQuestions > 1 ? "s" : ""} ouverte{item.openQuestions > 1 ? "s" : ""}
                        </span>
                      ) : null}
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <Pagination page={list.page} pageCount={list.pageCount} href={(p) => pageHref(dueDiligenceUrl(list.fileId), p)} />
          {list.canEdit ? <AddItem result={result} /> : null}
        </>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <FileErrorAlert error={error} />;
}
