import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { writeLinesAtomic } from "../../src/report/write-lines.js";
import { tempDir } from "../runner/helpers.js";

const ROOT = resolve(import.meta.dirname, "../..");
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

describe("writeLinesAtomic interrupted", () => {
  it("removes its temporary file on SIGINT and SIGTERM, and the process still ends by the signal", async () => {
    const script = `
      import { writeLinesAtomic } from ${JSON.stringify(join(ROOT, "src/report/write-lines.ts"))};
      async function* lines() {
        for (let i = 0; ; i++) {
          if (i === 2) process.stdout.write("writing\\n");
          yield "x".repeat(1000);
        }
      }
      await writeLinesAtomic(process.argv[1], lines(), false);`;
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const dir = tempDir("write-lines-signal");
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script, join(dir, "out.jsonl")],
        { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
      );
      await new Promise<void>((started) => child.stdout.once("data", () => started()));
      expect(temporary(dir)).toHaveLength(1);
      const ended = new Promise<NodeJS.Signals | null>((done) =>
        child.once("exit", (_code, sig) => done(sig)),
      );
      child.kill(signal);
      expect(await ended).toBe(signal);
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
