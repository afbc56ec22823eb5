import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * Tasks, their comments and each organisation's task settings. The work queue reads an assignee's tasks by status
 * in due order (organisation, assignee, status, due_order, id: the page and its count from one index); a patient's
 * tasks newest first; a subject's tasks; the organisation's by status in due order; a rule's open tasks by id (the
 * reconcile's walk); and the overdue sweep reads overdue_at across organisations. due_order is the due time, or
 * NO_DUE_ORDER when there is none, so that no due time sorts last ascending on every engine without NULLS LAST.
 * A system task's rule key is unique within its organisation (NULL keys never clash), which decides concurrent raises.
 */
export function tasksMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("tasks")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("title", "varchar(200)", (c) => c.notNull())
        .addColumn("description", "varchar(4000)")
        .addColumn("patient_id", "bigint")
        .addColumn("subject_type", "varchar(20)")
        .addColumn("subject_id", "varchar(64)")
        .addColumn("clinic_id", "bigint")
        .addColumn("assignee_type", "varchar(10)")
        .addColumn("assignee_id", "bigint")
        .addColumn("assignment_seq", "integer", (c) => c.notNull())
        .addColumn("priority", "varchar(10)", (c) => c.notNull())
        .addColumn("priority_rank", "integer", (c) => c.notNull())
        .addColumn("due_at", TIME)
        .addColumn("due_order", TIME, (c) => c.notNull())
        .addColumn("status", "varchar(20)", (c) => c.notNull())
        .addColumn("origin", "varchar(10)", (c) => c.notNull())
        .addColumn("rule", "varchar(40)")
        .addColumn("rule_key", "varchar(120)")
        .addColumn("created_by_user_id", "bigint")
        .addColumn("created_by_client_id", "varchar(100)")
        .addColumn("completed_at", TIME)
        .addColumn("completed_by_user_id", "bigint")
        .addColumn("resolution", "varchar(40)")
        .addColumn("overdue_at", TIME)
        .addColumn("overdue_notified_for", TIME)
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addUniqueConstraint("tasks_rule_key_uq", ["organisation_id", "rule_key"])
        .execute();
      await db.schema
        .createIndex("tasks_assignee_ix")
        .on("tasks")
        .columns(["organisation_id", "assignee_type", "assignee_id", "status", "due_order", "id"])
        .execute();
      await db.schema
        .createIndex("tasks_patient_ix")
        .on("tasks")
        .columns(["organisation_id", "patient_id", "created_at", "id"])
        .execute();
      await db.schema
        .createIndex("tasks_subject_ix")
        .on("tasks")
        .columns(["organisation_id", "subject_type", "subject_id"])
        .execute();
      await db.schema
        .createIndex("tasks_status_ix")
        .on("tasks")
        .columns(["organisation_id", "status", "due_order", "id"])
        .execute();
      await db.schema
        .createIndex("tasks_rule_ix")
        .on("tasks")
        .columns(["organisation_id", "rule", "status", "id"])
        .execute();
      await db.schema.createIndex("tasks_overdue_ix").on("tasks").column("overdue_at").execute();
      await db.schema
        .createTable("task_comments")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("task_id", "bigint", (c) => c.notNull())
        .addColumn("body", "varchar(4000)", (c) => c.notNull())
        .addColumn("author_user_id", "bigint")
        .addColumn("author_client_id", "varchar(100)")
        .addColumn("author_name", "varchar(200)")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("task_comments_task_ix")
        .on("task_comments")
        .columns(["organisation_id", "task_id", "created_at", "id"])
        .execute();
      await db.schema
        .createTable("task_settings")
        .addColumn("organisation_id", "bigint", (c) => c.primaryKey().references("organisations.id"))
        .addColumn("disabled_rules", "text", (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("task_settings").execute();
      await db.schema.dropTable("task_comments").execute();
      await db.schema.dropTable("tasks").execute();
    },
  };
}
