// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Harbor env templates are ${VAR} strings
import { describe, expect, it } from "vitest";
import { InputError } from "../core/errors.js";
import { parseTaskConfigWithWarnings } from "./config.js";
import { resolveEnvTemplates, templateProblems } from "./env-template.js";

const FILE = "ds/t1/task.toml";
const parse = (text: string, hasDockerfile = false) => parseTaskConfigWithWarnings(FILE, text, hasDockerfile);

function refusal(text: string): InputError {
  try {
    parse(text);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("Harbor fields longhaul cannot honour are refused, naming file, line and field", () => {
  it.each([
    [
      "[environment]\ngpus = 1\n",
      "ds/t1/task.toml:2: [environment] gpus = 1: longhaul's sandboxes have no GPUs",
    ],
    [
      '[environment]\nos = "Windows"\n',
      'ds/t1/task.toml:2: [environment] os = "windows": longhaul runs Linux sandboxes only',
    ],
    [
      '[environment]\ntpu = { type = "v6e", topology = "2x4" }\n',
      "ds/t1/task.toml:2: [environment] tpu is set",
    ],
    [
      '[environment]\nnetwork_mode = "allowlist"\nallowed_hosts = ["pypi.org"]\n',
      "ds/t1/task.toml:2: [environment] network_mode asks for a host allowlist",
    ],
    [
      '[environment]\nallowed_hosts = ["pypi.org"]\n',
      "ds/t1/task.toml:2: [environment] allowed_hosts asks for a host allowlist",
    ],
    [
      '[environment]\nnetwork_mode = "public"\nallow_internet = false\n',
      'ds/t1/task.toml:3: [environment] allow_internet = false contradicts network_mode = "public"',
    ],
    ['[environment]\nnetwork_mode = "offline"\n', "ds/t1/task.toml:2: [environment] network_mode must be"],
    ['[verifier.env]\n"BAD-NAME" = "1"\n', "[verifier] env.BAD-NAME must be a variable name"],
    ["[solution.env]\nX = 1\n", "[solution] env.X values must be strings"],
    [
      '[[environment.mcp_servers]]\nname = "m"\ntransport = "stdio"\n',
      'mcp_servers.0.command is required for transport "stdio"',
    ],
    ['[environment]\nmemory = "lots"\n', '[environment] memory must be a size like "2G"'],
  ])("%j", (text, message) => {
    const e = refusal(text);
    expect(e.message).toContain(message);
    expect(e.file).toBe(FILE);
  });

  it("refuses an env template naming a host variable that is not set", () => {
    const e = refusal('[environment.env]\nKEY = "${LONGHAUL_TEST_SURELY_UNSET_VAR}"\n');
    expect(e.message).toContain(
      "[environment] env.KEY needs the host variable LONGHAUL_TEST_SURELY_UNSET_VAR",
    );
    expect(e.line).toBe(2);
  });
});

describe("Harbor fields are honoured", () => {
  it("reads the env tables, os, gpus = 0 and network_mode (which wins over the default)", () => {
    const { config, warnings } = parse(`[environment]
os = "linux"
gpus = 0
network_mode = "no-network"
[environment.env]
A = "1"
[verifier]
env = { B = "2" }
[solution.env]
C = "3"
`);
    expect(config.environment.env).toEqual({ A: "1" });
    expect(config.verifier.env).toEqual({ B: "2" });
    expect(config.solution.env).toEqual({ C: "3" });
    expect(config.environment.allow_internet).toBe(false);
    expect(config.environment.network_mode).toBe("no-network");
    expect(warnings).toEqual([]);
  });

  it("defaults allow_internet to Harbor's true, and network_mode public keeps it", () => {
    expect(parse("").config.environment.allow_internet).toBe(true);
    expect(parse('[environment]\nnetwork_mode = "public"\n').config.environment.allow_internet).toBe(true);
    expect(parse("[environment]\nallow_internet = false\n").config.environment.allow_internet).toBe(false);
  });

  it("converts Harbor's deprecated memory/storage sizes, with a warning naming the line", () => {
    const { config, warnings } = parse('[environment]\nmemory = "4G"\nstorage = "512M"\n');
    expect(config.environment.memory_mb).toBe(4096);
    expect(config.environment.storage_mb).toBe(512);
    expect(warnings).toEqual([
      "ds/t1/task.toml:2: [environment] memory is deprecated (Harbor too); read as memory_mb = 4096",
      "ds/t1/task.toml:3: [environment] storage is deprecated (Harbor too); read as storage_mb = 512",
    ]);
  });

  it("takes a uid or a name for [verifier] user; a host task warns that users are not applied", () => {
    const { config, warnings } = parse('[verifier]\nuser = 1000\n[agent]\nuser = "agent"\n');
    expect(config.verifier.user).toBe("1000");
    expect(config.agent.user).toBe("agent");
    expect(warnings).toEqual([
      'ds/t1/task.toml:4: [agent] user = "agent" is recorded but not applied: a task without an image runs every command as the sandbox user',
      'ds/t1/task.toml:2: [verifier] user = "1000" is recorded but not applied: a task without an image runs every command as the sandbox user',
    ]);
  });

  it("applies users without a warning for an image task", () => {
    const { warnings } = parse('[verifier]\nuser = 1000\n[agent]\nuser = "agent"\n', true);
    expect(warnings.filter((w) => w.includes("user"))).toEqual([]);
  });

  it("records MCP servers and warns that no built-in agent uses them", () => {
    const { config, warnings } = parse(`[[environment.mcp_servers]]
name = "docs"
url = "http://localhost:9000/sse"
[[environment.mcp_servers]]
name = "fs"
transport = "stdio"
command = "mcp-fs"
args = ["/app"]
`);
    expect(config.environment.mcp_servers).toEqual([
      { name: "docs", transport: "sse", url: "http://localhost:9000/sse", command: null, args: [] },
      { name: "fs", transport: "stdio", url: null, command: "mcp-fs", args: ["/app"] },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("ds/t1/task.toml");
    expect(warnings[0]).toContain(
      "[environment] mcp_servers names docs, fs: recorded, but no built-in agent",
    );
  });

  it("warns about fields it accepts but ignores, and about per-phase network policies", () => {
    const { warnings } = parse(`[agent]
network_mode = "no-network"
[environment]
skills_dir = "/skills"
gpu_types = ["H100"]
healthcheck = { command = "true" }
`);
    expect(warnings.join("\n")).toContain("ds/t1/task.toml:2: [agent] network_mode is not applied");
    expect(warnings.join("\n")).toContain("ds/t1/task.toml:4: [environment] skills_dir is ignored");
    expect(warnings.join("\n")).toContain("ds/t1/task.toml:5: [environment] gpu_types is ignored");
    expect(warnings.join("\n")).toContain("ds/t1/task.toml:6: [environment] healthcheck is ignored");
  });

  it("warns (never fails) about keys Harbor does not define, naming file, line and key; [metadata] is free-form", () => {
    const { warnings } = parse(`mystery = 1
[metadata]
anything_goes = "yes"
[environment]
cpu_count = 4
[verifier]
timeout = 10
`);
    expect(warnings).toEqual([
      "ds/t1/task.toml:1: mystery is not a Harbor task.toml field; ignored",
      "ds/t1/task.toml:7: [verifier] timeout is not a Harbor task.toml field; ignored",
      "ds/t1/task.toml:5: [environment] cpu_count is not a Harbor task.toml field; ignored",
    ]);
  });

  it("loads a task whose typed [metadata] keys have other types, with a warning each and the defaults", () => {
    // Harbor's [metadata] is free-form: every one of these is a valid Harbor task.toml.
    const { config, warnings } = parse(`[metadata]
difficulty = 3
category = ""

tags = "csv"
author_name = ["A", "B"]
expert_time_estimate_min = 0
junior_time_estimate_min = 0
`);
    expect(config.metadata).toEqual({
      category: "uncategorized",
      difficulty: "unknown",
      expert_time_estimate_min: null,
      tags: [],
      author_name: null,
    });
    const free = "; ignored (Harbor's [metadata] is free-form)";
    expect(warnings).toEqual([
      `ds/t1/task.toml:3: [metadata] category must be a non-empty string, got ""${free}`,
      `ds/t1/task.toml:2: [metadata] difficulty must be a non-empty string, got 3${free}`,
      `ds/t1/task.toml:7: [metadata] expert_time_estimate_min must be a positive number, got 0${free}`,
      `ds/t1/task.toml:5: [metadata] tags must be a list of strings, got "csv"${free}`,
      `ds/t1/task.toml:6: [metadata] author_name must be a string, got ["A","B"]${free}`,
    ]);
    expect(refusal("metadata = 3\n").message).toBe("ds/t1/task.toml:1: metadata must be a table, got 3");
  });

  it("lets an image task use a workdir a host task may not", () => {
    expect(parse('[environment]\nworkdir = "/usr/src/app"\n', true).config.environment.workdir).toBe(
      "/usr/src/app",
    );
    expect(
      parse('[environment]\nworkdir = "/root/app"\ndocker_image = "x:1"\n').config.environment.workdir,
    ).toBe("/root/app");
    expect(refusal('[environment]\nworkdir = "/usr/src/app"\n').message).toContain(
      "ds/t1/task.toml:2: [environment] workdir must not be inside /usr (reserved in the sandbox)",
    );
    expect(() => parse('[environment]\nworkdir = "/logs/x"\n', true)).toThrow(/must not be inside \/logs/);
  });
});

describe("env templates", () => {
  const host = { KEY: "secret", EMPTY: "" };
  it("resolves ${VAR} and ${VAR:-default} from the host", () => {
    expect(
      resolveEnvTemplates(
        { A: "${KEY}", B: "x-${MISSING:-dflt}-y", C: "${EMPTY:-d}", D: "plain $KEY" },
        host,
      ),
    ).toEqual({ A: "secret", B: "x-dflt-y", C: "d", D: "plain $KEY" });
  });
  it("names variables that need an unset host variable", () => {
    expect(templateProblems({ A: "${KEY}", B: "${NOPE}", C: "${NOPE:-x}" }, host)).toEqual([
      ["B", 'needs the host variable NOPE ("${NOPE}"), which is not set'],
    ]);
  });
});
