import type { Clock } from "../kernel/clock.js";
import type { Ids } from "../kernel/ids.js";
import type { JobHandler } from "../kernel/job-handler.js";
import type { Storage } from "../ports/storage.js";
import type { PracticeSettings } from "./practice-settings.js";

/** One event type of a module: the identifier fields its payload carries (spec 6.1) and one line for the catalog. */
export interface EventDefinition {
  readonly fields: readonly string[];
  readonly description: string;
}

/** What every module's services are built from: the instance's storage, clock, ids and resolved options. */
export interface ModuleDependencies {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly settings: PracticeSettings;
}

/**
 * A domain in core: its services, the error codes it may throw, the events it
 * writes to the outbox and the queued jobs it handles. `createPractice`, the
 * error catalogue, the event catalogue and the background job table are built
 * from the list of modules (modules.ts), so a new domain is a folder and one
 * line there.
 */
export interface CoreModule<
  K extends string,
  S extends object,
  C extends readonly string[],
  E extends Readonly<Record<string, EventDefinition>>,
> {
  readonly key: K;
  /** The services this domain adds to the Practice, by property name. */
  createServices(deps: ModuleDependencies): S;
  /** Stable UPPER_SNAKE codes this domain's services throw (each mapped once per wire contract in packages/http). */
  readonly errorCodes: C;
  /** Outbox event types this domain writes, with their payload fields. */
  readonly events: E;
  /**
   * Queue name → handler, run by the background job runner wherever the
   * library runs (startBackgroundWork). Handlers are domain work only.
   */
  jobs?(services: S, deps: ModuleDependencies): Readonly<Record<string, JobHandler>>;
}

/** Declares a module, keeping its literal error codes and event names for the catalogues' types. */
export function defineCoreModule<
  const K extends string,
  S extends object,
  const C extends readonly string[],
  const E extends Readonly<Record<string, EventDefinition>> = Record<never, EventDefinition>,
>(module: CoreModule<K, S, C, E>): CoreModule<K, S, C, E> {
  return Object.freeze(module);
}
