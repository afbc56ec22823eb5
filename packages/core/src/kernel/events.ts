/** One event type of a module: the identifier fields its payload carries (spec 6.1) and one line for the catalog. */
export interface EventDefinition {
  readonly fields: readonly string[];
  readonly description: string;
}

/** A module's event types, by name. */
export type EventDefinitionRecord = Readonly<Record<string, EventDefinition>>;

/** The payload of an event of a definition: exactly its fields, identifiers (null only where there is no such link). */
export type EventPayload<D extends EventDefinition> = { [K in D["fields"][number]]: number | string | null };

/** An event as written to the outbox, in the same transaction as the change it reports. */
export interface OutboxEvent<T extends string = string> {
  organisationId: number;
  eventType: T;
  data: Readonly<Record<string, number | string | null>>;
  occurredAt: Date;
}

/** Builds an event of one of the types it was made for, with exactly that type's payload fields. */
export type EventBuilder<E extends EventDefinitionRecord> = <T extends keyof E & string>(
  eventType: T,
  data: EventPayload<E[T]>,
  occurredAt: Date,
) => OutboxEvent<T> & { data: EventPayload<E[T]> };

/**
 * Refuses any payload field outside the type's allow-list, and any missing one, so a status or a name can never
 * leak into a webhook by accident and receivers can rely on the shape.
 */
export function checkedEvent<T extends string, D extends Readonly<Record<string, number | string | null>>>(
  eventType: T,
  allowed: readonly string[],
  data: D,
  occurredAt: Date,
): OutboxEvent<T> & { data: D } {
  for (const key of Object.keys(data)) {
    if (!allowed.includes(key)) throw new Error(`Event ${eventType} may not carry field ${key}`);
  }
  for (const key of allowed) {
    if (!(key in data)) throw new Error(`Event ${eventType} must carry field ${key}`);
  }
  return { organisationId: Number(data.organisation_id), eventType, data, occurredAt };
}

/**
 * The event builder of a feature: typed to the events it declares (its module lists the same definitions), so an
 * undeclared type or payload field fails to compile, and is refused at run time too.
 */
export function eventsOf<const E extends EventDefinitionRecord>(definitions: E): EventBuilder<E> {
  return (eventType, data, occurredAt) => {
    const definition = definitions[eventType];
    if (!definition) throw new Error(`Event ${eventType} is not declared here`);
    return checkedEvent(eventType, definition.fields, data, occurredAt);
  };
}
