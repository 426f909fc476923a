import { PremiumUpsellCard } from "./premium-upsell";

/** What Premium unlocks in « Messages », said plainly: shown to freemium members. */
export function MessagesUpsell() {
  return (
    <PremiumUpsellCard>
      <p>En Freemium, vous voyez qui vous écrit, l’objet et la première ligne de chaque message.</p>
      <p className="mt-1 font-medium">Avec Premium&nbsp;:</p>
      <ul className="mt-1 list-disc pl-5">
        <li>vous lisez vos messages en entier&nbsp;;</li>
        <li>vous répondez à vos confrères depuis la messagerie&nbsp;;</li>
        <li>vous écrivez à tout membre de l’annuaire interne.</li>
      </ul>
      <p className="mt-1">Les échanges de vos dossiers de rapprochement restent lisibles en entier, quel que soit votre abonnement.</p>
    </PremiumUpsellCard>
  );
}
