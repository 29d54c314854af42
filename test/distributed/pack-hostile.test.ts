import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/index.js";
import { unpackTo } from "../../src/distributed/index.js";
import { writeJsonAtomic } from "../../src/store/atomic-write.js";

/**
 * Packs as a hostile (or broken) worker could send them: built by hand, entry by entry, in any
 * order, so nothing packDir would refuse to produce stops them.
 */
type Entry = { kind: string; mode?: number; path: string; data?: string };

function craft(entries: Entry[]): Buffer {
  const parts: Buffer[] = [Buffer.from("LHPK1\n")];
  for (const e of entries) {
    const path = Buffer.from(e.path);
    const data = Buffer.from(e.data ?? "");
    const head = Buffer.alloc(13);
    head.write(e.kind, 0, "latin1");
    head.writeUInt32BE(e.mode ?? 0o644, 1);
    head.writeUInt32BE(path.length, 5);
    head.writeUInt32BE(data.length, 9);
    parts.push(head, path, data);
  }
  return Buffer.concat(parts);
}

const tmp = mkdtempSync(join(tmpdir(), "longhaul-pack-hostile-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let outside: string;
let out: string;
beforeEach(() => {
  const base = mkdtempSync(join(tmp, "case-"));
  outside = join(base, "outside");
  mkdirSync(outside, { mode: 0o700 });
  writeFileSync(join(outside, "victim"), "host data\n");
  out = join(base, "trial");
});

/** Unpacks `entries`, expecting a refusal; then checks the host's folder beside it is untouched. */
function refused(entries: Entry[], message: RegExp): void {
  let error: unknown;
  try {
    unpackTo(craft(entries), out);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(UserError);
  expect((error as Error).message).toMatch(message);
  expect(readFileSync(join(outside, "victim"), "utf8")).toBe("host data\n");
  expect(statSync(outside).mode & 0o7777).toBe(0o700);
}

describe("a pack crafted to write outside its folder", () => {
  it("a file entry at the path of a link the pack made is refused, not written through the link", () => {
    refused(
      [
        { kind: "l", path: "x", data: join(outside, "victim") },
        { kind: "f", path: "x", data: "overwritten\n" },
      ],
      /pack entry "x" .*twice/,
    );
  });

  it("a folder entry at the path of a link the pack made is refused, its mode not applied through it", () => {
    refused(
      [
        { kind: "l", path: "d", data: outside },
        { kind: "d", path: "d", mode: 0o777 },
      ],
      /pack entry "d" .*twice/,
    );
  });

  it("a file entry over a file already unpacked is refused", () => {
    refused(
      [
        { kind: "f", path: "a", data: "one" },
        { kind: "f", path: "a", data: "two" },
      ],
      /pack entry "a" .*twice/,
    );
  });

  it("set-user-id, set-group-id and sticky bits are not carried onto the host", () => {
    unpackTo(
      craft([
        { kind: "d", path: "d", mode: 0o1777 },
        { kind: "f", path: "d/run", mode: 0o6755, data: "#!/bin/sh\n" },
      ]),
      out,
    );
    expect(lstatSync(join(out, "d", "run")).mode & 0o7777).toBe(0o755);
    expect(lstatSync(join(out, "d")).mode & 0o7000).toBe(0);
  });
});

describe("the store's result.json after a hostile unpack", () => {
  it("a link planted at result.json's temporary name is replaced, not written through", () => {
    unpackTo(
      craft([{ kind: "l", path: `result.json.tmp-${process.pid}`, data: join(outside, "victim") }]),
      out,
    );
    writeJsonAtomic(join(out, "result.json"), { ok: true });
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("host data\n");
    expect(JSON.parse(readFileSync(join(out, "result.json"), "utf8"))).toEqual({ ok: true });
    expect(existsSync(join(out, `result.json.tmp-${process.pid}`))).toBe(false);
  });
});

describe("a pack past its bounds or out of order", () => {
  it("a pack of more entries than allowed is refused before anything is written", () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ kind: "f", path: `f${i}`, data: "x" }));
    expect(() => unpackTo(craft(many), out, { maxEntries: 4, links: true })).toThrow(/more than 4 entries/);
    expect(existsSync(join(out, "f0"))).toBe(false);
    unpackTo(craft(many.slice(0, 4)), out, { maxEntries: 4, links: true });
    expect(readFileSync(join(out, "f3"), "utf8")).toBe("x");
  });

  it("a link that comes after an entry beneath it is refused, and nothing is written", () => {
    refused(
      [
        { kind: "d", path: "d/e", mode: 0o755 },
        { kind: "l", path: "d", data: outside },
      ],
      /pack entry "d\/e" lies under a symlink/,
    );
    expect(existsSync(join(out, "d"))).toBe(false);
  });
});

describe("links in a pack that must hold none", () => {
  it("a link is refused when links are not allowed, and nothing is written", () => {
    const pack = craft([
      { kind: "f", path: "a", data: "x" },
      { kind: "l", path: "agent/trajectory.json", data: join(outside, "victim") },
    ]);
    expect(() => unpackTo(pack, out, { maxEntries: 10, links: false })).toThrow(
      /pack entry "agent\/trajectory.json" is a symbolic link/,
    );
    expect(existsSync(join(out, "a"))).toBe(false);
  });
});
