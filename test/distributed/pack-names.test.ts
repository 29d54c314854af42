import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packDir, unpackTo } from "../../src/distributed/index.js";

const tmp = mkdtempSync(join(tmpdir(), "longhaul-pack-names-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => Buffer.from(p)));

describe("packs of names that are not UTF-8", () => {
  it("a trial folder holding a log named with byte 0xff packs and unpacks under the same bytes", () => {
    // What a worker sends back: the saved logs keep such a name (the bounded log copy does).
    const src = join(tmp, "trial");
    mkdirSync(join(src, "agent", "logs"), { recursive: true });
    writeFileSync(join(src, "result.json"), "{}");
    writeFileSync(bytes(src, "/agent/logs/log", [0xff], ".txt"), "kept\n");
    mkdirSync(bytes(src, "/agent/logs/d", [0xfe]));
    writeFileSync(bytes(src, "/agent/logs/d", [0xfe], "/in"), "inner");
    symlinkSync(bytes("to", [0xff]), bytes(src, "/agent/logs/link", [0xff]));
    const packed = packDir(src);
    const out = join(tmp, "out");
    unpackTo(packed, out);
    const logs = join(out, "agent", "logs");
    expect(
      readdirSync(logs, { encoding: "buffer" })
        .map((b) => b.toString("hex"))
        .sort(),
    ).toEqual(
      [bytes("d", [0xfe]), bytes("link", [0xff]), bytes("log", [0xff], ".txt")].map((b) => b.toString("hex")),
    );
    expect(readFileSync(bytes(logs, "/log", [0xff], ".txt"), "utf8")).toBe("kept\n");
    expect(readFileSync(bytes(logs, "/d", [0xfe], "/in"), "utf8")).toBe("inner");
    expect(readlinkSync(bytes(logs, "/link", [0xff]), { encoding: "buffer" })).toEqual(bytes("to", [0xff]));
    expect(packDir(out).equals(packed)).toBe(true);
  });
});
