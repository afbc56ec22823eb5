import { randomBytes } from "node:crypto";
import {
  type Clock,
  coreModules,
  createPractice,
  defineCoreModule,
  DomainError,
  type ErrorCode,
  type ErrorCodeOf,
  type EventDefinitionsOf,
  environmentVariableOf,
  eventCatalogue,
  errorsOf,
  eventsOf,
  integerOption,
  type ModuleDependencies,
  type ModulesServed,
  type OptionDescriptorsOf,
  type OptionValues,
  type OutboxRepository,
  owns,
  type PatientRepository,
  type PracticeSettings,
  type Principal,
  type Repositories,
  type RepositoriesOf,
  type ServicesOf,
  type Storage,
} from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { describe, expect, expectTypeOf, it } from "vitest";

// A new domain in core is its folder and one line in modules.ts: everything central is built from the module
// list. This fixture domain (patients' reminders) is what such a folder holds, added to a copy of the list; the
// types below are the ones modules.ts builds from the real list, checked by tsc, and the catalogues are built the
// way catalogues.ts builds them.

// reminders/reminder-repository.ts: the port, owned by the domain.
interface Reminder {
  id: number;
  organisationId: number;
  patientId: number;
  dueAt: Date;
}
interface ReminderRepository {
  insert(reminder: Omit<Reminder, "id">): Promise<Reminder>;
}

// reminders/reminder-errors.ts and reminder-events.ts: codes and events with their typed constructors.
const REMINDER_ERROR_CODES = ["REMINDER_PATIENT_NOT_FOUND"] as const;
const reminderError = errorsOf(REMINDER_ERROR_CODES);
const REMINDER_EVENTS = {
  "reminder.created": { fields: ["organisation_id", "reminder_id", "patient_id"], description: "A reminder was set." },
} as const;
const reminderEvent = eventsOf(REMINDER_EVENTS);

// reminders/reminder-service.ts: the service, on the repositories it declares (its own, a lower domain's, the outbox).
interface ReminderServiceRepositories {
  reminders: ReminderRepository;
  patients: Pick<PatientRepository, "findById">;
  outbox: OutboxRepository;
}
class ReminderService {
  constructor(
    private readonly deps: { storage: Storage<ReminderServiceRepositories>; clock: Clock; leadMinutes: number },
  ) {}

  set(principal: Principal, patientId: number, appointmentAt: Date): Promise<Reminder> {
    const orgId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      if (!(await tx.patients.findById(orgId, patientId)))
        throw reminderError("REMINDER_PATIENT_NOT_FOUND", "No such patient", { patient_id: patientId });
      const dueAt = new Date(appointmentAt.getTime() - this.deps.leadMinutes * 60_000);
      const reminder = await tx.reminders.insert({ organisationId: orgId, patientId, dueAt });
      const data = { organisation_id: orgId, reminder_id: reminder.id, patient_id: patientId };
      await tx.outbox.append(reminderEvent("reminder.created", data, this.deps.clock.now()));
      return reminder;
    });
  }
}

// reminders/module.ts: the module, with an option.
const options = {
  /** How long before an appointment its reminder is due, in minutes. */
  reminderLeadMinutes: integerOption({ min: 1, max: 10_080, default: 1_440 }),
};
const remindersModule = defineCoreModule({
  key: "reminders",
  repositories: owns<{ reminders: ReminderRepository }>(),
  options,
  createServices: ({
    storage,
    clock,
    settings,
  }: ModuleDependencies<ReminderServiceRepositories, OptionValues<typeof options>>) => ({
    reminders: new ReminderService({ storage, clock, leadMinutes: settings.reminderLeadMinutes }),
  }),
  errorCodes: REMINDER_ERROR_CODES,
  events: REMINDER_EVENTS,
});

// modules.ts, with the domain's one line.
const withReminders = [...coreModules, remindersModule] as const;
type WithReminders = typeof withReminders;
type Keys = WithReminders[number]["key"];
type Settings = PracticeSettings & OptionValues<OptionDescriptorsOf<WithReminders>>;

describe("adding a domain to core", () => {
  it("builds the storage port, the services, the codes, the events and the options from the longer list", () => {
    expectTypeOf<RepositoriesOf<WithReminders>>().toMatchTypeOf<Repositories & { reminders: ReminderRepository }>();
    expectTypeOf<ServicesOf<WithReminders>>().toHaveProperty("reminders").toEqualTypeOf<ReminderService>();
    expectTypeOf<ErrorCodeOf<WithReminders>>().toEqualTypeOf<ErrorCode | "REMINDER_PATIENT_NOT_FOUND">();
    expectTypeOf<EventDefinitionsOf<WithReminders>>().toHaveProperty("reminder.created");
    expectTypeOf<OptionValues<OptionDescriptorsOf<WithReminders>>>()
      .toHaveProperty("reminderLeadMinutes")
      .toEqualTypeOf<number>();
    // The practice meets every module's needs; without the domain's repository, or its setting, it names the domain.
    type Served<R extends object, S extends object> = ModulesServed<WithReminders, ModuleDependencies<R, S>>[Keys];
    expectTypeOf<Served<RepositoriesOf<WithReminders>, Settings>>().toBeNever();
    expectTypeOf<Served<Repositories, Settings>>().toEqualTypeOf<"reminders">();
    expectTypeOf<Served<RepositoriesOf<WithReminders>, PracticeSettings>>().toEqualTypeOf<"reminders">();

    const events = eventCatalogue(Object.assign({}, ...withReminders.map((m) => m.events)));
    expect(events.fields["reminder.created"]).toEqual(["organisation_id", "reminder_id", "patient_id"]);
    expect(withReminders.flatMap((m) => m.errorCodes).at(-1)).toBe("REMINDER_PATIENT_NOT_FOUND");
    // The runtime reads the option from a variable named after it, with no line of its own.
    expect(environmentVariableOf("reminderLeadMinutes", remindersModule.options.reminderLeadMinutes)).toBe(
      "OPENPRACTICE_REMINDER_LEAD_MINUTES",
    );
  });

  it("runs the domain's service on a practice's storage, with its typed error and event", async () => {
    const memory = new MemoryStorage();
    const practice = createPractice({ storage: memory, keys: { webhookSecretKey: randomBytes(32), vapid: null } });
    const rows: Reminder[] = [];
    const reminders: ReminderRepository = { insert: async (r) => rows[rows.push({ ...r, id: rows.length + 1 }) - 1]! };
    // The fixture's own repository beside the store's: a transaction hands out both.
    const storage: Storage<ReminderServiceRepositories> = {
      capabilities: memory.capabilities,
      repositories: { ...memory.repositories, reminders },
      transaction: (fn) => memory.transaction((tx) => fn({ ...tx, reminders })),
      ping: () => memory.ping(),
      close: () => memory.close(),
    };
    const services = remindersModule.createServices({
      storage,
      clock: practice.clock,
      ids: practice.ids,
      eventCatalogue: eventCatalogue({}),
      settings: { reminderLeadMinutes: 60 },
    });
    const principal: Principal = {
      organisationId: 1,
      userId: 1,
      name: null,
      scopes: ["write"],
      clinicIds: [],
      roles: [],
    };
    const { patient } = await practice.patients.register(principal, {
      firstName: "Ada",
      lastName: "Lovelace",
      dateOfBirth: "1990-12-10",
    });
    const reminder = await services.reminders.set(principal, patient.id, new Date("2030-01-02T10:00:00Z"));
    expect(reminder.dueAt.toISOString()).toBe("2030-01-02T09:00:00.000Z");
    const pending = await memory.repositories.outbox.listPending(10);
    expect(pending.map((e) => e.eventType)).toContain("reminder.created");
    const refused = await services.reminders.set(principal, 999, new Date()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: "REMINDER_PATIENT_NOT_FOUND", details: { patient_id: 999 } });
  });
});
