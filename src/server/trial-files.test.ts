import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCast, readHead, readTail } from "./trial-files.js";

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
        duration: 2.25,
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
});
