import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CopyLimits, copyTreeBounded, LOG_COPY_LIMITS } from "./bounded-copy.js";
import { readFileUnder } from "./safe-read.js";

const dir = mkdtempSync(join(tmpdir(), "longhaul-safe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function fresh(): string {
  const d = join(dir, `case-${n++}`);
  mkdirSync(d, { recursive: true });
  return d;
}
const mkfifo = (path: string): void => {
  execFileSync("mkfifo", [path]);
};

describe("readFileUnder", () => {
  it("reads a regular file, also in a subfolder, and says missing when it is absent", () => {
    const root = fresh();
    mkdirSync(join(root, "verifier"));
    writeFileSync(join(root, "verifier", "reward.txt"), "0.5\n");
    expect(readFileUnder(root, "verifier/reward.txt", 1024)).toEqual({ kind: "ok", text: "0.5\n" });
    expect(readFileUnder(root, "verifier/reward.json", 1024)).toEqual({ kind: "missing" });
    expect(readFileUnder(root, "nothing/reward.json", 1024)).toEqual({ kind: "missing" });
  });

  it("refuses symlinks to host files and devices, at the file and at a folder above it", () => {
    const root = fresh();
    symlinkSync("/proc/self/environ", join(root, "environ"));
    symlinkSync("/dev/zero", join(root, "zero"));
    symlinkSync("/etc/hostname", join(root, "hostname"));
    symlinkSync("/etc", join(root, "etc"));
    for (const name of ["environ", "zero", "hostname"]) {
      const r = readFileUnder(root, name, 1024);
      expect(r).toEqual({ kind: "rejected", reason: `${name} is a symbolic link, not a regular file` });
    }
    expect(readFileUnder(root, "etc/hostname", 1024)).toMatchObject({
      kind: "rejected",
      reason: expect.stringMatching(/etc is a symbolic link, not a folder/),
    });
    expect(readFileUnder(root, "../x", 1024).kind).toBe("rejected");
  });

  it("refuses a FIFO without waiting for a writer, and a folder", () => {
    const root = fresh();
    mkfifo(join(root, "reward.json"));
    mkdirSync(join(root, "reward.txt"));
    expect(readFileUnder(root, "reward.json", 1024)).toEqual({
      kind: "rejected",
      reason: "reward.json is a FIFO, not a regular file",
    });
    expect(readFileUnder(root, "reward.txt", 1024).kind).toBe("rejected");
  });

  it("refuses a file over the cap by its size, without reading a sparse 2.5 GB file", () => {
    const root = fresh();
    writeFileSync(join(root, "exact"), "x".repeat(1024));
    writeFileSync(join(root, "over"), "x".repeat(1025));
    truncateSync(join(root, "over"), 1025);
    writeFileSync(join(root, "sparse"), "");
    truncateSync(join(root, "sparse"), 2500 * 1024 * 1024);
    expect(readFileUnder(root, "exact", 1024)).toMatchObject({ kind: "ok" });
    expect(readFileUnder(root, "over", 1024)).toEqual({
      kind: "rejected",
      reason: "over is 1025 bytes, over the 1024-byte limit",
    });
    const t0 = performance.now();
    expect(readFileUnder(root, "sparse", 1024 * 1024).kind).toBe("rejected");
    expect(performance.now() - t0).toBeLessThan(100);
  });
});

const small: CopyLimits = { maxEntries: 50, maxTotalBytes: 1000, maxFileBytes: 400, maxDepth: 3 };

describe("copyTreeBounded", () => {
  it("copies files and folders, records links with their targets and skips FIFOs and big files", async () => {
    const src = fresh();
    const dest = join(fresh(), "out");
    mkdirSync(join(src, "a", "b"), { recursive: true });
    writeFileSync(join(src, "top.txt"), "top");
    writeFileSync(join(src, "a", "b", "deep.txt"), "deep");
    symlinkSync("/etc/passwd", join(src, "a", "passwd"));
    symlinkSync("/", join(src, "root"));
    mkfifo(join(src, "pipe"));
    writeFileSync(join(src, "sparse"), "");
    truncateSync(join(src, "sparse"), 2 * 1024 * 1024 * 1024);
    const report = await copyTreeBounded(src, dest, LOG_COPY_LIMITS);
    expect(readFileSync(join(dest, "top.txt"), "utf8")).toBe("top");
    expect(readFileSync(join(dest, "a", "b", "deep.txt"), "utf8")).toBe("deep");
    expect(readdirSync(dest).sort()).toEqual(["a", "top.txt"]);
    expect(readdirSync(join(dest, "a"))).toEqual(["b"]);
    expect(report).toMatchObject({ source_found: true, copied_files: 2, copied_bytes: 7, skipped_count: 4 });
    const byPath = new Map(report.skipped.map((s) => [s.path, s]));
    expect(byPath.get("a/passwd")).toMatchObject({ type: "symbolic link", target: "/etc/passwd" });
    expect(byPath.get("root")).toMatchObject({ type: "symbolic link", target: "/" });
    expect(byPath.get("pipe")).toMatchObject({ type: "FIFO" });
    expect(byPath.get("sparse")).toMatchObject({ size: 2 * 1024 * 1024 * 1024 });
    expect(report.stopped).toBeNull();
  });

  it("keeps to the byte, size and depth limits", async () => {
    const src = fresh();
    const dest = join(fresh(), "out");
    for (let i = 0; i < 4; i++) writeFileSync(join(src, `f${i}`), "x".repeat(300));
    writeFileSync(join(src, "big"), "x".repeat(401));
    mkdirSync(join(src, "1", "2", "3", "4"), { recursive: true });
    writeFileSync(join(src, "1", "2", "3", "4", "too-deep"), "x");
    const report = await copyTreeBounded(src, dest, small);
    expect(report.copied_bytes).toBe(900);
    expect(report.copied_files).toBe(3);
    const reasons = report.skipped.map((s) => `${s.path}: ${s.reason}`).sort();
    expect(reasons).toEqual([
      "1/2/3/4: deeper than 3 levels",
      "big: over the 400-byte file limit",
      expect.stringMatching(/^f\d: over the 1000-byte total limit$/),
    ]);
    expect(existsSync(join(dest, "1", "2", "3"))).toBe(true);
    expect(existsSync(join(dest, "1", "2", "3", "4"))).toBe(false);
  });

  it("stops walking at the entry limit and says so", async () => {
    const src = fresh();
    const dest = join(fresh(), "out");
    for (let i = 0; i < 120; i++) writeFileSync(join(src, `f${i}`), "");
    const report = await copyTreeBounded(src, dest, small);
    expect(report.copied_files).toBe(50);
    expect(readdirSync(dest)).toHaveLength(50);
    expect(report.stopped).toMatch(/entry limit of 50/);
  });

  it("copies files and folders whose names are not UTF-8 under the same bytes; the report decodes them lossily", async () => {
    const src = fresh();
    const dest = join(fresh(), "out");
    const bytes = (...parts: (string | number[])[]): Buffer =>
      Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));
    // "log\xff.txt" and a folder "d\xfe" holding "in\xff": as an agent's printf would name them.
    writeFileSync(bytes(src, "/log", [0xff], ".txt"), "ff");
    mkdirSync(bytes(src, "/d", [0xfe]));
    writeFileSync(bytes(src, "/d", [0xfe], "/in", [0xff]), "inner");
    symlinkSync(bytes("/etc/", [0xff]), bytes(src, "/link", [0xff]));
    const report = await copyTreeBounded(src, dest, LOG_COPY_LIMITS);
    expect(readFileSync(bytes(dest, "/log", [0xff], ".txt"), "utf8")).toBe("ff");
    expect(readFileSync(bytes(dest, "/d", [0xfe], "/in", [0xff]), "utf8")).toBe("inner");
    expect(
      readdirSync(dest, { encoding: "buffer" })
        .map((b) => b.toString("hex"))
        .sort(),
    ).toEqual([bytes("d", [0xfe]), bytes("log", [0xff], ".txt")].map((b) => b.toString("hex")));
    expect(report).toMatchObject({ copied_files: 2, copied_folders: 1, copied_bytes: 7, skipped_count: 1 });
    // Shown with U+FFFD for the bad byte: valid text in copy-report.json, never the raw byte.
    expect(report.skipped).toEqual([
      expect.objectContaining({ path: "link\ufffd", type: "symbolic link", target: "/etc/\ufffd" }),
    ]);
    expect(JSON.parse(JSON.stringify(report)).skipped[0].path).toBe("link\ufffd");
  });

  it("skips what the source can name but the copy's deeper folder cannot, rather than throwing", async () => {
    const src = fresh();
    // The copy's folder lies 400 bytes deeper than the source, as a jobs folder may.
    const dest = join(fresh(), "j".repeat(200), "k".repeat(200), "out");
    const levels = Array(19).fill("d".repeat(200));
    mkdirSync(join(src, ...levels), { recursive: true });
    writeFileSync(join(src, ...levels, "leaf"), "deep");
    writeFileSync(join(src, "top.txt"), "top");
    const report = await copyTreeBounded(src, dest, { ...LOG_COPY_LIMITS, maxDepth: 64 });
    expect(readFileSync(join(dest, "top.txt"), "utf8")).toBe("top");
    expect(report.skipped.map((e) => e.reason)).toEqual(["path too long to save on the host"]);
  });

  it("copies nothing from a source that is a symlink or missing", async () => {
    const base = fresh();
    symlinkSync("/etc", join(base, "logs"));
    const linked = await copyTreeBounded(join(base, "logs"), join(base, "out1"), small);
    expect(linked).toMatchObject({ source_found: false, copied_files: 0, skipped_count: 1 });
    expect(existsSync(join(base, "out1"))).toBe(false);
    const missing = await copyTreeBounded(join(base, "none"), join(base, "out2"), small);
    expect(missing).toMatchObject({ source_found: false, copied_files: 0, skipped_count: 0 });
  });
});
