import { defineHttpModule } from "../http-module.js";
import { v1TaskRoutes } from "./v1-task-routes.js";

/** Tasks (v1 only: spec 9.4 keeps them off v2). */
export const tasksHttpModule = defineHttpModule({
  key: "tasks",
  routes: (deps) => v1TaskRoutes(deps),
  v1Codes: {
    TASK_NOT_FOUND: { code: 4070, status: 404 },
    TASK_CLOSED: { code: 4071, status: 409 },
  },
  v2Status: {
    TASK_NOT_FOUND: 404,
    TASK_CLOSED: 409,
  },
});
