import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../core/errors.js";
import { copyTree, mapToHost, resolveHostPath } from "./host-paths.js";

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

describe("copyTree", () => {
  it("merges a folder into an existing one, with names that are not UTF-8, links kept as links and modes kept", async () => {
    const from = join(dir, "copy-from");
    const to = join(dir, "copy-to");
    mkdirSync(join(from, "sub"), { recursive: true });
    mkdirSync(to, { recursive: true });
    writeFileSync(join(to, "already"), "kept\n");
    const bad = Buffer.concat([Buffer.from(`${from}/sub/bad`), Buffer.from([0xff]), Buffer.from("name")]);
    writeFileSync(bad, "bytes\n");
    writeFileSync(join(from, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    symlinkSync("/etc/hostname", join(from, "link"));
    await copyTree(from, to);
    expect(readFileSync(join(to, "already"), "utf8")).toBe("kept\n");
    const names = readdirSync(join(to, "sub"), { encoding: "buffer" });
    expect(names).toEqual([Buffer.concat([Buffer.from("bad"), Buffer.from([0xff]), Buffer.from("name")])]);
    expect(readlinkSync(join(to, "link"))).toBe("/etc/hostname");
    expect(statSync(join(to, "run.sh")).mode & 0o777).toBe(0o755);
  });

  it("names both paths when the copy fails", async () => {
    const from = join(dir, "copy-file");
    writeFileSync(from, "x");
    const blocker = join(dir, "copy-blocker");
    writeFileSync(blocker, "a file where a folder should be");
    await expect(copyTree(from, join(blocker, "inside"))).rejects.toThrow(/copy-blocker/);
  });
});
