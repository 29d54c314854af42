import { lstatSync, readlinkSync, type Stats, unlinkSync } from "node:fs";
import { posix } from "node:path";
import { runHostCommand } from "../sandbox/host-command.js";
import { isWithin } from "../sandbox/spec.js";
import type { Sandbox } from "../sandbox/types.js";

/**
 * Places that exist only for the verifier, or that lead into its process (its descriptors): a
 * link from the workdir into one of them would let the agent's "output" be the verifier's own
 * data, as `out.txt -> /tests/expected.txt` passes a check that compares the two.
 */
const VERIFIER_ONLY = ["/tests", "/logs", "/longhaul", "/solution", "/proc", "/sys", "/run", "/dev/fd"];
const DEVICE_STREAMS = ["/dev/stdin", "/dev/stdout", "/dev/stderr"];
/**
 * /dev is made anew for every exec (bwrap's --dev), so nothing under it is the agent's: what a
 * link finds there in the verifier's view is its own (/dev/shm, its terminal) or a stream that
 * never ends or never answers (/dev/zero, /dev/urandom, /dev/ptmx). A check that reads such an
 * "output" whole (`sha256sum out.txt`, `cat`, `cmp` on /dev/ptmx) ran until the verifier's
 * timeout: a grading error, the task's failure, of the agent's choosing. /dev/null reads empty.
 */
const DEVICES = "/dev";
const HARMLESS_DEVICES = ["/dev/null"];
const MAX_HOPS = 40;
/**
 * The longest path the kernel takes (PATH_MAX less its NUL). The workdir's host path is longer
 * than its sandbox path, and relative names reach any depth: an agent can make entries the host
 * cannot name (ENAMETOOLONG), which a walk by path must neither die on nor skip.
 */
const HOST_PATH_MAX = 4095;
/** A listing this long means a flood: the walk's cost is bounded by the disk's inode cap anyway. */
const LIST_MAX_BYTES = 512 * 1024 * 1024;
const LIST_TIMEOUT_MS = 300_000;

/** Places whose every path is the verifier's: a path through one of them leads there. */
function verifierOnly(p: string, fresh: readonly string[]): boolean {
  return (
    VERIFIER_ONLY.some((r) => isWithin(p, r)) ||
    fresh.some((r) => isWithin(p, r)) ||
    DEVICE_STREAMS.includes(p)
  );
}

/** Whether the whole resolved path `p` is one a check may not be handed (see DEVICES). */
function verifierEnd(p: string, fresh: readonly string[]): boolean {
  return verifierOnly(p, fresh) || (isWithin(p, DEVICES) && !HARMLESS_DEVICES.includes(p));
}

/**
 * Removes every link in the workdir that leads, in the sandbox's view and through any chain of
 * links, into a place only the verifier has (above, and `fresh`: the folders the verifier gets
 * new and empty, its /tmp and /root, which it fills with its own files: before, a link into them
 * was judged by the agent's folders of the same name and kept, and `out.txt -> /tmp/expected.txt`
 * passed a check that staged the answer there), or to a device other than /dev/null; and every
 * FIFO, which no process is left to write once the agent's are gone, so a check that opened it
 * (`cmp out.txt …`) waited until the verifier's timeout. Run on the host after the agent's processes
 * are gone and before the verifier starts; returns the removed links (workdir-relative). A link
 * that loops or chains too long is removed too, and so is one whose path or target is not UTF-8:
 * names are walked as the bytes they are, but such a link cannot be followed by name, and leaving
 * it would let `out -> <non-UTF-8 folder>` with `<that folder>/x -> /tests/…` inside pass a check
 * of `out/x`. Every link is examined, however many files the workdir holds (before, the walk
 * stopped after 200,000 entries and left the links past them), and a folder holding links deeper
 * than the host can name is removed whole (before, such a tree threw ENAMETOOLONG out of the
 * trial and ended the whole job). On a provider without host paths nothing is done.
 */
export async function removeVerifierLinks(
  sandbox: Sandbox,
  workdir: string,
  fresh: readonly string[] = [],
): Promise<string[]> {
  const host = sandbox.hostPathOf?.(workdir) ?? null;
  if (host === null || lstatSync(host, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
  const root = Buffer.from(host);
  const links = await listLinks(host);
  if (links === null) {
    // The listing failed (a flood past every bound): no link can be vetted, so none is kept.
    await runHostCommand(["find", "-P", host, "(", "-type", "l", "-o", "-type", "p", ")", "-delete"], {
      timeoutMs: LIST_TIMEOUT_MS,
      capture: false,
    });
    return ["(every link and FIFO: the workdir's links could not be listed)"];
  }
  const removed: string[] = [];
  const tooDeep = new Set<string>();
  for (const { rel: r, fifo } of links) {
    if (root.length + 1 + r.length > HOST_PATH_MAX) {
      tooDeep.add(namedAncestor(root, r).toString("latin1"));
      continue;
    }
    const text = utf8(r);
    if (fifo || text === null || leadsToVerifier(sandbox, posix.join(workdir, text), fresh)) {
      unlinkSync(under(root, r));
      removed.push(`${text ?? r.toString("utf8")}${fifo ? " (a FIFO)" : ""}`);
    }
  }
  // Outer folders first: one already taken took the folders inside it along.
  const outer = [...tooDeep]
    .sort((a, b) => a.length - b.length)
    .filter((k, i, all) => !all.slice(0, i).some((o) => k.startsWith(`${o}/`)));
  if (outer.length > 0) {
    // rm walks by descriptor, so it reaches what no path can name; xargs passes the names as the
    // bytes they are (an argument of spawn is UTF-8 text).
    const names = Buffer.concat(outer.flatMap((k) => [under(root, Buffer.from(k, "latin1")), NUL]));
    await runHostCommand(["xargs", "-0", "rm", "-rf", "--"], {
      input: names,
      timeoutMs: 600_000,
      capture: false,
    });
  }
  for (const key of outer) {
    const rel = Buffer.from(key, "latin1");
    removed.push(
      `${utf8(rel) ?? rel.toString("utf8")}/ (holds links or FIFOs too deep for the host to check: removed whole)`,
    );
  }
  return removed;
}

/**
 * Every link and FIFO under `host` (not followed), as paths relative to it in bytes; null if find
 * failed. Each is printed as its type letter (l or p) then its path, NUL-terminated.
 */
async function listLinks(host: string): Promise<{ rel: Buffer; fifo: boolean }[] | null> {
  const r = await runHostCommand(
    ["find", "-P", host, "(", "-type", "l", "-o", "-type", "p", ")", "-printf", "%y%P\\0"],
    { maxStdoutBytes: LIST_MAX_BYTES, timeoutMs: LIST_TIMEOUT_MS },
  );
  if (r.error !== null || r.status !== 0) return null;
  const bytes = r.stdoutBytes;
  const out: { rel: Buffer; fifo: boolean }[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0); i !== -1; i = bytes.indexOf(0, start)) {
    if (i > start + 1) out.push({ rel: bytes.subarray(start + 1, i), fifo: bytes[start] === P });
    start = i + 1;
  }
  return out;
}

const P = "p".charCodeAt(0);

/**
 * The deepest folder on the way to `rel` whose host path the kernel still takes. Never the workdir
 * itself: a name is at most 255 bytes, so its first level is always within reach.
 */
function namedAncestor(root: Buffer, rel: Buffer): Buffer {
  let end = rel.indexOf(SLASH);
  if (end === -1) return rel;
  for (let i = rel.indexOf(SLASH); i !== -1; i = rel.indexOf(SLASH, i + 1)) {
    if (root.length + 1 + i > HOST_PATH_MAX) break;
    end = i;
  }
  return rel.subarray(0, end);
}

const SLASH = Buffer.from("/");
const NUL = Buffer.from([0]);

function under(root: Buffer, rel: Buffer): Buffer {
  return rel.length === 0 ? root : Buffer.concat([root, SLASH, rel]);
}

/** The bytes as text when they are UTF-8, else null (decoding would change the name). */
function utf8(bytes: Buffer): string | null {
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? text : null;
}

/**
 * Whether `path` resolves, component by component as the kernel would in the sandbox, into a
 * verifier-only place. Components the host does not keep (the read-only system folders of a
 * host task) cannot be links the agent made, so the rest of the path is taken as written. A
 * component the host cannot read (a path too long for it to name) is judged as leading there.
 */
function leadsToVerifier(sandbox: Sandbox, path: string, fresh: readonly string[]): boolean {
  let todo = path.split("/").filter(Boolean);
  let cur = "/";
  for (let hops = 0; todo.length > 0; ) {
    const [part, ...rest] = todo;
    const next = posix.join(cur, part ?? "");
    if (verifierOnly(next, fresh)) return true;
    const host = sandbox.hostPathOf?.(next) ?? null;
    let st: Stats | undefined;
    try {
      st = host === null ? undefined : lstatSync(host, { throwIfNoEntry: false });
    } catch (e) {
      // Through a file (`out.txt/x`): nothing there, as with no entry. Any other failure (a path
      // too long for the host to name) leaves the link unvetted, so it is judged as leading there.
      if ((e as NodeJS.ErrnoException).code !== "ENOTDIR") return true;
    }
    if (host === null || st === undefined) return verifierEnd(posix.join(next, ...rest), fresh);
    if (!st.isSymbolicLink()) {
      cur = next;
      todo = rest;
      continue;
    }
    if (++hops > MAX_HOPS) return true;
    const raw = utf8(readlinkSync(host, { encoding: "buffer" }));
    // A target that is not UTF-8 cannot be resolved by name: it is judged as leading anywhere.
    if (raw === null) return true;
    const target = posix.resolve(cur, raw);
    todo = [...target.split("/").filter(Boolean), ...rest];
    cur = "/";
  }
  return verifierEnd(cur, fresh);
}
