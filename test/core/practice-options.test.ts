import { randomBytes } from "node:crypto";
import {
  createPractice,
  type PracticeOptions,
  PracticeConfigurationError,
  practiceOptionDescriptors,
} from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { describe, expect, it } from "vitest";

// The modules declare their scalar options (name, range, default); createPractice checks every one the same way.
const build = (options: Partial<PracticeOptions>) =>
  createPractice({
    storage: new MemoryStorage(),
    keys: { webhookSecretKey: randomBytes(32), vapid: null },
    ...options,
  });

describe("createPractice's module options", () => {
  it("lists each module's options with their defaults", () => {
    expect(
      Object.fromEntries(Object.entries(practiceOptionDescriptors).map(([name, option]) => [name, option.default])),
    ).toEqual({
      searchCountLimit: 1000,
      webhookRotationGraceSeconds: 0,
      allowHttpWebhooks: false,
      allowHttpPushEndpoints: false,
      waitlistOfferMinutes: 30,
      documentMaxBytes: 25 * 1024 * 1024,
      bulkExportResourcesPerFile: 50_000,
      bulkExportRetentionHours: 24,
    });
  });

  it("refuses a value outside an option's range, naming the option, the range and the value", () => {
    const refusal = (options: Partial<PracticeOptions>) => {
      try {
        build(options);
      } catch (error) {
        expect(error).toBeInstanceOf(PracticeConfigurationError);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refusal({ waitlistOfferMinutes: 0 })).toBe("waitlistOfferMinutes must be an integer from 1 to 1440 (got 0)");
    expect(refusal({ waitlistOfferMinutes: 2.5 })).toBe(
      "waitlistOfferMinutes must be an integer from 1 to 1440 (got 2.5)",
    );
    expect(refusal({ webhookRotationGraceSeconds: 604_801 })).toBe(
      "webhookRotationGraceSeconds must be an integer from 0 to 604800 (got 604801)",
    );
    expect(refusal({ searchCountLimit: 0 })).toBe(
      "searchCountLimit must be null or an integer from 1 to 1000000000 (got 0)",
    );
    expect(refusal({ allowHttpWebhooks: "yes" as never })).toBe("allowHttpWebhooks must be true or false (got yes)");
    expect(refusal({ searchCountLimit: null, webhookRotationGraceSeconds: 604_800, waitlistOfferMinutes: 1440 })).toBe(
      "accepted",
    );
  });
});
