import { Rng } from "../../core/rng.js";
import type { FileTree, PlanStep, Transform } from "../types.js";
import type { DiagnosticCode } from "../verify/diagnostics.js";
import { applyPlan, nextResources } from "./apply.js";
import type { ProposeRequest, Proposer, RepairRequest } from "./proposer.js";
import type { Plan } from "./schema.js";

export const REPAIR_STRATEGIES = ["rebind", "reparameterise", "reorder"] as const;
export type RepairStrategy = (typeof REPAIR_STRATEGIES)[number];

/** The repair a diagnostic calls for first; the others follow in turn on later attempts. */
const STRATEGY_FOR: Partial<Record<DiagnosticCode, RepairStrategy>> = {
  "unsatisfied-prerequisite": "reorder",
  "wrong-reference": "rebind",
  "missing-fact": "rebind",
  "missing-record": "rebind",
  "fact-mismatch": "rebind",
  "restore-failed": "rebind",
  "no-change": "rebind",
  "oracle-fails": "rebind",
  "leaked-fact": "reparameterise",
  "non-reproducible": "reparameterise",
};

/** How often a step prefers a path an earlier step of the same plan produced (dependency composition). */
const COMPOSE_BIAS = 0.7;
const TRIES_PER_STEP = 12;

/**
 * The seeded planner: picks transforms from the library, binds each to resources it accepts
 * (preferring what an earlier step just produced, so steps compose: a key made by one is moved by
 * the next), and applies each step while planning so later steps see the tree they will really get.
 * Every choice comes from the request's seed.
 */
export class SeededProposer implements Proposer {
  readonly name = "seeded";

  propose(r: ProposeRequest): Plan | null {
    return build(r, new Rng(r.seed), null);
  }

  repair(r: RepairRequest): Plan | null {
    const first = r.diagnostics.map((d) => STRATEGY_FOR[d.code]).find((s) => s !== undefined) ?? "rebind";
    const order = SEQUENCE[first];
    const strategy = order[(r.attempt - 1) % order.length] ?? "rebind";
    const rng = new Rng(`${r.seed}:repair:${r.attempt}:${strategy}`);
    const forced = r.previous.steps.map((s) => s.transform);
    // Re-binding avoids every target a rejected plan used, so it does not walk back into them.
    const avoid = new Set(
      [...(r.rejected ?? []), r.previous].flatMap((p) => p.steps.flatMap((s) => s.targets)),
    );
    const plan =
      strategy === "rebind"
        ? build(r, rng, forced, avoid)
        : strategy === "reparameterise"
          ? reparameterise(r, rng)
          : reorder(r, rng);
    // When the chosen repair has nothing to change, a fresh plan from a new seed is the repair.
    return plan ?? build(r, rng, null, avoid);
  }
}

/**
 * Repairs tried in turn, by the first diagnostic's kind: a wrong binding is re-bound again
 * (elsewhere each time) before anything else; an ordering problem is re-ordered first.
 */
const SEQUENCE: Record<RepairStrategy, readonly RepairStrategy[]> = {
  rebind: ["rebind", "rebind", "reparameterise"],
  reorder: ["reorder", "rebind", "reparameterise"],
  reparameterise: ["reparameterise", "rebind", "reorder"],
};

function build(
  r: ProposeRequest,
  rng: Rng,
  forced: readonly string[] | null,
  avoid: ReadonlySet<string> = new Set(),
): Plan | null {
  const byName = new Map(r.transforms.map((t) => [t.name, t]));
  let env: FileTree = r.tree;
  let resources = r.resources.filter((p) => env.has(p));
  const producedHere = new Set<string>();
  const steps: PlanStep[] = [];
  const count = forced?.length ?? r.steps;
  for (let i = 0; i < count; i++) {
    const names = forced
      ? [forced[i] ?? ""]
      : rng.shuffle([...byName.keys()].sort()).slice(0, TRIES_PER_STEP);
    let placed = false;
    for (const name of names) {
      const t = byName.get(name);
      if (t === undefined) continue;
      const step = bind(t, env, resources, producedHere, avoid, rng);
      if (step === null) continue;
      const applied = tryApply(env, r, step);
      if (applied === null) continue;
      steps.push(step);
      env = applied.env;
      resources = nextResources(resources, applied);
      for (const p of applied.steps[0]?.produced ?? []) producedHere.add(p);
      placed = true;
      break;
    }
    if (!placed && forced) return null;
  }
  return steps.length === 0 ? null : plan(r, steps);
}

function bind(
  t: Transform<unknown>,
  env: FileTree,
  resources: readonly string[],
  producedHere: ReadonlySet<string>,
  avoid: ReadonlySet<string>,
  rng: Rng,
): PlanStep | null {
  const accepted = resources.filter((p) => {
    const bytes = env.get(p);
    return bytes !== undefined && t.accepts(p, bytes);
  });
  const fresher = accepted.filter((p) => !avoid.has(p));
  const cands = fresher.length >= (t.arity === "one" ? 1 : 2) ? fresher : accepted;
  const fresh = cands.filter((p) => producedHere.has(p));
  const preferFresh = fresh.length > 0 && rng.next() < COMPOSE_BIAS;
  let targets: string[];
  if (t.arity === "one") {
    if (cands.length === 0) return null;
    targets = [rng.pick(preferFresh ? fresh : cands)];
  } else {
    if (cands.length < 2) return null;
    const k = rng.int(2, Math.min(3, cands.length));
    const head = preferFresh ? [rng.pick(fresh)] : [];
    targets = [...head, ...rng.shuffle(cands.filter((p) => !head.includes(p)))].slice(0, k);
  }
  const seed = rng.nextU32();
  // Parameters go through JSON here, so what is applied is exactly what res.json records.
  const params: unknown = JSON.parse(JSON.stringify(t.defaultParams(seed)) ?? "null");
  return { transform: t.name, targets, params, seed };
}

function tryApply(env: FileTree, r: ProposeRequest, step: PlanStep): ReturnType<typeof applyPlan> | null {
  try {
    return applyPlan(env, plan(r, [step]));
  } catch {
    // A step the transform refuses here is simply not chosen; the planner tries another.
    return null;
  }
}

function plan(r: ProposeRequest, steps: PlanStep[]): Plan {
  return { proposer: "seeded", library: r.library, seed: r.seed, steps };
}

function valid(r: ProposeRequest, steps: PlanStep[]): boolean {
  try {
    applyPlan(r.tree, plan(r, steps));
    return true;
  } catch {
    return false;
  }
}

/** Same transforms and targets, new seeds and the parameters those seeds give. */
function reparameterise(r: RepairRequest, rng: Rng): Plan | null {
  const byName = new Map(r.transforms.map((t) => [t.name, t]));
  const steps = r.previous.steps.map((s) => {
    const seed = rng.nextU32();
    const t = byName.get(s.transform);
    const params: unknown = t ? JSON.parse(JSON.stringify(t.defaultParams(seed)) ?? "null") : s.params;
    return { ...s, targets: [...s.targets], params, seed };
  });
  return valid(r, steps) ? plan(r, steps) : null;
}

/** The same steps in another order that still applies (every step's targets exist when it runs). */
function reorder(r: RepairRequest, rng: Rng): Plan | null {
  const before = JSON.stringify(r.previous.steps);
  for (let i = 0; i < 24; i++) {
    const steps = rng.shuffle(r.previous.steps);
    if (JSON.stringify(steps) !== before && valid(r, steps)) return plan(r, steps);
  }
  return null;
}
