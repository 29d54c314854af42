import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCast } from "./recording-file.js";
import {
  loadInstruction,
  loadTrajectory,
  MAX_TRAJECTORY_DEPTH,
  nestsDeeperThan,
  readHead,
  readTail,
} from "./trial-files.js";

describe("trial file readers", () => {
  it("parses an asciinema v2 recording, keeping output events and counting broken lines", () => {
    const text = [
      JSON.stringify({ version: 2, width: 100, height: 30, timestamp: 1 }),
      JSON.stringify([0.5, "o", "a"]),
      JSON.stringify([0.7, "i", "typed"]),
      "",
      JSON.stringify([2.25, "o", "b"]),
      '[3.0, "o", "cut off mid-wri',
    ].join("\n");
    const rec = parseCast(text);
    expect(rec).toEqual({
      state: "ok",
      value: {
        width: 100,
        height: 30,
        events: [
          [0.5, "a"],
          [2.25, "b"],
        ],
        skipped_lines: 1,
        omitted_lines: 0,
        duration: 2.25,
      },
    });
  });

  it("keeps only the last output events of a recording with too many, counting the lines not read", () => {
    const header = JSON.stringify({ version: 2, width: 80, height: 24 });
    const events = Array.from({ length: 10 }, (_, i) => JSON.stringify([i, "o", `e${i}`]));
    const rec = parseCast([header, ...events, JSON.stringify([10, "i", "typed"]), ""].join("\n"), 3);
    expect(rec).toMatchObject({
      state: "ok",
      value: {
        events: [
          [7, "e7"],
          [8, "e8"],
          [9, "e9"],
        ],
        omitted_lines: 7,
        duration: 9,
      },
    });
  });

  it("refuses a file whose first line is not a v2 header", () => {
    expect(parseCast('{"version": 1, "width": 80, "height": 24}\n').state).toBe("invalid");
    expect(parseCast("not json\n").state).toBe("invalid");
    expect(parseCast("").state).toBe("invalid");
  });

  it("reads the head or the tail of a log and says how much was left out", () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-files-"));
    const path = join(dir, "log.txt");
    writeFileSync(path, "0123456789");
    expect(readTail(path, 4)).toEqual({ text: "6789", skipped: 6 });
    expect(readHead(path, 4)).toEqual({ text: "0123", skipped: 6 });
    expect(readTail(path, 100)).toEqual({ text: "0123456789", skipped: 0 });
    expect(readTail(join(dir, "absent"), 4)).toBeNull();
  });

  it("reads a log's tail only from a regular file, never waiting on a FIFO or following a link", () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-tail-"));
    // A FIFO nobody writes to: a blocking open would wait forever, stalling the whole viewer.
    execFileSync("mkfifo", [join(dir, "fifo.txt")]);
    expect(readTail(join(dir, "fifo.txt"), 4)).toBeNull();
    writeFileSync(join(dir, "real.txt"), "secret");
    symlinkSync(join(dir, "real.txt"), join(dir, "link.txt"));
    expect(readTail(join(dir, "link.txt"), 4)).toBeNull();
    mkdirSync(join(dir, "folder"));
    expect(readTail(join(dir, "folder"), 4)).toBeNull();
    expect(readTail(join(dir, "real.txt"), 4)).toEqual({ text: "cret", skipped: 2 });
  });

  it("reads instruction.md only from a regular file, never waiting on a FIFO or following a link", () => {
    const root = mkdtempSync(join(tmpdir(), "longhaul-instr-"));
    const task = (name: string): string => {
      const dir = join(root, name);
      mkdirSync(dir);
      return dir;
    };
    const plain = task("plain");
    writeFileSync(join(plain, "instruction.md"), "Do it.");
    expect(loadInstruction(plain)).toEqual({ state: "ok", value: { text: "Do it.", skipped: 0 } });
    expect(loadInstruction(task("empty"))).toEqual({ state: "missing" });

    const fifo = task("fifo");
    execFileSync("mkfifo", [join(fifo, "instruction.md")]);
    // Opening a FIFO for reading blocks until a writer comes; this would hang the test.
    expect(loadInstruction(fifo)).toEqual({ state: "invalid", reason: "not a regular file (a FIFO)" });

    const folder = task("folder");
    mkdirSync(join(folder, "instruction.md"));
    expect(loadInstruction(folder)).toEqual({ state: "invalid", reason: "not a regular file (a folder)" });

    const linked = task("linked");
    writeFileSync(join(root, "secret.txt"), "secret");
    symlinkSync(join(root, "secret.txt"), join(linked, "instruction.md"));
    expect(loadInstruction(linked)).toEqual({
      state: "invalid",
      reason: "not a regular file (a symbolic link)",
    });
  });

  it("refuses a trajectory nested too deep to show instead of overflowing the stack", () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-deep-"));
    mkdirSync(join(dir, "agent"));
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const text = `{"steps":[{"step_id":1,"source":"agent","tool_calls":[{"function_name":"f","arguments":${deep}}]}]}`;
    writeFileSync(join(dir, "agent", "trajectory.json"), text);
    expect(loadTrajectory(dir)).toEqual({
      state: "invalid",
      reason: `nested deeper than ${MAX_TRAJECTORY_DEPTH} levels`,
    });
    const nest = (levels: number): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < levels; i++) v = { a: [v] };
      return v;
    };
    // `{a: [..]}` is two levels each; the value itself is level 0.
    expect(nestsDeeperThan(nest(500), MAX_TRAJECTORY_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nest(501), MAX_TRAJECTORY_DEPTH)).toBe(true);
  });
});
