import { z } from "zod";
import { UserError } from "../../core/errors.js";
import { docker } from "./docker-cli.js";
import type { ImageConfig, ImageRef } from "./types.js";

const inspectSchema = z.object({
  Id: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  RepoTags: z.array(z.string()).nullable().optional(),
  Config: z
    .object({
      WorkingDir: z.string().nullable().optional(),
      Env: z.array(z.string()).nullable().optional(),
      User: z.string().nullable().optional(),
      Labels: z.record(z.string(), z.string()).nullable().optional(),
    })
    .nullable()
    .optional(),
});

/** The config fields a trial uses, from an image config's WorkingDir/Env/User. */
export function imageConfigOf(c: {
  WorkingDir?: string | null;
  Env?: string[] | null;
  User?: string | null;
}): ImageConfig {
  const env: Record<string, string> = {};
  for (const kv of c.Env ?? []) {
    const eq = kv.indexOf("=");
    if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return {
    workdir: c.WorkingDir ? c.WorkingDir : null,
    env,
    user: c.User ? c.User : null,
  };
}

/** The local daemon's image by tag or id, or null when it has none by that name. */
export async function inspectImage(ref: string): Promise<ImageRef | null> {
  return (await inspectImageLabelled(ref))?.image ?? null;
}

/** Like inspectImage, with the image's labels (how a cached build proves what it was built from). */
export async function inspectImageLabelled(
  ref: string,
): Promise<{ image: ImageRef; labels: Record<string, string> } | null> {
  const r = await docker(["image", "inspect", "--format", "{{json .}}", ref], { timeoutSec: 60 });
  if (r.exitCode !== 0) return null;
  const parsed = inspectSchema.safeParse(JSON.parse(r.stdout));
  if (!parsed.success)
    throw new UserError(`docker image inspect ${ref}: unexpected answer (${parsed.error.message})`);
  const d = parsed.data;
  const tag = d.RepoTags?.includes(ref) ? ref : (d.RepoTags?.[0] ?? null);
  return {
    image: { id: d.Id, tag, config: imageConfigOf(d.Config ?? {}) },
    labels: d.Config?.Labels ?? {},
  };
}
