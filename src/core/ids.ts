import { randomBytes } from "node:crypto";

/** A sortable id: UTC timestamp plus random suffix, safe as a folder name. */
export function newJobId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/** Names used as folder names must not escape their parent. */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "_");
}
