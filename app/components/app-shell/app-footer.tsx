import { FooterNav } from "~/components/site-footer";

const LINKS = [
  { to: "/mentions-legales", label: "Mentions légales" },
  { to: "/cgu", label: "CGU" },
  { to: "/politique-confidentialite", label: "Confidentialité" },
  { to: "/support", label: "Support" },
];

/** The application's footer: one line (the marketing footer belongs to the public pages). */
export function AppFooter({ appName, year }: { appName: string; year: number }) {
  return (
    <footer className="border-t px-gutter py-3 text-caption text-muted-foreground md:px-gutter-wide" data-slot="app-footer">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <span>
          © {year} {appName}
        </span>
        <FooterNav links={LINKS} listClassName="flex flex-wrap gap-x-4 gap-y-1" linkClassName="hover:text-foreground hover:underline" />
      </div>
    </footer>
  );
}
