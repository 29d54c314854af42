import { renderChannelUpdate } from "../channel/build-channel-child.js";
import {
  CHANNEL_STEPS,
  type ChannelDecl,
  type ChannelStep,
  type ChannelStepName,
  channelStepAccess,
  channelStepSchema,
} from "../channel/steps.js";
import type { SpecSection } from "../child/spec-update.js";
import { FollowError, firstDifference, quote } from "./follow-error.js";

/** The input kinds a numbered channel step may be worded for. */
export const FOLLOW_INPUT_KINDS = ["folder", "file", "stream", "path"] as const;
export type FollowInputKind = (typeof FOLLOW_INPUT_KINDS)[number];

const HEAD =
  /^The input your program `([^`]+)` receives \((?:argument (\d+)|(the first argument after the program that is an absolute path of an existing file or folder)(?:, in a call whose first argument is one of ((?:`[^`]+`(?:, )?)+); its other calls are unchanged)?)\) no longer arrives as described above\./m;
/** An interactive program's channel: the lines it reads on its standard input. */
const STREAM_HEAD =
  /^The lines your program `([^`]+)` reads on its standard input no longer arrive as described above\./m;
const ITEM = /^(\d+)\. (.*)$/;

/** True when the section describes a program's input channel. */
export function isChannelSection(text: string): boolean {
  return HEAD.test(text) || STREAM_HEAD.test(text);
}

/** Every layer name the channel's layered-wrap step may use, from its schema. */
function layerNames(): string[] {
  return channelStepSchema.shape.params.shape.layers.unwrap().element.options;
}

/** Layer sequences of 2 to 4 layers (the schema's bounds), for matching a layered-wrap sentence. */
function layerSequences(): string[][] {
  const names = layerNames();
  let seqs: string[][] = [[]];
  const out: string[][] = [];
  for (let n = 1; n <= 4; n++) {
    seqs = seqs.flatMap((s) => names.map((l) => [...s, l]));
    if (n >= 2) out.push(...seqs);
  }
  return out;
}

/** Parameter sets a sentence could have been written from: its numbers, the layer orders. */
function candidateParams(name: ChannelStepName, text: string): unknown[] {
  if (name === "layered-wrap") return layerSequences().map((layers) => ({ layers }));
  if (name === "split") return [...text.matchAll(/\d+/g)].map((m) => ({ part_bytes: Number(m[0]) }));
  if (name === "line-rotate") return [...text.matchAll(/\d+/g)].map((m) => ({ shift: Number(m[0]) }));
  return [{}];
}

/**
 * The channel step (and the input kinds it can be worded for) whose public sentence is exactly
 * `text`: every step, kind and candidate parameter set is rendered with the very function that
 * writes the instruction (channelStepAccess) and compared, so the agent reads what the code writes.
 */
export function recogniseChannelStep(text: string): { step: ChannelStep; kinds: FollowInputKind[] } | null {
  for (const name of CHANNEL_STEPS) {
    for (const params of candidateParams(name, text)) {
      const parsed = channelStepSchema.safeParse({ name, seed: 0, params });
      if (!parsed.success) continue;
      const kinds = FOLLOW_INPUT_KINDS.filter((k) => channelStepAccess(parsed.data, k) === text);
      if (kinds.length > 0) return { step: parsed.data, kinds };
    }
  }
  return null;
}

/**
 * Reads one input-channel update: the program, which argument is the input, and every step in
 * the order applied. The whole section must be what longhaul renders for that channel.
 */
export function parseChannelSection(section: SpecSection): ChannelDecl {
  const where = `update at depth ${section.depth}`;
  const stream = STREAM_HEAD.exec(section.text);
  const head = stream ?? HEAD.exec(section.text);
  if (head === null) throw new FollowError(`${where}: no sentence naming the program whose input changed`);
  const steps: ChannelStep[] = [];
  const firstPath = stream === null && head[3] !== undefined;
  let kinds: FollowInputKind[] = stream !== null ? ["stream"] : ["folder", "file", "path"];
  for (const line of section.text.split("\n")) {
    const m = ITEM.exec(line);
    if (m === null) continue;
    const text = m[2] ?? "";
    const known = recogniseChannelStep(text);
    if (known === null)
      throw new FollowError(
        `${where}, step ${m[1]}: the sentence ${quote(text)} matches no channel step the agent knows`,
      );
    steps.push(known.step);
    kinds = kinds.filter((k) => known.kinds.includes(k));
  }
  if (steps.length === 0) throw new FollowError(`${where}: no numbered channel step`);
  // Folder-only steps (manifest, archive) read the same for any kind; the folder is what they need.
  const kind = kinds.length === 0 ? undefined : pick(kinds);
  if (kind === undefined)
    throw new FollowError(`${where}: its steps disagree on what kind of input the program reads`);
  const decl: ChannelDecl = {
    program: head[1] ?? "",
    // A stream has no input argument: the schema's placeholder index is 1.
    // A first-path input has no fixed index: the schema's placeholder is 2 (right after the program).
    input_index: stream !== null ? 1 : firstPath ? 2 : Number(head[2]) + 1,
    input_kind: kind,
    ...(firstPath ? { input_arg: "first-path" as const } : {}),
    ...(firstPath && head[4] !== undefined
      ? { commands: [...head[4].matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "") }
      : {}),
    steps,
  };
  const rendered = renderChannelUpdate(section.depth, decl);
  if (rendered.trimEnd() !== section.text.trimEnd()) {
    throw new FollowError(
      `${where}: the sentence ${firstDifference(section.text, rendered)} is not worded as the agent knows`,
    );
  }
  return decl;
}

/** Of the kinds every step allows, one that fits: a single one, or the folder when the text cannot tell. */
function pick(kinds: FollowInputKind[]): FollowInputKind {
  return kinds.length === 1 ? (kinds[0] as FollowInputKind) : "folder";
}
