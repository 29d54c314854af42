import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig, parseConfigFile } from "../../src/config.js";
import { InputError } from "../../src/core/errors.js";
import { runCli } from "../support/cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "longhaul-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// No LONGHAUL_* setting of the caller's shell may reach the CLI under test.
const ENV = {
  ...process.env,
  LONGHAUL_CONFIG: "",
  LONGHAUL_JOBS_DIR: "",
  LONGHAUL_SANDBOX: "",
  LONGHAUL_MODELS: "",
};
const cli = (args: string[], cwd = dir) => runCli(args, { cwd, env: ENV });

// A plugin that adds an agent and a report format; the format prints the trials it was given.
writeFileSync(
  join(dir, "plug.mjs"),
  `export function register(api) {
  api.registerAgent("plugin-agent", { description: "from a plugin", create: () => api.getAgent("nop") });
  api.registerReportRenderer("plugin-format", {
    description: "from a plugin",
    render: (s) => "plugin-format: " + s.groups.map((g) => g.label + " n=" + g.trials).join(", ") + "\\n",
  });
}
`,
);
// A second plugin, from the command line: it may use what the config file's plugin registered.
writeFileSync(
  join(dir, "plug2.mjs"),
  'export function register(api) { api.getReportRenderer("plugin-format"); }\n',
);
writeFileSync(join(dir, "no-register.mjs"), "export const x = 1;\n");
writeFileSync(
  join(dir, "longhaul.config.json"),
  JSON.stringify({ jobsDir: "my-jobs", models: ["openai:gpt-4o"], plugins: ["./plug.mjs"] }, null, 2),
);
writeFileSync(join(dir, "trials.csv"), "task,agent,reward\nt1,alpha,1\nt2,alpha,0.5\n");
writeFileSync(join(dir, "bad.toml"), 'jobsDir = "j"\n\nsandboxx = "bwrap"\n');
writeFileSync(join(dir, "broken.toml"), 'jobsDir = "j"\nmodels = [\n');

describe("config file", () => {
  it("config show prints each value with its source, the plugin included", async () => {
    const [text, json] = await Promise.all([cli(["config", "show"]), cli(["config", "show", "--json"])]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^plugins +\.\/plug\.mjs +\S*longhaul\.config\.json$/m);
    expect(text.stdout).toMatch(/^sandbox +bwrap +default$/m);
    const doc = JSON.parse(json.stdout) as Record<string, { value: unknown; source: string }>;
    expect(doc.jobsDir).toEqual({ value: join(dir, "my-jobs"), source: join(dir, "longhaul.config.json") });
    expect(doc.models?.value).toEqual(["openai:gpt-4o"]);
  });

  it("config show names the installed agents a TOML file defines, with the file as source", async () => {
    const toml = join(dir, "agents.toml");
    writeFileSync(
      toml,
      [
        'sandbox = "docker"',
        "",
        "[agents.my-agent]",
        'package = "my-agent-cli"',
        'version = "1.2.3"',
        'bin = "node_modules/my-agent-cli/bin/cli.js"',
        'args = ["--prompt", "{{instruction}}"]',
        "",
      ].join("\n"),
    );
    const [text, json] = await Promise.all([
      cli(["--config", "agents.toml", "config", "show"]),
      cli(["--config", "agents.toml", "config", "show", "--json"]),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^agents\\.my-agent +my-agent-cli@1\\.2\\.3 +${toml}$`, "m"));
    expect(text.stdout).toMatch(new RegExp(`^sandbox +docker +${toml}$`, "m"));
    const doc = JSON.parse(json.stdout) as {
      agents: Record<string, { value: { bin: string }; source: string }>;
    };
    expect(doc.agents["my-agent"]?.source).toBe(toml);
    expect(doc.agents["my-agent"]?.value.bin).toBe("node_modules/my-agent-cli/bin/cli.js");
  });

  it("a plugin's report format renders, and the jobs dir defaults to the file's", async () => {
    const [fmt, jobs] = await Promise.all([
      cli(["--plugin", "./plug2.mjs", "report", "--import", "trials.csv", "--format", "plugin-format"]),
      cli(["report"]),
    ]);
    expect(fmt).toMatchObject({ code: 0, stdout: expect.stringMatching(/^plugin-format: alpha \/ - n=2/) });
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toContain(join(dir, "my-jobs"));
  });

  it("a bad key, bad TOML or a plugin without register is exit 2 naming the file, line and key", async () => {
    const [key, toml, plugin] = await Promise.all([
      cli(["--config", "bad.toml", "config", "show"]),
      cli(["report", "--config", "broken.toml"]),
      cli(["--plugin", "./no-register.mjs", "config", "show"]),
    ]);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain(`${join(dir, "bad.toml")}:3: unknown key "sandboxx"`);
    expect(toml.code).toBe(2);
    expect(toml.stderr).toMatch(/broken\.toml:\d+: not valid TOML/);
    expect(plugin).toMatchObject({ code: 2, stderr: expect.stringContaining("plugin ./no-register.mjs") });
  });

  it("checks types and nested price keys, and the environment beats the file", async () => {
    expect(() => parseConfigFile("c.json", '{"models": "openai:x"}')).toThrow(/c\.json.*models: /);
    const e = (() => {
      try {
        parseConfigFile(
          "c.json",
          '{\n  "pricing": {\n    "m": {"input": 1, "output": 2, "outptu": 3}\n  }\n}',
        );
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).field).toBe("pricing.m.outptu");
    expect((e as InputError).line).toBe(3);
    const c = await loadConfig({ cwd: dir, env: { LONGHAUL_SANDBOX: "docker" } });
    expect(c.sandbox).toEqual({ value: "docker", source: "environment" });
    expect(c.models.source).toEqual({ file: join(dir, "longhaul.config.json") });
    expect((await loadConfig({ cwd: tmpdir(), env: {} })).file).toBeNull();
  });
});

describe("a plugin's environment transform", () => {
  it("is listed by scale transforms beside the built-in ones", async () => {
    const plug = join(dir, "transform-plugin.mjs");
    writeFileSync(
      plug,
      `export function register(api) {
  const base = api.getTransform("base64");
  api.registerTransform("rot13-text", { ...base, basic: false, summary: "from a plugin" });
}
`,
    );
    const r = await cli(["--plugin", plug, "scale", "transforms", "--json"]);
    expect(r.stderr).toBe("");
    const rows = JSON.parse(r.stdout) as { name: string; summary: string; kind: string }[];
    expect(rows.find((t) => t.name === "rot13-text")).toMatchObject({
      summary: "from a plugin",
      kind: "resource",
    });
    expect(rows.length).toBeGreaterThanOrEqual(25);
    // After the command too, as for every other command (scale's own options are positional).
    const after = await cli(["scale", "transforms", "--json", "--plugin", plug]);
    expect(after.stderr).toBe("");
    expect(JSON.parse(after.stdout)).toEqual(rows);
    const plain = await cli(["scale", "transforms"]);
    expect(plain.stdout).not.toContain("rot13-text");
    expect(plain.stdout).toMatch(/^base64\s+resource\s+yes/m);
  });
});

describe("a TypeScript config file", () => {
  const tsDir = mkdtempSync(join(tmpdir(), "longhaul-config-ts-"));
  afterAll(() => rmSync(tsDir, { recursive: true, force: true }));

  it("is found first, loads with its types stripped, and config show names it", async () => {
    writeFileSync(
      join(tsDir, "longhaul.config.ts"),
      `import { defineConfig } from "${resolve("src/config.ts")}";
const sandbox: string = "docker";
export const config = defineConfig({ sandbox, models: ["openai:gpt-x"] as string[], jobsDir: "runs" });
`,
    );
    writeFileSync(join(tsDir, "longhaul.config.json"), '{"sandbox": "bwrap"}');
    const c = await loadConfig({ cwd: tsDir, env: {} });
    const file = join(tsDir, "longhaul.config.ts");
    expect(c.file).toEqual({ path: file, foundBy: "current folder" });
    expect(c.sandbox).toEqual({ value: "docker", source: { file } });
    expect(c.jobsDir.value).toBe(join(tsDir, "runs"));
    const r = await cli(["config", "show", "--json"], tsDir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"openai:gpt-x"');
  });

  it("a bad key names the file, line and key; a throwing module names the file", async () => {
    const bad = join(tsDir, "bad.config.ts");
    writeFileSync(bad, `export default {\n  sandbox: "bwrap",\n  modles: ["x"],\n};\n`);
    const e = await loadConfig({ cwd: tsDir, env: {}, config: bad }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).line).toBe(3);
    expect((e as InputError).field).toBe("modles");
    const throwing = join(tsDir, "throws.config.mts");
    writeFileSync(throwing, `const n: number = 1;\nthrow new Error("no config for you " + n);\n`);
    const r = await cli(["config", "show", "--config", throwing], tsDir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(throwing);
    expect(r.stderr).toContain("no config for you 1");
  });
});

describe("commandNamed with global options", () => {
  it("skips the values of --config and --plugin", async () => {
    const { commandNamed } = await import("../../src/cli/commands/catalog.js");
    expect(commandNamed(["--plugin", "./p.mjs", "--config", "x.toml", "report"])).toBe("report");
  });
});

describe("the example plugin of docs/config.md", () => {
  it("loads and registers its agent and report format", async () => {
    const docs = readFileSync(resolve(import.meta.dirname, "../../docs/config.md"), "utf8");
    const source = /^```js\n([\s\S]*?)^```$/m.exec(docs)?.[1];
    expect(source).toContain("export function register");
    writeFileSync(join(dir, "example.mjs"), source ?? "");
    const { loadPlugins } = await import("../../src/plugins.js");
    const { listAgents, listReportRenderers } = await import("../../src/registries.js");
    await loadPlugins([{ spec: "./example.mjs", baseDir: dir }]);
    expect(listAgents().map((a) => a.name)).toContain("hello");
    expect(listReportRenderers().map((r) => r.name)).toContain("oneline");
  });
});
