import { Rng } from "../../core/rng.js";
import { PlanStepError } from "../plan/apply.js";
import { libraryChannelSteps } from "../plan/libraries.js";
import type { ProposeRequest, Proposer, RepairRequest } from "../plan/proposer.js";
import type { LibraryName, Plan } from "../plan/schema.js";
import type { PlanStep } from "../types.js";
import type { DetectedProgram } from "./detect-program.js";
import { HELD_BACK, withinGrowthBudget } from "./line-growth.js";
import { SizeGrowth, withinSizeBudget } from "./size-growth.js";
import {
  BASIC_CHANNEL_STEPS,
  type ChannelDecl,
  type ChannelStep,
  type ChannelStepName,
  channelStep,
  channelStepSchema,
  type InputKind,
  ONE_FILE_STEPS,
  STREAM_STEPS,
} from "./steps.js";

/** The program a program task's verifier runs on its hidden inputs (from detectProgram or a parent's channel). */
export type ProgramInput = DetectedProgram;

/** Plan steps of a channel level are named `channel-<step>` and bound to the program, so lineage tools show them like transforms. */
export const CHANNEL_PREFIX = "channel-";

/** The channel steps a library offers for an input of this kind (single files keep to ONE_FILE_STEPS). */
export function channelPool(library: LibraryName, kind: InputKind): ChannelStepName[] {
  const lib = libraryChannelSteps(library, BASIC_CHANNEL_STEPS);
  if (kind === "stream") return lib.filter((n) => STREAM_STEPS.includes(n));
  return lib.filter((n) => !STREAM_STEPS.includes(n) && (kind === "folder" || ONE_FILE_STEPS.includes(n)));
}

function toPlanStep(s: ChannelStep, program: string): PlanStep {
  return { transform: `${CHANNEL_PREFIX}${s.name}`, targets: [program], params: s.params, seed: s.seed };
}

/**
 * The channel steps a plan adds, checked: each names a step of the plan's library that fits the
 * input kind, is bound to the program, and its parameters are exactly what its seed gives (so the
 * declaration is re-derived from the plan alone).
 */
export function channelStepsOf(plan: Plan, input: ProgramInput): ChannelStep[] {
  const pool = channelPool(plan.library, input.inputKind);
  return plan.steps.map((s, i) => {
    const name = s.transform.startsWith(CHANNEL_PREFIX) ? s.transform.slice(CHANNEL_PREFIX.length) : "";
    const found = pool.find((n) => n === name);
    if (found === undefined) {
      throw new PlanStepError(
        i,
        `${s.transform} is not a channel step of the ${plan.library} library for a ${input.inputKind} input (${pool.join(", ")})`,
      );
    }
    if (s.targets.length !== 1 || s.targets[0] !== input.program) {
      throw new PlanStepError(i, `${s.transform} must be bound to the program ${input.program}`);
    }
    const step = channelStep(found, s.seed);
    const parsed = channelStepSchema.safeParse({ name: found, seed: s.seed, params: s.params });
    if (!parsed.success || JSON.stringify(parsed.data.params) !== JSON.stringify(step.params)) {
      throw new PlanStepError(i, `${s.transform} parameters are not the ones its seed ${s.seed} gives`);
    }
    return step;
  });
}

/**
 * A child's whole channel: the parent's steps, then this level's. The presented input goes
 * through every level's steps in order, so the restore path grows with depth.
 */
export function channelDeclFor(parent: ChannelDecl | null, input: ProgramInput, plan: Plan): ChannelDecl {
  return {
    program: input.program,
    input_index: input.inputIndex,
    input_kind: input.inputKind,
    ...(input.inputArg === undefined ? {} : { input_arg: input.inputArg }),
    ...(input.commands === undefined ? {} : { commands: input.commands }),
    steps: [...(parent?.steps ?? []), ...channelStepsOf(plan, input)],
  };
}

/**
 * The seeded channel planner: picks `steps` channel steps from the library (distinct while the
 * pool lasts), each with parameters from its own seed. The tree and resources of the request are
 * not used: a program task's inputs are generated per trial, never stored in the environment.
 */
export class ChannelProposer implements Proposer {
  readonly name = "seeded-channel";
  /** Measures a file channel's growth on a sample; made at the first file-channel plan, kept for the lineage. */
  private sizes: SizeGrowth | undefined;
  /** `sizes`: the measurer to use (bench/channel-planning.ts compares two). */
  constructor(
    private readonly input: ProgramInput,
    sizes?: SizeGrowth,
  ) {
    this.sizes = sizes;
  }

  propose(r: ProposeRequest): Promise<Plan | null> {
    return this.build(r, new Rng(`${r.seed}:channel`), new Set());
  }

  /** Ends the size measurer's process, which a lineage keeps from one level to the next. */
  close(): void {
    this.sizes?.close();
  }

  /** Another draw that avoids every step name a rejected plan used (no-change: the program already reads it). */
  repair(r: RepairRequest): Promise<Plan | null> {
    const avoid = new Set(
      [...(r.rejected ?? []), r.previous].flatMap((p) => p.steps.map((s) => s.transform)),
    );
    return this.build(r, new Rng(`${r.seed}:channel:repair:${r.attempt}`), avoid);
  }

  private async build(r: ProposeRequest, rng: Rng, avoid: ReadonlySet<string>): Promise<Plan | null> {
    const all = channelPool(r.library, this.input.inputKind);
    const pool = all.filter((n) => !HELD_BACK.includes(n));
    if (pool.length === 0) return null;
    const avoided = new Set(all.filter((n) => avoid.has(`${CHANNEL_PREFIX}${n}`)));
    const fresh = pool.filter((n) => !avoided.has(n));
    const order = [...rng.shuffle(fresh.length > 0 ? fresh : pool)];
    let names: ChannelStepName[] = [];
    for (let i = 0; i < Math.max(1, r.steps); i++) names.push(order[i] ?? rng.pick(pool));
    const parent = r.channel?.steps ?? [];
    if (this.input.inputKind === "stream") {
      names = withinGrowthBudget(
        parent.map((s) => s.name),
        names,
        all,
        avoided,
        rng,
      );
    }
    let level = names.map((n) => channelStep(n, rng.nextU32()));
    if (this.input.inputKind !== "stream") {
      this.sizes ??= new SizeGrowth(this.input.inputKind);
      level = await withinSizeBudget(parent, level, pool, avoided, rng, this.sizes);
    }
    const steps = level.map((s) => toPlanStep(s, this.input.program));
    return { proposer: this.name, library: r.library, seed: r.seed, steps };
  }
}
