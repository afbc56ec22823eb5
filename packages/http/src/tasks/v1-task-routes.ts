import { pathIdKind } from "../contracts/path-id.js";
import { V1_PAGINATION_SCHEMA, v1EnvelopeSchema, v1Pagination, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  taskInputFromBody,
  taskListQueryOf,
  V1_TASK_FIELDS,
  v1PageQuery,
  v1TaskCommentCreateSchema,
  v1TaskCommentSchema,
  v1TaskCommentView,
  v1TaskCreateSchema,
  v1TaskListQuery,
  v1TaskSchema,
  v1TaskSettingsSchema,
  v1TaskSettingsUpdateSchema,
  v1TaskSettingsView,
  v1TaskUpdateSchema,
  v1TaskView,
} from "./v1-task-contract.js";

export const TASK_SCOPES = scopePair("tasks");
const TASK_ID = pathIdKind("TASK_NOT_FOUND", "task_id");
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const taskBody = v1EnvelopeSchema(v1TaskSchema);
const error = (description: string) => ({ description, schema: v1ErrorBody });

/** Tasks on v1 (spec 9.4): the work queue, its comments, and the organisation's switches of the system's rules. */
export function v1TaskRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["Tasks (v1)"],
    auth: true,
    scopes: TASK_SCOPES,
    fieldNames: V1_TASK_FIELDS,
  });
  const service = practice.tasks;
  const view = (task: Parameters<typeof v1TaskView>[0]) => v1TaskView(task, practice.clock.now());
  return [
    route({
      method: "POST",
      path: "/apis/v1/tasks",
      auditResource: "task",
      auditNamesCreated: true,
      operationId: "v1CreateTask",
      summary:
        "Create a task (open): a title, optionally a patient and a record of theirs it is about, an assignee (a provider or staff member: their inbox entry and Web Push), a priority and a due time.",
      access: "write",
      requestBody: v1TaskCreateSchema,
      responses: {
        "200": { description: "The task", schema: taskBody },
        "400": error(
          "VALIDATION_FAILED naming the field (due_at format, priority), or UNKNOWN_REFERENCE naming patient_id, subject.id or assignee.id (nothing written)",
        ),
      },
      async handle(ctx) {
        return v1Success(view(await service.create(ctx.principal, taskInputFromBody(await ctx.body()))));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/tasks",
      operationId: "v1ListTasks",
      summary:
        "Tasks of the organisation: by assignee (provider:{doctor_id}, staff:{id}, none), patient, status, priority, due window, subject, origin or rule; sorted by due time, priority or creation.",
      access: "read",
      query: v1TaskListQuery,
      responses: {
        "200": {
          description: "A page of tasks",
          schema: v1EnvelopeSchema(replyObject({ tasks: arrayOf(v1TaskSchema), pagination: V1_PAGINATION_SCHEMA })),
        },
      },
      async handle(ctx) {
        const found = await service.list(ctx.principal, taskListQueryOf(ctx.query()));
        return v1Success({ tasks: found.tasks.map(view), pagination: v1Pagination(found) });
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/tasks/:task_id",
      ids: { task_id: TASK_ID },
      operationId: "v1GetTask",
      summary: "One task.",
      access: "read",
      responses: { "200": { description: "The task", schema: taskBody } },
      async handle(ctx) {
        return v1Success(view(await service.get(ctx.principal, ctx.ids.task_id)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/tasks/:task_id",
      ids: { task_id: TASK_ID },
      auditResource: "task",
      operationId: "v1UpdateTask",
      summary:
        "Partial update: fields, assignee (a new one is notified), and status through the state table (in_progress, done, cancelled; open reopens a closed task). Concurrent completions: one wins, the other gets 409 with the current status.",
      access: "write",
      requestBody: v1TaskUpdateSchema,
      responses: {
        "200": { description: "The task", schema: taskBody },
        "400": error(
          "VALIDATION_FAILED naming the field, or UNKNOWN_REFERENCE naming assignee.id, patient_id or subject.id",
        ),
        "409": error(
          "INVALID_TRANSITION (details.current_status, allowed_actions), TASK_CLOSED (a closed task takes only status open), or VERSION_CONFLICT",
        ),
      },
      async handle(ctx) {
        return v1Success(
          view(await service.update(ctx.principal, ctx.ids.task_id, taskInputFromBody(await ctx.body()))),
        );
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/tasks/:task_id/comments",
      ids: { task_id: TASK_ID },
      auditResource: "task",
      operationId: "v1CommentOnTask",
      summary: "Add a comment to a task (open or closed).",
      access: "write",
      requestBody: v1TaskCommentCreateSchema,
      responses: { "200": { description: "The comment", schema: v1EnvelopeSchema(v1TaskCommentSchema) } },
      async handle(ctx) {
        const body = await ctx.body();
        return v1Success(v1TaskCommentView(await service.addComment(ctx.principal, ctx.ids.task_id, body.body)));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/tasks/:task_id/comments",
      ids: { task_id: TASK_ID },
      operationId: "v1ListTaskComments",
      summary: "A task's comments, oldest first.",
      access: "read",
      query: v1PageQuery,
      responses: {
        "200": {
          description: "A page of comments",
          schema: v1EnvelopeSchema(
            replyObject({ comments: arrayOf(v1TaskCommentSchema), pagination: V1_PAGINATION_SCHEMA }),
          ),
        },
      },
      async handle(ctx) {
        const q = ctx.query();
        const found = await service.listComments(ctx.principal, ctx.ids.task_id, { page: q.page, size: q.size });
        return v1Success({ comments: found.comments.map(v1TaskCommentView), pagination: v1Pagination(found) });
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/task-settings",
      operationId: "v1GetTaskSettings",
      summary: "Which of the system's task rules are on for the organisation (every rule is on until turned off).",
      access: "read",
      responses: { "200": { description: "The settings", schema: v1EnvelopeSchema(v1TaskSettingsSchema) } },
      async handle(ctx) {
        return v1Success(v1TaskSettingsView(await service.settings(ctx.principal)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/task-settings",
      auditResource: "task_settings",
      operationId: "v1UpdateTaskSettings",
      summary:
        "Turn the system's task rules on or off (rules not named keep their switch); a rule turned off raises nothing but still closes its tasks when their condition clears. Administrators only.",
      scopes: ["admin"],
      requestBody: v1TaskSettingsUpdateSchema,
      responses: { "200": { description: "The settings", schema: v1EnvelopeSchema(v1TaskSettingsSchema) } },
      async handle(ctx) {
        const body = (await ctx.body()) as { rules: Record<string, { enabled: boolean }> };
        const switches = Object.fromEntries(Object.entries(body.rules).map(([rule, s]) => [rule, s.enabled]));
        return v1Success(v1TaskSettingsView(await service.updateSettings(ctx.principal, switches)));
      },
    }),
  ];
}
