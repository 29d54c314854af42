import type { ChannelDecl } from "../channel/steps.js";
import type { FileTree, Transform } from "../types.js";
import type { Diagnostic } from "../verify/diagnostics.js";
import type { LibraryName, Plan } from "./schema.js";

/** What a proposer plans from: the parent's tree and the resources a step may bind to. */
export interface ProposeRequest {
  tree: FileTree;
  /** Paths a step may bind to: the files the tests read (root) or what earlier levels produced. */
  resources: readonly string[];
  library: LibraryName;
  transforms: readonly Transform<unknown>[];
  /** How many steps to plan (fewer when nothing else applies). */
  steps: number;
  seed: number;
  /** The parent's input channel (a program task's child; null or absent at the root and for environment-data tasks). */
  channel?: ChannelDecl | null;
}

/** A repair request: the rejected plan, why it was rejected, and which repair attempt this is (1-based). */
export interface RepairRequest extends ProposeRequest {
  previous: Plan;
  diagnostics: readonly Diagnostic[];
  attempt: number;
  /** Every plan rejected so far for this child, oldest first (`previous` is the last). */
  rejected?: readonly Plan[];
}

/** Model calls and tokens a proposer has used so far (a proposer without a model has none). */
export interface ProposerUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Chooses and binds transforms: the seeded planner, or a model (LlmProposer). Whatever a proposer
 * returns is validated (schema, library, every step applicable) and verified the same way:
 * nothing it returns is trusted.
 */
export interface Proposer {
  readonly name: string;
  /** A plan, or null when no transform of the library applies to any resource. May be async (a model call). */
  propose(request: ProposeRequest): Plan | null | Promise<Plan | null>;
  /** A changed plan after a rejection (re-bound, re-parameterised or re-ordered), or null to give up. */
  repair(request: RepairRequest): Plan | null | Promise<Plan | null>;
  /** Cumulative usage, when the proposer calls a model; the lineage records the difference per child. */
  usage?(): ProposerUsage;
  /** Ends whatever the proposer keeps running between plans; called once a lineage is done. */
  close?(): void;
}
