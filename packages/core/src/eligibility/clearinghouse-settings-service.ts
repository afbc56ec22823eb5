import { noteAuditedResource } from "../audit/audit-scope.js";
import { assertWithinCallerClinics } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { InsuranceCard } from "../coverages/coverage.js";
import type { Clock } from "../kernel/clock.js";
import type { Storage } from "../kernel/storage.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";
import type { ClearinghouseConnection } from "./clearinghouse-connection.js";
import {
  assertValidClearinghouse,
  type ClearinghouseSettings,
  type ClearinghouseSettingsInput,
} from "./clearinghouse-settings.js";
import type { EligibilityRejection } from "./eligibility.js";
import { eligibilityError } from "./eligibility-errors.js";
import { type EligibilityGateway, EligibilityGatewayError } from "./eligibility-gateway.js";
import type { EligibilityServiceRepositories } from "./eligibility-service-repositories.js";

/** Where an organisation's inquiries go now: its own settings, the host's default, or nowhere. */
export type ClearinghouseSource = "api" | "environment" | "none";

/** The outcome of a connection test: whether a 271 came back, and what it said or why none came. */
export interface ClearinghouseTest {
  ok: boolean;
  source: ClearinghouseSource;
  durationMs: number;
  /** What the 271 held: benefits, or rejections (for a made-up member, the usual answer); null without a 271. */
  answered: "benefits" | "rejections" | null;
  rejections: EligibilityRejection[];
  /** Why no 271 came: timeout, unavailable (unreachable, an HTTP error such as 401), invalid_response. */
  failure: string | null;
  message: string | null;
}

/** The member a connection test asks about: made up, so the payer answers "not found" at most. */
export const CLEARINGHOUSE_TEST_MEMBER = "OPENPRACTICE-TEST";

/**
 * Each organisation's clearinghouse set, tested, rotated and removed through the API by its administrator, with
 * the host's own (the runtime's environment variable) as the default: no restart when an organisation is added.
 */
export class ClearinghouseSettingsService {
  constructor(
    private readonly deps: {
      storage: Storage<EligibilityServiceRepositories>;
      clock: Clock;
      cipher: SecretCipher;
      gateway: EligibilityGateway | null;
    },
  ) {}

  /** The organisation's settings (never the password) and which clearinghouse its checks use. */
  async get(principal: Principal): Promise<{ source: ClearinghouseSource; settings: ClearinghouseSettings | null }> {
    const settings =
      (await this.deps.storage.repositories.clearinghouseSettings.find(principal.organisationId)) ?? null;
    return { source: this.sourceOf(principal.organisationId, settings), settings };
  }

  private sourceOf(organisationId: number, settings: ClearinghouseSettings | null): ClearinghouseSource {
    if (settings) return "api";
    return this.deps.gateway?.hasDefaultFor?.(organisationId) ? "environment" : "none";
  }

  /**
   * Sets the organisation's clearinghouse (every field; the password may be left out to keep the stored one, and a
   * new one rotates it). An organisation-wide setting: a token restricted to clinics is refused.
   */
  async save(principal: Principal, input: ClearinghouseSettingsInput): Promise<ClearinghouseSettings> {
    assertWithinCallerClinics(principal, [], "the clearinghouse");
    const organisationId = principal.organisationId;
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const current = await tx.clearinghouseSettings.find(organisationId);
      assertValidClearinghouse(input, current !== undefined);
      const newPassword = typeof input.password === "string" ? input.password : undefined;
      const settings: ClearinghouseSettings = {
        organisationId,
        url: input.url as string,
        username: input.username as string,
        sealedPassword:
          newPassword === undefined ? (current?.sealedPassword as string) : this.deps.cipher.encrypt(newPassword),
        submitterId: input.submitterId as string,
        receiverId: input.receiverId as string,
        providerNpi: input.providerNpi as string,
        providerName: input.providerName as string,
        timeoutMs: (input.timeoutMs as number | null | undefined) ?? null,
        caPem: (input.caPem as string | null | undefined) ?? null,
        usage: (input.usage as "P" | "T" | undefined) ?? "P",
        passwordSetAt: newPassword === undefined && current ? current.passwordSetAt : now,
        // Another endpoint or credentials make the last test say nothing about these.
        lastTestedAt: null,
        lastTestOutcome: null,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      };
      await tx.clearinghouseSettings.save(settings, newPassword !== undefined || current === undefined);
      noteAuditedResource(organisationId);
      return settings;
    });
  }

  /** Removes the organisation's own settings: its checks go to the host's default again, or nowhere. */
  async remove(principal: Principal): Promise<void> {
    assertWithinCallerClinics(principal, [], "the clearinghouse");
    await this.deps.storage.transaction(async (tx) => {
      if (!(await tx.clearinghouseSettings.remove(principal.organisationId)))
        throw eligibilityError("CLEARINGHOUSE_NOT_SET", "The organisation has set no clearinghouse of its own", {});
    });
  }

  /** The connection the organisation set, password unsealed, for its checks; undefined when it set none. */
  async connectionFor(organisationId: number): Promise<ClearinghouseConnection | undefined> {
    return (await this.storedConnection(organisationId))?.connection;
  }

  /** The stored settings as a connection, with the row's time (a test records its outcome on that row only). */
  private async storedConnection(organisationId: number) {
    const s = await this.deps.storage.repositories.clearinghouseSettings.find(organisationId);
    if (!s) return undefined;
    let password: string;
    try {
      password = this.deps.cipher.decrypt(s.sealedPassword);
    } catch {
      // Sealed under another key (the instance's secret key changed): only setting it again helps.
      throw eligibilityError(
        "ELIGIBILITY_NOT_CONFIGURED",
        "The clearinghouse password cannot be unsealed with this instance's key; set the password again",
        {},
      );
    }
    const connection: ClearinghouseConnection = {
      url: s.url,
      username: s.username,
      password,
      submitterId: s.submitterId,
      receiverId: s.receiverId,
      providerNpi: s.providerNpi,
      providerName: s.providerName,
      ...(s.timeoutMs === null ? {} : { timeoutMs: s.timeoutMs }),
      ...(s.caPem === null ? {} : { ca: s.caPem }),
      usage: s.usage,
      tenantSupplied: true,
    };
    return { updatedAt: s.updatedAt, connection };
  }

  /**
   * Sends a 270 for a made-up member to the clearinghouse the organisation's checks use and reports whether a 271
   * came back (any 271: a "subscriber not found" proves the address, the credentials and the envelope ids work).
   * Nothing is kept but the outcome on the settings.
   */
  async test(principal: Principal, payerId: string): Promise<ClearinghouseTest> {
    const organisationId = principal.organisationId;
    const stored = await this.storedConnection(organisationId);
    const connection = stored?.connection;
    const source = connection ? "api" : this.sourceOf(organisationId, null);
    const gateway = this.deps.gateway;
    if (!gateway || source === "none")
      throw eligibilityError("ELIGIBILITY_NOT_CONFIGURED", "The organisation has no clearinghouse to test", {});
    const started = Date.now();
    const today = this.deps.clock.now().toISOString().slice(0, 10);
    // Only the fields a 270 reads: a made-up subscriber of the payer named.
    const coverage = {
      payer: { name: "CONNECTION TEST", payerId },
      subscriber: { relationship: "self" },
      insuranceNumber: CLEARINGHOUSE_TEST_MEMBER,
      groupNumber: null,
    } as unknown as InsuranceCard;
    let outcome: ClearinghouseTest;
    try {
      const exchange = await gateway.check(
        organisationId,
        {
          traceNumber: `test-${this.deps.clock.now().getTime()}`,
          serviceDate: today,
          serviceTypes: ["30"],
          coverage,
          patient: { firstName: "CONNECTION", lastName: "TEST", dateOfBirth: null },
        },
        connection,
      );
      outcome = {
        ok: true,
        source,
        durationMs: Date.now() - started,
        answered: exchange.result ? "benefits" : "rejections",
        rejections: exchange.rejections,
        failure: null,
        message: null,
      };
    } catch (error) {
      if (!(error instanceof EligibilityGatewayError)) throw error;
      outcome = {
        ok: false,
        source,
        durationMs: Date.now() - started,
        answered: null,
        rejections: [],
        failure: error.kind,
        // The operator's clearinghouse is the operator's: its hosts and addresses are not told to the organisation.
        message: source === "environment" ? `the host's clearinghouse gave no answer (${error.kind})` : error.message,
      };
    }
    const at = this.deps.clock.now();
    if (stored)
      await this.deps.storage.transaction((tx) =>
        tx.clearinghouseSettings.recordTest(
          organisationId,
          stored.updatedAt,
          at,
          outcome.ok ? "ok" : (outcome.failure ?? "failed"),
        ),
      );
    return outcome;
  }
}
