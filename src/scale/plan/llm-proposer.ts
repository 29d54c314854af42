import type { ModelMessage } from "ai";
import { errorMessage } from "../../core/errors.js";
import { Rng } from "../../core/rng.js";
import { ModelClient, type ModelSettings, parseModelId, parseSettings } from "../../models/index.js";
import type { Transform } from "../types.js";
import { LLM_SYSTEM_PROMPT, proposePrompt, repairPrompt } from "./llm-prompt.js";
import type { ProposeRequest, Proposer, ProposerUsage, RepairRequest } from "./proposer.js";
import { type Plan, PlanSchema } from "./schema.js";

export interface LlmProposerOptions {
  /** Call settings (base URL, retries, timeout…); defaults as for any model. */
  settings?: ModelSettings;
  env?: NodeJS.ProcessEnv;
  /** Progress lines: a model retry, an answer that did not parse. */
  log?: (line: string) => void;
}

/**
 * A proposer that asks a model for each plan. The model sees the library, the bindable resources
 * and (on repair) the rejected plans with the verifier's diagnostics, and answers with JSON. An
 * answer that is not a well-formed plan is sent back once with the error; a second bad answer
 * gives up (null). A failed model call (server down, retries exhausted) is the client's
 * ModelCallError, an InfraError. Whatever parses is still validated and verified by the lineage.
 */
export class LlmProposer implements Proposer {
  readonly name: string;
  private readonly client: ModelClient;
  private readonly log: (line: string) => void;

  constructor(modelId: string, opts: LlmProposerOptions = {}) {
    parseModelId(modelId);
    this.name = `llm:${modelId}`;
    this.log = opts.log ?? (() => {});
    this.client = new ModelClient(modelId, {
      settings: opts.settings ?? parseSettings({}),
      ...(opts.env === undefined ? {} : { env: opts.env }),
      onRetry: ({ attempt, reason, waitMs }) =>
        this.log(`${this.name}: model call failed (${reason}); retry ${attempt} in ${Math.round(waitMs)} ms`),
    });
  }

  /** Tokens of every call so far (the lineage takes differences per child). */
  usage(): ProposerUsage {
    const t = this.client.totals();
    return { calls: t.calls, inputTokens: t.tokens.inputTokens, outputTokens: t.tokens.outputTokens };
  }

  propose(r: ProposeRequest): Promise<Plan | null> {
    return this.ask(r, proposePrompt(r));
  }

  repair(r: RepairRequest): Promise<Plan | null> {
    return this.ask(r, repairPrompt(r));
  }

  private async ask(r: ProposeRequest, prompt: string): Promise<Plan | null> {
    const messages: ModelMessage[] = [{ role: "user", content: prompt }];
    for (let round = 0; round < 2; round++) {
      const res = await this.client.complete({ system: LLM_SYSTEM_PROMPT, messages });
      const parsed = readPlan(res.text, r, this.name);
      if (parsed.ok) return parsed.plan;
      this.log(`${this.name}: answer ${round + 1} is not a plan: ${parsed.error}`);
      messages.push(...res.responseMessages, {
        role: "user",
        content: `Your answer was rejected: ${parsed.error}\nReply with only the JSON object {"steps":[...]}.`,
      });
    }
    return null;
  }
}

type Read = { ok: true; plan: Plan } | { ok: false; error: string };

/** The JSON in a model's answer: the whole text, a fenced block, or the outermost braces. */
function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text)?.[1];
  const body = (fenced ?? text).trim();
  const from = body.indexOf("{");
  const to = body.lastIndexOf("}");
  return JSON.parse(from >= 0 && to > from ? body.slice(from, to + 1) : body);
}

/**
 * A plan from the model's answer. The proposer, library and plan seed are ours, whatever the
 * model wrote; a step without a seed gets one derived from the request's seed, a step without
 * params the transform's defaults for that seed. Unknown transforms and params their schema
 * refuses are reported here, so the model can fix them before the verifier runs.
 */
export function readPlan(text: string, r: ProposeRequest, proposer: string): Read {
  let raw: unknown;
  try {
    raw = extractJson(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${errorMessage(e)}` };
  }
  const body = Array.isArray(raw) ? { steps: raw } : raw;
  if (typeof body !== "object" || body === null || !Array.isArray((body as { steps?: unknown }).steps)) {
    return { ok: false, error: 'expected an object with a "steps" array' };
  }
  const byName = new Map(r.transforms.map((t) => [t.name, t]));
  const steps = ((body as { steps: unknown[] }).steps as unknown[]).map((s, i) =>
    fillStep(s, new Rng(`${r.seed}:llm-step:${i}`).nextU32(), byName),
  );
  const checked = PlanSchema.safeParse({ proposer, library: r.library, seed: r.seed, steps });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { ok: false, error: `${issue?.path.join(".") || "plan"}: ${issue?.message ?? "invalid"}` };
  }
  const plan = checked.data as Plan;
  for (const [i, s] of plan.steps.entries()) {
    const t = byName.get(s.transform);
    if (t === undefined) {
      return {
        ok: false,
        error: `steps.${i}.transform: "${s.transform}" is not in the ${r.library} library (${[...byName.keys()].join(", ")})`,
      };
    }
    const p = t.params.safeParse(s.params);
    if (!p.success) {
      const issue = p.error.issues[0];
      const field = ["steps", i, "params", ...(issue?.path ?? [])].join(".");
      return { ok: false, error: `${field}: ${issue?.message ?? "invalid"} (transform ${t.name})` };
    }
  }
  return { ok: true, plan };
}

function fillStep(s: unknown, seed: number, byName: ReadonlyMap<string, Transform<unknown>>): unknown {
  if (typeof s !== "object" || s === null || Array.isArray(s)) return s;
  const step = s as Record<string, unknown>;
  const stepSeed = step.seed === undefined ? seed : step.seed;
  const t = typeof step.transform === "string" ? byName.get(step.transform) : undefined;
  const params =
    step.params === undefined && t !== undefined && typeof stepSeed === "number"
      ? (JSON.parse(JSON.stringify(t.defaultParams(stepSeed)) ?? "null") as unknown)
      : step.params;
  return { ...step, seed: stepSeed, params };
}
