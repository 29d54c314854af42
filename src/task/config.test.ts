import { describe, expect, it } from "vitest";
import { InputError } from "../core/errors.js";
import { parseTaskConfig, RESERVED_SANDBOX_PATHS, workdirProblem } from "./config.js";

const FILE = "tasks/x/task.toml";

function errorOf(text: string): InputError {
  try {
    parseTaskConfig(FILE, text);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected parseTaskConfig to throw");
}

describe("parseTaskConfig", () => {
  it("fills Harbor's defaults for an empty file", () => {
    const c = parseTaskConfig(FILE, "");
    expect(c.agent.timeout_sec).toBe(600);
    expect(c.verifier.timeout_sec).toBe(600);
    expect(c.environment).toEqual({
      cpus: 1,
      memory_mb: 2048,
      storage_mb: 10240,
      gpus: 0,
      os: "linux",
      // Harbor's default: the network is on unless the task turns it off.
      allow_internet: true,
      network_mode: null,
      allowed_hosts: [],
      workdir: "/app",
      docker_image: null,
      build_timeout_sec: 600,
      env: {},
      mcp_servers: [],
    });
    expect(c.verifier).toEqual({
      timeout_sec: 600,
      env: {},
      user: null,
      network_mode: null,
      allowed_hosts: [],
    });
    expect(c.solution).toEqual({ env: {} });
    expect(c.task).toEqual({ name: null, description: null });
    expect(c.metadata.tags).toEqual([]);
    expect(c.requires.host_tools).toEqual([]);
  });

  it("reads every section and tolerates keys it does not know", () => {
    const c = parseTaskConfig(
      FILE,
      `version = "1.0"
future_top_level = 3

[task]
name = "csv-audit"
description = "Audit a CSV"

[metadata]
author_name = "A. Author"
author_email = "a@example.org"
difficulty = "hard"
category = "data"
tags = ["csv", "audit"]
expert_time_estimate_min = 90.0

[agent]
timeout_sec = 5400.0

[verifier]
timeout_sec = 300
env = { X = "1" }

[environment]
cpus = 2
memory_mb = 4096
storage_mb = 20480
allow_internet = true
workdir = "/work"
docker_image = "example/img:1"
build_timeout_sec = 900.0
gpus = 0

[requires]
host_tools = ["python3", "sqlite3"]

[solution]
env = {}
`,
    );
    expect(c.task.name).toBe("csv-audit");
    expect(c.metadata).toMatchObject({ difficulty: "hard", category: "data", expert_time_estimate_min: 90 });
    expect(c.metadata.tags).toEqual(["csv", "audit"]);
    expect(c.agent.timeout_sec).toBe(5400);
    expect(c.verifier.timeout_sec).toBe(300);
    expect(c.environment).toMatchObject({
      cpus: 2,
      allow_internet: true,
      workdir: "/work",
      build_timeout_sec: 900,
    });
    expect(c.requires.host_tools).toEqual(["python3", "sqlite3"]);
    // Unknown keys are dropped, not carried into the typed config.
    expect(c).not.toHaveProperty("future_top_level");
    expect(c.verifier.env).toEqual({ X: "1" });
  });

  it("points a wrong type at the key's line, in the documented format", () => {
    const text = `[metadata]
category = "x"

[agent]
timeout_sec = 10

[verifier]
timeout_sec = "ten"
`;
    const e = errorOf(text);
    expect(e.message).toBe(
      'tasks/x/task.toml:8: [verifier] timeout_sec must be a positive number, got "ten"',
    );
    expect(e.line).toBe(8);
    expect(e.file).toBe(FILE);
  });

  it("tells apart the same key in two sections", () => {
    const e = errorOf("[agent]\ntimeout_sec = 5\n\n[verifier]\n# a comment\ntimeout_sec = -1\n");
    expect(e.message).toBe("tasks/x/task.toml:6: [verifier] timeout_sec must be a positive number, got -1");
  });

  it("names a task.toml saved as UTF-16 as not UTF-8, rather than as a TOML syntax error", () => {
    const utf16 = Buffer.from("\ufeff[agent]\ntimeout_sec = 5\n", "utf16le").toString("utf8");
    expect(errorOf(utf16).message).toBe(
      "tasks/x/task.toml: is not UTF-8 text (it holds NUL bytes: UTF-16?); save it as UTF-8",
    );
  });

  it("points at a key under a [section.sub] header of its own, and at a section written as [[tables]]", () => {
    expect(errorOf('[verifier]\ntimeout_sec = 5\n\n[verifier.env]\nOK = "x"\nFOO = 1\n').message).toBe(
      "tasks/x/task.toml:6: [verifier] env.FOO values must be strings, got 1",
    );
    expect(errorOf('version = "1.0"\n\n[[environment]]\ncpus = 1\n').message).toBe(
      'tasks/x/task.toml:3: environment must be a table, got [{"cpus":1}]',
    );
  });

  it("reports booleans, lists and paths with their lines", () => {
    expect(errorOf('[environment]\nallow_internet = "yes"\n').message).toBe(
      'tasks/x/task.toml:2: [environment] allow_internet must be true or false, got "yes"',
    );
    expect(errorOf('[environment]\nworkdir = "app"\n').message).toBe(
      'tasks/x/task.toml:2: [environment] workdir must be an absolute path, got "app"',
    );
    expect(errorOf('[requires]\nhost_tools = ["python3", 3]\n').message).toBe(
      "tasks/x/task.toml:2: [requires] host_tools.1 must be a non-empty string, got 3",
    );
    expect(errorOf('[requires]\nnested_sandbox = "yes"\n').message).toBe(
      'tasks/x/task.toml:2: [requires] nested_sandbox must be true or false, got "yes"',
    );
  });

  it("reads [requires] nested_sandbox, false unless a task asks", () => {
    expect(parseTaskConfig(FILE, "").requires.nested_sandbox).toBe(false);
    expect(parseTaskConfig(FILE, "[requires]\nnested_sandbox = true\n").requires.nested_sandbox).toBe(true);
  });

  it("lists every issue, one line each", () => {
    const e = errorOf('[agent]\ntimeout_sec = 0\n[environment]\ncpus = "two"\n');
    const lines = e.message.split("\n");
    expect(lines).toEqual([
      "tasks/x/task.toml:2: [agent] timeout_sec must be a positive number, got 0",
      'tasks/x/task.toml:4: [environment] cpus must be a positive number, got "two"',
    ]);
  });

  it("rejects a section that is not a table", () => {
    expect(errorOf('version = "1.0"\nagent = 5\n').message).toBe(
      "tasks/x/task.toml:2: agent must be a table, got 5",
    );
  });

  it("finds keys written as inline tables or dotted keys", () => {
    expect(errorOf('version = "1.0"\nagent = { timeout_sec = "x" }\n').message).toBe(
      'tasks/x/task.toml:2: [agent] timeout_sec must be a positive number, got "x"',
    );
    expect(errorOf('# c\nverifier.timeout_sec = false\n[task]\nname = "n"\n').message).toBe(
      "tasks/x/task.toml:2: [verifier] timeout_sec must be a positive number, got false",
    );
  });

  it("gives TOML syntax errors a line", () => {
    const e = errorOf('[task]\nname = "a"\n\n[agent]\ntimeout_sec = = 3\n');
    expect(e.message).toMatch(/^tasks\/x\/task\.toml:5: invalid TOML: /);
    expect(e.line).toBe(5);
  });
});

describe("load-time checks of what a trial needs", () => {
  it("reserves exactly the sandbox's host and persistent roots plus the verifier and oracle mounts", async () => {
    const { PERSISTENT_ROOTS, SYSTEM_ROOTS } = await import("../sandbox/spec.js");
    expect([...RESERVED_SANDBOX_PATHS].sort()).toEqual(
      [...SYSTEM_ROOTS, ...PERSISTENT_ROOTS, "/tests", "/solution", "/longhaul"].sort(),
    );
  });

  it.each([
    ["/app", null],
    ["/srv/work", null],
    ["/app/", null],
    ["/", "must not be / (the sandbox root)"],
    ["/usr/local/app", "must not be inside /usr (reserved in the sandbox)"],
    ["/tests", "must not be inside /tests (reserved in the sandbox)"],
    ["/app/./x", "must not contain . or .. components"],
    ["app", "must be an absolute path"],
  ])("workdir %j", (workdir, problem) => {
    expect(workdirProblem(workdir)).toBe(problem);
  });

  it("bounds timeouts, memory and CPUs so the runner can use them", () => {
    const bad = (toml: string): string => {
      try {
        parseTaskConfig("task.toml", toml);
      } catch (e) {
        return (e as Error).message;
      }
      return "accepted";
    };
    expect(bad("[environment]\nmemory_mb = 4194305\n")).toContain("must be at most 4194304 MiB");
    expect(bad("[environment]\nstorage_mb = 0.5\n")).toContain("must be a whole number of MiB");
    expect(bad("[verifier]\ntimeout_sec = 1000001\n")).toContain(
      "task.toml:2: [verifier] timeout_sec must be at most",
    );
    expect(bad("[agent]\ntimeout_sec = 1000000\n[environment]\ncpus = 0.5\n")).toBe("accepted");
  });
});
