import { describe, expect, it } from "vitest";
import {
  abandonTextRequired,
  canAbandon,
  canConfirmClosing,
  canMoveStage,
  canProposeClosing,
  closingsCountLine,
  DEAL_FROM_FILE_TEXT,
  fileReference,
  dealSector,
  nextStage,
  pendingAction,
  previousStage,
  stageSteps,
  STAGE_LABELS,
  type Stage,
} from "./collaboration-rules";
import { isValidClosingDate } from "./collaboration.schema";
import {
  FILE_EVENTS,
  fileEvent,
  isDeclaredKind,
  isTimelineGroup,
  TIMELINE_GROUPS,
  timelineGroup,
  timelineGroupKinds,
  timelineLabel,
  type FileEventDetails,
  type FileEventKind,
  type TimelineGroup,
} from "./timeline";

describe("stage labels", () => {
  it("are the issue’s French names, in order", () => {
    expect(Object.values(STAGE_LABELS)).toEqual([
      "Mise en relation",
      "Échanges confidentiels",
      "Documents partagés",
      "Offre / lettre d’intention",
      "Signature du protocole",
      "Conclu",
      "Abandonné",
    ]);
  });
});

describe("canMoveStage: one step forward or back among the working stages", () => {
  it.each<[Stage, Stage, boolean]>([
    ["introduction", "exchanges", true],
    ["exchanges", "introduction", true],
    ["exchanges", "documents", true],
    ["documents", "offer", true],
    ["offer", "protocol", true],
    ["protocol", "offer", true],
    ["introduction", "documents", false],
    ["introduction", "introduction", false],
    ["protocol", "concluded", false],
    ["offer", "abandoned", false],
    ["concluded", "protocol", false],
    ["abandoned", "introduction", false],
  ])("%s → %s: %s", (from, to, allowed) => {
    expect(canMoveStage(from, to)).toBe(allowed);
  });

  it("next and previous", () => {
    expect(nextStage("introduction")).toBe("exchanges");
    expect(nextStage("protocol")).toBeNull();
    expect(previousStage("introduction")).toBeNull();
    expect(previousStage("offer")).toBe("documents");
    expect(nextStage("concluded")).toBeNull();
    expect(previousStage("abandoned")).toBeNull();
  });
});

describe("closing needs both members", () => {
  it.each<[Stage, boolean]>([
    ["introduction", false],
    ["exchanges", false],
    ["documents", false],
    ["offer", true],
    ["protocol", true],
    ["concluded", false],
    ["abandoned", false],
  ])("proposable at %s: %s", (stage, ok) => expect(canProposeClosing(stage)).toBe(ok));

  it.each<[string | null, string, boolean]>([
    [null, "me", false],
    ["me", "me", false],
    ["them", "me", true],
  ])("proposed by %s, confirmed by %s: %s", (proposedBy, actor, ok) => {
    expect(canConfirmClosing("offer", { proposedBy }, actor)).toBe(ok);
  });

  it("a closed file cannot be confirmed or abandoned", () => {
    expect(canConfirmClosing("concluded", { proposedBy: "them" }, "me")).toBe(false);
    expect(canAbandon("concluded")).toBe(false);
    expect(canAbandon("abandoned")).toBe(false);
    expect(canAbandon("introduction")).toBe(true);
  });

  it("only 'autre' needs a text", () => {
    expect(abandonTextRequired("other")).toBe(true);
    expect(abandonTextRequired("price")).toBe(false);
  });
});

describe("closing date", () => {
  it.each<[string, boolean]>([
    ["2026-11-24", true],
    ["2026-11-25", false],
    ["2026-02-30", false],
    ["1999-12-31", false],
    ["24/11/2026", false],
    ["", false],
  ])("%s valid: %s", (value, ok) => expect(isValidClosingDate(value, "2026-11-24")).toBe(ok));
});

describe("what awaits a member", () => {
  const base = { stage: "offer" as Stage, closingProposedBy: null, actorProfileId: "me", unreadMessages: 0, agreementAwaitingMySignature: false };
  it.each([
    [{}, null],
    [{ unreadMessages: 2 }, "unread-messages"],
    [{ agreementAwaitingMySignature: true, unreadMessages: 2 }, "sign-agreement"],
    [{ closingProposedBy: "them", agreementAwaitingMySignature: true }, "confirm-closing"],
    [{ closingProposedBy: "me" }, null],
    [{ stage: "concluded" as Stage, agreementAwaitingMySignature: true }, null],
  ])("%j → %s", (over, expected) => {
    expect(pendingAction({ ...base, ...over })).toBe(expected);
  });
});

describe("timeline labels", () => {
  it.each<[string, Record<string, unknown> | null, string, string | null]>([
    ["connection:requested", null, "Demande de mise en relation envoyée", null],
    ["connection:undertaking_signed", null, "Engagement de confidentialité signé", null],
    ["stage_changed", { from: "introduction", to: "exchanges" }, "Changement d’étape", "Mise en relation → Échanges confidentiels"],
    ["closing_proposed", { closingDate: "2026-11-20", amountBand: "1m_3m" }, "Conclusion proposée", "Signature le 20/11/2026 · De 1\u00a0M€ à 3\u00a0M€"],
    ["abandoned", { reason: "other", text: "Le client vend à son fils" }, "Dossier abandonné", "Autre motif\u00a0: Le client vend à son fils"],
    ["document_shared", { name: "bilan.pdf" }, "Document partagé", "bilan.pdf"],
    ["something_new", null, "Activité du dossier", null],
    ["stage_changed", { from: "introduction", to: "nowhere" }, "Changement d’étape", null],
    ["deal_proposed", { year: "2026" }, "Dossier proposé comme transaction certifiée", null],
  ])("%s", (kind, details, label, detail) => {
    expect(timelineLabel(kind, details)).toEqual({ label, detail });
  });

  const SHA = "a".repeat(64);
  // One example per declared kind: a kind added without a row here fails the completeness check.
  const EXAMPLES: { [K in FileEventKind]: [FileEventDetails<K>, string | null] } = {
    file_opened: [null, null],
    stage_changed: [{ from: "exchanges", to: "documents" }, "Échanges confidentiels → Documents partagés"],
    closing_proposed: [{ closingDate: null, amountBand: null }, null],
    closing_withdrawn: [null, null],
    closing_confirmed: [null, null],
    abandoned: [{ reason: "price", text: null }, "Désaccord sur le prix"],
    document_shared: [{ name: "kbis.pdf" }, "kbis.pdf"],
    document_withdrawn: [{ name: "kbis.pdf" }, "kbis.pdf"],
    document_viewed: [{ name: "kbis.pdf" }, "kbis.pdf"],
    agreement_created: [{ version: 2, sha256: SHA }, "Version 2"],
    agreement_cancelled: [{ version: 1 }, "Version 1"],
    agreement_signed: [{ version: 2, sha256: SHA }, "Version 2"],
    agreement_completed: [{ version: 2, sha256: SHA }, `Version 2 · SHA-256 de l’exemplaire signé\u00a0: ${SHA}`],
    evidence_exported: [{ sha256: SHA, exportedAt: "2026-11-28T08:00:00.000Z" }, `SHA-256\u00a0: ${SHA}`],
    mediation_opened: [null, null],
    mediation_decided: [{ outcome: "dismissed" }, "Classée"],
    deal_proposed: [{ dealId: "d1", year: 2026 }, "Référence 2026, en attente de validation"],
    mandate_negotiating: [{ name: "Boulangerie" }, "Boulangerie"],
    mandate_resumed: [{ name: "Boulangerie" }, "Boulangerie"],
    mandate_concluded: [{ name: "Boulangerie" }, "Boulangerie"],
    dd_list_created: [{ count: 40, template: "titres" }, "40 demandes"],
    dd_request_added: [{ name: "Statuts" }, "Statuts"],
    dd_request_removed: [{ name: "Statuts" }, "Statuts"],
    dd_request_status: [{ name: "Statuts", from: "requested", to: "provided" }, "Statuts"],
    dd_document_linked: [{ name: "Statuts · statuts.pdf" }, "Statuts · statuts.pdf"],
    dd_question_asked: [{ name: "Statuts" }, "Statuts"],
    dd_question_answered: [{ name: "Statuts" }, "Statuts"],
    participant_invited: [{ name: "avocat, côté acquéreur" }, "avocat, côté acquéreur"],
    participant_invitation_withdrawn: [{ name: "avocat, côté acquéreur" }, "avocat, côté acquéreur"],
    participant_joined: [{ name: "avocat, côté acquéreur" }, "avocat, côté acquéreur"],
    participant_approved: [{ name: "avocat, côté acquéreur" }, "avocat, côté acquéreur"],
    participant_removed: [{ name: "avocat, côté acquéreur" }, "avocat, côté acquéreur"],
    participant_rights_changed: [{ name: "avocat, côté acquéreur" }, "avocat, côté acquéreur"],
    participant_undertaking_signed: [{ text: "Je m’engage…", name: "Maître Durand" }, "Maître Durand"],
    folder_created: [{ name: "Juridique" }, "Juridique"],
  };
  it.each(Object.keys(FILE_EVENTS) as FileEventKind[])("%s is declared once, built by the typed builder and rendered", (kind) => {
    const [details, detail] = EXAMPLES[kind];
    expect(fileEvent(kind, details as never)).toEqual({ kind, details });
    expect(isDeclaredKind(kind)).toBe(true);
    expect(timelineLabel(kind, details)).toEqual({ label: FILE_EVENTS[kind].label, detail });
  });
  it("the builder refuses details of the wrong shape", () => {
    expect(() => fileEvent("stage_changed", { from: "introduction" } as never)).toThrow();
    expect(() => fileEvent("agreement_completed", { version: 1, sha256: "not-a-hash" })).toThrow();
    expect(() => fileEvent("mediation_opened", { name: "x" } as never)).toThrow();
    expect(isDeclaredKind("connection:revealed")).toBe(true);
    expect(isDeclaredKind("connection:teleported")).toBe(false);
    expect(isDeclaredKind("something_new")).toBe(false);
  });
});

describe("timeline filters", () => {
  it.each([
    ["connection:requested", "steps"],
    ["connection:undertaking_signed", "signatures"],
    ["connection:revealed", "signatures"],
    ["stage_changed", "steps"],
    ["mediation_opened", "steps"],
    ["document_viewed", "documents"],
    ["folder_created", "documents"],
    ["agreement_completed", "signatures"],
    ["evidence_exported", "signatures"],
    ["participant_undertaking_signed", "signatures"],
    ["participant_invited", "participants"],
    ["dd_question_answered", "diligence"],
    ["something_new", "steps"],
  ])("%s → %s", (kind, group) => {
    expect(timelineGroup(kind)).toBe(group);
  });
  it("every declared kind falls under a filter the page offers", () => {
    for (const kind of Object.keys(FILE_EVENTS)) expect(Object.keys(TIMELINE_GROUPS)).toContain(timelineGroup(kind));
  });
  // The server filters the timeline's pages in SQL: its kinds per group must say what timelineGroup says.
  const inGroup = (kind: string, group: TimelineGroup) => {
    const f = timelineGroupKinds(group);
    return "only" in f ? f.only.includes(kind) : !f.except.includes(kind);
  };
  it.each([...Object.keys(FILE_EVENTS), "connection:requested", "connection:undertaking_signed", "connection:revealed", "something_new"])(
    "%s is in its own group's SQL filter and in no other",
    (kind) => {
      for (const group of Object.keys(TIMELINE_GROUPS) as TimelineGroup[]) expect(inGroup(kind, group), group).toBe(timelineGroup(kind) === group);
    },
  );
  it("reads a group from a URL only when it is one", () => {
    expect(isTimelineGroup("documents")).toBe(true);
    for (const v of ["", "toString", "__proto__", "Documents", null]) expect(isTimelineGroup(v)).toBe(false);
  });
});

describe("closingsCountLine: the public profile’s line, French plural, nothing at 0", () => {
  it.each<[number, string | null]>([
    [0, null],
    [-1, null],
    [Number.NaN, null],
    [1, "1 rapprochement conclu via le réseau"],
    [2, "2 rapprochements conclus via le réseau"],
    [12, "12 rapprochements conclus via le réseau"],
    [1200, "1\u202f200 rapprochements conclus via le réseau"],
  ])("%s → %s", (count, line) => expect(closingsCountLine(count)).toBe(line));
});

describe("dealSector: the seller’s sector, else the buyer’s first searched sector", () => {
  const seller = (companySector: string | null) => ({ mandateType: "seller" as const, companySector, searchSectors: null });
  const buyer = (...searchSectors: string[]) => ({ mandateType: "buyer" as const, companySector: null, searchSectors });
  it.each<[string, Parameters<typeof dealSector>[0], string | null]>([
    ["both mandates", [buyer("G", "C"), seller("K")], "K"],
    ["seller without sector", [buyer("G", "C"), seller(null)], "G"],
    ["buyer only (seller mandate deleted)", [buyer("C")], "C"],
    ["buyer without sectors", [buyer()], null],
    ["no mandate left", [], null],
  ])("%s", (_name, mandates, expected) => expect(dealSector(mandates)).toBe(expected));
});

it("the texts of a deal made from a file name no client and no amount", () => {
  expect(DEAL_FROM_FILE_TEXT.acquirerCedant).toBe("Rapprochement conclu via le réseau");
  for (const side of ["buyer", "seller", null] as const) expect(DEAL_FROM_FILE_TEXT.description(side)).not.toMatch(/\d|€/);
});

describe("a file’s human reference", () => {
  it.each([
    [2026, 1, "DR-2026-0001"],
    [2026, 42, "DR-2026-0042"],
    [2027, 9999, "DR-2027-9999"],
    [2027, 10000, "DR-2027-10000"],
  ] as const)("%s, n° %s → %s", (year, n, reference) => expect(fileReference(year, n)).toBe(reference));
});

describe("stageSteps: the stepper shows a stage never reached as skipped", () => {
  const states = (stage: Stage, reached: Stage[]) => stageSteps(stage, reached).map((s) => s.state);
  it.each<[Stage, Stage[], string[]]>([
    ["introduction", [], ["current", "upcoming", "upcoming", "upcoming", "upcoming"]],
    ["documents", ["exchanges", "documents"], ["done", "done", "current", "upcoming", "upcoming"]],
    ["exchanges", ["exchanges", "documents", "exchanges"], ["done", "current", "upcoming", "upcoming", "upcoming"]],
    ["concluded", ["exchanges", "documents", "offer"], ["done", "done", "done", "done", "skipped"]],
    ["concluded", ["exchanges", "documents", "offer", "protocol"], ["done", "done", "done", "done", "done"]],
    ["abandoned", ["exchanges"], ["done", "done", "upcoming", "upcoming", "upcoming"]],
    ["abandoned", [], ["done", "upcoming", "upcoming", "upcoming", "upcoming"]],
  ])("%s after %j", (stage, reached, expected) => {
    expect(states(stage, reached)).toEqual(expected);
  });
});
