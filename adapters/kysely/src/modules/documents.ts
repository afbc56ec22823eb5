import { defineKyselyModule } from "../kysely-module.js";
import { patientDocumentsMigration } from "../migrations/036-patient-documents.js";
import { KyselyPatientDocumentRepository } from "../repositories/patient-document-repository.js";

/** Patient documents' records and each organisation's document settings. */
export const documentsKyselyModule = defineKyselyModule({
  key: "documents",
  repositories: (db, profile) => ({ patientDocuments: new KyselyPatientDocumentRepository(db, profile) }),
  migrations: (profile) => ({ "036-patient-documents": patientDocumentsMigration(profile) }),
  tables: ["patient_documents", "patient_document_settings"],
});
