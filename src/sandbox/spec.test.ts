import { describe, expect, it } from "vitest";
import { UserError } from "../core/errors.js";
import { baseEnv, DEFAULT_MAX_OUTPUT_BYTES, parseExecOptions, parseSandboxSpec } from "./spec.js";

const spec = {
  environmentDir: null,
  workdir: "/app/",
  memoryMb: 512,
  cpus: 1,
  pidsMax: 64,
  allowInternet: false,
  stateDir: "/tmp/x",
};

describe("sandbox spec and exec options", () => {
  it("normalises the workdir and refuses ones that overlap system or persistent folders", () => {
    expect(parseSandboxSpec(spec).workdir).toBe("/app");
    expect(parseSandboxSpec({ ...spec, workdir: "/home/user/project" }).workdir).toBe("/home/user/project");
    for (const bad of ["/", "/usr/src/app", "/tmp/app", "/logs", "/root/app", "app", "/app/../etc"]) {
      expect(() => parseSandboxSpec({ ...spec, workdir: bad })).toThrow(UserError);
    }
    expect(() => parseSandboxSpec({ ...spec, memoryMb: 1.5 })).toThrow(/memoryMb/);
  });

  it("over an image, allows any workdir but the root and the sandbox's own /logs, /proc and /dev", () => {
    const image = {
      id: `sha256:${"a".repeat(64)}`,
      tag: null,
      config: { workdir: null, env: {}, user: null },
    };
    for (const ok of ["/app", "/workspace", "/root", "/usr/src/app", "/tmp/w", "/etc/x"]) {
      expect(parseSandboxSpec({ ...spec, image, workdir: ok }).workdir).toBe(ok);
    }
    for (const bad of ["/", "/logs", "/logs/x", "/proc", "/dev/shm", "app"]) {
      expect(() => parseSandboxSpec({ ...spec, image, workdir: bad })).toThrow(UserError);
    }
    expect(() => parseSandboxSpec({ ...spec, image: null, workdir: "/usr/src/app" })).toThrow(/workdir/);
  });

  it("fills exec defaults and refuses mounts into system folders", () => {
    const o = parseExecOptions(undefined);
    expect(o).toMatchObject({ mounts: [], env: {}, maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES });
    expect(() => parseExecOptions({ cwd: "relative" })).toThrow(/cwd/);
    expect(() => parseExecOptions({ timeoutSec: -1 })).toThrow(UserError);
    const mount = { hostPath: "/h", sandboxPath: "/etc/x", readonly: true };
    expect(() => parseExecOptions({ mounts: [mount] })).toThrow(/system folder/);
    expect(parseExecOptions({ mounts: [{ ...mount, sandboxPath: "/tests/" }] }).mounts[0]?.sandboxPath).toBe(
      "/tests",
    );
  });

  it("lets exec variables override the base environment without touching the host's", () => {
    const env = baseEnv({ PATH: "/opt/tool/bin", EXTRA: "1" });
    expect(env).toMatchObject({ PATH: "/opt/tool/bin", EXTRA: "1", HOME: "/root", LANG: "C.UTF-8" });
    expect(Object.keys(env)).not.toContain("NODE_OPTIONS");
  });
});
