import { defineKyselyModule } from "../kysely-module.js";
import { tasksMigration } from "../migrations/037-tasks.js";
import { KyselyTaskRepository } from "../repositories/task-repository.js";

/** Tasks, their comments and each organisation's task settings. */
export const tasksKyselyModule = defineKyselyModule({
  key: "tasks",
  repositories: (db, profile) => ({ tasks: new KyselyTaskRepository(db, profile) }),
  migrations: (profile) => ({ "037-tasks": tasksMigration(profile) }),
  tables: ["tasks", "task_comments", "task_settings"],
});
