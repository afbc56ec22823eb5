import { Agent } from "node:http";
import { join } from "node:path";
import { seedDemo } from "@openpractice/runtime";
import { describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, TEST_SECRET } from "../support/runtime-fixture.js";
import { CaseGenerator, operationsOf, truncate, type FuzzRequest } from "./fuzz-cases.js";
import { errorShapeProblem, readErrorCatalogue } from "./error-shape.js";
import { fuzzTokens } from "./fuzz-tokens.js";
import { createPrng, fuzzSeed } from "./prng.js";
import { sendRaw, type FuzzReply } from "./raw-client.js";

/**
 * Requests generated from /openapi.json with hostile input (wrong types, huge
 * strings, deep nesting, unicode, bad ids and queries, bad content types,
 * oversize bodies, bad tokens) must never answer 5xx, and every 4xx must be in
 * the contract's error shape. FUZZ_SEED=<n> replays a run; FUZZ_REQUESTS sets the count;
 * FUZZ_VERBOSE=1 prints the statuses per mutation kind and every baseline reply.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5200);
const CONCURRENCY = 4;
const SEED = fuzzSeed();
const catalogue = readErrorCatalogue(join(import.meta.dirname, "../../docs/errors.md"));

interface Outcome {
  request: FuzzRequest;
  reply: FuzzReply;
  problem?: string | undefined;
}

describe.each(availableEngines())("openapi fuzz on %s", (engine) => {
  it(`answers no 5xx to ${REQUESTS} generated requests, and every 4xx in the contract's error shape`, {
    timeout: 300_000,
  }, async () => {
    const rt = await startTestRuntime(
      { OPENPRACTICE_PLAN_LIMITS: JSON.stringify({ professional: 10_000_000 }) },
      { engine },
    );
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    try {
      const seeded = await seedDemo(rt.runtime.practice, { organisationId: 1, patients: 12, jwtSecret: TEST_SECRET });
      const openapi = await (await fetch(`${rt.url}/openapi.json`)).json();
      const operations = operationsOf(openapi);
      const scopes = [
        ...new Set(
          Object.values<any>(openapi.paths).flatMap((methods) =>
            Object.values<any>(methods).flatMap((op) => op["x-required-scopes"] ?? []),
          ),
        ),
      ];
      const rng = createPrng(SEED);
      const generator = new CaseGenerator(
        rng,
        await fuzzTokens(TEST_SECRET, ["read", "write", "admin", ...scopes], seeded.clinic_ids),
      );
      const cases: FuzzRequest[] = [];
      while (cases.length < REQUESTS) {
        cases.push(generator.generate(operations[cases.length % operations.length]!));
      }

      const base = new URL(rt.url);
      const outcomes: Outcome[] = [];
      // One request per operation at a time: identical concurrent writes race on unique keys, which the race suite covers.
      const busy = new Map<string, Promise<unknown>>();
      let next = 0;
      const started = performance.now();
      const worker = async () => {
        while (next < cases.length) {
          const request = cases[next++]!;
          while (busy.has(request.operation)) await busy.get(request.operation);
          const sending = sendRaw(base, agent, request);
          busy.set(request.operation, sending);
          const reply = await sending;
          busy.delete(request.operation);
          let problem: string | undefined;
          if (reply.status === 0) problem = `no reply: ${reply.error}`;
          else if (reply.status >= 500) problem = `HTTP ${reply.status}`;
          else if (reply.status >= 400)
            problem = errorShapeProblem(catalogue, request.path, reply.status, reply.contentType, reply.body);
          outcomes.push({ request, reply, problem });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = (performance.now() - started) / 1000;

      const histogram: Record<string, number> = {};
      for (const { reply } of outcomes) histogram[reply.status] = (histogram[reply.status] ?? 0) + 1;
      const failures = outcomes.filter((o) => o.problem);
      const fiveHundreds = outcomes.filter((o) => o.reply.status >= 500 || o.reply.status === 0);
      console.log(
        `[fuzz ${engine}] seed ${SEED} (FUZZ_SEED=${SEED} replays): ${outcomes.length} requests over ${operations.length} operations in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(histogram)}; 5xx or no reply: ${fiveHundreds.length}; shape problems: ${failures.length - fiveHundreds.length}`,
      );
      if (process.env.FUZZ_VERBOSE) {
        const byKind: Record<string, Record<string, number>> = {};
        for (const { request, reply } of outcomes) {
          const kind = request.mutation.replace(/ at .*| [\w[\]]+=.*|: .*/, "");
          (byKind[kind] ??= {})[reply.status] = (byKind[kind][reply.status] ?? 0) + 1;
        }
        console.log(byKind);
        for (const { request, reply } of outcomes.filter((o) => o.request.mutation === "baseline"))
          console.log(reply.status, request.method, request.path, truncate(reply.body, 200));
      }
      // 5xx first: a flood of shape problems must not hide them.
      const shown = [...fiveHundreds, ...failures.filter((o) => !fiveHundreds.includes(o))].slice(0, 60);
      for (const { request, reply, problem } of shown) {
        const body = request.body ? truncate(request.body.toString("utf8"), 300) : "(none)";
        console.log(
          `  ${problem} <- ${request.method} ${truncate(request.path, 120)} [${request.mutation}]\n    headers ${truncate(JSON.stringify(request.headers), 200)}\n    body ${body}\n    reply ${reply.status} ${truncate(reply.body, 400)}`,
        );
      }
      expect(outcomes.length).toBe(REQUESTS);
      expect(
        fiveHundreds.map(
          (o) => `${o.request.method} ${truncate(o.request.path, 80)} [${o.request.mutation}] → ${o.reply.status}`,
        ),
      ).toEqual([]);
      expect(
        failures.map(
          (o) =>
            `${o.request.method} ${truncate(o.request.path, 80)} [${o.request.mutation}] → ${o.reply.status}: ${o.problem}`,
        ),
      ).toEqual([]);
    } finally {
      agent.destroy();
      await rt.stop();
    }
  });
});
