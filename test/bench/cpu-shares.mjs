// Where a benchmark run's CPU went: the server under test (its process tree), the load generator (this process)
// and everything else on the machine (the database server, mostly). Linux /proc; see docs/performance.md.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";

/** USER_HZ, the unit of utime and stime in /proc/<pid>/stat (100 on Linux unless configured otherwise). */
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** The pids of a process and all its descendants. */
export function processTree(pid) {
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  } catch {
    children = [];
  }
  return [pid, ...children.flatMap((c) => processTree(Number(c)))];
}

/** CPU seconds (user + system) the processes have used so far. */
export function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold ") "): utime and stime are the 12th and 13th.
      const text = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** Machine-wide busy CPU seconds (all cores) so far. */
function machineBusySeconds() {
  return os.cpus().reduce((acc, c) => acc + (c.times.user + c.times.nice + c.times.sys + c.times.irq) / 1000, 0);
}

/**
 * Runs `work` (a load against the server whose process is `pid`) and answers its result with `cpu`: CPU seconds of
 * the server's processes, of this process (the load generator) and of the rest of the machine over the run, and
 * the run's wall seconds. The rest is mostly the database server when there is one; on SQLite it is noise.
 */
export async function withCpuShares(pid, work) {
  const pids = processTree(pid);
  const before = { server: cpuSeconds(pids), bench: process.cpuUsage(), machine: machineBusySeconds() };
  const started = performance.now();
  const result = await work();
  const wall = (performance.now() - started) / 1000;
  const usage = process.cpuUsage(before.bench);
  const server = cpuSeconds(pids) - before.server;
  const bench = (usage.user + usage.system) / 1e6;
  const machine = machineBusySeconds() - before.machine;
  return { ...result, cpu: { server, bench, rest: Math.max(0, machine - server - bench), wall } };
}

/** Cores left idle over a run, from its `cpu` (withCpuShares). */
export const idleCores = (cpu) => Math.max(0, os.cpus().length - (cpu.server + cpu.bench + cpu.rest) / cpu.wall);
