import { readdirSync, readFileSync, statSync } from "node:fs";
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
import { lockDir } from "./locks.js";
import type { AgentOutput, InstalledAgentDef, TrajectoryMeta } from "./types.js";

export const CLAUDE_CODE_VERSION = "2.1.332";

/**
 * Claude Code: the npm package is a thin wrapper whose postinstall copies a native binary out of
 * a per-platform package; with --ignore-scripts that copy never happens, so the platform
 * package's binary is started directly (a Bun executable: no Node needed for the agent itself).
 */
export const claudeCode: InstalledAgentDef = {
  name: "claude-code",
  description: `Claude Code ${CLAUDE_CODE_VERSION} (Anthropic Messages API; needs --model)`,
  install: {
    kind: "npm",
    package: "@anthropic-ai/claude-code",
    version: CLAUDE_CODE_VERSION,
    lockDir: () => lockDir("claude-code"),
  },
  bin: `node_modules/@anthropic-ai/claude-code-${process.arch === "arm64" ? "linux-arm64" : "linux-x64"}/claude`,
  node: false,
  args: (c) => [
    "-p",
    c.instruction,
    "--output-format",
    "json",
    "--dangerously-skip-permissions",
    "--model",
    c.model,
    ...(c.options.max_turns !== undefined ? ["--max-turns", c.options.max_turns] : []),
  ],
  env: (c) => ({
    ANTHROPIC_BASE_URL: c.baseUrl,
    ANTHROPIC_API_KEY: c.token,
    ANTHROPIC_MODEL: c.model,
    // Its background calls (titles, summaries) use the same model: one model per trial.
    ANTHROPIC_SMALL_FAST_MODEL: c.model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: c.model,
    CLAUDE_CONFIG_DIR: c.home,
    // Skip-permissions is refused as root unless it knows it is sandboxed.
    IS_SANDBOX: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  }),
  result: claudeResult,
  trajectory: claudeTrajectory,
};

/** The `--output-format json` result: `{type: "result", subtype, is_error, num_turns, usage, …}`. */
export function claudeResult(out: AgentOutput): AgentRunResult {
  const r = lastJsonObject(out.stdout);
  if (r === null || r.type !== "result") {
    return {
      selfTerminated: false,
      error: `claude exited ${out.exitCode} without a result: ${tail(out.stderr || out.stdout)}`,
    };
  }
  const u = asRecord(r.usage);
  const cached = num(u.cache_read_input_tokens);
  const usage: Partial<Usage> = {
    // Anthropic counts cache reads and writes apart from input; longhaul's input is all of it.
    input_tokens: num(u.input_tokens) + cached + num(u.cache_creation_input_tokens),
    output_tokens: num(u.output_tokens),
    cached_tokens: cached,
    turns: num(r.num_turns),
    // Claude Code's own estimate from its price list; the gateway's count replaces it.
    cost_usd: typeof r.total_cost_usd === "number" ? r.total_cost_usd : 0,
    model_sec: num(r.duration_api_ms) / 1000,
  };
  if (r.subtype === "error_max_turns") return { selfTerminated: false, budgetExhausted: true, usage };
  if (r.is_error === true || r.subtype !== "success") {
    return { selfTerminated: false, usage, error: `claude: ${str(r.subtype)}: ${tail(str(r.result))}` };
  }
  return { selfTerminated: true, usage };
}

/** Claude Code's session log (`$CLAUDE_CONFIG_DIR/projects/<cwd>/<session>.jsonl`) as ATIF. */
export function claudeTrajectory(home: string, meta: TrajectoryMeta): Trajectory | null {
  const file = newestJsonl(join(home, "projects"));
  if (file === null) return null;
  const lines = jsonLines(readFileSync(file, "utf8"));
  const steps: DraftStep[] = [];
  let sessionId = "";
  // One answer is logged as several lines (one per content block) sharing message.id.
  let lastMessageId = "";
  for (const line of lines) {
    if (line.isSidechain === true) continue;
    sessionId ||= str(line.sessionId);
    const msg = asRecord(line.message);
    const ts = str(line.timestamp) || new Date().toISOString();
    const blocks = Array.isArray(msg.content) ? msg.content.map(asRecord) : [];
    if (line.type === "user") {
      if (typeof msg.content === "string") {
        steps.push({ timestamp: ts, source: "user", message: msg.content });
        continue;
      }
      const texts: string[] = [];
      for (const b of blocks) {
        if (b.type === "tool_result") attachResult(steps, str(b.tool_use_id), contentText(b.content));
        else if (b.type === "text") texts.push(str(b.text));
      }
      if (texts.length > 0) steps.push({ timestamp: ts, source: "user", message: texts.join("\n") });
    } else if (line.type === "assistant") {
      const id = str(msg.id);
      const text = blocks
        .filter((b) => b.type === "text" || b.type === "thinking")
        .map((b) => str(b.text) || str(b.thinking));
      const calls = blocks
        .filter((b) => b.type === "tool_use")
        .map((b) => ({ tool_call_id: str(b.id), function_name: str(b.name), arguments: asRecord(b.input) }));
      const prev = steps.at(-1);
      if (id !== "" && id === lastMessageId && prev?.source === "agent") {
        prev.message = [prev.message, ...text].filter((t) => t !== "").join("\n");
        if (calls.length > 0) prev.tool_calls = [...(prev.tool_calls ?? []), ...calls];
        continue;
      }
      lastMessageId = id;
      const u = asRecord(msg.usage);
      const cached = num(u.cache_read_input_tokens);
      steps.push({
        timestamp: ts,
        source: "agent",
        model_name: str(msg.model) || meta.modelId,
        message: text.join("\n"),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        metrics: metrics({
          prompt: num(u.input_tokens) + cached + num(u.cache_creation_input_tokens),
          completion: num(u.output_tokens),
          cached,
        }),
      });
    }
  }
  if (steps.length === 0) return null;
  return toTrajectory(meta, sessionId || "claude-code", steps, "claude-code session log");
}

/** The most recently written .jsonl directly inside any folder under `root`. */
export function newestJsonl(root: string, depth = 2): string | null {
  let best: { path: string; mtime: number } | null = null;
  const walk = (dir: string, left: number): void => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory() && left > 0) walk(p, left - 1);
      else if (e.isFile() && e.name.endsWith(".jsonl")) {
        const mtime = statSync(p).mtimeMs;
        if (best === null || mtime > best.mtime) best = { path: p, mtime };
      }
    }
  };
  walk(root, depth);
  return (best as { path: string } | null)?.path ?? null;
}

/** The last line of `text` that is a JSON object. */
export function lastJsonObject(text: string): Record<string, unknown> | null {
  const lines = jsonLines(text);
  return lines.at(-1) ?? null;
}

function tail(s: string): string {
  const t = s.trim();
  return t.length > 500 ? `…${t.slice(-500)}` : t;
}
