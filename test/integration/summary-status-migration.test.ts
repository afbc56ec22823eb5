import { patientFromDraft, toPatientRecord, type SoapNoteRecord } from "@openpractice/core";
import { sharedMigrations, type KyselyStorage } from "@openpractice/kysely";
import { mysqlProfile } from "@openpractice/mysql";
import { postgresProfile } from "@openpractice/postgres";
import { sqliteProfile } from "@openpractice/sqlite";
import { Migrator } from "kysely";
import { describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, openEngineStorage } from "../support/engines.js";

const T0 = new Date("2031-01-01T00:00:00Z");
const PROFILES = { sqlite: sqliteProfile, postgres: postgresProfile, mysql: mysqlProfile };

// Migration 014 on a database that already has notes: completed ones get the summary state their links say.
for (const engine of availableEngines()) {
  describe(`[${engine}] migration 014-soap-summary-status`, () => {
    it("backfills READY for completed notes with a summary, PENDING for completed ones without, nothing for open notes", async () => {
      const db = await freshDatabase(engine);
      const storage = (await openEngineStorage(engine, db.url)) as KyselyStorage;
      try {
        const r = storage.repositories;
        await r.organisations.ensure({ id: 1, name: "o", plan: "free", now: T0 });
        const patientId = (
          await r.patients.insertIfAbsent(
            toPatientRecord(
              patientFromDraft({ firstName: "Mig", lastName: "Ration", dateOfBirth: "1970-01-01" }, 1, T0),
            ),
          )
        ).patient.id;
        const note = (contextId: string, over: Partial<SoapNoteRecord>): SoapNoteRecord => ({
          contextId,
          organisationId: 1,
          clinicId: 1,
          patientId,
          serviceCaseId: null,
          caseTitle: null,
          appointmentId: null,
          type: "FOLLOWUP_SOAP",
          category: null,
          serviceDateTime: T0,
          entryDateTime: T0,
          status: "INCOMPLETED",
          completed: false,
          completedAt: null,
          renderingPhysician: 1,
          supervisingPhysician: null,
          submissionIds: {
            Subjective: `${contextId}-s`,
            Objective: `${contextId}-o`,
            Assessment: `${contextId}-a`,
            Plan: `${contextId}-p`,
          },
          treatmentSheetId: 0,
          planOfCareId: null,
          submitForBilling: false,
          billingStatus: null,
          summaryDocUrl: null,
          shortSummaryUrl: null,
          soapWithoutAppointment: true,
          parent: null,
          dataCarryForwardFrom: null,
          createdAt: T0,
          updatedAt: T0,
          ...over,
        });
        await r.soapNotes.insert(note("open", {}));
        await r.soapNotes.insert(
          note("rendered", {
            status: "COMPLETED",
            completed: true,
            completedAt: T0,
            summaryDocUrl: "/s.pdf",
            shortSummaryUrl: "/t.pdf",
          }),
        );
        await r.soapNotes.insert(note("waiting", { status: "COMPLETED", completed: true, completedAt: T0 }));

        const migrator = new Migrator({
          db: storage.db,
          provider: { getMigrations: async () => sharedMigrations(PROFILES[engine]) },
          allowUnorderedMigrations: true,
        });
        // Back to just before 014 (the later shared migrations come down first), then up again.
        const undone: string[] = [];
        while (!undone.includes("014-soap-summary-status")) {
          const down = await migrator.migrateDown();
          expect(down.error).toBeUndefined();
          undone.push(...(down.results ?? []).map((m) => m.migrationName));
        }
        expect(await storage.migrate()).toEqual([...undone].reverse());

        const status = async (contextId: string) => (await r.soapNotes.findByContextId(1, contextId))?.summaryStatus;
        expect([await status("open"), await status("rendered"), await status("waiting")]).toEqual([
          null,
          "READY",
          "PENDING",
        ]);
      } finally {
        await storage.close();
        await db.drop();
      }
    });
  });
}
