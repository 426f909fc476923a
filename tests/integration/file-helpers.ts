// What the tests of collaboration files share: a file opened through a confirmed connection (both
// members accept each other's request: sector K, the buyer searching C, both in 75) or directly
// (two factory mandates, fast), a temporary storage directory for the files' documents, and the
// call of a route module's loader or action the way React Router does it.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { Db } from "~/db/client.server";
import { collaborationEvents, mailOutbox, rateLimitCounters } from "~/db/schema";
import { openCollaborationFile } from "~/features/collaboration/file-opening.server";
import { FILE_EVENTS, isDeclaredKind } from "~/features/collaboration/timeline";
import { createMatchRequest, respondToMatchRequest } from "~/features/connections/connections.server";
import { createMandate, mandateActor } from "~/features/mandates/mandates.server";
import { getEnv, setEnv } from "~/lib/env.server";
import { setStorage } from "~/lib/storage/storage.server";
import { createMandate as createFactoryMandate, type CreatedMember } from "../support/factories";
import { mandateInput, statusOf } from "./mandates-helpers";

/**
 * A temporary DATA_DIR (and the automatic storage choice: the database on PostgreSQL, the local
 * directory on PGlite) for the whole test file, removed afterwards; rate limits and the outbox
 * emptied before each test. Call it before the file's own beforeAll.
 */
export function useFileTestEnvironment(t: { db?: Db }, prefix: string, env: { BETTER_AUTH_SECRET?: string } = {}): { dataDir: () => string } {
  let dataDir = "";
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), `rt-${prefix}-`));
    setEnv({ ...getEnv(), DATA_DIR: dataDir, ...env });
    setStorage(undefined);
  });
  afterAll(() => {
    setStorage(undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.db!.delete(rateLimitCounters);
    await t.db!.delete(mailOutbox);
  });
  return { dataDir: () => dataDir };
}

/** A file opened directly between two members' factory mandates (buyer, then seller). */
export async function openFileBetween(
  db: Db,
  buyerOwner: CreatedMember,
  sellerOwner: CreatedMember,
  clients: { buyer: string; seller: string },
): Promise<{ fileId: string; buyer: string; seller: string }> {
  const buyer = await createFactoryMandate(db, buyerOwner.profile.id, { mandateType: "buyer", clientName: clients.buyer });
  const seller = await createFactoryMandate(db, sellerOwner.profile.id, { mandateType: "seller", clientName: clients.seller });
  const fileId = await db.transaction((tx) => openCollaborationFile(tx, buyer.id, seller.id));
  return { fileId, buyer: buyer.id, seller: seller.id };
}

/** What a route module's loader or action returned, or threw (a Response, a data()). */
export type Outcome = { value?: unknown; thrown?: unknown };

export async function call(fn: (args: never) => Promise<unknown>, request: Request, params: Record<string, string>): Promise<Outcome> {
  try {
    return { value: await fn({ request, params, context: { requestId: "test" } } as never) };
  } catch (thrown) {
    return { thrown };
  }
}

/** The HTTP status of an outcome. */
export const outcomeStatus = (o: Outcome) => statusOf(o.thrown ?? o.value);

let counter = 0;

export async function openConfirmedFile(
  buyerOwner: CreatedMember,
  sellerOwner: CreatedMember,
  clients: { buyer: string; seller: string },
  /** The number in the client codes (ACQ-n, CED-n); a counter of this module by default. */
  n = ++counter,
): Promise<{ fileId: string; buyer: string; seller: string }> {
  const bm = mandateActor(buyerOwner.profile);
  const sm = mandateActor(sellerOwner.profile);
  const buyer = await createMandate(
    bm,
    mandateInput({ clientCode: `ACQ-${n}`, clientName: clients.buyer, clientAddress: "1 rue Alice", searchSectors: ["C"], searchTerritories: ["75"] }),
  );
  const seller = await createMandate(
    sm,
    mandateInput({
      mandateType: "seller",
      clientCode: `CED-${n}`,
      clientName: clients.seller,
      clientAddress: "2 rue du Canari",
      searchSectors: null,
      searchTerritories: null,
      targetAmountMin: null,
      targetAmountMax: null,
      companySector: "K",
      companyTerritory: "75",
      valuationAmount: 500_000,
    }),
  );
  const r1 = await createMatchRequest(bm, { mandateId: buyer.id, targetMandateId: seller.id, message: null });
  const r2 = await createMatchRequest(sm, { mandateId: seller.id, targetMandateId: buyer.id, message: null });
  await respondToMatchRequest(sm, r1.requestId, "accepted");
  const second = await respondToMatchRequest(bm, r2.requestId, "accepted");
  expect(second.fileId).toBeTruthy();
  return { fileId: second.fileId!, buyer: buyer.id, seller: seller.id };
}

/**
 * After each test of the file, every event on the files' timelines is of a declared kind, in its
 * declared shape; at the end, at least one event was checked (the check cannot pass vacuously).
 */
export function checkTimelineEvents(t: { db?: Db }): void {
  let checked = 0;
  afterEach(async () => {
    const rows = await t.db!.select({ kind: collaborationEvents.kind, details: collaborationEvents.details }).from(collaborationEvents);
    for (const row of rows) {
      expect(isDeclaredKind(row.kind), row.kind).toBe(true);
      checked += 1;
      if (row.kind.startsWith("connection:")) continue;
      const parsed = FILE_EVENTS[row.kind as keyof typeof FILE_EVENTS].details.safeParse(row.details);
      expect(parsed.success, `${row.kind} ${JSON.stringify(row.details)}`).toBe(true);
    }
  });
  afterAll(() => {
    expect(checked).toBeGreaterThan(0);
  });
}
