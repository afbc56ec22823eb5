import type { Clock } from "./clock.js";
import type { EventCatalogue } from "./event-catalogue.js";
import type { EventDefinitionRecord } from "./events.js";
import type { Ids } from "./ids.js";
import type { JobHandler } from "./job-handler.js";
import type { OptionDescriptors } from "./options.js";
import type { Storage } from "./storage.js";

/**
 * What a module's services are built from: the instance's storage with the repositories the module reads and
 * writes (`R`), its clock and ids, the settings the module reads (`S`: its own options resolved, and what the
 * composition root passes it), and the catalogue of every module's events.
 */
export interface ModuleDependencies<R extends object = object, S extends object = object> {
  readonly storage: Storage<R>;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly settings: S;
  readonly eventCatalogue: EventCatalogue;
}

declare const owned: unique symbol;

/** A type marker of the repositories a module owns (its storage adapters provide them); nothing at run time. */
export interface Owns<R extends object> {
  readonly [owned]?: R;
}

/** The marker of the repositories `R` a module owns: `repositories: owns<{ staff: StaffRepository }>()`. */
export function owns<R extends object>(): Owns<R> {
  return Object.freeze({});
}

/**
 * A domain in core: the repositories it owns, its options, its services, the error codes it may throw, the events
 * it writes to the outbox and the queued jobs it handles. The composition root (modules.ts) builds the storage
 * port (`Repositories`), createPractice and its options, the error and event catalogues and the background job
 * table from the list of modules, so a new domain is a folder and one line there.
 */
export interface CoreModule<
  K extends string,
  O extends object,
  D,
  S extends object,
  C extends readonly string[],
  E extends EventDefinitionRecord,
  P extends OptionDescriptors,
> {
  readonly key: K;
  /** The repositories this domain owns, by property name (a type marker: owns<...>()). */
  readonly repositories: Owns<O>;
  /** Scalar options of createPractice this domain reads (their values arrive in `settings`). */
  readonly options: P;
  /** The services this domain adds to the Practice, by property name. */
  createServices(deps: D): S;
  /** Stable UPPER_SNAKE codes this domain's services throw (each mapped once per wire contract in packages/http). */
  readonly errorCodes: C;
  /** Outbox event types this domain writes, with their payload fields. */
  readonly events: E;
  /**
   * Queue name → handler, run by the background job runner wherever the
   * library runs (startBackgroundWork). Handlers are domain work only.
   */
  jobs?(services: S, deps: D): Readonly<Record<string, JobHandler>>;
}

/**
 * Declares a module, keeping its literal key, error codes, event names and options for the catalogues' types.
 * `createServices` names what it needs in its parameter's type (ModuleDependencies<its repositories, its
 * settings>); the composition root's check fails to compile, naming the module, when the practice cannot give it.
 */
export function defineCoreModule<
  const K extends string,
  O extends object,
  D,
  S extends object,
  const C extends readonly string[],
  const E extends EventDefinitionRecord = Record<never, never>,
  const P extends OptionDescriptors = Record<never, never>,
>(module: {
  key: K;
  repositories: Owns<O>;
  options?: P;
  createServices(deps: D): S;
  errorCodes: C;
  events: E;
  jobs?(services: S, deps: D): Readonly<Record<string, JobHandler>>;
}): CoreModule<K, O, D, S, C, E, P> {
  return Object.freeze({ ...module, options: module.options ?? ({} as P) });
}
