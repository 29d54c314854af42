import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";

/**
 * Root-only files (mode 0600) planted in the host's /etc, /var and /opt, plus a 0700 folder
 * holding a world-readable file, for checks that the sandbox cannot read them. Created before
 * any provider scans the host; they are removed after the calling file's tests (left in place,
 * every later scan of the host lists them, and every host-rooted sandbox masks them).
 */
export function plantHostSecrets(): { secrets: { path: string; content: string }[]; remove: () => void } {
  const tag = `longhaul-secret-${process.pid}-${randomBytes(4).toString("hex")}`;
  const made: string[] = [];
  const secrets: { path: string; content: string }[] = [];
  for (const dir of ["/etc", "/var", "/opt"]) {
    if (!existsSync(dir)) continue;
    const path = join(dir, tag);
    const content = `secret-${randomBytes(8).toString("hex")}`;
    writeFileSync(path, content, { mode: 0o600 });
    made.push(path);
    secrets.push({ path, content });
  }
  const hidden = join("/etc", `${tag}-dir`);
  mkdirSync(hidden, { mode: 0o700 });
  made.push(hidden);
  const inner = { path: join(hidden, "key"), content: `secret-${randomBytes(8).toString("hex")}` };
  writeFileSync(inner.path, inner.content, { mode: 0o644 });
  secrets.push(inner);
  for (const key of ["ssh_host_ed25519_key", "ssh_host_rsa_key", "ssh_host_ecdsa_key"]) {
    const p = join("/etc/ssh", key);
    if (existsSync(p)) secrets.push({ path: p, content: "PRIVATE KEY" });
  }
  const remove = (): void => {
    for (const p of made) rmSync(p, { recursive: true, force: true });
  };
  afterAll(remove);
  return { secrets, remove };
}
