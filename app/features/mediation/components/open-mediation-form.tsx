// The member's request for a mediation: subject, facts and optional attachments,
// posted as multipart to the file's 'Médiation' tab.
import { Send } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldError, Input, Label, Textarea } from "~/components/ui/input";
import { ACCEPTED_DOCUMENT_TYPES } from "~/features/collaboration/documents-rules";
import { MEDIATION_LIMITS } from "../mediation-rules";

export function OpenMediationForm({ errors }: { errors: Record<string, string[]> | null }) {
  const navigation = useNavigation();
  const sending =
    navigation.state !== "idle" &&
    navigation.formEncType === "multipart/form-data";
  const general = errors?.[""]?.[0];
  return (
    <Card className="p-4">
      <Form
        method="post"
        encType="multipart/form-data"
        className="grid gap-3"
        aria-labelledby="open-mediation-title"
      >
        <h3 id="open-mediation-title" className="font-semibold">
          Demander une médiation
        </h3>
        <p className="text-sm text-muted-foreground">
          Un désaccord avec votre confrère que vous n’arrivez pas à régler&nbsp;?
          L’équipe du réseau examine la demande, échange avec vous deux et rend
          une décision écrite. Pendant la médiation, elle peut lire l’historique
          et la liste des documents de ce dossier (pas leur contenu)&nbsp;; votre
          confrère est prévenu par e-mail.
        </p>
        {general ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{general}</AlertDescription>
          </Alert>
        ) : null}
        <div className="grid gap-2">
          <Label htmlFor="mediation-subject">Objet</Label>
          <Input
            id="mediation-subject"
            name="subject"
            required
            minLength={MEDIATION_LIMITS.subjectMin}
            maxLength={MEDIATION_LIMITS.subjectMax}
            aria-invalid={errors?.subject ? true : undefined}
            aria-describedby={
              errors?.subject ? "mediation-subject-error" : undefined
            }
          />
          <FieldError id="mediation-subject-error" errors={errors?.subject} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="mediation-facts">Exposé des faits</Label>
          <Textarea
            id="mediation-facts"
            name="facts"
            rows={6}
            required
            minLength={MEDIATION_LIMITS.factsMin}
            maxLength={MEDIATION_LIMITS.factsMax}
            aria-invalid={errors?.facts ? true : undefined}
            aria-describedby={
              errors?.facts
                ? "mediation-facts-error mediation-facts-hint"
                : "mediation-facts-hint"
            }
          />
          <p
            id="mediation-facts-hint"
            className="text-sm text-muted-foreground"
          >
            Décrivez les faits, datés si possible. Votre confrère et l’équipe du
            réseau liront cet exposé.
          </p>
          <FieldError id="mediation-facts-error" errors={errors?.facts} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="mediation-attachments">
            Pièces jointes (facultatif)
          </Label>
          <Input
            id="mediation-attachments"
            name="attachments"
            type="file"
            multiple
            accept={ACCEPTED_DOCUMENT_TYPES}
            aria-describedby="mediation-attachments-hint"
            className="h-auto"
          />
          <p
            id="mediation-attachments-hint"
            className="text-sm text-muted-foreground"
          >
            Jusqu’à {MEDIATION_LIMITS.attachmentsMax} fichiers (PDF, image JPEG
            ou PNG, Excel ou Word), {MEDIATION_LIMITS.attachmentMaxMb}&nbsp;Mo au
            plus chacun. Seuls vous et l’équipe du réseau y avez accès.
          </p>
        </div>
        <div>
          <Button type="submit" disabled={sending}>
            <Send aria-hidden="true" />
            {sending ? "Envoi en cours..." : "Envoyer la demande"}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
