import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfigFile, readConfigFile } from "../../src/config.js";
import { InputError, UserError } from "../../src/core/errors.js";
import { runCli } from "../support/cli-process.js";

// A broken config file is one line naming the file, the line and the key: a folder in its
// place, a JSON syntax error, a price without `output`, a sandbox name no provider has.

const dir = mkdtempSync(join(tmpdir(), "longhaul-config-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENV = {
  ...process.env,
  LONGHAUL_CONFIG: "",
  LONGHAUL_JOBS_DIR: "",
  LONGHAUL_SANDBOX: "",
  LONGHAUL_MODELS: "",
};
const cli = (args: string[], env: NodeJS.ProcessEnv = ENV) => runCli(args, { cwd: dir, env });

function parseError(name: string, text: string): InputError {
  try {
    parseConfigFile(join(dir, name), text);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("expected the config to be refused");
}

describe("config file errors", () => {
  it.each(["x.json", "x.toml", "x.ts"])("a folder named %s: exit 2 naming it", async (name) => {
    const path = join(dir, "folders", name);
    mkdirSync(path, { recursive: true });
    await expect(readConfigFile(path)).rejects.toThrow(UserError);
    const r = await cli(["config", "show", "--config", path]);
    expect([r.code, r.stderr]).toEqual([2, `longhaul: ${path}: is a folder, where a file is expected\n`]);
  });

  it("a JSON syntax error is one line with the line and column", () => {
    const e = parseError("syntax.json", '{\n  "models": ["openai:gpt-4o",],\n}\n');
    expect(e.line).toBe(2);
    expect(e.message).toBe(`${join(dir, "syntax.json")}:2: column 30: invalid JSON (Unexpected token ']')`);
  });

  it("a price missing `output` gives the line of its model's entry", () => {
    const text =
      '{\n  "models": ["openai:gpt-4o"],\n  "pricing": {\n    "openai:gpt-4o": {\n      "input": 1\n    }\n  }\n}\n';
    const e = parseError("price.json", text);
    expect(e.message).toBe(
      `${join(dir, "price.json")}:4: pricing.openai:gpt-4o.output: missing (expected number)`,
    );
  });

  it("so does one in TOML, under a dotted table header", () => {
    const text = 'models = ["openai:gpt-4o"]\n\n[pricing."openai:gpt-4o"]\ninput = 1\n';
    expect(parseError("price.toml", text).line).toBe(3);
  });

  it("an unknown sandbox name from the file names the file, its line and the key", async () => {
    const file = join(dir, "sandbox.json");
    writeFileSync(file, '{\n  "jobsDir": "jobs",\n  "sandbox": "nosuch"\n}\n');
    const r = await cli(["run", "--config", file, join(dir, "no-task"), "--agent", "nop"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `longhaul: ${file}:3: sandbox: unknown sandbox provider "nosuch" (known: bwrap, docker)\n`,
    );
  });

  it("and one from LONGHAUL_SANDBOX names the variable", async () => {
    const r = await cli(["run", join(dir, "no-task"), "--agent", "nop"], {
      ...ENV,
      LONGHAUL_SANDBOX: "nosuch",
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'longhaul: LONGHAUL_SANDBOX=nosuch: unknown sandbox provider "nosuch" (known: bwrap, docker)\n',
    );
  });
});
