import type {
  Task,
  TaskAssignee,
  TaskComment,
  TaskPriority,
  TaskRule,
  TaskSettings,
  TaskSort,
  TaskStatus,
  TaskSubjectType,
} from "./task.js";

/** A list request as the repository runs it. */
export interface TaskListFilter {
  assignee?: TaskAssignee | "none" | undefined;
  patientId?: number | undefined;
  statuses?: readonly TaskStatus[] | undefined;
  priorities?: readonly TaskPriority[] | undefined;
  /** Due strictly before / at or after (tasks without a due time match neither). */
  dueBefore?: Date | undefined;
  dueAfter?: Date | undefined;
  subjectType?: TaskSubjectType | undefined;
  subjectId?: string | undefined;
  origin?: "person" | "system" | undefined;
  rule?: TaskRule | undefined;
  /** A restricted token's clinics: tasks of no clinic or of these. Undefined: no restriction. */
  clinicIds?: readonly number[] | undefined;
  /** due_at: tasks without a due time last (ascending) or first (descending); ties by id in the same direction. */
  sort: TaskSort;
  limit: number;
  offset: number;
}

/**
 * Tasks, their comments and each organisation's task settings. Every method but the overdue sweep's is scoped by
 * organisation.
 */
export interface TaskRepository {
  insert(record: Omit<Task, "id">): Promise<Task>;
  /**
   * Inserts a system task unless the organisation already has one with its rule key (a unique key decides, so of
   * concurrent inserts exactly one lands); undefined when one exists. Never raises for the duplicate.
   */
  insertRaised(record: Omit<Task, "id">): Promise<Task | undefined>;
  findById(organisationId: number, id: number): Promise<Task | undefined>;
  /** The latest committed row, also inside a transaction whose snapshot predates it (how a CAS loser reads the winner). */
  findLatest(organisationId: number, id: number): Promise<Task | undefined>;
  findByRuleKey(organisationId: number, ruleKey: string): Promise<Task | undefined>;
  /**
   * Writes the record's mutable fields with version + 1, only if the stored version is still `record.version`;
   * false when another write came first (nothing written).
   */
  updateIfVersion(record: Task): Promise<boolean>;
  list(organisationId: number, filter: TaskListFilter): Promise<{ tasks: Task[]; total: number }>;
  /** Open or in-progress tasks of a rule in the organisation, by id, a page at a time (the reconcile's walk). */
  openOfRule(organisationId: number, rule: TaskRule, afterId: number, limit: number): Promise<Task[]>;
  /** Tasks of any organisation whose overdue_at is at or before `now`, oldest first. */
  dueOverdue(now: Date, limit: number): Promise<Task[]>;
  insertComment(record: Omit<TaskComment, "id">): Promise<TaskComment>;
  /** Oldest first (created_at, id), with the count of all. */
  listComments(
    organisationId: number,
    taskId: number,
    window: { limit: number; offset: number },
  ): Promise<{ comments: TaskComment[]; total: number }>;
  settingsOf(organisationId: number): Promise<TaskSettings | undefined>;
  saveSettings(organisationId: number, settings: TaskSettings, now: Date): Promise<void>;
}
