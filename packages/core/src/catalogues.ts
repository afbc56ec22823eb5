import { DomainError as KernelDomainError, type ErrorDetails, type ValidationIssue } from "./kernel/domain-error.js";
import { eventCatalogue } from "./kernel/event-catalogue.js";
import { checkedEvent, type OutboxEvent } from "./kernel/events.js";
import type { ErrorCodeOf } from "./kernel/module-list.js";
import { coreModules, type EventDefinitions } from "./modules.js";

/**
 * The stable catalogue of domain error codes, gathered from every core
 * module's `errorCodes` (each code's meaning is documented where its module
 * declares it). Codes are part of the public contract: integrators branch on
 * them, so a code is never renamed or reused. Each wire contract (v1 envelope,
 * v2 error body) maps these codes exactly once, in packages/http, and the
 * compiler refuses a code either map lacks.
 */
export type ErrorCode = ErrorCodeOf<typeof coreModules>;

const ERROR_CODES: readonly ErrorCode[] = Object.freeze(coreModules.flatMap((m): readonly ErrorCode[] => m.errorCodes));

/** Every code, module by module. */
export function errorCodes(): readonly ErrorCode[] {
  return ERROR_CODES;
}

/** The error type of OpenPractice with a code of the catalogue (the features' own constructors narrow it further). */
export type DomainError = KernelDomainError<ErrorCode>;

/** The DomainError class as the package exports it: constructed with a code of the catalogue only. */
export interface DomainErrorClass {
  new (code: ErrorCode, message: string, details?: ErrorDetails): DomainError;
  readonly prototype: DomainError;
  /** An INVALID_PARAMETER error naming one query parameter, its value and what is wrong. */
  invalidParameter(parameter: string, value: unknown, reason: string): KernelDomainError<"INVALID_PARAMETER">;
  /** UNKNOWN_REFERENCE: ids in the input that name nothing in the organisation, one issue each. */
  unknownReference(issues: ValidationIssue[]): KernelDomainError<"UNKNOWN_REFERENCE">;
  /** A VALIDATION_FAILED error listing every issue at once. */
  validation(issues: ValidationIssue[], message?: string): KernelDomainError<"VALIDATION_FAILED">;
}

/**
 * The single error type of OpenPractice. Errors are data: a stable code, a human message and optional details.
 * HTTP mapping happens once per contract. (One class: features throw it through their typed constructors.)
 */
export const DomainError: DomainErrorClass = KernelDomainError;

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof KernelDomainError;
}

/**
 * Event types the core emits, with the exact identifier fields each payload may
 * carry (spec 6.1: identifiers only, organisation_id always, no status and no
 * patient health information), gathered from every module's `events`.
 */
export type EventType = keyof EventDefinitions & string;

type EventFields = { readonly [T in EventType]: Extract<EventDefinitions[T]["fields"], readonly string[]> };

/** Every module's events in one catalogue, in the modules' order: handed to the modules that route events (webhooks). */
export const practiceEvents = eventCatalogue(Object.assign({}, ...coreModules.map((m) => m.events)));

/** The payload fields of every event type. */
export function eventPayloadFields(): EventFields {
  return practiceEvents.fields as EventFields;
}

/** One line per event type, for the catalog endpoint and docs/webhooks.md. */
export function eventDescriptions(): Readonly<Record<EventType, string>> {
  return practiceEvents.descriptions as Readonly<Record<EventType, string>>;
}

/** True when `type` names an event some module emits. */
export function isEventType(type: unknown): type is EventType {
  return practiceEvents.has(type);
}

/** Distributive, so the data of "any event" is the union of each type's shape. */
export type EventData<T extends EventType> = T extends EventType
  ? {
      /** null only where the record has no such link (an appointment without a case). */
      [K in EventFields[T][number]]: number | string | null;
    }
  : never;

/** A domain event as written to the outbox, in the same transaction as the change it reports. */
export interface DomainEvent<T extends EventType = EventType> extends OutboxEvent<T> {
  data: EventData<T>;
}

/**
 * Builds an event of any module, refusing any payload field outside the type's allow-list so a status or a name
 * can never leak into a webhook by accident. (Features build theirs with their own builder, eventsOf.)
 */
export function domainEvent<T extends EventType>(eventType: T, data: EventData<T>, occurredAt: Date): DomainEvent<T> {
  return checkedEvent(eventType, practiceEvents.fields[eventType] ?? [], data, occurredAt);
}

/** The JSON Schema of an event type's `data`: exactly its fields, all required, nothing else. */
export function eventDataSchema(type: EventType): object {
  return practiceEvents.dataSchema(type);
}

/**
 * Sample `data` of an event type for a test delivery: every field of the type, valid against its schema
 * (eventDataSchema), with the caller's organisation and placeholder identifiers that name nothing (0, SAMPLE).
 */
export function sampleEventData(type: EventType, organisationId: number): Record<string, unknown> {
  return practiceEvents.sampleData(type, organisationId);
}
