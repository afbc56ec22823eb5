/**
 * Reading the runnable examples out of a Markdown page: the commands of its ```sh blocks, the curl calls among them,
 * and the replies documented right after them; and comparing a documented reply's shape with a real one.
 */

export interface CurlExample {
  /** Its position among the page's runnable commands (`__example` in the script). */
  index: number;
  /** The command as written (continuation lines joined). */
  text: string;
  /** The status its trailing comment names (`# 409`), or undefined for any 2xx. */
  expected: number | undefined;
}

/**
 * Commands the test does not run: installing, starting or testing the project (the test runs the pages against a
 * runtime it started itself), and importing the CMS ICD-10-CM file, which a reader downloads (98,000 codes;
 * test/cli/icd-import covers the command).
 */
const NOT_RUN =
  /\bnpm (ci|install|start|test)\b|\bnpm run (test|bench|build)|^\s*(sudo|cd|systemctl) |openpractice import icd10cm/;

function shBlocks(markdown: string): { body: string; line: number }[] {
  return fences(markdown).filter((f) => f.lang === "sh");
}

function fences(markdown: string): { lang: string; body: string; line: number }[] {
  const out: { lang: string; body: string; line: number }[] = [];
  for (const m of markdown.matchAll(/^```([a-z]*)\n([\s\S]*?)^```/gm)) {
    out.push({ lang: m[1] as string, body: m[2] as string, line: markdown.slice(0, m.index).split("\n").length });
  }
  return out;
}

function commandsOf(block: string): string[] {
  const commands: string[] = [];
  let current = "";
  for (const line of block.split("\n")) {
    current += current ? `\n${line}` : line;
    // A command goes on while a line ends with a backslash or a single quote is still open.
    const quotes = (current.replace(/#[^'\n]*$/gm, "").match(/'/g) ?? []).length;
    if (line.endsWith("\\") || quotes % 2 === 1) continue;
    if (current.trim() !== "" && !/^\s*#/.test(current)) commands.push(current);
    current = "";
  }
  return commands;
}

/**
 * Names a page gives the server's address other than `B` (`BASE=http://127.0.0.1:8080` in prose or code): the
 * examples read `$B` (CONTRIBUTING.md, "Documented examples are tests"), so a page that tells its reader to set
 * another name sends every curl nowhere.
 */
export function addressVariablesNotB(markdown: string): string[] {
  const names = [...markdown.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)=["']?http:\/\/127\.0\.0\.1:8080\b/g)].map(
    (m) => m[1],
  );
  return [...new Set(names)].filter((name): name is string => name !== undefined && name !== "B");
}

const isCurl = (command: string) => /(^|[\s(;|&])curl\s/.test(command);

/**
 * The page as one bash script, each command preceded by `__example=N` so that the curl wrapper files every call under
 * the command that made it (a curl in a loop or a function makes several calls, all under its command).
 */
export function examplesOf(markdown: string): { script: string; curls: CurlExample[] } {
  const runnable = shBlocks(markdown)
    .flatMap((b) => commandsOf(b.body))
    .filter((c) => !NOT_RUN.test(c));
  const curls: CurlExample[] = [];
  runnable.forEach((text, index) => {
    if (!isCurl(text)) return;
    const status = /#\s*(\d{3})\b[^\n]*$/.exec(text.split("\n").at(-1) ?? "");
    curls.push({ index, text, expected: status ? Number(status[1]) : undefined });
  });
  return { script: runnable.map((c, i) => `__example=${i}\n${c}`).join("\n"), curls };
}

/**
 * The `npm install` commands of a page's sh blocks that name an @openpractice package, each as its words after
 * `install` (continued lines joined, comments dropped), with the line of its block. The doc test does not run them;
 * test/packaging/pack-install.mjs installs each into a new project from the packed tarballs, so a package missing
 * from a line fails there as it would for a reader.
 */
export function openPracticeInstalls(markdown: string): { line: number; args: string[] }[] {
  const out: { line: number; args: string[] }[] = [];
  for (const block of shBlocks(markdown))
    for (const command of commandsOf(block.body)) {
      const words = command
        .replace(/#[^\n]*$/gm, "")
        .replace(/\\\n/g, " ")
        .trim()
        .split(/\s+/);
      if (words[0] === "npm" && ["install", "i", "add"].includes(words[1] ?? "") && words.some(isOpenPractice))
        out.push({ line: block.line, args: words.slice(2) });
    }
  return out;
}

const isOpenPractice = (word: string) => word.startsWith("@openpractice/");

/**
 * The replies documented right after a block of curls (the next fence is ```json, or ```http starting with a status
 * line), each with the index of the block's last curl command.
 */
export function documentedReplies(markdown: string): { line: number; example: number; reply: unknown }[] {
  const all = fences(markdown);
  const out: { line: number; example: number; reply: unknown }[] = [];
  let index = 0;
  all.forEach((fence, i) => {
    if (fence.lang !== "sh") return;
    let last: number | undefined;
    for (const c of commandsOf(fence.body).filter((c) => !NOT_RUN.test(c))) {
      if (isCurl(c)) last = index;
      index += 1;
    }
    const next = all[i + 1];
    if (last === undefined || !next) return;
    let text: string | undefined;
    if (next.lang === "json") text = next.body;
    else if (next.lang === "http" && /^HTTP\/\S+ \d{3}/.test(next.body))
      text = next.body
        .split(/\n\s*\n/)
        .slice(1)
        .join("\n\n");
    if (text === undefined || text.trim() === "") return;
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch (error) {
      reply = { "documented reply is not JSON": (error as Error).message };
    }
    out.push({ line: next.line, example: last, reply });
  });
  return out;
}

/** A key `…` in a documented object says "and more": the real object may have keys the page leaves out. */
const ELLIPSIS = new Set(["…", "..."]);

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * The differences between a documented reply and a real one, by path: keys documented but missing, keys returned but
 * undocumented (unless the documented object has a `…` key), and values of another type. A documented null stands for
 * "null or a value"; the values themselves (ids, dates) are not compared.
 */
export function compareShape(documented: unknown, real: unknown, path = "$"): string[] {
  const d = kind(documented);
  const r = kind(real);
  if (d === "null" || r === "null") return [];
  if (d !== r) return [`${path}: documented ${d}, got ${r}`];
  if (d === "array") {
    const [first] = documented as unknown[];
    const [firstReal] = real as unknown[];
    return first === undefined || firstReal === undefined ? [] : compareShape(first, firstReal, `${path}[0]`);
  }
  if (d !== "object") return [];
  const doc = documented as Record<string, unknown>;
  const got = real as Record<string, unknown>;
  const problems: string[] = [];
  const open = Object.keys(doc).some((k) => ELLIPSIS.has(k));
  for (const key of Object.keys(doc)) {
    if (ELLIPSIS.has(key)) continue;
    if (!(key in got)) problems.push(`${path}.${key}: documented, not returned`);
    else problems.push(...compareShape(doc[key], got[key], `${path}.${key}`));
  }
  if (!open)
    for (const key of Object.keys(got)) if (!(key in doc)) problems.push(`${path}.${key}: returned, not documented`);
  return problems;
}

/**
 * Bash functions the pages run under: curl records each call's status and body (the body still goes where the
 * example sends it); `npx openpractice` and `npm run [-s] seed` run the real CLI against the test database.
 */
export function preamble(): string {
  return `set -eo pipefail
curl() {
  # The count lives in a file: a curl in a pipeline or in $(…) runs in a subshell.
  local n=$(( $(cat "$DOC_LOG.count" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$DOC_LOG.count"
  local headers="$DOC_LOG.$n.headers" body="$DOC_LOG.$n.body" out="" args=() a
  # -o FILE: the example keeps its file; the body is copied there instead of to stdout.
  while [ $# -gt 0 ]; do
    a="$1"; shift
    if [ "$a" = -o ] || [ "$a" = --output ]; then out="$1"; shift; else args+=("$a"); fi
  done
  if ! command curl -sS --max-time 20 -D "$headers" -o "$body" "\${args[@]}"; then echo "$__example 000 $body" >> "$DOC_LOG.log"; return 1; fi
  awk -v e="$__example" -v b="$body" 'toupper($1) ~ /^HTTP\\// { s = $2 } END { print e " " s " " b }' "$headers" >> "$DOC_LOG.log"
  if [ -n "$out" ]; then cp "$body" "$out"; else cat "$body"; fi
}
npx() {
  [ "$1" = openpractice ] || { echo "npx $1: only openpractice runs here" >&2; return 1; }
  shift; node "$OPENPRACTICE_CLI" "$@"
}
npm() {
  [ "$1" = run ] || { echo "npm $1: not run here" >&2; return 1; }
  shift; [ "$1" = -s ] && shift
  local script="$1"; shift; [ "$1" = -- ] && shift
  node "$OPENPRACTICE_CLI" "$script" "$@"
}
`;
}
