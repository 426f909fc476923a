import { Link } from "react-router";

/** What a visitor is told before sending a message through a contact form (RGPD art. 13). */
export function ContactPrivacyNotice({ recipient }: { recipient: "team" | "member" }) {
  return (
    <p className="text-caption text-muted-foreground" data-testid="contact-privacy-notice">
      {recipient === "team"
        ? "Vos nom, e-mail, société et message servent uniquement à vous répondre"
        : "Vos nom, e-mail et message sont transmis à ce professionnel pour qu’il vous réponde"}
      &nbsp;; ils sont conservés 3&nbsp;ans à compter du dernier échange. Vous pouvez y accéder, les faire rectifier ou
      effacer&nbsp;:{" "}
      <Link to="/politique-confidentialite" className="text-primary underline underline-offset-2">
        politique de confidentialité
      </Link>
      .
    </p>
  );
}
