import type { Command } from "commander";
import type { WorldChat } from "../../core/index.js";
import { parseModelId } from "../../models/index.js";
import { buildWorld, createWorld } from "../../world/build/world.js";
import { labelUnchecked } from "../../world/chat/labeller.js";
import { modelLabeller } from "../../world/chat/model-labeller.js";
import { worldChat } from "../../world/chat/world-chat.js";
import { loadPackDir } from "../../world/content/load.js";
import type { RunFile } from "../../world/engine/session.js";
import { terminalSafe } from "../results-table.js";

interface ChatOpts {
  json?: boolean;
  content?: string;
  model?: string;
  baseUrl?: string;
}

/** `longhaul world chat RUN`: each chat message of a run file labelled by the rules (docs/world.md). */
export function registerWorldChatCommand(world: Command, readRun: (file: string) => RunFile): void {
  world
    .command("chat")
    .description("Analyse a run's chat: messages per agent and round, and each message's error type")
    .argument("<run>", "run file (world-run.json)")
    .option("--json", "print JSON (result.json's world.chat, each message's text added)")
    .option("--content <dir>", "load a content pack folder instead of generating one from the run's seed")
    .option(
      "-m, --model <provider:model>",
      "label the messages no rule could judge with this model (one request; rule labels are kept)",
    )
    .option("--base-url <url>", "base URL for an openai-compatible --model")
    .action(async (file: string, opts: ChatOpts) => {
      // The model is checked before the run is replayed, so a typo fails at once.
      if (opts.model !== undefined) parseModelId(opts.model);
      const run = readRun(file);
      const base =
        opts.content === undefined ? createWorld(run.worldSeed) : buildWorld(loadPackDir(opts.content));
      const texts = messageTexts(run);
      const ruled = worldChat(base, run);
      const chat =
        opts.model === undefined || ruled.labels.unchecked === 0
          ? ruled
          : await labelUnchecked(
              ruled,
              texts,
              modelLabeller(opts.model, opts.baseUrl === undefined ? {} : { base_url: opts.baseUrl }),
            );
      if (opts.json === true) {
        const items = chat.items.map((m) => ({ ...m, text: texts.get(m.call) ?? "" }));
        process.stdout.write(`${JSON.stringify({ ...chat, items }, null, 2)}\n`);
      } else process.stdout.write(chatText(chat, texts));
    });
}

/** The text of each chat call of a run, by call index. */
export function messageTexts(run: RunFile): Map<number, string> {
  const out = new Map<number, string>();
  run.calls.forEach((c, i) => {
    const call = c.call as { tool?: unknown; args?: { message?: unknown } };
    if (call.tool === "chat") out.set(i, typeof call.args?.message === "string" ? call.args.message : "");
  });
  return out;
}

/** The text report: totals, per round and agent, each message with its label, the complete calls. */
export function chatText(c: WorldChat, texts: ReadonlyMap<number, string>): string {
  const nonzero = (labels: Record<string, number>): string =>
    Object.entries(labels)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ") || "–";
  const lines = [
    `messages ${c.messages} (team ${c.team}, direct ${c.direct}; delivered ${c.delivered})`,
    `labels: ${nonzero(c.labels)}`,
    `per round (rounds with a message, of ${c.per_round.length}): ${
      c.per_round.flatMap((n, r) => (n === 0 ? [] : [`r${r} ${n}`])).join(" ") || "–"
    }`,
    "agent          messages  team  direct  first round  labels",
    ...c.agents.map(
      (a) =>
        `${a.id.padEnd(14)} ${String(a.messages).padStart(8)}  ${String(a.team).padStart(4)}  ${String(a.direct).padStart(6)}  ${String(a.first_round ?? "–").padStart(11)}  ${nonzero(a.labels)}`,
    ),
    "messages (call, round, sender → to: label; text; reason):",
    ...c.items.map(
      (m) =>
        `  ${String(m.call).padStart(4)}  r${m.round}  ${m.agent} → ${m.to ?? "team"}: ${m.label}${m.by === "model" ? " (model)" : ""}${m.delivered ? "" : " (refused)"}; "${terminalSafe(texts.get(m.call) ?? "")}"; ${m.reason}`,
    ),
    "complete calls (call, round, agent: premature?; detail):",
    ...c.completions.map(
      (x) =>
        `  ${String(x.call).padStart(4)}  r${x.round}  ${x.agent}: ${x.premature === null ? "unchecked" : x.premature ? "PREMATURE" : "ok"}; ${x.reason}`,
    ),
    `analysed in ${Math.round(c.analyze_ms)} ms`,
  ];
  return `${lines.join("\n")}\n`;
}
