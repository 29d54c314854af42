import { UserError } from "../../core/errors.js";
import type { ModelSettings } from "../../models/index.js";
import { LlmProposer } from "./llm-proposer.js";
import type { Proposer } from "./proposer.js";
import { SeededProposer } from "./seeded-proposer.js";

export const PROPOSERS = ["seeded", "llm"] as const;
export type ProposerKind = (typeof PROPOSERS)[number];

export interface ProposerChoice {
  kind: ProposerKind;
  /** `provider:model`; required by `llm`, refused by `seeded` (it would be silently unused). */
  model?: string | undefined;
  settings?: ModelSettings;
  log?: (line: string) => void;
}

/** The proposer `longhaul scale --proposer KIND [--model ID]` asks for. */
export function makeProposer(c: ProposerChoice): Proposer {
  if (c.kind === "seeded") {
    if (c.model !== undefined) throw new UserError("--model is used only with --proposer llm");
    return new SeededProposer();
  }
  if (c.model === undefined) throw new UserError("--proposer llm needs --model provider:model");
  return new LlmProposer(c.model, {
    ...(c.settings === undefined ? {} : { settings: c.settings }),
    ...(c.log === undefined ? {} : { log: c.log }),
  });
}
