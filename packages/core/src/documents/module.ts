import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { integerOption, type OptionValues } from "../kernel/options.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";
import type { DocumentServiceRepositories } from "./documents-service-repositories.js";
import type { DocumentStore } from "./document-store.js";
import type { MalwareScanner } from "./malware-scanner.js";
import { DOCUMENT_ERROR_CODES } from "./patient-document-errors.js";
import { DOCUMENT_EVENTS } from "./patient-document-events.js";
import type { PatientDocumentRepository } from "./patient-document-repository.js";
import { DOCUMENT_SCAN_QUEUE, PatientDocumentService } from "./patient-document-service.js";
import { DOCUMENT_LIMITS } from "./patient-document.js";

const options = {
  /** The largest file an upload may carry, in bytes (default 25 MiB; at most 1 GiB). */
  documentMaxBytes: integerOption({ min: 1, max: 1024 * 1024 * 1024, default: DOCUMENT_LIMITS.defaultMaxBytes }),
};

/** What the documents' services read of the practice's settings besides their options. */
export interface DocumentSettingsOfPractice extends OptionValues<typeof options> {
  /** Wraps each document's data key (the cipher of webhook signature keys). */
  readonly cipher: SecretCipher;
  /** Where the sealed bytes go (createPractice's documentStore); null: uploads and downloads are refused. */
  readonly documentStore: DocumentStore | null;
  /** Scans uploads (createPractice's malwareScanner); null: documents are served unscanned. */
  readonly malwareScanner: MalwareScanner | null;
  /** The media types accepted, as detected from the content (createPractice's documentMediaTypes). */
  readonly documentMediaTypes: readonly string[];
}

/** Patient documents (spec 9.4, on v1): uploads sealed in a document store, scanned, listed, served, purged. */
export const documentsModule = defineCoreModule({
  key: "documents",
  repositories: owns<{ patientDocuments: PatientDocumentRepository }>(),
  options,
  createServices: ({
    storage,
    clock,
    settings,
  }: ModuleDependencies<DocumentServiceRepositories, DocumentSettingsOfPractice>) => ({
    patientDocuments: new PatientDocumentService({
      storage,
      clock,
      cipher: settings.cipher,
      store: settings.documentStore,
      scanner: settings.malwareScanner,
      limits: { maxBytes: settings.documentMaxBytes, allowedMediaTypes: settings.documentMediaTypes },
    }),
  }),
  errorCodes: DOCUMENT_ERROR_CODES,
  events: DOCUMENT_EVENTS,
  jobs: ({ patientDocuments }) => ({
    [DOCUMENT_SCAN_QUEUE]: async (job) => {
      const { organisationId, documentId } = job.payload as { organisationId: number; documentId: number };
      await patientDocuments.scan(Number(organisationId), Number(documentId));
    },
  }),
});
