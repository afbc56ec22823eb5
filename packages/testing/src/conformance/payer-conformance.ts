import type { Payer, Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-10-01T09:00:00.000Z");

/** The payer part of the storage contract: the registry upsert, organisations' own payers unique with the registry's, scoped search. */
export function describePayerConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("payers", () => {
    let s: Storage;
    const row = (payerId: string, name: string, over: Partial<Payer> = {}) => ({
      payerId,
      name,
      type: "commercial" as const,
      eligibility: true,
      medicarePartB: false,
      active: true,
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });
    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
    });

    it(`[${engine}] upserts the registry by payer id; organisations see it and their own payers only; search folds and pages`, async () => {
      expect(
        await s.transaction((tx) => tx.payers.upsertRegistry([row("60054", "Aetna"), row("62308", "Cigna")])),
      ).toEqual({
        created: 2,
        updated: 0,
      });
      expect(
        await s.transaction((tx) =>
          tx.payers.upsertRegistry([row("60054", "Aetna Better Health", { type: "medicaid" })]),
        ),
      ).toEqual({ created: 0, updated: 1 });
      const own = await s.repositories.payers.insert({ ...row("LOC01", "Ünion Local"), organisationId: 1 });
      expect(own.created).toBe(true);
      const names = async (org: number, terms: string[] = [], type?: Payer["type"]) =>
        (await s.repositories.payers.search(org, { terms, type, limit: 10, offset: 0 })).payers.map((p) => p.name);
      expect(await names(1)).toEqual(["Aetna Better Health", "Cigna", "Ünion Local"]);
      expect(await names(2)).toEqual(["Aetna Better Health", "Cigna"]);
      expect(await names(1, ["union"])).toEqual(["Ünion Local"]);
      expect(await names(1, ["60054"])).toEqual(["Aetna Better Health"]);
      expect(await names(1, [], "medicaid")).toEqual(["Aetna Better Health"]);
      expect(await s.repositories.payers.search(1, { terms: [], limit: 1, offset: 1 })).toMatchObject({ total: 3 });
      const registry = (await s.repositories.payers.search(2, { terms: ["cigna"], limit: 1, offset: 0 })).payers[0]!;
      expect(registry.organisationId).toBeNull();
      expect(await s.repositories.payers.findById(2, registry.id)).toEqual(registry);
      if (own.created) expect(await s.repositories.payers.findById(2, own.payer.id)).toBeUndefined();
    });

    it(`[${engine}] refuses an organisation's payer whose payer id the registry or the organisation has; 10 concurrent inserts create one`, async () => {
      await s.transaction((tx) => tx.payers.upsertRegistry([row("60054", "Aetna")]));
      const aetna = (await s.repositories.payers.search(1, { terms: ["aetna"], limit: 1, offset: 0 })).payers[0]!;
      expect(await s.repositories.payers.insert({ ...row("60054", "Mine"), organisationId: 1 })).toEqual({
        created: false,
        existingId: aetna.id,
      });
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          s.transaction((tx) => tx.payers.insert({ ...row("LOC02", "Local"), organisationId: 2 })),
        ),
      );
      const created = results.filter((r) => r.created);
      expect(created).toHaveLength(1);
      const id = created[0]!.created ? created[0]!.payer.id : 0;
      for (const r of results) if (!r.created) expect(r.existingId).toBe(id);
      expect(await s.repositories.payers.insert({ ...row("LOC02", "Local"), organisationId: 1 })).toMatchObject({
        created: true,
      });
    });
  });
}
