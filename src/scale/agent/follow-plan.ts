import type { ChannelDecl } from "../channel/steps.js";
import { parseSpecUpdates } from "../child/spec-update.js";
import { FollowError, quote } from "./follow-error.js";
import { isChannelSection, parseChannelSection } from "./parse-channel.js";
import { type EnvSection, isEnvSection, parseEnvSection } from "./parse-env.js";

/**
 * What the `follow` agent makes of an instruction: nothing to undo (a root task), environment
 * updates to undo (newest first, each one's steps in its published order), or an input channel
 * its program must undo (the newest update states the whole channel).
 */
export type FollowPlan =
  | { kind: "none" }
  | { kind: "env"; sections: EnvSection[] }
  | { kind: "channel"; depth: number; decl: ChannelDecl };

/** Parses every `## Environment update (depth k)` section of `instruction`, or throws a FollowError naming what it could not read. */
export function planFollow(instruction: string): FollowPlan {
  const { sections } = parseSpecUpdates(instruction);
  if (sections.length === 0) return { kind: "none" };
  const depths = sections.map((s) => s.depth);
  const want = depths.map((_, i) => i + 1);
  if (depths.join(",") !== want.join(",")) {
    throw new FollowError(
      `the updates are at depths ${depths.join(", ")}, not 1 to ${sections.length} in order`,
    );
  }
  const env: EnvSection[] = [];
  const channels: { depth: number; decl: ChannelDecl }[] = [];
  for (const s of sections) {
    if (isEnvSection(s.text)) env.push(parseEnvSection(s));
    else if (isChannelSection(s.text)) channels.push({ depth: s.depth, decl: parseChannelSection(s) });
    else {
      const first =
        s.text
          .split("\n")
          .slice(1)
          .find((l) => l.trim() !== "") ?? "";
      throw new FollowError(
        `update at depth ${s.depth}: the sentence ${quote(first)} describes no change the agent knows`,
      );
    }
  }
  if (env.length > 0 && channels.length > 0)
    throw new FollowError("the instruction mixes environment updates and input-channel updates");
  const newest = channels[channels.length - 1];
  if (newest !== undefined) return { kind: "channel", depth: newest.depth, decl: newest.decl };
  // "after them, run the commands of the update at depth k-1": the newest update first.
  return { kind: "env", sections: [...env].sort((a, b) => b.depth - a.depth) };
}
