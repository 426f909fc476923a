// A confirmed connection between a buyer mandate and a seller mandate (sector K, the buyer
// searching C, both in 75): both members accept each other's request and the file opens.
import { expect } from "vitest";
import { createMatchRequest, respondToMatchRequest } from "~/features/connections/connections.server";
import { createMandate, mandateActor } from "~/features/mandates/mandates.server";
import type { CreatedMember } from "../support/factories";
import { mandateInput } from "./mandates-helpers";

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
