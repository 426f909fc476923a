// The commitment charter every member signs (spec §2 "Onboarding", §4).
export const CHARTER_VERSION = "2026-01";

export function CharterText({ appName }: { appName: string }) {
  return (
    // Focusable so that keyboard users can scroll it.
    <div tabIndex={0} role="region" aria-label="Texte de la charte d’engagement" className="max-h-96 space-y-4 overflow-y-auto rounded-md border bg-muted/40 p-4 text-sm leading-relaxed">
      <h3 className="text-base font-semibold">Charte d’engagement des membres de {appName}</h3>
      <p>
        En rejoignant {appName}, je m’engage, dans l’exercice de mon activité de conseil en transmission d’entreprises ou
        de commerces, à respecter les principes suivants à l’égard des clients, des confrères et du réseau.
      </p>
      <h4 className="font-semibold">1. Éthique et déontologie</h4>
      <p>
        J’exerce avec probité, loyauté et compétence, dans le respect des règles déontologiques de ma profession réglementée
        le cas échéant. Je n’accepte que les missions que je suis en mesure de mener et je signale tout conflit d’intérêts
        aux parties concernées. Je dispose d’une assurance de responsabilité civile professionnelle en cours de validité.
      </p>
      <h4 className="font-semibold">2. Confidentialité</h4>
      <p>
        Je garde strictement confidentielles les informations reçues par le réseau&nbsp;: identité des clients, données
        financières, projets de cession ou d’acquisition. Je ne communique l’identité de mon client qu’après l’acceptation
        réciproque d’une mise en relation, et j’utilise les informations reçues d’un confrère uniquement pour l’opération
        concernée.
      </p>
      <h4 className="font-semibold">3. Exclusivité des mandats</h4>
      <p>
        Je ne dépose sur la plateforme que des mandats dont je suis effectivement titulaire et dont je certifie le caractère
        exclusif. Je tiens mes mandats à jour (statut, dates, critères) et je retire sans délai un mandat échu ou abandonné.
      </p>
      <h4 className="font-semibold">4. Partage des honoraires</h4>
      <p>
        Lorsqu’une opération aboutit grâce à une mise en relation réalisée par le réseau, je partage les honoraires avec le
        confrère apporteur selon les modalités convenues par écrit avant toute présentation des clients. Je ne contourne
        jamais un confrère pour traiter directement avec son client.
      </p>
      <h4 className="font-semibold">5. Médiation</h4>
      <p>
        En cas de différend avec un confrère membre, je m’engage à rechercher d’abord une solution amiable, puis à recourir
        à la médiation proposée par le réseau avant toute action contentieuse.
      </p>
      <h4 className="font-semibold">6. Respect du réseau</h4>
      <p>
        Je fournis des informations exactes sur mon parcours et mes références, je recommande uniquement des confrères dont
        je connais le sérieux, et j’accepte que le non-respect de la présente charte puisse entraîner la suspension ou
        l’exclusion du réseau.
      </p>
    </div>
  );
}
