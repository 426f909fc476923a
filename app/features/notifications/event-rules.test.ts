import { describe, expect, it } from "vitest";
import {
  areaCounts,
  DEFAULT_EMAIL_FREQUENCIES,
  DIGEST_KINDS,
  digestPeriodStart,
  digestSections,
  EMAIL_KINDS,
  EVENT_KINDS,
  EVENT_OF_MAIL_KIND,
  EVENT_RULES,
  eventOfMailKind,
  type EventKind,
  kindsOfEmail,
  OWN_EMAIL_KINDS,
  taskGroups,
  taskTotals,
  taskKey,
  taskKindOf,
} from "./event-rules";

// Every kind: its area (where its unread count shows), its e-mail preference, and whether it opens a to-do.
const CASES: Array<[EventKind, "messages" | "files" | "mandates" | "account", string, boolean]> = [
  ["match_request", "mandates", "match_requests", true],
  ["request_accepted", "mandates", "match_requests", false],
  ["request_refused", "mandates", "match_requests", false],
  ["connection_confirmed", "mandates", "match_requests", true],
  ["new_match", "mandates", "match_alerts", false],
  ["mandate_expiring", "mandates", "account", true],
  ["message", "messages", "messages", false],
  ["file_message", "messages", "messages", false],
  ["agreement_to_sign", "files", "files", true],
  ["agreement_signed", "files", "files", false],
  ["document_shared", "files", "files", false],
  ["document_withdrawn", "files", "files", false],
  ["stage_changed", "files", "files", false],
  ["closing_proposed", "files", "files", true],
  ["closing_confirmed", "files", "files", false],
  ["file_abandoned", "files", "files", false],
  ["dd_request", "files", "files", true],
  ["dd_question", "files", "files", true],
  ["dd_answer", "files", "files", false],
  ["dd_review", "files", "files", true],
  ["rating_open", "files", "files", true],
  ["rating_revealed", "files", "files", false],
  ["mediation_opened", "files", "mediation", true],
  ["mediation_acknowledged", "files", "mediation", false],
  ["mediation_answered", "files", "mediation", false],
  ["mediation", "files", "mediation", false],
  ["mediation_message", "messages", "messages", false],
  ["mediation_decided", "files", "mediation", false],
  ["insurance_expiring", "account", "account", true],
  ["profile_decision", "account", "account", false],
  ["deal_decision", "account", "account", false],
  ["sponsor_confirmed", "account", "account", false],
];

describe("the rules table", () => {
  it("has a case for every kind, and a kind for every case", () => {
    expect(CASES.map(([k]) => k).sort()).toEqual([...EVENT_KINDS].sort());
  });

  it.each(CASES)("%s → area %s, e-mail %s, to-do %s", (kind, area, email, task) => {
    const rule = EVENT_RULES[kind];
    expect(rule.area).toBe(area);
    expect(rule.email).toBe(email);
    expect(rule.task !== null).toBe(task);
    expect(rule.label.length).toBeGreaterThan(0);
    if (rule.task) {
      expect(rule.task.one).not.toBe(rule.task.many);
      expect(rule.task.doneWhen.length).toBeGreaterThan(0);
    }
  });

  it("puts every e-mail preference to use, and the fee agreement under the files, not the match requests", () => {
    for (const email of EMAIL_KINDS) expect(kindsOfEmail(email).length).toBeGreaterThan(0);
    expect(EVENT_RULES[eventOfMailKind("collaboration-agreement", "file_message")].email).toBe("files");
  });

  it.each(Object.entries(EVENT_OF_MAIL_KIND))("the e-mail %s tells the event %s", (mail, kind) => {
    expect(EVENT_KINDS).toContain(kind);
    expect(eventOfMailKind(mail, "message")).toBe(kind);
  });

  it("falls back for an e-mail kind it does not know (nor an Object property)", () => {
    expect(eventOfMailKind("unknown", "stage_changed")).toBe("stage_changed");
    expect(eventOfMailKind("toString", "stage_changed")).toBe("stage_changed");
  });
});

describe("to-dos", () => {
  it.each([
    [taskKey("closing_proposed", "f1"), "closing_proposed"],
    [taskKey("match_request", "r1"), "match_request"],
    ["message:m1", null], // a kind without a to-do
    ["nonsense", null],
    ["constructor:x", null],
  ])("%s is a to-do of %s", (key, kind) => expect(taskKindOf(key)).toBe(kind));

  it("groups open to-dos by kind, newest group first, linked to the newest of each", () => {
    const groups = taskGroups(taskTotals([
      { key: "match_request:r1", kind: "match_request", link: "/mandates?matching=a", createdAt: "2026-01-01T10:00:00.000Z" },
      { key: "match_request:r2", kind: "match_request", link: "/mandates?matching=b", createdAt: "2026-01-02T10:00:00.000Z" },
      { key: "closing_proposed:f1", kind: "closing_proposed", link: "/dashboard/dossiers/f1", createdAt: "2026-01-01T12:00:00.000Z" },
      { key: "message:m1", kind: "message", link: "/x", createdAt: "2026-01-03T12:00:00.000Z" },
    ]));
    expect(groups.map((g) => [g.kind, g.count, g.to])).toEqual([
      ["match_request", 2, "/mandates?matching=b"],
      ["closing_proposed", 1, "/dashboard/dossiers/f1"],
    ]);
    expect(groups[0]!.label).toBe("demandes de mise en relation attendent votre réponse");
    expect(groups[1]!.label).toBe("conclusion de dossier à confirmer");
  });

  it("says nothing when nothing is open", () => expect(taskGroups([])).toEqual([]));
});

describe("counts", () => {
  it.each([
    [{}, { messages: 0, files: 0, mandates: 0, account: 0 }],
    [{ message: 2, file_message: 1 }, { messages: 3, files: 0, mandates: 0, account: 0 }],
    [{ match_request: 1, new_match: 4, closing_proposed: 1, profile_decision: 1 }, { messages: 0, files: 1, mandates: 5, account: 1 }],
    [{ unknown_kind: 7 }, { messages: 0, files: 0, mandates: 0, account: 0 }],
  ])("%j → %j", (byKind, counts) => expect(areaCounts(byKind)).toEqual(counts));
});

describe("digests", () => {
  it("carry every kind but those with their own e-mail: messages, requests and mandate alerts included", () => {
    for (const kind of ["message", "file_message", "match_request", "request_accepted", "new_match", "mandate_expiring", "insurance_expiring", "rating_open", "mediation_answered", "sponsor_confirmed"] as const) {
      expect(DIGEST_KINDS).toContain(kind);
    }
    for (const kind of OWN_EMAIL_KINDS) expect(DIGEST_KINDS).not.toContain(kind);
    expect([...DIGEST_KINDS, ...OWN_EMAIL_KINDS].sort()).toEqual([...EVENT_KINDS].sort());
  });

  it.each([
    ["2026-11-28T09:30:00.000Z", "daily", "2026-11-28T00:00:00.000Z"],
    ["2026-11-28T23:59:59.000Z", "daily", "2026-11-28T00:00:00.000Z"],
    ["2026-11-28T09:30:00.000Z", "weekly", "2026-11-23T00:00:00.000Z"], // a Saturday: Monday 23
    ["2026-11-23T00:00:00.000Z", "weekly", "2026-11-23T00:00:00.000Z"], // the Monday itself
    ["2026-11-29T22:00:00.000Z", "weekly", "2026-11-23T00:00:00.000Z"], // the Sunday
  ] as const)("%s, %s → %s", (now, frequency, start) => {
    expect(digestPeriodStart(new Date(now), frequency).toISOString()).toBe(start);
  });

  it("groups lines under their kind's label and carries titles and links only", () => {
    const sections = digestSections([
      { kind: "document_shared", title: "Nouveau document", link: "/dashboard/dossiers/f1" },
      { kind: "document_withdrawn", title: "Document retiré", link: "/dashboard/dossiers/f1" },
      { kind: "match_request", title: "Nouvelle demande", link: "/mandates?matching=a" },
    ]);
    expect(sections).toEqual([
      {
        label: "Document",
        lines: [
          { title: "Nouveau document", link: "/dashboard/dossiers/f1" },
          { title: "Document retiré", link: "/dashboard/dossiers/f1" },
        ],
      },
      { label: "Demande de mise en relation", lines: [{ title: "Nouvelle demande", link: "/mandates?matching=a" }] },
    ]);
  });
});

describe("default e-mail frequencies", () => {
  it.each([
    ["messages", "immediate"],
    ["match_requests", "immediate"],
    ["match_alerts", "daily"],
    ["files", "daily"],
    ["mediation", "daily"],
    ["account", "daily"],
  ] as const)("%s: %s until the member chooses", (kind, frequency) => {
    expect(DEFAULT_EMAIL_FREQUENCIES[kind]).toBe(frequency);
  });
});
