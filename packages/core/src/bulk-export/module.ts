import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { integerOption, type OptionValues } from "../kernel/options.js";
import type { DocumentStore } from "../documents/document-store.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";
import { BULK_EXPORT_LIMITS } from "./bulk-export.js";
import { BULK_EXPORT_ERROR_CODES } from "./bulk-export-errors.js";
import type { BulkExportRepository, BulkExportSource } from "./bulk-export-repository.js";
import { BULK_EXPORT_QUEUE, BulkExportService, type BulkExportServiceRepositories } from "./bulk-export-service.js";

const options = {
  /** Resources per NDJSON file of a Bulk Data export, and per slice of its job (default 50,000). */
  bulkExportResourcesPerFile: integerOption({
    min: 100,
    max: 1_000_000,
    default: BULK_EXPORT_LIMITS.defaultResourcesPerFile,
  }),
  /** Hours a completed export's files are kept before the purge removes them (default 24; at most 30 days). */
  bulkExportRetentionHours: integerOption({ min: 1, max: 720, default: BULK_EXPORT_LIMITS.defaultRetentionHours }),
};

/** What the export reads of the practice's settings besides its options. */
export interface BulkExportSettingsOfPractice extends OptionValues<typeof options> {
  /** Wraps each file's data key (as documents' keys are). */
  readonly cipher: SecretCipher;
  /** Where the sealed NDJSON goes (createPractice's documentStore); null: kick-offs are refused. */
  readonly documentStore: DocumentStore | null;
}

/** FHIR Bulk Data export (docs/fhir.md): NDJSON files of an organisation's records, written by a queued job. */
export const bulkExportModule = defineCoreModule({
  key: "bulkExport",
  repositories: owns<{ bulkExports: BulkExportRepository; bulkExportSource: BulkExportSource }>(),
  options,
  createServices: ({
    storage,
    clock,
    ids,
    settings,
  }: ModuleDependencies<BulkExportServiceRepositories, BulkExportSettingsOfPractice>) => ({
    bulkExports: new BulkExportService({
      storage,
      clock,
      ids,
      settings: {
        resourcesPerFile: settings.bulkExportResourcesPerFile,
        retentionHours: settings.bulkExportRetentionHours,
        cipher: settings.cipher,
        store: settings.documentStore,
      },
    }),
  }),
  errorCodes: BULK_EXPORT_ERROR_CODES,
  events: {},
  jobs: ({ bulkExports }) => ({ [BULK_EXPORT_QUEUE]: (job, context) => bulkExports.run(job, context) }),
});
