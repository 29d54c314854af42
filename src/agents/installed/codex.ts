import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Usage } from "../../core/index.js";
import type { Trajectory } from "../llm-loop/trajectory.js";
import type { AgentRunResult } from "../types.js";
import {
  asRecord,
  attachResult,
  contentText,
  type DraftStep,
  jsonLines,
  metrics,
  num,
  str,
  toTrajectory,
} from "./atif.js";
import { newestJsonl } from "./claude-code.js";
import { lockDir } from "./locks.js";
import type { AgentOutput, InstalledAgentDef, TrajectoryMeta } from "./types.js";

export const CODEX_VERSION = "0.171.0";

/** The environment variable the codex provider entry reads its key from. */
const TOKEN_ENV = "LONGHAUL_MODEL_TOKEN";

/**
 * Codex CLI: a static (musl) native binary in a per-platform npm package, started through the
 * package's small Node launcher (which puts its bundled ripgrep on the PATH). It speaks the
 * OpenAI Responses API; the gateway is declared as a model provider of its own in config.toml.
 */
export const codex: InstalledAgentDef = {
  name: "codex",
  description: `Codex CLI ${CODEX_VERSION} (OpenAI Responses API; needs --model)`,
  install: { kind: "npm", package: "@openai/codex", version: CODEX_VERSION, lockDir: () => lockDir("codex") },
  bin: "node_modules/@openai/codex/bin/codex.js",
  node: true,
  args: (c) => [
    "exec",
    "--json",
    "--skip-git-repo-check",
    // The trial's sandbox is the sandbox: codex's own (landlock/bwrap) would nest inside it.
    "--dangerously-bypass-approvals-and-sandbox",
    "--color",
    "never",
    "-m",
    c.model,
    // The port is known only inside the sandbox, so the base URL goes on the command line.
    "-c",
    `model_providers.longhaul.base_url="${c.baseUrl}/v1"`,
    c.instruction,
  ],
  env: (c) => ({ CODEX_HOME: c.home, [TOKEN_ENV]: c.token, HOME: c.home }),
  files: (c) => [
    {
      path: "config.toml",
      content: [
        `model = ${JSON.stringify(c.model)}`,
        `model_provider = "longhaul"`,
        `approval_policy = "never"`,
        `sandbox_mode = "danger-full-access"`,
        "[model_providers.longhaul]",
        `name = "longhaul model gateway"`,
        `env_key = "${TOKEN_ENV}"`,
        `wire_api = "responses"`,
        // The gateway retries the upstream itself; codex's own retries would multiply them.
        "request_max_retries = 1",
        "stream_max_retries = 1",
        "",
      ].join("\n"),
    },
  ],
  result: codexResult,
  trajectory: codexTrajectory,
};

/** `codex exec --json` events: `turn.completed` (with usage), `turn.failed`, `error`. */
export function codexResult(out: AgentOutput): AgentRunResult {
  const events = jsonLines(out.stdout);
  const usage: Partial<Usage> = {
    input_tokens: 0,
    output_tokens: 0,
    cached_tokens: 0,
    reasoning_tokens: 0,
    turns: 0,
  };
  let completed = false;
  let error: string | null = null;
  for (const e of events) {
    if (e.type === "turn.completed") {
      completed = true;
      const u = asRecord(e.usage);
      usage.input_tokens = (usage.input_tokens ?? 0) + num(u.input_tokens);
      usage.cached_tokens = (usage.cached_tokens ?? 0) + num(u.cached_input_tokens);
      usage.output_tokens = (usage.output_tokens ?? 0) + num(u.output_tokens);
      usage.reasoning_tokens = (usage.reasoning_tokens ?? 0) + num(u.reasoning_output_tokens);
    } else if (e.type === "item.completed" && asRecord(e.item).type === "agent_message") {
      usage.turns = (usage.turns ?? 0) + 1;
    } else if (e.type === "turn.failed") {
      error = str(asRecord(e.error).message) || "turn failed";
    } else if (e.type === "error") {
      error ??= str(e.message) || "error";
    }
  }
  if (error !== null || !completed || out.exitCode !== 0) {
    const why = error ?? `codex exited ${out.exitCode}: ${out.stderr.trim().slice(-500)}`;
    return { selfTerminated: false, usage, error: why };
  }
  return { selfTerminated: true, usage };
}

/** Codex's rollout file (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`) as ATIF. */
export function codexTrajectory(home: string, meta: TrajectoryMeta): Trajectory | null {
  const file = newestJsonl(join(home, "sessions"), 4);
  if (file === null) return null;
  const steps: DraftStep[] = [];
  let sessionId = "";
  let model = meta.modelId;
  for (const line of jsonLines(readFileSync(file, "utf8"))) {
    const p = asRecord(line.payload);
    const ts = str(line.timestamp) || new Date().toISOString();
    if (line.type === "session_meta") sessionId ||= str(p.id);
    else if (line.type === "turn_context") model = str(p.model) || model;
    else if (line.type === "response_item") addItem(steps, p, ts, model);
    else if (line.type === "event_msg" && p.type === "token_count") {
      // Usage arrives after the answer it belongs to: charge it to the latest agent step.
      const u = asRecord(asRecord(p.info).last_token_usage);
      const step = [...steps].reverse().find((s) => s.source === "agent" && s.metrics === undefined);
      if (step !== undefined) {
        step.metrics = metrics({
          prompt: num(u.input_tokens),
          completion: num(u.output_tokens),
          cached: num(u.cached_input_tokens),
          reasoning: num(u.reasoning_output_tokens),
        });
      }
    }
  }
  if (steps.length === 0) return null;
  return toTrajectory(meta, sessionId || "codex", steps, "codex rollout");
}

function addItem(steps: DraftStep[], p: Record<string, unknown>, ts: string, model: string): void {
  const last = steps.at(-1);
  // One model answer is several items in a row (reasoning, text, calls): one agent step.
  const agentStep = (): DraftStep => {
    if (last?.source === "agent" && last.metrics === undefined && last.observation === undefined) return last;
    const s: DraftStep = { timestamp: ts, source: "agent", model_name: model, message: "" };
    steps.push(s);
    return s;
  };
  const type = p.type;
  if (type === "message") {
    const text = contentText(p.content);
    if (p.role === "assistant") {
      const s = agentStep();
      s.message = [s.message, text].filter((t) => t !== "").join("\n");
    } else if (p.role === "user" && text !== "") {
      steps.push({ timestamp: ts, source: "user", message: text });
    }
    // developer/system messages are codex's own instructions.
  } else if (type === "function_call" || type === "custom_tool_call" || type === "local_shell_call") {
    const s = agentStep();
    const args = type === "custom_tool_call" ? { input: p.input } : parseArgs(p.arguments ?? p.action);
    const call = {
      tool_call_id: str(p.call_id),
      function_name: str(p.name) || String(type),
      arguments: args,
    };
    s.tool_calls = [...(s.tool_calls ?? []), call];
  } else if (type === "function_call_output" || type === "custom_tool_call_output") {
    const o = p.output;
    const text = typeof o === "string" ? o : contentText(asRecord(o).content ?? o);
    attachResult(steps, str(p.call_id), text);
  } else if (type === "reasoning") {
    const summary = Array.isArray(p.summary) ? contentText(p.summary) : "";
    if (summary !== "") {
      const s = agentStep();
      s.extra = { ...(s.extra ?? {}), reasoning: summary };
    }
  }
}

function parseArgs(v: unknown): Record<string, unknown> {
  if (typeof v !== "string") return asRecord(v);
  try {
    return asRecord(JSON.parse(v));
  } catch {
    return { _raw: v };
  }
}
