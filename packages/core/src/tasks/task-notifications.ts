import type { Ids } from "../kernel/ids.js";
import type { JobQueue } from "../kernel/job-queue.js";
import type { NotificationRepository } from "../notifications/notification-repository.js";
import { NOTIFICATION_DELIVERY_QUEUE } from "../notifications/push-outcome.js";
import type { Recipient } from "../notifications/notification.js";
import type { Task, TaskAssignee } from "./task.js";

/** The inbox a task's assignee reads: a provider's under PROVIDER and their user id, a staff member's under STAFF. */
export function recipientOf(assignee: TaskAssignee): Recipient {
  return assignee.type === "provider"
    ? { userType: "PROVIDER", userId: String(assignee.id) }
    : { userType: "STAFF", userId: String(assignee.id) };
}

/** Why a task notice goes out; each names one key, so nothing is sent twice for one event, across restarts. */
export type TaskNotice = "assigned" | "overdue";

/** The notice's idempotency key: per assignment (its sequence number), or per due time for an overdue notice. */
export function taskNoticeKey(task: Task, notice: TaskNotice): string {
  return notice === "assigned"
    ? `task:${task.id}:assigned:${task.assignmentSeq}`
    : `task:${task.id}:overdue:${task.dueAt?.toISOString() ?? "none"}`;
}

/**
 * Puts the notice in the assignee's inbox and queues its Web Push, in the caller's transaction. The notification's
 * idempotency key decides: a repeat (a job run twice, a restart) inserts nothing and queues nothing. The title and
 * body carry the task's title only, never a patient's name (a lock screen shows them).
 */
export async function notifyAssignee(
  tx: { notifications: NotificationRepository; jobs: JobQueue },
  ids: Ids,
  task: Task,
  notice: TaskNotice,
  now: Date,
): Promise<boolean> {
  if (!task.assignee) return false;
  const notificationId = `ntf_${ids.uuid()}`;
  const inserted = await tx.notifications.insertNotification({
    id: notificationId,
    organisationId: task.organisationId,
    ...recipientOf(task.assignee),
    title: notice === "assigned" ? "Task assigned to you" : "Task overdue",
    body: task.title,
    link: `type=task&task_id=${task.id}`,
    idempotencyKey: taskNoticeKey(task, notice),
    deliveryStatus: "queued",
    readAt: null,
    createdAt: now,
    updatedAt: now,
  });
  if (inserted) await tx.jobs.enqueue({ queue: NOTIFICATION_DELIVERY_QUEUE, payload: { notificationId }, runAt: now });
  return inserted;
}
