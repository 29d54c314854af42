import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { Rng } from "../../core/rng.js";

/**
 * The input channel of a scaled program task (kind (b), docs/scale.md): the verifier generates
 * hidden inputs per trial, so transforms cannot be applied ahead of time to files. Instead the
 * child declares channel steps (tests/res/channel.json) and the verifier kit's `run` hands each
 * input to the candidate program through them (kit/res_channel.py `present`). These are the
 * steps, with the public words that tell the agent how its inputs now arrive.
 */
export const CHANNEL_STEPS = [
  "base64",
  "gzip",
  "layered-wrap",
  "text-reencode",
  "split",
  "manifest",
  "archive",
  "line-base64",
  "line-hex",
  "line-reverse",
  "line-rotate",
] as const;
export type ChannelStepName = (typeof CHANNEL_STEPS)[number];

/** Steps that keep a single-file input a single file (others need a folder input). */
export const ONE_FILE_STEPS: readonly ChannelStepName[] = ["base64", "gzip", "layered-wrap", "text-reencode"];
/**
 * Steps for a stream input (an interactive program's standard input): each line is encoded on
 * its own, so a program that answers line by line can still do so.
 */
export const STREAM_STEPS: readonly ChannelStepName[] = [
  "line-base64",
  "line-hex",
  "line-reverse",
  "line-rotate",
];
/** The channel steps of the 6-mechanism "basic" library (base64, gzip, split, manifest). */
export const BASIC_CHANNEL_STEPS: readonly ChannelStepName[] = [
  "base64",
  "gzip",
  "split",
  "manifest",
  "line-base64",
];

/**
 * What a program's input is: a folder, one file, the lines it reads on its standard input, or a
 * path that is a file in some calls and a folder in others (a program with subcommands; only the
 * per-file ONE_FILE_STEPS apply, to the file or to every file of the folder).
 */
export type InputKind = "folder" | "file" | "stream" | "path";

/**
 * How the verifier kit finds the input in a call of the program. Without it: the argv index
 * `input_index`, right after the program. `first-path`: the first argument after the program
 * that is an absolute path of an existing file or folder (a program called as
 * `PROGRAM SUBCOMMAND INPUT ...` as well as `PROGRAM INPUT ...`).
 */
export const INPUT_ARGS = ["first-path"] as const;
export type InputArg = (typeof INPUT_ARGS)[number];

/** line-rotate shifts by 1 to MAX_SHIFT bytes. */
const MAX_SHIFT = 63;
const LAYER = z.enum(["gzip", "base64", "hex"]);
/** A subcommand name as a grader's `present_steps(..., commands=(...))` gives it. */
export const COMMAND = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
export const channelStepSchema = z.object({
  name: z.enum(CHANNEL_STEPS),
  seed: z.number().int().nonnegative(),
  params: z
    .object({
      layers: z.array(LAYER).min(2).max(4).optional(),
      part_bytes: z
        .number()
        .int()
        .min(64)
        .max(1 << 20)
        .optional(),
      /** line-rotate: how many bytes each line is rotated left by (modulo its length). */
      shift: z.number().int().min(1).max(MAX_SHIFT).optional(),
    })
    .strict(),
});
export type ChannelStep = z.infer<typeof channelStepSchema>;

export const channelDeclSchema = z.object({
  /** The candidate program, as the verifier names it in argv (e.g. /app/logdigest.py). */
  program: z.string().startsWith("/"),
  /** Index in the verifier's argv of the input the program reads (["python3", PROGRAM, INPUT]: 2). */
  input_index: z.number().int().min(1),
  /**
   * Whether that input is a folder, a single file (ONE_FILE_STEPS only) or a stream, the lines of
   * an interactive program's standard input (STREAM_STEPS only; input_index is then unused: 1).
   */
  input_kind: z.enum(["folder", "file", "stream", "path"]),
  /** How the input is found in a call when not by `input_index` alone (INPUT_ARGS). */
  input_arg: z.enum(INPUT_ARGS).optional(),
  /**
   * With `first-path`: the subcommands (the first argument after the program) whose calls read an
   * input; calls of other subcommands (which create or change state the program keeps) are never
   * presented. Absent: every call.
   */
  commands: z.array(z.string().regex(COMMAND)).min(1).optional(),
  steps: z.array(channelStepSchema),
});
export type ChannelDecl = z.infer<typeof channelDeclSchema>;

/** Seeded parameters for one step. */
export function channelStep(name: ChannelStepName, seed: number): ChannelStep {
  const rng = new Rng(seed);
  if (name === "layered-wrap") {
    const layers = rng.shuffle(["gzip", "base64", "hex"] as const).slice(0, 2 + rng.int(0, 1));
    return { name, seed, params: { layers } };
  }
  if (name === "split") return { name, seed, params: { part_bytes: 512 * (1 + rng.int(0, 7)) } };
  if (name === "line-rotate") return { name, seed, params: { shift: rng.int(1, MAX_SHIFT) } };
  return { name, seed, params: {} };
}

/** The public words for one step: how each input now arrives (no hidden value in them). */
export function channelStepAccess(step: ChannelStep, kind: InputKind): string {
  const each =
    kind === "folder"
      ? "Every file of the input folder"
      : kind === "path"
        ? "The input file (or, when the input is a folder, every file in it)"
        : "The input file";
  switch (step.name) {
    case "line-base64":
      return "Every line is base64-encoded on its own (standard alphabet, one encoded line per line); decode it.";
    case "line-hex":
      return "Every line is written as lowercase hexadecimal text of its bytes (two digits a byte); decode it.";
    case "line-reverse":
      return "Every line's bytes are in reverse order; reverse them back.";
    case "line-rotate": {
      const k = step.params.shift ?? 1;
      return `Every line's bytes are rotated left by ${k} modulo its length (a line of L bytes has its first ${k} mod L bytes moved to its end); rotate them back.`;
    }
    case "base64":
      return `${each} is base64 text (with line breaks) with \`.b64\` appended to its name; decode it.`;
    case "gzip":
      return `${each} is gzip-compressed with \`.gz\` appended to its name; decompress it.`;
    case "layered-wrap": {
      const layers = step.params.layers ?? ["gzip", "base64"];
      return `${each} is wrapped in layers with \`.wrapped\` appended to its name: ${layers.join(", then ")} were applied in that order (hex is lowercase hexadecimal text); undo them from the last.`;
    }
    case "text-reencode":
      return `${each} that is UTF-8 text is re-encoded as UTF-16 (with a byte-order mark) with \`.utf16\` appended to its name; other files are unchanged.`;
    case "split":
      return `${each} is split into parts named \`NAME.part000\`, \`NAME.part001\`, … (at most ${step.params.part_bytes ?? 4096} bytes each); join the parts in order to get \`NAME\` back.`;
    case "manifest":
      return "The input folder's files are moved to opaque paths under `store/`; `MANIFEST.json` at the top of the folder maps each original relative path (key of its `files` object) to where that file now is.";
    case "archive":
      return "The input folder's files are packed into one uncompressed tar archive, `bundle.tar`, at the top of the folder (paths inside are the original relative paths); unpack it.";
  }
}

/** The spec update for a channel: every step in order. */
export function channelAccess(decl: ChannelDecl): string {
  const lines = decl.steps.map((s, i) => `${i + 1}. ${channelStepAccess(s, decl.input_kind)}`);
  if (decl.input_kind === "stream") {
    return [
      `The lines your program \`${decl.program}\` reads on its standard input no longer arrive as described above. Each line (without its newline) is transformed by these steps, applied in this order; your program must undo them (from the last) on every line before it reads the line as described above. What your program writes is unchanged:`,
      "",
      ...lines,
    ].join("\n");
  }
  const only =
    decl.commands === undefined
      ? ""
      : `, in a call whose first argument is one of ${decl.commands.map((c) => `\`${c}\``).join(", ")}; its other calls are unchanged`;
  const which =
    decl.input_arg === "first-path"
      ? `the first argument after the program that is an absolute path of an existing file or folder${only}`
      : `argument ${decl.input_index - 1}`;
  const beside =
    decl.input_arg === "first-path"
      ? " When the input is a file, what the verifier lets your program read beside it is beside the prepared file, unchanged."
      : "";
  return [
    `The input your program \`${decl.program}\` receives (${which}) no longer arrives as described above.${beside} It is prepared by these steps, applied in this order; your program must undo them (from the last) before it reads the input as described above:`,
    "",
    ...lines,
  ].join("\n");
}

/** Host path of the channel kit (res_channel.py), copied into a child's tests/res/. */
export function channelKitPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // From dist/scale/channel the Python file is in the sources; from src it is beside this file.
  for (const p of [
    join(here, "kit", "res_channel.py"),
    join(here, "../../../src/scale/channel/kit/res_channel.py"),
  ]) {
    if (existsSync(p)) return p;
  }
  throw new Error(`the RES channel kit (res_channel.py) is missing near ${here}`);
}
