// Demo collaboration files for the seed: one confirmed connection for every fifth pair of
// mandates (a buyer and the seller created after it, owned by two different members), with
// both requests accepted, the introduction log, the file at a stage that varies from one file
// to the next, its timeline and a few messages. At 100 000 mandates (50 000 pairs): 10 000 files (the bench's
// scale). The first pair belongs to the founding and the premium demo personas.
import { faker } from "@faker-js/faker";
import {
  type collaborationEvents,
  type collaborationFiles,
  type collaborationMessages,
  type connectionEvents,
  type mandateMatchRequests,
} from "~/db/schema";
import { pairKey } from "~/features/connections/connection-rules";
import { fileReference } from "~/features/collaboration/collaboration-rules";
import { MANDATE_TYPE_LABELS } from "~/features/mandates/mandate-rules";
import type { Stage } from "~/features/collaboration/collaboration-rules";

export type SeedMandate = { id: string; profileId: string; mandateType: "buyer" | "seller"; clientCode: string; ownerName: string };

export type SeedFileRows = {
  requests: Array<typeof mandateMatchRequests.$inferInsert>;
  connectionEvents: Array<typeof connectionEvents.$inferInsert>;
  files: Array<typeof collaborationFiles.$inferInsert>;
  events: Array<typeof collaborationEvents.$inferInsert>;
  messages: Array<typeof collaborationMessages.$inferInsert>;
};

const DAY_MS = 86_400_000;
/** The stages the demo files are left at, in turn (the personas' file first: still open). */
const STAGE_CYCLE: Stage[] = ["exchanges", "introduction", "documents", "offer", "protocol", "concluded", "exchanges", "abandoned", "documents", "concluded"];
const WORKING: Stage[] = ["introduction", "exchanges", "documents", "offer", "protocol"];
const MESSAGES = [
  "Bonjour, merci pour la mise en relation. Quand pouvons-nous échanger par téléphone\u00a0?",
  "Bonjour, je vous propose jeudi à 10 h. Je vous transmets ensuite le mémorandum d’information.",
  "Mon client souhaite une première visite du site avant de formuler une offre.",
  "C’est noté, je reviens vers vous avec des disponibilités.",
];

const label = (m: SeedMandate) => `${MANDATE_TYPE_LABELS[m.mandateType]} «\u00a0${m.clientCode}\u00a0»`;

/** The rows of the files of these mandates (listed in creation order), every `every`-th pair. */
export function buildSeedFiles(mandatesInOrder: SeedMandate[], every = 5, lastNumbers: ReadonlyMap<number, number> = new Map()): SeedFileRows {
  const out: SeedFileRows = { requests: [], connectionEvents: [], files: [], events: [], messages: [] };
  let k = 0;
  for (let j = 0; j + 1 < mandatesInOrder.length; j += 2 * every) {
    const buyer = mandatesInOrder[j];
    const seller = mandatesInOrder[j + 1];
    if (buyer.mandateType !== "buyer" || seller.mandateType !== "seller" || buyer.profileId === seller.profileId) continue;
    const stage = STAGE_CYCLE[k % STAGE_CYCLE.length];
    const opened = new Date(Date.now() - (20 + (k % 40)) * DAY_MS);
    const at = (days: number, minutes = 0) => new Date(opened.getTime() + days * DAY_MS + minutes * 60_000);
    const r1 = faker.string.uuid();
    const r2 = faker.string.uuid();
    out.requests.push(
      { id: r1, requesterMandateId: buyer.id, targetMandateId: seller.id, requesterProfileId: buyer.profileId, message: null, status: "accepted", respondedAt: at(-1), createdAt: at(-3), updatedAt: at(-1) },
      { id: r2, requesterMandateId: seller.id, targetMandateId: buyer.id, requesterProfileId: seller.profileId, message: null, status: "accepted", respondedAt: at(0), createdAt: at(-2), updatedAt: at(0) },
    );
    const log: Array<[string, string, Date, "requested" | "accepted"]> = [
      [r1, buyer.profileId, at(-3), "requested"],
      [r2, seller.profileId, at(-2), "requested"],
      [r1, seller.profileId, at(-1), "accepted"],
      [r2, buyer.profileId, at(0), "accepted"],
    ];
    for (const [matchRequestId, actorProfileId, createdAt, event] of log) {
      out.connectionEvents.push({ id: faker.string.uuid(), matchRequestId, actorProfileId, event, details: null, createdAt });
    }
    const [a, b] = buyer.id < seller.id ? [buyer, seller] : [seller, buyer];
    const fileId = faker.string.uuid();
    const nameOf = (profileId: string) => (profileId === buyer.profileId ? buyer.ownerName : seller.ownerName);
    const events: Array<typeof collaborationEvents.$inferInsert> = log.map(([, actorProfileId, createdAt, event]) => ({
      id: faker.string.uuid(),
      fileId,
      actorProfileId,
      actorName: nameOf(actorProfileId),
      kind: `connection:${event}`,
      details: null,
      createdAt,
    }));
    events.push({ id: faker.string.uuid(), fileId, actorProfileId: null, actorName: null, kind: "file_opened", details: null, createdAt: at(0, 1) });
    // Walk the stages up to the file's own (through "protocol" for a concluded file).
    const target = stage === "concluded" ? "protocol" : stage === "abandoned" ? "exchanges" : stage;
    let day = 1;
    for (let s = 1; s <= WORKING.indexOf(target); s++) {
      const mover = s % 2 === 1 ? buyer.profileId : seller.profileId;
      events.push({ id: faker.string.uuid(), fileId, actorProfileId: mover, actorName: nameOf(mover), kind: "stage_changed", details: { from: WORKING[s - 1], to: WORKING[s] }, createdAt: at(day++) });
    }
    const closingDate = at(day).toISOString().slice(0, 10);
    if (stage === "concluded") {
      events.push(
        { id: faker.string.uuid(), fileId, actorProfileId: seller.profileId, actorName: seller.ownerName, kind: "closing_proposed", details: { closingDate, amountBand: "1m_3m" }, createdAt: at(day, 5) },
        { id: faker.string.uuid(), fileId, actorProfileId: buyer.profileId, actorName: buyer.ownerName, kind: "closing_confirmed", details: null, createdAt: at(day + 1) },
      );
    } else if (stage === "abandoned") {
      events.push({ id: faker.string.uuid(), fileId, actorProfileId: buyer.profileId, actorName: buyer.ownerName, kind: "abandoned", details: { reason: "financing", text: null }, createdAt: at(day) });
    }
    const messageCount = k % 3 === 2 ? 0 : 2 + (k % 3);
    for (let m = 0; m < messageCount; m++) {
      const sender = m % 2 === 0 ? buyer.profileId : seller.profileId;
      out.messages.push({ id: faker.string.uuid(), fileId, senderProfileId: sender, body: MESSAGES[m % MESSAGES.length], createdAt: at(0, 60 * (m + 1)) });
    }
    const last = events[events.length - 1].createdAt as Date;
    const lastMessage = messageCount ? at(0, 60 * messageCount) : last;
    const lastActivity = last > lastMessage ? last : lastMessage;
    out.events.push(...events);
    out.files.push({
      id: fileId,
      // Numbered once every file is built (below).
      reference: "",
      pairKey: pairKey(a.id, b.id),
      mandateAId: a.id,
      mandateBId: b.id,
      memberAId: a.profileId,
      memberBId: b.profileId,
      mandateALabel: label(a),
      mandateBLabel: label(b),
      stage,
      closingProposedBy: stage === "concluded" ? seller.profileId : null,
      closingProposedAt: stage === "concluded" ? at(day, 5) : null,
      closingDate: stage === "concluded" ? closingDate : null,
      amountBand: stage === "concluded" ? "1m_3m" : null,
      concludedAt: stage === "concluded" ? at(day + 1) : null,
      abandonReason: stage === "abandoned" ? "financing" : null,
      abandonText: null,
      abandonedAt: stage === "abandoned" ? at(day) : null,
      // The seller has read everything; the buyer has the last messages unread.
      memberAReadAt: a === seller ? lastActivity : at(0, 30),
      memberBReadAt: b === seller ? lastActivity : at(0, 30),
      lastActivityAt: lastActivity,
      createdAt: at(0, 1),
      updatedAt: lastActivity,
    });
    k++;
  }
  // References as the app gives them: per year (Paris time), in creation order, without gaps,
  // after the numbers a database already holds (`lastNumbers`, by year).
  const perYear = new Map<number, number>(lastNumbers);
  const byCreation = [...out.files].sort((x, y) => (x.createdAt as Date).getTime() - (y.createdAt as Date).getTime() || String(x.id).localeCompare(String(y.id)));
  for (const f of byCreation) {
    const year = Number(new Intl.DateTimeFormat("fr-FR", { year: "numeric", timeZone: "Europe/Paris" }).format(f.createdAt as Date));
    const n = (perYear.get(year) ?? 0) + 1;
    perYear.set(year, n);
    f.reference = fileReference(year, n);
  }
  return out;
}
