import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../core/errors.js";
import { mapToHost, resolveHostPath } from "./host-paths.js";

const dir = mkdtempSync(join(tmpdir(), "longhaul-paths-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mapToHost", () => {
  const binds = [
    { sandboxRoot: "/app", hostRoot: "/s/app" },
    { sandboxRoot: "/app/cache", hostRoot: "/s/cache" },
    { sandboxRoot: "/tmp", hostRoot: "/s/tmp" },
  ];
  it("maps paths under a bind, preferring the most specific one", () => {
    expect(mapToHost(binds, "/app")).toBe("/s/app");
    expect(mapToHost(binds, "/app/x/y.txt")).toBe("/s/app/x/y.txt");
    expect(mapToHost(binds, "/app/cache/z")).toBe("/s/cache/z");
    expect(mapToHost(binds, "/tmp//a/./b")).toBe("/s/tmp/a/b");
  });
  it("returns null outside the binds, for look-alike prefixes and for .. or relative paths", () => {
    expect(mapToHost(binds, "/application")).toBeNull();
    expect(mapToHost(binds, "/etc/passwd")).toBeNull();
    expect(mapToHost(binds, "/app/../etc")).toBeNull();
    expect(mapToHost(binds, "app/x")).toBeNull();
  });
});

describe("resolveHostPath", () => {
  const app = join(dir, "app");
  mkdirSync(join(app, "real"), { recursive: true });
  symlinkSync("/", join(app, "escape"));
  symlinkSync("real", join(app, "inside"));
  const binds = [{ sandboxRoot: "/app", hostRoot: app }];

  it("follows symlinks that stay inside the bind and keeps missing tails", () => {
    expect(resolveHostPath(binds, "/app/inside/new/file.txt")).toBe(join(app, "real", "new", "file.txt"));
    expect(resolveHostPath(binds, "/app/escape")).toBe(join(app, "escape"));
  });
  it("refuses paths that leave the bind through a symlink, or are outside every bind", () => {
    expect(() => resolveHostPath(binds, "/app/escape/etc/passwd")).toThrow(/symlink/);
    expect(() => resolveHostPath(binds, "/etc/passwd")).toThrow(UserError);
  });
});
