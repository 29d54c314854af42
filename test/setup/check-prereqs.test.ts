import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// scripts/check-prereqs.sh runs before npm ci in the README's set-up line: it must name every
// missing piece in one line and fail, and pass on a host that has them all.
const script = resolve("scripts/check-prereqs.sh");
const which = (tool: string): string => spawnSync("which", [tool], { encoding: "utf8" }).stdout.trim();
const dirs: string[] = [];

/** A PATH holding only the given tools (links to the host's), so the others look missing. */
function pathWith(tools: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "lh-prereqs-"));
  dirs.push(dir);
  for (const t of tools) symlinkSync(which(t), join(dir, t));
  return dir;
}

function check(env: Record<string, string>): { status: number | null; stderr: string } {
  const r = spawnSync("/bin/bash", [script], {
    env: { HOME: process.env.HOME ?? "/root", ...env },
    encoding: "utf8",
  });
  return { status: r.status, stderr: r.stderr };
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("set-up prerequisites", () => {
  it("pass on this host", () => {
    const r = check({ PATH: process.env.PATH ?? "/usr/bin:/bin" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("name a missing compiler, make and Node headers in one line", () => {
    const path = pathWith(["node", "npm", "bwrap", "python3", "dirname", "readlink"]);
    const r = check({ PATH: path, npm_config_nodedir: "/nonexistent-node-prefix" });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^setup: missing: /);
    expect(lines[0]).toContain("g++");
    expect(lines[0]).toContain("make");
    expect(lines[0]).toContain("/nonexistent-node-prefix/include/node/node.h");
    expect(lines[0]).not.toContain("bubblewrap");
  });

  it("name a missing bubblewrap", () => {
    const path = pathWith(["node", "npm", "g++", "make", "python3", "dirname", "readlink"]);
    const r = check({ PATH: path });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe("setup: missing: bubblewrap (apt-get install -y bubblewrap)");
  });
});
