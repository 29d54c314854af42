import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { childPathsBytes } from "../../src/core/byte-paths.js";

export interface ScanReport {
  files: number;
  bytes: number;
  /** Links whose target lies outside the scanned folder (a hazard for anything that reads it later). */
  escapingLinks: string[];
  /** FIFOs, sockets, devices: a reader opening one can block or read forever. */
  specialFiles: string[];
  /** needle → relative paths of the regular files that contain it. */
  hits: Map<string, string[]>;
}

/** Stop reading after this many bytes so a flood cannot make the scan itself unbounded. */
const READ_BUDGET = 256 * 1024 * 1024;

/** Walks `root` without following links and looks for each needle in every regular file. */
export function scanTree(
  root: string,
  needles: string[],
  skip: (rel: string) => boolean = () => false,
): ScanReport {
  const report: ScanReport = { files: 0, bytes: 0, escapingLinks: [], specialFiles: [], hits: new Map() };
  for (const n of needles) report.hits.set(n, []);
  let budget = READ_BUDGET;
  // By bytes: an agent can name a file with bytes that are not UTF-8, and such a file must be scanned too.
  const walk = (dir: Buffer): void => {
    for (const path of childPathsBytes(dir)) {
      const rel = relative(root, path.toString());
      const st = lstatSync(path);
      if (st.isDirectory()) {
        walk(path);
        continue;
      }
      report.files += 1;
      if (st.isSymbolicLink()) {
        const target = resolve(dirname(path.toString()), readlinkSync(path, "utf8"));
        if (relative(root, target).startsWith("..") || target === root)
          report.escapingLinks.push(`${rel} -> ${target}`);
        continue;
      }
      if (!st.isFile()) {
        report.specialFiles.push(rel);
        continue;
      }
      report.bytes += st.size;
      if (skip(rel) || budget <= 0) continue;
      const data = readFileSync(path);
      budget -= data.length;
      for (const n of needles) if (data.includes(n)) report.hits.get(n)?.push(rel);
    }
  };
  walk(Buffer.from(root));
  return report;
}
