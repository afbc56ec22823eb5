import type { TaskStatus } from "./task.js";

/**
 * What moves a task's status: a person's start, complete, cancel and reopen, and the system's resolve (the
 * condition that raised it cleared the way it should: a note co-signed) and withdraw (it cleared otherwise: a
 * note returned, a case discharged).
 */
export const TASK_TRIGGERS = ["start", "complete", "cancel", "reopen", "resolve", "withdraw"] as const;
export type TaskTrigger = (typeof TASK_TRIGGERS)[number];

/** `system`: only the system's rule evaluation fires the row, never a caller. */
export type TaskGuard = "system";

export type TaskEffect =
  | "set_completed"
  | "clear_completed"
  | "set_resolution"
  | "release_rule_key"
  | "clear_overdue"
  | "rearm_overdue"
  | "emit_task_updated"
  | "emit_task_completed";

export interface TaskTransition {
  from: TaskStatus;
  trigger: TaskTrigger;
  guards: readonly TaskGuard[];
  to: TaskStatus;
  effects: readonly TaskEffect[];
}

const OPEN = ["open", "in_progress"] as const;
const CLOSED = ["done", "cancelled"] as const;

/**
 * The status machine of tasks, one row per allowed transition; any other (status, trigger) pair is refused with
 * INVALID_TRANSITION and the current status. Creation (no state → open) is the service's create().
 */
export const TASK_TRANSITIONS: readonly TaskTransition[] = Object.freeze([
  { from: "open", trigger: "start", guards: [], to: "in_progress", effects: ["emit_task_updated"] },
  ...OPEN.map(
    (from): TaskTransition => ({
      from,
      trigger: "complete",
      guards: [],
      to: "done",
      effects: ["set_completed", "clear_overdue", "emit_task_completed"],
    }),
  ),
  ...OPEN.map(
    (from): TaskTransition => ({
      from,
      trigger: "cancel",
      guards: [],
      to: "cancelled",
      effects: ["set_completed", "clear_overdue", "emit_task_updated"],
    }),
  ),
  ...CLOSED.map(
    (from): TaskTransition => ({
      from,
      trigger: "reopen",
      guards: [],
      to: "open",
      effects: ["clear_completed", "rearm_overdue", "emit_task_updated"],
    }),
  ),
  ...OPEN.map(
    (from): TaskTransition => ({
      from,
      trigger: "resolve",
      guards: ["system"],
      to: "done",
      effects: ["set_completed", "set_resolution", "release_rule_key", "clear_overdue", "emit_task_completed"],
    }),
  ),
  ...OPEN.map(
    (from): TaskTransition => ({
      from,
      trigger: "withdraw",
      guards: ["system"],
      to: "cancelled",
      effects: ["set_completed", "set_resolution", "release_rule_key", "clear_overdue", "emit_task_updated"],
    }),
  ),
]);

/** The row for this status and trigger, or undefined when the table refuses it. */
export function taskTransition(from: TaskStatus, trigger: TaskTrigger): TaskTransition | undefined {
  return TASK_TRANSITIONS.find((t) => t.from === from && t.trigger === trigger);
}

/** The triggers a caller may fire from this status (the refusal's allowed_actions). */
export function allowedTaskActions(from: TaskStatus): TaskTrigger[] {
  return TASK_TRANSITIONS.filter((t) => t.from === from && !t.guards.includes("system")).map((t) => t.trigger);
}

/** The caller's `status` field as a trigger: the status it asks for names the transition. */
export const TRIGGER_FOR_STATUS: Readonly<Record<TaskStatus, TaskTrigger>> = Object.freeze({
  in_progress: "start",
  done: "complete",
  cancelled: "cancel",
  open: "reopen",
});
