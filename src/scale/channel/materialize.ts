import { readFileSync } from "node:fs";
import { utf8 } from "../file-tree.js";
import { type ChannelDecl, channelDeclSchema, channelKitPath } from "./steps.js";

/** Where a child keeps its channel: under tests/ for the verifier, under solution/ for the reference. */
export const CHANNEL_DIR = "res";
/** The declaration's path under tests/ (and solution/). */
export const CHANNEL_DECL = `${CHANNEL_DIR}/channel.json`;

export function declBytes(decl: ChannelDecl): Uint8Array {
  return utf8.encode(`${JSON.stringify(channelDeclSchema.parse(decl), null, 1)}\n`);
}

/** Files a child adds to tests/ (paths relative to tests/): the declaration and the kit. */
export function channelTestFiles(decl: ChannelDecl): Map<string, Uint8Array> {
  return new Map([
    [`${CHANNEL_DIR}/channel.json`, declBytes(decl)],
    [`${CHANNEL_DIR}/res_channel.py`, new Uint8Array(readFileSync(channelKitPath()))],
  ]);
}

/**
 * The child's reference solution: the parent's solve.sh (kept byte-identical under
 * solution/res/parent-solve.sh, so its own /solution paths still hold), then a wrapper put
 * around the program that undoes the channel before the parent's program reads its input.
 * Returns the files relative to solution/, solve.sh included.
 */
export function channelSolutionFiles(
  decl: ChannelDecl,
  parentSolve: Uint8Array,
  parentPartial?: Uint8Array,
): Map<string, Uint8Array> {
  const script = (kind: "solve" | "partial"): string =>
    [
      "#!/usr/bin/env bash",
      `# Scaled child (docs/scale.md): the root's ${kind === "solve" ? "solution" : "partial solution"}, then its program learns to read the`,
      "# input channel declared in res/channel.json.",
      "set -euo pipefail",
      // A root partial that runs /solution/solve.sh (this child's) and then patches the program
      // must patch the original, not the wrapper: the wrap waits until it is done.
      kind === "solve"
        ? `bash /solution/${CHANNEL_DIR}/parent-solve.sh`
        : `LONGHAUL_RES_DEFER_WRAP=1 bash /solution/${CHANNEL_DIR}/parent-partial.sh`,
      `python3 /solution/${CHANNEL_DIR}/res_channel.py wrap ${shellQuote(decl.program)} /solution/${CHANNEL_DIR}/channel.json`,
      "",
    ].join("\n");
  // task check's honest partial: the root's partial program behind the same channel wrapper.
  const partial: [string, Uint8Array][] =
    parentPartial === undefined
      ? []
      : [
          ["partial.sh", utf8.encode(script("partial"))],
          [`${CHANNEL_DIR}/parent-partial.sh`, parentPartial],
        ];
  return new Map([
    ["solve.sh", utf8.encode(script("solve"))],
    ...partial,
    [`${CHANNEL_DIR}/parent-solve.sh`, parentSolve],
    [`${CHANNEL_DIR}/channel.json`, declBytes(decl)],
    [`${CHANNEL_DIR}/res_channel.py`, new Uint8Array(readFileSync(channelKitPath()))],
  ]);
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
