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

export const QWEN_CODE_VERSION = "0.24.4";

/**
 * Qwen Code: a bundled Node CLI speaking OpenAI chat completions, so it runs any
 * OpenAI-compatible model behind the gateway. Its home (settings and chat recordings) is the
 * agent's folder under /logs/agent.
 */
export const qwenCode: InstalledAgentDef = {
  name: "qwen-code",
  description: `Qwen Code ${QWEN_CODE_VERSION} (OpenAI chat completions; needs --model)`,
  install: {
    kind: "npm",
    package: "@qwen-code/qwen-code",
    version: QWEN_CODE_VERSION,
    lockDir: () => lockDir("qwen-code"),
  },
  bin: "node_modules/@qwen-code/qwen-code/cli-entry.js",
  node: true,
  executables: [`node_modules/@qwen-code/qwen-code/vendor/ripgrep/${process.arch}-linux/rg`],
  args: (c) => [
    c.instruction,
    "--yolo",
    "--output-format",
    "json",
    "--chat-recording",
    "-m",
    c.model,
    ...(c.options.max_turns !== undefined ? ["--max-session-turns", c.options.max_turns] : []),
  ],
  env: (c) => ({
    HOME: c.home,
    OPENAI_BASE_URL: `${c.baseUrl}/v1`,
    OPENAI_API_KEY: c.token,
    OPENAI_MODEL: c.model,
    QWEN_CODE_NO_RELAUNCH: "1",
    QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
  }),
  files: () => [
    {
      path: ".qwen/settings.json",
      content: `${JSON.stringify(
        {
          security: { auth: { selectedType: "openai" } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        },
        null,
        2,
      )}\n`,
    },
  ],
  result: qwenResult,
  trajectory: qwenTrajectory,
};

/** `--output-format json`: a list of events ending in `{type: "result", …}` (or that object alone). */
export function qwenResult(out: AgentOutput): AgentRunResult {
  let r: Record<string, unknown> | null = null;
  try {
    const v: unknown = JSON.parse(out.stdout.trim() || "null");
    const list = Array.isArray(v) ? v : [v];
    r = asRecord(list.findLast((e: unknown) => asRecord(e).type === "result"));
  } catch {
    r = jsonLines(out.stdout).findLast((e) => e.type === "result") ?? null;
  }
  if (r === null || r.type !== "result") {
    return {
      selfTerminated: false,
      error: `qwen exited ${out.exitCode} without a result: ${out.stderr.trim().slice(-500)}`,
    };
  }
  const u = asRecord(r.usage);
  const usage: Partial<Usage> = {
    input_tokens: num(u.input_tokens),
    output_tokens: num(u.output_tokens),
    cached_tokens: num(u.cache_read_input_tokens ?? u.cached_tokens),
    turns: num(r.num_turns),
    model_sec: num(r.duration_api_ms) / 1000,
  };
  if (r.is_error === true || r.subtype !== "success") {
    const budget = str(r.subtype).includes("max") && str(r.subtype).includes("turn");
    if (budget) return { selfTerminated: false, budgetExhausted: true, usage };
    return {
      selfTerminated: false,
      usage,
      error: `qwen: ${str(r.subtype)}: ${str(asRecord(r.error).message) || str(r.result)}`,
    };
  }
  return { selfTerminated: true, usage };
}

/** Qwen Code's chat recording (`~/.qwen/projects/<cwd>/chats/<session>.jsonl`) as ATIF. */
export function qwenTrajectory(home: string, meta: TrajectoryMeta): Trajectory | null {
  const file = newestJsonl(join(home, ".qwen", "projects"), 3);
  if (file === null) return null;
  const steps: DraftStep[] = [];
  let sessionId = "";
  for (const line of jsonLines(readFileSync(file, "utf8"))) {
    sessionId ||= str(line.sessionId);
    const ts = str(line.timestamp) || new Date().toISOString();
    const msg = asRecord(line.message);
    const parts = Array.isArray(msg.parts) ? msg.parts.map(asRecord) : [];
    if (line.type === "user") {
      const text = parts
        .map((p) => str(p.text))
        .filter((t) => t !== "")
        .join("\n");
      if (text !== "") steps.push({ timestamp: ts, source: "user", message: text });
    } else if (line.type === "assistant") {
      const calls = parts
        .map((p) => asRecord(p.functionCall))
        .filter((f) => str(f.name) !== "")
        .map((f) => ({ tool_call_id: str(f.id), function_name: str(f.name), arguments: asRecord(f.args) }));
      const u = asRecord(line.usageMetadata);
      steps.push({
        timestamp: ts,
        source: "agent",
        model_name: str(line.model) || meta.modelId,
        message: parts
          .filter((p) => p.thought !== true)
          .map((p) => str(p.text))
          .filter((t) => t !== "")
          .join("\n"),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        metrics: metrics({
          prompt: num(u.promptTokenCount),
          completion: num(u.candidatesTokenCount),
          cached: num(u.cachedContentTokenCount),
          reasoning: num(u.thoughtsTokenCount),
        }),
      });
    } else if (line.type === "tool_result") {
      for (const p of parts) {
        const f = asRecord(p.functionResponse);
        if (str(f.id) !== "")
          attachResult(steps, str(f.id), contentText(asRecord(f.response).output ?? f.response));
      }
    }
  }
  if (steps.length === 0) return null;
  return toTrajectory(meta, sessionId || "qwen-code", steps, "qwen-code chat recording");
}
