import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { practiceOptionSchema, practiceOptionsFor } from "./practice-options.js";

// The core modules' options reach createPractice through the runtime's loop over their descriptors: the variables
// keep the names operators set (docs/configuration.md), with the ranges createPractice accepts.
describe("the core modules' options in the runtime", () => {
  it("reads each integer option from its variable, named as before", () => {
    expect(Object.keys(practiceOptionSchema()).sort()).toEqual([
      "OPENPRACTICE_BULK_EXPORT_RESOURCES_PER_FILE",
      "OPENPRACTICE_BULK_EXPORT_RETENTION_HOURS",
      "OPENPRACTICE_DOCUMENT_MAX_BYTES",
      "OPENPRACTICE_SEARCH_COUNT_LIMIT",
      "OPENPRACTICE_WAITLIST_OFFER_MINUTES",
      "OPENPRACTICE_WEBHOOK_ROTATION_GRACE_SECONDS",
    ]);
    const c = loadConfig({
      OPENPRACTICE_WAITLIST_OFFER_MINUTES: "45",
      OPENPRACTICE_WEBHOOK_ROTATION_GRACE_SECONDS: "86400",
      OPENPRACTICE_SEARCH_COUNT_LIMIT: "0",
    });
    expect([c.waitlistOfferMinutes, c.webhookRotationGraceSeconds, c.searchCountLimit]).toEqual([45, 86_400, null]);
  });

  it("refuses a value outside the option's range, naming the variable", () => {
    expect(() => loadConfig({ OPENPRACTICE_WAITLIST_OFFER_MINUTES: "1441" })).toThrow(
      /^OPENPRACTICE_WAITLIST_OFFER_MINUTES: .*1440.* \(got '1441'\)$/,
    );
    expect(() => loadConfig({ OPENPRACTICE_WAITLIST_OFFER_MINUTES: "0" })).toThrow(
      /^OPENPRACTICE_WAITLIST_OFFER_MINUTES: /,
    );
    expect(() => loadConfig({ OPENPRACTICE_WEBHOOK_ROTATION_GRACE_SECONDS: "604801" })).toThrow(
      /^OPENPRACTICE_WEBHOOK_ROTATION_GRACE_SECONDS: /,
    );
    expect(() => loadConfig({ OPENPRACTICE_SEARCH_COUNT_LIMIT: "-1" })).toThrow(/^OPENPRACTICE_SEARCH_COUNT_LIMIT: /);
  });

  it("turns the development options on with OPENPRACTICE_ENV=development, and names that setting in refusals", () => {
    const development = practiceOptionsFor(loadConfig({ OPENPRACTICE_ENV: "development" }));
    expect(development).toMatchObject({
      allowHttpWebhooks: true,
      allowHttpPushEndpoints: true,
      waitlistOfferMinutes: 30,
      documentMaxBytes: 25 * 1024 * 1024,
      webhookRotationGraceSeconds: 0,
      searchCountLimit: 1000,
      settingNames: {
        allowHttpWebhooks: "OPENPRACTICE_ENV=development",
        allowHttpPushEndpoints: "OPENPRACTICE_ENV=development",
      },
    });
    expect(practiceOptionsFor(loadConfig({}))).toMatchObject({
      allowHttpWebhooks: false,
      allowHttpPushEndpoints: false,
    });
  });
});
