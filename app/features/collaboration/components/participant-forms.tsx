// The founders' forms of a file's « Intervenants » tab: invite a professional (with their rights),
// set a participant's rights, create a folder of documents. The route posts them to its use cases.
import { FolderPlus, UserPlus } from "lucide-react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { SelectField } from "~/components/form-field";
import { Checkbox, Input, Label } from "~/components/ui/input";
import {
  DEFAULT_RIGHTS,
  FOLDER_VISIBILITIES,
  INVITATION_DAYS,
  PARTICIPANT_ROLES,
  PARTICIPANT_SIDES,
  RIGHT_LABELS,
  RIGHTS,
  ROLE_LABELS,
  SIDE_LABELS,
  VISIBILITY_LABELS,
  type Rights,
} from "../participant-rules";

export function RightsBoxes({ prefix, rights }: { prefix: string; rights: Rights }) {
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

/** `primary`: false while an access waits for approval (approving is the page's primary action). */
export function InviteForm({ primary }: { primary: boolean }) {
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
          <SelectField id="invite-role" name="role" label="Rôle" values={PARTICIPANT_ROLES} labels={ROLE_LABELS} defaultValue="expert_comptable" required />
          <SelectField id="invite-side" name="side" label="Côté" values={PARTICIPANT_SIDES} labels={SIDE_LABELS} defaultValue="cedant" required />
        </div>
        <RightsBoxes prefix="invite" rights={DEFAULT_RIGHTS.expert_comptable} />
        <p className="text-sm text-muted-foreground">
          L’invitation est valable {INVITATION_DAYS}&nbsp;jours. Un professionnel extérieur au réseau reçoit un compte invité limité à ce dossier&nbsp;; l’autre
          membre fondateur doit l’approuver avant qu’il ne voie quoi que ce soit.
        </p>
        <div>
          <Button type="submit" variant={primary ? "default" : "outline"}>
            <UserPlus aria-hidden="true" />
            Envoyer l’invitation
          </Button>
        </div>
      </Form>
    </Card>
  );
}

export function FolderForm({ side }: { side: string }) {
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
          <SelectField id="folder-visibility" name="visibility" label="Visibilité" values={allowed} labels={VISIBILITY_LABELS} defaultValue="both" />
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
