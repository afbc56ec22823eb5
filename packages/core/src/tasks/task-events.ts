import { eventsOf } from "../kernel/events.js";

/** Tasks' events: identifiers only (spec 6.1), never a title, a description or a comment. */
export const TASK_EVENTS = {
  "task.created": {
    fields: ["organisation_id", "task_id"],
    description: "A task was created, by a person or by one of the system's rules (GET the task for its fields).",
  },
  "task.updated": {
    fields: ["organisation_id", "task_id"],
    description:
      "A task changed: its fields, its assignee, its status (started, cancelled, reopened, withdrawn by the system) or a new comment.",
  },
  "task.completed": {
    fields: ["organisation_id", "task_id"],
    description: "A task was done: completed by a person, or resolved by the system when its condition cleared.",
  },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const taskEvent = eventsOf(TASK_EVENTS);
