import { spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Copy, DockerfileParser, type Instruction } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const TEXT = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const RELEASE = "/opt/openpractice";

const args = (i: Instruction) => i.getArguments().map((a) => a.getValue());
/** The instructions of each stage (a FROM and what follows it). */
function stages(text: string): Instruction[][] {
  const out: Instruction[][] = [];
  for (const i of DockerfileParser.parse(text).getInstructions())
    if (i.getKeyword() === "FROM") out.push([i]);
    else out.at(-1)?.push(i);
  return out;
}
const all = (stage: Instruction[], keyword: string) => stage.filter((i) => i.getKeyword() === keyword);
const one = (stage: Instruction[], keyword: string) => {
  const found = all(stage, keyword);
  expect(found, keyword).toHaveLength(1);
  return found[0]!;
};
/** An exec-form (JSON) command line, as Docker reads it. */
const execForm = (words: string[]) => JSON.parse(words.join(" ")) as string[];
const env = (stage: Instruction[]) =>
  Object.fromEntries(all(stage, "ENV").flatMap((i) => args(i).map((kv) => kv.split("=", 2) as [string, string])));

// There is no Docker engine on the development and CI machines, so `docker build` cannot run here: this checks what
// can be checked without one. The Dockerfile is linted (dockerfile-utils, the VS Code Docker extension's
// validator), its structure is held to docs/deployment.md (Node 24 slim, a user of its own, the data volume, a
// health check), every path it copies from the build context is a tracked file the context keeps, and its CMD and
// HEALTHCHECK run here as the image runs them, with this checkout standing for /opt/openpractice. The build
// stage's `npm ci` and `npm prune` are not run by the tests.
describe("the Dockerfile of docs/deployment.md", () => {
  let stop: (() => Promise<void>) | undefined;
  let temp: ReturnType<typeof makeTempDir> | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
    temp?.remove();
  });

  it("passes dockerfile-utils' validator, which catches a mistake", () => {
    expect(validate(TEXT)).toEqual([]);
    expect(validate(TEXT.replace("EXPOSE 8080", "EXPOSE eighty")).map((d) => d.message)).toEqual([
      "Invalid containerPort: eighty",
    ]);
  });

  it("builds on Node 24 slim and runs as a user of its own, with the data directory a volume and a health check", () => {
    const [build, run] = stages(TEXT);
    expect(stages(TEXT)).toHaveLength(2);
    for (const stage of [build!, run!]) expect(args(stage[0]!)[0]).toMatch(/^node:24-[a-z]+-slim$/);
    expect(args(build![0]!).slice(1)).toEqual(["AS", "build"]);
    const vars = env(run!);
    const user = args(one(run!, "USER"))[0]!;
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(all(run!, "RUN").some((r) => args(r).includes("useradd") && args(r).includes(user))).toBe(true);
    expect(args(one(run!, "VOLUME"))).toEqual([vars.OPENPRACTICE_DATA_DIR]);
    expect(args(one(run!, "WORKDIR"))).toEqual([vars.OPENPRACTICE_DATA_DIR]);
    expect(args(one(run!, "EXPOSE"))).toEqual([vars.PORT]);
    expect(vars).toMatchObject({ NODE_ENV: "production", HOST: "0.0.0.0" });
    // The run stage takes the build stage's release, built where the CMD expects it.
    expect(args(one(build!, "WORKDIR"))).toEqual([RELEASE]);
    const copy = one(run!, "COPY") as Copy;
    expect(copy.getFlags().map((f) => `${f.getName()}=${f.getValue()}`)).toEqual(["from=build"]);
    expect(args(copy)).toEqual([RELEASE, RELEASE]);
    expect(args(one(run!, "HEALTHCHECK"))[0]).toBe("CMD");
  });

  it("copies only tracked files that .dockerignore keeps in the build context", () => {
    const [build] = stages(TEXT);
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"));
    const sources = all(build!, "COPY").flatMap((c) => args(c).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      const tracked = spawnSync("git", ["ls-files", "--", source], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
      expect(tracked, `${source} is in a clean clone`).not.toBe("");
      expect(statSync(join(ROOT, source)).isFile() || statSync(join(ROOT, source)).isDirectory()).toBe(true);
      for (const pattern of ignored)
        expect(source === pattern || source.startsWith(`${pattern}/`), `${source} ignored by ${pattern}`).toBe(false);
    }
    // Every workspace the root package.json names is inside a copied folder (npm ci needs them all).
    const workspaces = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).workspaces as string[];
    expect(workspaces.filter((w) => !sources.some((s) => w.startsWith(`${s}/`)))).toEqual([]);
  });

  it("runs the command docs/deployment.md names, as the systemd unit does", () => {
    const [, run] = stages(TEXT);
    const cmd = execForm(args(one(run!, "CMD")));
    expect(cmd).toEqual(["node", `${RELEASE}/packages/runtime/bin/openpractice.mjs`, "serve"]);
    const unit = readFileSync(join(ROOT, "examples/deploy/openpractice.service"), "utf8");
    expect(unit).toContain(`\nExecStart=/usr/bin/env ${cmd.join(" ")}\n`);
    const doc = readFileSync(join(ROOT, "docs/deployment.md"), "utf8");
    expect([...doc.matchAll(/```dockerfile\n([\s\S]*?)```/g)].map((m) => m[1])).toContain(TEXT);
  });

  it("its CMD serves and its HEALTHCHECK passes once ready, and fails once the server has stopped", async () => {
    const [, run] = stages(TEXT);
    temp = makeTempDir();
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    // The image's environment, but on loopback and a free port, with the volume a temporary folder.
    const image = {
      ...env(run!),
      HOST: "127.0.0.1",
      PORT: String(port),
      OPENPRACTICE_DATA_DIR: join(temp.dir, "data"),
      PATH: process.env.PATH ?? "",
    };
    // `node` is the image's Node 24: here, the supported Node running this test.
    const local = (words: string[]) => words.map((w) => (w === "node" ? process.execPath : w.replace(RELEASE, ROOT)));
    const [command, ...rest] = local(execForm(args(one(run!, "CMD"))));
    const server = spawn(command!, rest, { cwd: temp.dir, env: image, stdio: "ignore" });
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    stop = async () => {
      if (server.exitCode === null) server.kill("SIGTERM");
      await exited;
    };
    const [check, ...checkArgs] = local(execForm(args(one(run!, "HEALTHCHECK")).slice(1)));
    const healthcheck = () => spawnSync(check!, checkArgs, { env: image, encoding: "utf8", timeout: 10_000 }).status;
    await expect.poll(healthcheck, { timeout: 30_000 }).toBe(0);
    expect(statSync(join(temp.dir, "data", "openpractice.db")).isFile()).toBe(true);
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(healthcheck()).toBe(1);
  });
});
