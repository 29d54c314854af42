import { posix } from "node:path";
import { sha256 } from "../core/canonical-json.js";
import type { Rng } from "../core/rng.js";
import { concatBytes, fromUtf8, utf8 } from "./bytes.js";
import { type FileTree, hexToken, StressError } from "./types.js";
import { randomLayers, unwrap, type WrapLayer, wrap } from "./wrappers.js";

/**
 * A manifest file (JSON): entries are concatenated in ascending `order` (their array order is
 * shuffled on purpose). Paths are relative to the manifest's own directory. A "data" entry's file
 * holds bytes wrapped with `encoding` (innermost first, as in `wrap`); a "manifest" entry points to
 * another manifest.
 */
export interface ManifestEntry {
  kind: "data" | "manifest";
  path: string;
  order: number;
  encoding: WrapLayer[];
  sha256: string;
}
export interface ManifestFile {
  format: "longhaul-manifest/1";
  entries: ManifestEntry[];
}

export interface ManifestTreeOptions {
  /** Manifest levels between the root and the data files (1 = the root lists data files). */
  depth?: number;
  /** Maximum entries per manifest (at least 1 per manifest). */
  fanout?: number;
  /** Probability that a data file is wrapped in gzip/base64 layers. */
  wrapRate?: number;
  root?: string;
}

export interface ManifestTree {
  files: FileTree;
  root: string;
  depth: number;
  dataFiles: number;
  manifests: number;
}

function splitPoints(rng: Rng, length: number, parts: number): number[] {
  const cuts = new Set<number>();
  for (let i = 1; i < parts; i++) cuts.add(rng.int(0, length));
  return [0, ...[...cuts].sort((a, b) => a - b), length];
}

/** Spread `data` over a tree of manifests `depth` levels deep; every data file sits at exactly that depth. */
export function buildManifestTree(
  rng: Rng,
  data: Uint8Array,
  options: ManifestTreeOptions = {},
): ManifestTree {
  const depth = options.depth ?? 2;
  const fanout = options.fanout ?? 3;
  const wrapRate = options.wrapRate ?? 0.3;
  const root = options.root ?? "manifest.json";
  if (depth < 1 || fanout < 1) throw new StressError("buildManifestTree: depth and fanout must be ≥ 1");
  const files: FileTree = {};
  const counts = { dataFiles: 0, manifests: 0 };
  const uniquePath = (dir: string, stem: string, ext: string): string => {
    for (;;) {
      const p = posix.join(dir, `${stem}-${hexToken(rng)}${ext}`);
      if (!(p in files)) return p;
    }
  };

  const writeManifest = (path: string, bytes: Uint8Array, level: number): void => {
    const dir = posix.dirname(path);
    const cuts = splitPoints(rng, bytes.length, rng.int(1, fanout));
    const entries: ManifestEntry[] = [];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const chunk = bytes.subarray(cuts[i] as number, cuts[i + 1] as number);
      const childDir = level + 1 < depth ? posix.join(dir, `d${hexToken(rng, 4)}`) : dir;
      if (level + 1 < depth) {
        const childPath = uniquePath(childDir, "index", ".json");
        writeManifest(childPath, chunk, level + 1);
        entries.push({
          kind: "manifest",
          path: posix.relative(dir, childPath),
          order: i,
          encoding: [],
          sha256: sha256(chunk),
        });
      } else {
        const encoding = rng.next() < wrapRate ? randomLayers(rng, 1, 2) : [];
        const childPath = uniquePath(childDir, "part", ".bin");
        files[childPath] = wrap(chunk.slice(), encoding);
        counts.dataFiles++;
        entries.push({
          kind: "data",
          path: posix.relative(dir, childPath),
          order: i,
          encoding,
          sha256: sha256(chunk),
        });
      }
    }
    const manifest: ManifestFile = { format: "longhaul-manifest/1", entries: rng.shuffle(entries) };
    files[path] = utf8(`${JSON.stringify(manifest, null, 2)}\n`);
    counts.manifests++;
  };

  writeManifest(root, data, 0);
  return { files, root, depth, ...counts };
}

function readManifest(bytes: Uint8Array, path: string): ManifestFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromUtf8(bytes));
  } catch {
    throw new StressError(`${path}: manifest is not JSON`);
  }
  const m = parsed as Partial<ManifestFile> | null;
  if (m === null || typeof m !== "object" || !Array.isArray(m.entries)) {
    throw new StressError(`${path}: manifest has no entries array`);
  }
  m.entries.forEach((e, i) => {
    const ok =
      e !== null &&
      typeof e === "object" &&
      (e.kind === "data" || e.kind === "manifest") &&
      typeof e.path === "string" &&
      typeof e.order === "number" &&
      Array.isArray(e.encoding);
    if (!ok) throw new StressError(`${path}: entries[${i}]: needs kind, path, order, encoding`);
  });
  return m as ManifestFile;
}

/** Follow a manifest tree from `root` and return the concatenated data; checks sha256 when present. */
export function resolveManifest(files: FileTree, root: string, maxDepth = 64): Uint8Array {
  const visit = (path: string, stack: string[]): Uint8Array => {
    if (stack.includes(path)) throw new StressError(`${path}: manifest cycle via ${stack.join(" → ")}`);
    if (stack.length > maxDepth) throw new StressError(`${path}: manifests nested deeper than ${maxDepth}`);
    const bytes = files[path];
    if (bytes === undefined) throw new StressError(`${path}: missing file`);
    const manifest = readManifest(bytes, path);
    const dir = posix.dirname(path);
    const parts = [...manifest.entries]
      .sort((a, b) => a.order - b.order)
      .map((e) => {
        const target = posix.normalize(posix.join(dir, e.path));
        let chunk: Uint8Array;
        if (e.kind === "manifest") chunk = visit(target, [...stack, path]);
        else {
          const raw = files[target];
          if (raw === undefined) throw new StressError(`${target}: missing file (listed in ${path})`);
          chunk = unwrap(raw, e.encoding);
        }
        if (typeof e.sha256 === "string" && sha256(chunk) !== e.sha256) {
          throw new StressError(`${target}: sha256 does not match ${path}`);
        }
        return chunk;
      });
    return concatBytes(parts);
  };
  return visit(posix.normalize(root), []);
}
