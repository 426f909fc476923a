// Payment texts of the spec (§8), verbatim, shared by the onboarding and premium pages.
export const PAYMENT_MESSAGES = {
  noUrl: "Aucune URL de paiement reçue",
  failed: "Une erreur est survenue lors du paiement",
  successTitle: "Paiement réussi !",
  successDescription: "Votre adhésion sera activée après validation de votre profil.",
  canceledTitle: "Paiement annulé",
  canceledDescription: "Vous pouvez reprendre le processus de paiement à tout moment.",
} as const;

export type PaymentReturnFlag = "success" | "canceled";

/** The `?payment=` flag of a return from the checkout, if any. */
export function paymentReturnFlag(url: URL): PaymentReturnFlag | null {
  const value = url.searchParams.get("payment");
  return value === "success" || value === "canceled" ? value : null;
}
