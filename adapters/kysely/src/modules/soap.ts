import { defineKyselyModule } from "../kysely-module.js";
import { soapNotesMigration } from "../migrations/007-soap-notes.js";
import { soapCompletionMigration } from "../migrations/010-soap-completion.js";
import { soapSummaryStatusMigration } from "../migrations/014-soap-summary-status.js";
import { planSectionSettingMigration } from "../migrations/015-plan-section-setting.js";
import { planOfCareMedicalNecessityMigration } from "../migrations/044-plan-of-care-medical-necessity.js";
import { planOfCareMedicareMigration } from "../migrations/046-plan-of-care-medicare.js";
import { KyselyClaimRepository } from "../repositories/claim-repository.js";
import { KyselyPlanOfCareRepository } from "../repositories/plan-of-care-repository.js";
import { KyselySoapDocumentRepository } from "../repositories/soap-document-repository.js";
import { KyselySoapNoteRepository } from "../repositories/soap-note-repository.js";
import { KyselyTreatmentSheetRepository } from "../repositories/treatment-sheet-repository.js";

/** SOAP notes, forms, signatures, treatment sheets, claims, plans of care and summary documents. */
export const soapKyselyModule = defineKyselyModule({
  key: "soap",
  repositories: (db, profile) => ({
    soapNotes: new KyselySoapNoteRepository(db, profile),
    treatmentSheets: new KyselyTreatmentSheetRepository(db, profile),
    plansOfCare: new KyselyPlanOfCareRepository(db, profile),
    soapDocuments: new KyselySoapDocumentRepository(db),
    claims: new KyselyClaimRepository(db, profile),
  }),
  migrations: (profile) => ({
    "007-soap-notes": soapNotesMigration(profile),
    "010-soap-completion": soapCompletionMigration(profile),
    "014-soap-summary-status": soapSummaryStatusMigration(),
    "015-plan-section-setting": planSectionSettingMigration(),
    "044-plan-of-care-medical-necessity": planOfCareMedicalNecessityMigration(),
    "046-plan-of-care-medicare": planOfCareMedicareMigration(),
  }),
  tables: [
    "soap_notes",
    "form_submissions",
    "soap_signatures",
    "soap_note_history",
    "treatment_sheets",
    "claims",
    "plans_of_care",
    "soap_documents",
  ],
});
