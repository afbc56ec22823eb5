import type { Task } from "./task.js";
import type { TaskTransition } from "./task-status-transitions.js";

/** Who fired a transition: a person (their user id, null for a client without one) or the system with a reason. */
export type TaskActor = { kind: "person"; userId: number | null } | { kind: "system"; resolution: string };

/**
 * The task after a row of the status table: its status and every effect but the event, which the caller writes
 * (it names the event type: `eventOf`).
 */
export function applyTaskTransition(task: Task, row: TaskTransition, actor: TaskActor, now: Date): Task {
  const next: Task = { ...task, status: row.to, updatedAt: now };
  for (const effect of row.effects) {
    switch (effect) {
      case "set_completed":
        next.completedAt = now;
        next.completedByUserId = actor.kind === "person" ? actor.userId : null;
        break;
      case "clear_completed":
        next.completedAt = null;
        next.completedByUserId = null;
        next.resolution = null;
        break;
      case "set_resolution":
        next.resolution = actor.kind === "system" ? actor.resolution : null;
        break;
      case "release_rule_key":
        next.ruleKey = null;
        break;
      case "clear_overdue":
        next.overdueAt = null;
        break;
      case "rearm_overdue":
        next.overdueAt = overdueOwed(next);
        break;
      case "emit_task_updated":
      case "emit_task_completed":
        break;
    }
  }
  return next;
}

/** The event a row writes. */
export const eventOf = (row: TaskTransition): "task.completed" | "task.updated" =>
  row.effects.includes("emit_task_completed") ? "task.completed" : "task.updated";

/**
 * The due time an open, assigned task still owes a notice for: its due time, unless that one was notified already.
 * An unassigned task owes none until someone is given it (the notice has nobody to go to).
 */
export function overdueOwed(task: Pick<Task, "dueAt" | "overdueNotifiedFor" | "status" | "assignee">): Date | null {
  if (!task.dueAt || !task.assignee || (task.status !== "open" && task.status !== "in_progress")) return null;
  return task.overdueNotifiedFor?.getTime() === task.dueAt.getTime() ? null : task.dueAt;
}
