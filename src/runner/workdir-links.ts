import { lstatSync, readdirSync, readlinkSync, unlinkSync } from "node:fs";
import { posix } from "node:path";
import { isWithin } from "../sandbox/spec.js";
import type { Sandbox } from "../sandbox/types.js";

/**
 * Places that exist only for the verifier, or that lead into its process (its descriptors): a
 * link from the workdir into one of them would let the agent's "output" be the verifier's own
 * data, as `out.txt -> /tests/expected.txt` passes a check that compares the two.
 */
const VERIFIER_ONLY = ["/tests", "/logs", "/longhaul", "/solution", "/proc", "/sys", "/run", "/dev/fd"];
const DEVICE_STREAMS = ["/dev/stdin", "/dev/stdout", "/dev/stderr"];
/** Bounds of the walk: a workdir flooded with files costs at most this much. */
const MAX_ENTRIES = 200_000;
const MAX_HOPS = 40;

function verifierOnly(p: string): boolean {
  return VERIFIER_ONLY.some((r) => isWithin(p, r)) || DEVICE_STREAMS.includes(p);
}

/**
 * Removes every link in the workdir that leads, in the sandbox's view and through any chain of
 * links, into a place only the verifier has (above). Run on the host after the agent's processes
 * are gone and before the verifier starts; returns the removed links (workdir-relative). A link
 * that loops or chains too long is removed too, and so is one whose path or target is not UTF-8:
 * names are walked as the bytes they are, but such a link cannot be followed by name, and leaving
 * it would let `out -> <non-UTF-8 folder>` with `<that folder>/x -> /tests/…` inside pass a check
 * of `out/x`. On a provider without host paths nothing is done.
 */
export function removeVerifierLinks(sandbox: Sandbox, workdir: string): string[] {
  const host = sandbox.hostPathOf?.(workdir) ?? null;
  if (host === null || lstatSync(host, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
  const root = Buffer.from(host);
  const removed: string[] = [];
  const stack: Buffer[] = [Buffer.alloc(0)];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_ENTRIES) {
    const rel = stack.pop() as Buffer;
    let names: Buffer[];
    try {
      names = readdirSync(under(root, rel), { encoding: "buffer" });
    } catch {
      continue;
    }
    for (const name of names) {
      if (++seen > MAX_ENTRIES) break;
      const r = rel.length === 0 ? name : Buffer.concat([rel, SLASH, name]);
      const st = lstatSync(under(root, r), { throwIfNoEntry: false });
      if (st?.isDirectory() === true) stack.push(r);
      else if (st?.isSymbolicLink() === true) {
        const text = utf8(r);
        if (text === null || leadsToVerifier(sandbox, posix.join(workdir, text))) {
          unlinkSync(under(root, r));
          removed.push(text ?? r.toString("utf8"));
        }
      }
    }
  }
  return removed;
}

const SLASH = Buffer.from("/");

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
 * host task) cannot be links the agent made, so the rest of the path is taken as written.
 */
function leadsToVerifier(sandbox: Sandbox, path: string): boolean {
  let todo = path.split("/").filter(Boolean);
  let cur = "/";
  for (let hops = 0; todo.length > 0; ) {
    const [part, ...rest] = todo;
    const next = posix.join(cur, part ?? "");
    if (verifierOnly(next)) return true;
    const host = sandbox.hostPathOf?.(next) ?? null;
    const st = host === null ? undefined : lstatSync(host, { throwIfNoEntry: false });
    if (host === null || st === undefined) return verifierOnly(posix.join(next, ...rest));
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
  return verifierOnly(cur);
}
