import {
  NO_DUE_ORDER,
  priorityRank,
  type Repositories,
  type Task,
  type TaskComment,
  type TaskListFilter,
  type TaskSettings,
} from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** What the due sort orders by, as the SQL engines store it: the due time's ISO text, else NO_DUE_ORDER. */
const dueOrder = (t: Task) => (t.dueAt ? t.dueAt.toISOString() : NO_DUE_ORDER);
const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: Task, b: Task) => a.id - b.id;

/** The list's order: each sort's keys, ties by id in the sort's direction (as the SQL adapter's ORDER BY). */
const ORDERS: Record<TaskListFilter["sort"], (a: Task, b: Task) => number> = {
  due_at: (a, b) => text(dueOrder(a), dueOrder(b)) || byId(a, b),
  "-due_at": (a, b) => text(dueOrder(b), dueOrder(a)) || byId(b, a),
  priority: (a, b) =>
    priorityRank(a.priority) - priorityRank(b.priority) || text(dueOrder(a), dueOrder(b)) || byId(a, b),
  "-priority": (a, b) =>
    priorityRank(b.priority) - priorityRank(a.priority) || text(dueOrder(b), dueOrder(a)) || byId(b, a),
  created_at: (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || byId(a, b),
  "-created_at": (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || byId(b, a),
};

function matches(t: Task, f: TaskListFilter): boolean {
  const a = f.assignee;
  if (a === "none" ? t.assignee !== null : a && (t.assignee?.type !== a.type || t.assignee.id !== a.id)) return false;
  if (f.patientId !== undefined && t.patientId !== f.patientId) return false;
  if (f.statuses?.length && !f.statuses.includes(t.status)) return false;
  if (f.priorities?.length && !f.priorities.includes(t.priority)) return false;
  if (f.dueBefore && !(t.dueAt !== null && t.dueAt < f.dueBefore)) return false;
  if (f.dueAfter && !(t.dueAt !== null && t.dueAt >= f.dueAfter)) return false;
  if (f.subjectType !== undefined && t.subject?.type !== f.subjectType) return false;
  if (f.subjectId !== undefined && t.subject?.id !== f.subjectId) return false;
  if (f.origin !== undefined && t.origin !== f.origin) return false;
  if (f.rule !== undefined && t.rule !== f.rule) return false;
  return f.clinicIds === undefined || t.clinicId === null || f.clinicIds.includes(t.clinicId);
}

/** Tasks, their comments and settings in memory, in the domain's own slice of the state. */
export function memoryTasks(s: () => MemoryState): Pick<Repositories, "tasks"> {
  const state = () =>
    moduleState(s(), "tasks", () => ({
      rows: new Map<number, Task>(),
      comments: new Map<number, TaskComment>(),
      settings: new Map<number, TaskSettings>(),
    }));
  const rows = () => state().rows;
  const own = (organisationId: number, id: number) => {
    const row = rows().get(id);
    return row?.organisationId === organisationId ? row : undefined;
  };
  /** The organisation's task holding the rule key, as the unique key (organisation_id, rule_key) finds it. */
  const holder = (organisationId: number, ruleKey: string | null) =>
    ruleKey === null
      ? undefined
      : [...rows().values()].find((t) => t.organisationId === organisationId && t.ruleKey === ruleKey);
  const insert = (record: Omit<Task, "id">) => {
    const task: Task = { ...structuredClone(record), id: s().nextId++ };
    rows().set(task.id, task);
    return structuredClone(task);
  };
  const findById = async (organisationId: number, id: number) => structuredClone(own(organisationId, id));
  return {
    tasks: {
      async insert(record) {
        if (holder(record.organisationId, record.ruleKey))
          throw new Error(`duplicate rule key ${record.ruleKey} (tasks_rule_key_uq)`);
        return insert(record);
      },
      insertRaised: async (record) => (holder(record.organisationId, record.ruleKey) ? undefined : insert(record)),
      findById,
      // Transactions run one at a time here: the stored row is the latest committed one.
      findLatest: findById,
      findByRuleKey: async (organisationId, ruleKey) => structuredClone(holder(organisationId, ruleKey)),
      async updateIfVersion(record) {
        const stored = own(record.organisationId, record.id);
        if (stored?.version !== record.version) return false;
        const other = holder(record.organisationId, record.ruleKey);
        if (other && other.id !== record.id)
          throw new Error(`duplicate rule key ${record.ruleKey} (tasks_rule_key_uq)`);
        // As the SQL UPDATE: the columns it does not write stay as stored.
        rows().set(record.id, {
          ...structuredClone(record),
          organisationId: stored.organisationId,
          origin: stored.origin,
          createdByUserId: stored.createdByUserId,
          createdByClientId: stored.createdByClientId,
          createdAt: stored.createdAt,
          version: record.version + 1,
        });
        return true;
      },
      async list(organisationId, f) {
        const found = [...rows().values()]
          .filter((t) => t.organisationId === organisationId && matches(t, f))
          .sort(ORDERS[f.sort]);
        return { tasks: structuredClone(found.slice(f.offset, f.offset + f.limit)), total: found.length };
      },
      openOfRule: async (organisationId, rule, afterId, limit) =>
        structuredClone(
          [...rows().values()]
            .filter(
              (t) =>
                t.organisationId === organisationId &&
                t.rule === rule &&
                (t.status === "open" || t.status === "in_progress") &&
                t.id > afterId,
            )
            .sort(byId)
            .slice(0, limit),
        ),
      dueOverdue: async (now, limit) =>
        structuredClone(
          [...rows().values()]
            .filter((t) => t.overdueAt !== null && t.overdueAt <= now)
            .sort((a, b) => (a.overdueAt?.getTime() ?? 0) - (b.overdueAt?.getTime() ?? 0) || byId(a, b))
            .slice(0, limit),
        ),
      async insertComment(record) {
        const comment: TaskComment = { ...structuredClone(record), id: s().nextId++ };
        state().comments.set(comment.id, comment);
        return structuredClone(comment);
      },
      async listComments(organisationId, taskId, window) {
        const found = [...state().comments.values()]
          .filter((c) => c.organisationId === organisationId && c.taskId === taskId)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
        return {
          comments: structuredClone(found.slice(window.offset, window.offset + window.limit)),
          total: found.length,
        };
      },
      settingsOf: async (organisationId) => structuredClone(state().settings.get(organisationId)),
      async saveSettings(organisationId, settings) {
        state().settings.set(organisationId, structuredClone(settings));
      },
    },
  };
}
