import { MessageSquare } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Label, Textarea } from "~/components/ui/input";
import { formatDateTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import type { FileView } from "../file-view.server";
import { isClosed } from "../collaboration-rules";
import { actionVariant, type FileAction } from "../next-action-rules";
import type { IntentResult } from "./file-stages";

/** The file's messages, newest last, with the unread ones marked, and the reply form. */
export function FileMessages({ file, result, primary }: { file: FileView; result?: IntentResult; primary: FileAction | null }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "message";
  const canWrite = !file.counterpart.gone;
  return (
    <Card className="grid gap-4 p-4" aria-labelledby="messages-title" id="messages">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="messages-title" className="text-lg font-semibold">
          Messages
        </h3>
        {file.unread > 0 ? <Badge variant="secondary">{file.unread === 1 ? "1 non lu" : `${file.unread} non lus`}</Badge> : null}
      </div>
      {file.messages.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <MessageSquare className="h-4 w-4" aria-hidden="true" />
          Aucun message pour l’instant. Échangez ici avec votre confrère&nbsp;: seuls vous deux y avez accès.
        </p>
      ) : (
        <ol className="grid gap-3" aria-label="Messages du dossier">
          {file.messages.map((m) => (
            <li
              key={m.id}
              className={cn("grid gap-1 rounded-lg border p-3", m.byMe ? "bg-muted/50 sm:ml-8" : "sm:mr-8", m.unread && "border-primary")}
            >
              <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                <span className="font-medium text-foreground">{m.senderName}</span>
                <time dateTime={m.at}>{formatDateTime(m.at)}</time>
                {m.unread ? <Badge variant="default">Nouveau</Badge> : null}
              </p>
              <p className="whitespace-pre-line break-words text-sm">{m.body}</p>
            </li>
          ))}
        </ol>
      )}
      {canWrite ? (
        <Form method="post" className="grid gap-2">
          <Label htmlFor="file-message">Votre message</Label>
          {/* A new message in the list means this one was sent: the composer starts empty again. */}
          <Textarea key={file.lastMessageId ?? "none"} id="file-message" name="body" rows={4} maxLength={5000} required />
          {result?.intent === "message" ? (
            <Alert variant="destructive">
              <AlertDescription>{result.error}</AlertDescription>
            </Alert>
          ) : null}
          <div>
            <Button type="submit" name="intent" value="message" variant={actionVariant(primary, "message")} disabled={sending}>
              {sending ? "Envoi en cours..." : "Envoyer"}
            </Button>
          </div>
          {isClosed(file.stage) ? <p className="text-xs text-muted-foreground">Le dossier est clos, mais vous pouvez toujours vous écrire.</p> : null}
        </Form>
      ) : null}
    </Card>
  );
}
