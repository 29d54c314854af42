import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  type Stats,
  statSync,
} from "node:fs";
import { dirname } from "node:path";
import type { z } from "zod";
import { InputError, UserError } from "./errors.js";

// What a user's file is read and parsed through: a missing file, a folder where a file belongs,
// bad JSON or a wrong field is one line naming the file (and the line and field), never a stack.

/** The user-facing reason for a file-system error on `path`, or null when it is not the user's to fix. */
export function fsProblem(e: unknown, path: string): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return `${path}: no such file or folder`;
  if (code === "EISDIR") return `${path}: is a folder, where a file is expected`;
  if (code === "ENOTDIR") return `${path}: a part of this path is a file, where a folder is expected`;
  if (code === "EACCES" || code === "EPERM") return `${path}: permission denied`;
  if (code === "ENAMETOOLONG") return `${path}: the name is too long`;
  if (code === "ELOOP") return `${path}: too many symbolic links`;
  return null;
}

/**
 * A user's file; a missing file, or a folder, FIFO, socket or device in its place, is a UserError
 * naming it. Opened without blocking: reading a FIFO would wait for a writer forever.
 */
export function readUserBytes(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const problem = fsProblem(e, path);
    if (problem !== null) throw new UserError(problem, { cause: e });
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new UserError(`${path}: is a folder, where a file is expected`);
    if (!st.isFile())
      throw new UserError(`${path}: is a ${specialKind(st)}, where a regular file is expected`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function specialKind(st: Stats): string {
  if (st.isFIFO()) return "FIFO";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "device";
  return "special file";
}

/** A user's text file (UTF-8), as readUserBytes reads it. */
export function readUserText(path: string): string {
  return readUserBytes(path).toString("utf8");
}

/**
 * readUserText for a file whose every byte matters (a task's task.toml, its instruction.md):
 * bytes that are not UTF-8 are an InputError naming the file (as `shown`) and the first such line,
 * where decoding would silently put U+FFFD in their place (the agent would be given an
 * instruction its author never wrote; Harbor cannot read such a file at all).
 */
export function readUserUtf8(path: string, shown = path): string {
  const bytes = readUserBytes(path);
  const text = bytes.toString("utf8");
  if (Buffer.byteLength(text, "utf8") === bytes.length && !text.includes("\ufffd")) return text;
  let line = 1;
  for (let start = 0; start <= bytes.length; line++) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    const part = bytes.subarray(start, end);
    if (!Buffer.from(part.toString("utf8"), "utf8").equals(part)) {
      throw new InputError(shown, line, undefined, "holds bytes that are not UTF-8; save the file as UTF-8");
    }
    if (nl === -1) break;
    start = nl + 1;
  }
  return text;
}

/** Line and column (1-based) of a character offset in `text`. */
export function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, col: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * JSON.parse, with a syntax error as an InputError naming the file, the line and the column
 * (V8 gives a character position, or none for text that stops early: then the end).
 */
export function parseUserJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const { offset, message } = jsonSyntaxProblem(e, text);
    const { line, col } = lineCol(text, offset);
    throw new InputError(path, line, undefined, `column ${col}: invalid JSON (${message})`);
  }
}

/** A JSON.parse error on `text`: where it stopped (a character offset) and V8's reason, one line and no excerpt. */
export function jsonSyntaxProblem(e: unknown, text: string): { offset: number; message: string } {
  const detail = e instanceof Error ? e.message : String(e);
  const message = (detail.split("\n")[0] ?? "")
    .replace(/, ?(\.\.\.)?".*$/, "")
    .replace(/ in JSON at position \d+.*$/, "");
  return { offset: jsonErrorOffset(detail, text), message };
}

/**
 * Where V8's JSON.parse stopped: its "at position N", else the excerpt it quotes (ten characters
 * either side of the bad token, "..." where cut), else the end (text that stops early).
 */
function jsonErrorOffset(detail: string, text: string): number {
  const at = /position (\d+)/.exec(detail)?.[1];
  if (at !== undefined) return Number(at);
  const quoted = /^Unexpected token '(.)', (\.\.\.)?"([\s\S]*?)(\.\.\.)?" is not valid JSON$/.exec(detail);
  if (quoted !== null) {
    const [, token = "", cutBefore, excerpt = ""] = quoted;
    const start = text.indexOf(excerpt);
    if (start >= 0) return start + (cutBefore === undefined ? Math.max(0, excerpt.indexOf(token)) : 10);
  }
  return text.length;
}

/** A schema's first issue as one line: `field a.b: message` (`(top level)` for the root), and how many more. */
export function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid";
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  const path = issue.path.map(String).join(".");
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
  if (keys.length > 0) {
    const where = path === "" ? "" : ` in ${path}`;
    return `unknown field${keys.length > 1 ? "s" : ""} ${keys.map((k) => `"${k}"`).join(", ")}${where}${more}`;
  }
  return `field ${path === "" ? "(top level)" : path}: ${issue.message}${more}`;
}

/**
 * An output folder a command will create (or fill): it, or the nearest existing folder above it,
 * must be a folder. Checked before any work, so a file in the way is one line, not a stack trace
 * from mkdir after minutes of work. `what` names the option (`--out`).
 */
export function checkOutFolder(dir: string, what: string): void {
  let at = dir;
  while (!existsSync(at)) {
    const up = dirname(at);
    if (up === at) return;
    at = up;
  }
  if (!statSync(at).isDirectory()) {
    const where = at === dir ? "it is a file" : `${at} is a file`;
    throw new UserError(`${what} ${dir}: ${where}, where a folder is expected`);
  }
}
