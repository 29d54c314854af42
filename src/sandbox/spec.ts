import { posix } from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import type { ExecOptions, Mount, SandboxSpec } from "./types.js";

/** Sandbox paths that persist for the sandbox's life (besides the workdir). */
export const PERSISTENT_ROOTS = ["/logs", "/tmp", "/root"] as const;

/** Top-level folders taken from the host read-only; a workdir or mount may not sit inside them. */
export const SYSTEM_ROOTS = [
  "/usr",
  "/etc",
  "/opt",
  "/var",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
  "/dev",
  "/proc",
  "/run",
] as const;

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

const absolutePath = z
  .string()
  .min(1)
  .refine((p) => p.startsWith("/"), "must be an absolute path")
  .refine((p) => !p.split("/").includes(".."), "must not contain ..")
  .transform((p) => posix.normalize(p).replace(/(.)\/+$/, "$1"));

/** True when `p` is `root` or inside it. */
export function isWithin(p: string, root: string): boolean {
  return p === root || p.startsWith(root === "/" ? "/" : `${root}/`);
}

function clashesWithReserved(p: string): string | null {
  if (p === "/") return "is the root folder";
  for (const root of [...SYSTEM_ROOTS, ...PERSISTENT_ROOTS]) {
    if (isWithin(p, root) || isWithin(root, p)) return `overlaps ${root}`;
  }
  return null;
}

/**
 * Over an image the workdir lives in the image's own root (images use /app, /workspace, /root,
 * /usr/src/app...): only the folders the sandbox itself provides are out.
 */
export const IMAGE_RESERVED_ROOTS = ["/logs", "/proc", "/dev"] as const;

function clashesOverImage(p: string): string | null {
  if (p === "/") return "is the root folder";
  for (const root of IMAGE_RESERVED_ROOTS) if (isWithin(p, root)) return `is inside ${root}`;
  return null;
}

export const mountSchema = z.object({
  hostPath: z.string().min(1),
  sandboxPath: absolutePath.superRefine((p, ctx) => {
    if (p === "/" || SYSTEM_ROOTS.some((r) => isWithin(p, r))) {
      ctx.addIssue({ code: "custom", message: `mount point ${p} is inside a system folder` });
    }
  }),
  readonly: z.boolean(),
});

export const sandboxSpecSchema = z
  .object({
    environmentDir: z.string().min(1).nullable(),
    workdir: absolutePath,
    memoryMb: z.number().int().positive(),
    cpus: z.number().positive(),
    pidsMax: z.number().int().positive(),
    allowInternet: z.boolean(),
    storageMb: z.number().int().positive().optional(),
    stateDir: z.string().min(1),
    nesting: z.boolean().optional(),
    user: z.string().min(1).nullable().optional(),
    mounts: z.array(mountSchema).optional(),
    image: z
      .object({
        id: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be a sha256 image id"),
        tag: z.string().min(1).nullable(),
        config: z.object({
          workdir: z.string().nullable(),
          env: z.record(z.string(), z.string()),
          user: z.string().nullable(),
        }),
      })
      .nullable()
      .optional(),
  })
  .superRefine((spec, ctx) => {
    const clash = spec.image == null ? clashesWithReserved(spec.workdir) : clashesOverImage(spec.workdir);
    if (clash !== null)
      ctx.addIssue({ code: "custom", path: ["workdir"], message: `workdir ${spec.workdir} ${clash}` });
  });

export const execOptionsSchema = z.object({
  timeoutSec: z.number().positive().optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: absolutePath.optional(),
  stdin: z.string().optional(),
  maxOutputBytes: z.number().int().positive().optional(),
  mounts: z.array(mountSchema).optional(),
  signal: z.instanceof(AbortSignal).optional(),
  freshDirs: z
    .array(
      absolutePath.superRefine((p, ctx) => {
        if (p === "/" || SYSTEM_ROOTS.some((r) => isWithin(p, r))) {
          ctx.addIssue({ code: "custom", message: `fresh folder ${p} is inside a system folder` });
        }
      }),
    )
    .optional(),
  nestedSandbox: z.boolean().optional(),
  imageRoot: z.boolean().optional(),
  user: z.string().min(1).optional(),
});

function formatIssues(what: string, error: z.ZodError): string {
  const parts = error.issues.map((i) => `${i.path.length > 0 ? `${i.path.join(".")}: ` : ""}${i.message}`);
  return `invalid ${what}: ${parts.join("; ")}`;
}

export function parseSandboxSpec(spec: SandboxSpec): SandboxSpec {
  const r = sandboxSpecSchema.safeParse(spec);
  if (!r.success) throw new UserError(formatIssues("sandbox spec", r.error));
  return r.data;
}

export interface ParsedExecOptions extends ExecOptions {
  mounts: Mount[];
  freshDirs: string[];
  env: Record<string, string>;
  maxOutputBytes: number;
}

export function parseExecOptions(options: ExecOptions | undefined): ParsedExecOptions {
  const r = execOptionsSchema.safeParse(options ?? {});
  if (!r.success) throw new UserError(formatIssues("exec options", r.error));
  return {
    ...r.data,
    mounts: r.data.mounts ?? [],
    freshDirs: r.data.freshDirs ?? [],
    env: r.data.env ?? {},
    maxOutputBytes: r.data.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
  };
}

/** The environment every sandboxed process starts from; nothing is inherited from the host. */
export function baseEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    HOME: "/root",
    USER: "root",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    ...extra,
  };
}
