import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/index.js";
import { CastRecorder } from "./cast.js";
import { parseLoopOptions } from "./options.js";
import { capHeadTail, estimateTokens } from "./text-cap.js";

describe("capHeadTail", () => {
  it("leaves short text alone", () => {
    expect(capHeadTail("hello", 10)).toBe("hello");
  });

  it("keeps the head and the tail and says how much was dropped", () => {
    const text = `START${"x".repeat(10_000)}END`;
    const out = capHeadTail(text, 100);
    expect(out.startsWith("START")).toBe(true);
    expect(out.endsWith("END")).toBe(true);
    expect(out).toMatch(/\[\.\.\. 9908 bytes omitted \.\.\.\]/);
  });

  it("never exceeds the cap by more than the marker and never splits a character", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 400 }),
        fc.integer({ min: 4, max: 200 }),
        (s, cap) => {
          const out = capHeadTail(s, cap);
          expect(Buffer.byteLength(out)).toBeLessThanOrEqual(Math.max(Buffer.byteLength(s), cap + 48));
          // No character is split: nothing is made up, and what is kept is the text's own head and tail.
          if (!s.includes("\uFFFD")) expect(out).not.toContain("\uFFFD");
          const [head, tail] = out.split(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/);
          if (tail !== undefined) {
            expect(s.startsWith(head ?? "")).toBe(true);
            expect(s.endsWith(tail)).toBe(true);
          }
        },
      ),
    );
  });

  it("estimates about four bytes a token", () => {
    expect(estimateTokens("a".repeat(400))).toBe(100);
  });
});

describe("loop options", () => {
  it("reads budgets from agent options and ignores unrelated keys", () => {
    const o = parseLoopOptions({
      max_turns: "12",
      max_wall_sec: "30",
      summarize_at: "0.6",
      temperature: "0.1",
    });
    expect(o).toMatchObject({ max_turns: 12, max_wall_sec: 30, summarize_at: 0.6, max_output_bytes: 10_000 });
  });

  it("rejects bad values as user errors naming the option", () => {
    expect(() => parseLoopOptions({ max_turns: "0" })).toThrow(UserError);
    expect(() => parseLoopOptions({ summarize_at: "1.5" })).toThrow(/summarize_at=1.5/);
  });
});

describe("asciinema recording", () => {
  it("writes a v2 header and CR LF output events in time order", () => {
    const c = new CastRecorder(80, 24, "t");
    c.output("a\nb");
    c.input("ls\n");
    c.output("");
    const path = join(mkdtempSync(join(tmpdir(), "lh-cast-")), "r.cast");
    c.write(path);
    const lines = readFileSync(path, "utf8").trim().split("\n");
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ version: 2, width: 80, height: 24 });
    expect(lines.slice(1).map((l) => JSON.parse(l) as unknown[])).toEqual([
      [expect.any(Number), "o", "a\r\nb"],
      [expect.any(Number), "i", "ls\r\n"],
    ]);
    expect(c.eventCount).toBe(2);
  });
});
