import { Link } from "react-router";

const LINKS = [
  { to: "/mentions-legales", label: "Mentions légales" },
  { to: "/cgu", label: "CGU" },
  { to: "/politique-confidentialite", label: "Politique de confidentialité" },
  { to: "/cookies", label: "Cookies" },
  { to: "/contact", label: "Contact" },
  { to: "/support", label: "Support" },
  { to: "/faq", label: "FAQ" },
];

/** The footer's list of links, shared by the public site's footer and the application's. */
export function FooterNav({ links, listClassName, linkClassName }: { links: Array<{ to: string; label: string }>; listClassName: string; linkClassName: string }) {
  return (
    <nav aria-label="Liens du pied de page">
      <ul className={listClassName}>
        {links.map((l) => (
          <li key={l.to}>
            <Link to={l.to} className={linkClassName}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteFooter({ appName, year }: { appName: string; year: number }) {
  return (
    <footer className="mt-16 border-t bg-muted" data-slot="site-footer">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm">
          <p className="font-semibold text-primary">{appName}</p>
          <p className="mt-2 text-sm text-muted-foreground">
            Le réseau collaboratif et confidentiel des professionnels de la transmission d’entreprises et de commerces.
          </p>
        </div>
        <FooterNav links={LINKS} listClassName="grid grid-cols-2 gap-x-8 gap-y-2 text-sm sm:grid-cols-3" linkClassName="text-muted-foreground hover:text-foreground hover:underline" />
      </div>
      <p className="border-t px-4 py-4 text-center text-xs text-muted-foreground">
        © {year} {appName}. Tous droits réservés.
      </p>
    </footer>
  );
}
