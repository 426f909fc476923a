// Texts of the contact dialog and of internal messaging, in a module without zod: the dialogs
// import them, and the public profile page's browser bundle stays free of zod.

export const CONTACT_DIALOG_REQUIRED = "Veuillez remplir tous les champs";

/** French texts of the inbox and internal messaging (spec §8 where it has one). */
export const MESSAGING_ERRORS = {
  loadFailed: "Erreur lors du chargement des messages",
  sendFailed: "Erreur lors de l'envoi du message",
  sent: "Message envoyé avec succès !",
  notFound: "Message introuvable",
  premiumOnly: "La messagerie interne est réservée aux membres Premium et fondateurs.",
  self: "Vous ne pouvez pas vous envoyer un message.",
  tooMany: "Trop de messages envoyés. Veuillez réessayer plus tard.",
  recipientUnavailable: "Ce membre n’est plus disponible.",
  cannotReply: "Ce message ne peut pas recevoir de réponse depuis la messagerie\u00a0: répondez par e-mail.",
} as const;
