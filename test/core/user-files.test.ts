import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InputError, issueText, parseUserJson, readUserText, UserError } from "../../src/core/index.js";
import { tempDir } from "../runner/helpers.js";

describe("reading a user's files", () => {
  it("names the path of a missing file, a folder in a file's place and a file in a folder's place", () => {
    const dir = tempDir("user-files");
    mkdirSync(join(dir, "a-folder"));
    writeFileSync(join(dir, "a-file"), "text");
    expect(readUserText(join(dir, "a-file"))).toBe("text");
    const cases: Array<[string, string]> = [
      [join(dir, "none"), "no such file or folder"],
      [join(dir, "a-folder"), "is a folder, where a file is expected"],
      [join(dir, "a-file", "x"), "a part of this path is a file, where a folder is expected"],
    ];
    for (const [path, why] of cases) {
      const e = (() => {
        try {
          readUserText(path);
        } catch (err) {
          return err;
        }
        return null;
      })();
      expect(e).toBeInstanceOf(UserError);
      expect((e as Error).message).toBe(`${path}: ${why}`);
    }
  });

  it("gives a JSON syntax error's line and column on one line", () => {
    const text = '{\n  "a": 1,\n  "b": }\n';
    expect(() => parseUserJson("f.json", text)).toThrow(InputError);
    try {
      parseUserJson("f.json", text);
    } catch (e) {
      expect((e as Error).message).toMatch(/^f\.json:3: column 8: invalid JSON \(Unexpected token '\}'\)$/);
    }
    try {
      parseUserJson("g.json", '{"a": [1, 2');
    } catch (e) {
      expect((e as Error).message).toMatch(/^g\.json:1: column 12: invalid JSON \(.+\)$/);
      expect((e as Error).message).not.toContain("\n");
    }
    expect(parseUserJson("h.json", '{"a": 1}')).toEqual({ a: 1 });
  });

  it("says a schema's first issue as the field and its message", () => {
    const schema = z.strictObject({ a: z.object({ b: z.number() }), c: z.string() });
    const bad = schema.safeParse({ a: { b: "x" }, c: 1 });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(issueText(bad.error)).toMatch(/^field a\.b: .*number.* \(and 1 more\)$/);
    const extra = schema.safeParse({ a: { b: 1 }, c: "", d: 1 });
    if (!extra.success) expect(issueText(extra.error)).toBe('unknown field "d"');
    const top = schema.safeParse(null);
    if (!top.success) expect(issueText(top.error)).toMatch(/^field \(top level\): /);
  });
});
