// Who may do what in a collaboration file. Pure: the access function
// (participants.server.ts) and the pages read the same table.

/** Where a participant who is not a founder reads the file. */
export function sharedFileUrl(fileId: string): string {
  return `/dossiers-partages/${fileId}`;
}

export function invitationUrl(token: string): string {
  return `/invitation/${token}`;
}

export const PARTICIPANT_ROLES = ["expert_comptable", "avocat", "notaire", "banque", "conseil", "autre"] as const;
export type ParticipantRole = (typeof PARTICIPANT_ROLES)[number];
/** A founding member of the file (one of its two mandates' members) acts as « fondateur ». */
export type FileRole = ParticipantRole | "fondateur";

export const ROLE_LABELS: Record<FileRole, string> = {
  fondateur: "Membre fondateur du dossier",
  expert_comptable: "Expert-comptable",
  avocat: "Avocat",
  notaire: "Notaire",
  banque: "Banque",
  conseil: "Conseil",
  autre: "Autre",
};

export const PARTICIPANT_SIDES = ["cedant", "acquereur", "commun"] as const;
export type FileSide = (typeof PARTICIPANT_SIDES)[number];

export const SIDE_LABELS: Record<FileSide, string> = { cedant: "Côté cédant", acquereur: "Côté acquéreur", commun: "Commun" };

export const FOLDER_VISIBILITIES = ["both", "cedant", "acquereur"] as const;
export type FolderVisibility = (typeof FOLDER_VISIBILITIES)[number];

export const VISIBILITY_LABELS: Record<FolderVisibility, string> = {
  both: "Visible des deux côtés",
  cedant: "Côté cédant uniquement",
  acquereur: "Côté acquéreur uniquement",
};

export const RIGHTS = ["voir", "telecharger", "deposer"] as const;
export type Right = (typeof RIGHTS)[number];
export type Rights = Record<Right, boolean>;

export const RIGHT_LABELS: Record<Right, string> = { voir: "Voir", telecharger: "Télécharger", deposer: "Déposer" };

export const ALL_RIGHTS: Rights = { voir: true, telecharger: true, deposer: true };
export const NO_RIGHTS: Rights = { voir: false, telecharger: false, deposer: false };

/** Rights proposed when inviting, by role: the inviting member may change them. */
export const DEFAULT_RIGHTS: Record<ParticipantRole, Rights> = {
  expert_comptable: { voir: true, telecharger: true, deposer: true },
  avocat: { voir: true, telecharger: true, deposer: true },
  notaire: { voir: true, telecharger: true, deposer: true },
  banque: { voir: true, telecharger: true, deposer: false },
  conseil: { voir: true, telecharger: false, deposer: false },
  autre: { voir: true, telecharger: false, deposer: false },
};

/** An invitation link is valid for seven days. */
export const INVITATION_DAYS = 7;

export function invitationExpiry(now: Date): Date {
  return new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
}

/** A folder is seen by every side when shared, else by its side only; « commun » sees shared folders only. */
export function folderVisibleTo(side: FileSide, visibility: FolderVisibility): boolean {
  return visibility === "both" || visibility === side;
}

/**
 * THE rule: may a person of this role and side use this right on a document of a folder with
 * this visibility? Founding members hold every right; others their own. Downloading or adding a
 * document implies seeing the folder, so a right without « voir » is never granted.
 */
export function isAllowed(input: { role: FileRole; side: FileSide; visibility: FolderVisibility; rights: Rights; right: Right }): boolean {
  if (!folderVisibleTo(input.side, input.visibility)) return false;
  const rights = input.role === "fondateur" ? ALL_RIGHTS : input.rights;
  if (!rights.voir) return false;
  return rights[input.right];
}

/** Folders a side may create: a shared one, or one for its own side (« commun » shares only). */
export function canCreateFolder(role: FileRole, side: FileSide, visibility: FolderVisibility): boolean {
  return role === "fondateur" && folderVisibleTo(side, visibility);
}

export type ParticipantStatus = "invited" | "awaiting_approval" | "active" | "withdrawn" | "removed";

/** What the lists show: an unanswered invitation past its date is « expirée ». */
export function participantState(status: ParticipantStatus, expiresAt: Date, now: Date): ParticipantStatus | "expired" {
  if (status === "invited" && expiresAt.getTime() <= now.getTime()) return "expired";
  return status;
}

export const STATE_LABELS: Record<ParticipantStatus | "expired", string> = {
  invited: "Invitation envoyée",
  expired: "Invitation expirée",
  awaiting_approval: "En attente d’approbation",
  active: "Actif",
  withdrawn: "Invitation retirée",
  removed: "Retiré du dossier",
};

/**
 * A guest needs the approval of the founding member who did not invite them; a member of the
 * network invited by either founder joins at once (they are already vetted).
 */
export function needsApproval(isGuest: boolean): boolean {
  return isGuest;
}

/** Who may approve a guest: the other founding member, never the one who invited them. */
export function canApprove(approverProfileId: string, invitedBy: string | null): boolean {
  return invitedBy !== null && approverProfileId !== invitedBy;
}

/** The side of a founding member, read from the label of their mandate kept on the file. */
export function founderSide(mandateLabel: string): Exclude<FileSide, "commun"> {
  return mandateLabel.startsWith("Mandat cédant") ? "cedant" : "acquereur";
}

export const PARTICIPANT_MESSAGES = {
  invited: "Invitation envoyée",
  withdrawn: "Invitation retirée",
  approved: "Participant approuvé",
  removed: "Participant retiré du dossier",
  rightsSaved: "Droits enregistrés",
  folderCreated: "Dossier de documents créé",
  alreadyInvited: "Cette adresse est déjà invitée dans ce dossier.",
  founderEmail: "Cette adresse est celle d’un membre fondateur du dossier.",
  notFounder: "Seuls les deux membres fondateurs du dossier gèrent ses participants.",
  cannotApprove: "L’approbation revient à l’autre membre fondateur du dossier.",
  notAwaiting: "Ce participant n’attend pas d’approbation.",
  notOpen: "Cette invitation n’est plus en cours.",
  invitationInvalid: "Cette invitation n’existe pas, a expiré ou a été retirée.",
  accountExists: "Un compte existe déjà pour cette adresse\u00a0: connectez-vous, puis rouvrez le lien de l’invitation.",
  guestSignedUp: "Compte invité créé\u00a0: confirmez votre adresse e-mail grâce au lien que nous venons de vous envoyer.",
  wrongAccount: "Cette invitation a été adressée à une autre adresse e-mail. Connectez-vous avec l’adresse invitée.",
  folderExists: "Un dossier de documents porte déjà ce nom.",
  folderSide: "Vous ne pouvez créer qu’un dossier commun ou un dossier de votre côté.",
  noRight: "Vos droits dans ce dossier ne le permettent pas.",
  undertakingFirst: "Signez d’abord l’engagement de confidentialité.",
  undertakingSigned: "Engagement de confidentialité enregistré",
  closed: "Ce dossier est clos.",
} as const;
