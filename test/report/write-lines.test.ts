import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeLinesAtomic } from "../../src/report/write-lines.js";
import { tempDir } from "../runner/helpers.js";

const temporary = (dir: string): string[] => readdirSync(dir).filter((f) => f.includes(".tmp-"));

describe("writeLinesAtomic", () => {
  it("writes each line as it is made, not all of them at the end", async () => {
    const dir = tempDir("write-lines");
    const out = join(dir, "out.jsonl");
    const sizes: number[] = [];
    async function* lines(): AsyncGenerator<string> {
      for (let i = 0; i < 3; i++) {
        yield `{"n":${i}}`;
        // The lines yielded so far are already in the temporary file, so memory holds one at a time.
        const [tmp] = temporary(dir);
        sizes.push(tmp === undefined ? -1 : statSync(join(dir, tmp)).size);
      }
    }
    await writeLinesAtomic(out, lines(), false);
    expect(sizes).toEqual([8, 16, 24]);
    expect(readFileSync(out, "utf8")).toBe('{"n":0}\n{"n":1}\n{"n":2}\n');
    expect(temporary(dir)).toEqual([]);
  });

  it("leaves neither the file nor a temporary one when making a line fails", async () => {
    const dir = tempDir("write-lines-fail");
    const out = join(dir, "out.jsonl");
    async function* lines(): AsyncGenerator<string> {
      yield "first";
      throw new Error("damaged trajectory");
    }
    await expect(writeLinesAtomic(out, lines(), true)).rejects.toThrow("damaged trajectory");
    expect(existsSync(out)).toBe(false);
    expect(temporary(dir)).toEqual([]);
  });
});
