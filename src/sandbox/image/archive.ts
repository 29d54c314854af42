import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { InfraError, UserError } from "../../core/errors.js";
import { cachedImage, stageImage } from "./cache-dir.js";
import { lastLines } from "./docker-cli.js";
import { imageConfigOf } from "./inspect.js";
import { applyLayer } from "./layers.js";
import type { ImageRef } from "./types.js";

/**
 * Loads a `docker save` archive or an OCI image layout (a folder, or a tar of one) into the
 * image cache with no Docker daemon, so ensureRootfs finds it. The id is the sha256 of the
 * config blob, which is what docker calls the image id, so an image loaded here and the same
 * image exported from a daemon share one cache entry.
 */
export async function loadImageArchive(path: string): Promise<ImageRef> {
  const src = await openArchive(path);
  const plan = await parsePlan(src, path);
  const configBytes = await src.read(plan.config);
  const id = `sha256:${createHash("sha256").update(configBytes).digest("hex")}`;
  const cfg = configBlobSchema.safeParse(JSON.parse(configBytes.toString("utf8")));
  if (!cfg.success) throw new UserError(`${path}: the image config is not valid (${cfg.error.message})`);
  const image: ImageRef = { id, tag: plan.tag, config: imageConfigOf(cfg.data.config ?? {}) };
  if (cachedImage(id) !== null) return image;
  await stageImage(image, `archive ${resolve(path)}`, async (rootfs, staging) => {
    await unpackLayers(await src.folder(join(staging, "archive")), plan.layers, rootfs, staging, path);
  });
  return image;
}

/**
 * The id, tag and layer list of an archive already extracted into `dir` (what `docker save`
 * streamed through `tar -x` leaves), after checking the config's digest is `expectedId`.
 */
export async function readExtractedArchive(
  dir: string,
  expectedId: string,
): Promise<{ layers: string[]; tag: string | null }> {
  const src = await openArchive(dir);
  const plan = await parsePlan(src, dir);
  const id = `sha256:${createHash("sha256")
    .update(await src.read(plan.config))
    .digest("hex")}`;
  if (id !== expectedId) throw new InfraError(`docker save of ${expectedId} gave an image with id ${id}`);
  return { layers: plan.layers, tag: plan.tag };
}

/** Extracts each layer (gzip or not, refusing paths outside) and applies it over `rootfs`, in order. */
export async function unpackLayers(
  dir: string,
  layers: readonly string[],
  rootfs: string,
  staging: string,
  label: string,
): Promise<void> {
  for (const [i, layer] of layers.entries()) {
    const file = inside(dir, layer, label);
    await refuseTraversal(file, `${label} (layer ${layer})`);
    const layerDir = join(staging, `layer-${i}`);
    mkdirSync(layerDir);
    await tar(["-x", "--numeric-owner", "-p", "-C", layerDir, "-f", file], `${label}: layer ${layer}`);
    applyLayer(layerDir, rootfs);
    rmSync(layerDir, { recursive: true, force: true });
  }
}

const configBlobSchema = z.object({
  config: z
    .object({
      WorkingDir: z.string().nullable().optional(),
      Env: z.array(z.string()).nullable().optional(),
      User: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});

const dockerManifestSchema = z
  .array(
    z.object({
      Config: z.string(),
      RepoTags: z.array(z.string()).nullable().optional(),
      Layers: z.array(z.string()),
    }),
  )
  .min(1);

const descriptorSchema = z.object({
  mediaType: z.string().optional(),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  annotations: z.record(z.string(), z.string()).optional(),
  platform: z.object({ os: z.string().optional(), architecture: z.string().optional() }).optional(),
});
const indexSchema = z.object({ manifests: z.array(descriptorSchema).min(1) });
const ociManifestSchema = z.object({ config: descriptorSchema, layers: z.array(descriptorSchema) });

interface Plan {
  config: string;
  layers: string[];
  tag: string | null;
}

interface ArchiveSource {
  read(member: string): Promise<Buffer>;
  has(member: string): boolean;
  /** A folder holding the whole archive (extracted under `scratch` when it is a tar). */
  folder(scratch: string): Promise<string>;
}

async function parsePlan(src: ArchiveSource, path: string): Promise<Plan> {
  const json = async (member: string): Promise<unknown> => {
    const bytes = await src.read(member);
    try {
      return JSON.parse(bytes.toString("utf8"));
    } catch (e) {
      throw new UserError(`${path}: ${member} is not valid JSON (${(e as Error).message})`);
    }
  };
  if (src.has("manifest.json")) {
    const m = dockerManifestSchema.safeParse(await json("manifest.json"));
    if (!m.success) throw new UserError(`${path}: manifest.json is not a docker save manifest`);
    const first = m.data[0] as z.infer<typeof dockerManifestSchema>[number];
    return { config: first.Config, layers: first.Layers, tag: first.RepoTags?.[0] ?? null };
  }
  if (!src.has("index.json")) {
    throw new UserError(
      `${path}: neither a docker save archive (manifest.json) nor an OCI layout (index.json)`,
    );
  }
  let tag: string | null = null;
  let desc = pickManifest(await json("index.json"), path);
  for (let depth = 0; ; depth++) {
    tag ??=
      desc.annotations?.["io.containerd.image.name"] ??
      desc.annotations?.["org.opencontainers.image.ref.name"] ??
      null;
    const blob = await json(blobPath(desc.digest));
    const isIndex = (desc.mediaType ?? "").includes("index") || (desc.mediaType ?? "").includes("list");
    if (!isIndex) {
      const m = ociManifestSchema.safeParse(blob);
      if (!m.success) throw new UserError(`${path}: manifest ${desc.digest} is not an image manifest`);
      return {
        config: blobPath(m.data.config.digest),
        layers: m.data.layers.map((l) => blobPath(l.digest)),
        tag,
      };
    }
    if (depth > 4) throw new UserError(`${path}: image indexes nest too deep`);
    desc = pickManifest(blob, path);
  }
}

function pickManifest(index: unknown, path: string): z.infer<typeof descriptorSchema> {
  const i = indexSchema.safeParse(index);
  if (!i.success) throw new UserError(`${path}: not a valid OCI image index (${i.error.message})`);
  const ms = i.data.manifests;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return (ms.find((m) => m.platform?.os === "linux" && m.platform.architecture === arch) ?? ms[0]) as z.infer<
    typeof descriptorSchema
  >;
}

function blobPath(digest: string): string {
  return `blobs/sha256/${digest.slice("sha256:".length)}`;
}

/** A member path that stays inside the archive's folder, or a UserError. */
function inside(dir: string, member: string, archive: string): string {
  if (unsafeName(member))
    throw new UserError(`${archive}: refusing the entry ${member} (outside the archive)`);
  return join(dir, member);
}

function unsafeName(name: string): boolean {
  return name.startsWith("/") || name.split("/").includes("..");
}

async function openArchive(path: string): Promise<ArchiveSource> {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new UserError(`${path}: no such image archive`);
  }
  if (isDir) {
    return {
      read: async (m) => {
        try {
          return readFileSync(inside(path, m, path));
        } catch {
          throw new UserError(`${path}: no member ${m}`);
        }
      },
      has: (m) => existsSync(inside(path, m, path)),
      folder: async () => path,
    };
  }
  await refuseTraversal(path, path);
  const names = new Map<string, string>();
  for (const n of await listTar(path, path)) names.set(n.replace(/^(\.\/)+/, ""), n);
  return {
    read: async (m) => {
      const raw = names.get(m);
      if (raw === undefined) throw new UserError(`${path}: no member ${m}`);
      return tarOut(path, raw);
    },
    has: (m) => names.has(m),
    folder: async (scratch) => {
      mkdirSync(scratch, { recursive: true });
      await tar(["-x", "-C", scratch, "-f", path], path);
      return scratch;
    },
  };
}

function listTar(file: string, label: string): Promise<string[]> {
  return tar(["-tf", file], label).then((out) => out.toString("utf8").split("\n").filter(Boolean));
}

/** Refuses a tar holding an absolute path or a `..` step, before anything is extracted. */
async function refuseTraversal(file: string, label: string): Promise<void> {
  const bad = (await listTar(file, label)).find(unsafeName);
  if (bad !== undefined) throw new UserError(`${label}: refusing the entry ${bad} (outside the archive)`);
}

function tarOut(file: string, member: string): Promise<Buffer> {
  return tar(["-xOf", file, member], file);
}

function tar(args: string[], label: string): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("tar", args, { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.on("error", (e) => reject(new InfraError(`tar: ${e.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolvePromise(Buffer.concat(out));
      else
        reject(
          new UserError(`${label}: not a readable tar archive (${lastLines(err, 3) || `exit ${code}`})`),
        );
    });
  });
}
