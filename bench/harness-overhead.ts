/**
 * Harness overhead per turn: wall time of a turn minus the model call and the command's own
 * duration, i.e. what the loop itself costs (tmux round trips, parsing, recording, bookkeeping).
 * Runs terminus and tools for N turns each against the loopback model server in a bwrap sandbox.
 *
 *   npx tsx bench/harness-overhead.ts [turns=500]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type LoopDriver,
  parseLoopOptions,
  runLlmLoop,
  type TurnTiming,
} from "../src/agents/llm-loop/index.js";
import { TerminusDriver } from "../src/agents/terminus/terminus-agent.js";
import { TmuxSession } from "../src/agents/terminus/tmux.js";
import { ToolsDriver } from "../src/agents/tools-agent/tools-agent.js";
import { ModelClient, parseSettings } from "../src/models/index.js";
import { BwrapProvider } from "../src/sandbox/bwrap-provider.js";
import { reply, startLoopbackLlm } from "../test/support/loopback-llm.js";

const TURNS = Number(process.argv[2] ?? 500);
const TARGET_MS = 15;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

async function measure(name: string, url: string, makeDriver: () => Promise<LoopDriver>) {
  const options = parseLoopOptions({ max_turns: String(TURNS) });
  const client = new ModelClient("openai-compatible:bench", {
    settings: parseSettings({ baseUrl: url }),
    env: {},
  });
  const timings: TurnTiming[] = [];
  const t0 = performance.now();
  const r = await runLlmLoop(await makeDriver(), {
    client,
    options,
    instruction: "benchmark",
    signal: new AbortController().signal,
    logDir: mkdtempSync(join(tmpdir(), `lh-bench-${name}-`)),
    timeoutSec: 3600,
    log: () => undefined,
    onTurn: (t) => timings.push(t),
  });
  const total = (performance.now() - t0) / 1000;
  const over = timings.map((t) => (t.wallSec - t.modelSec - t.retrySec - t.commandSec) * 1000);
  const model = timings.map((t) => t.modelSec * 1000);
  const cmd = timings.map((t) => t.commandSec * 1000);
  return {
    name,
    turns: r.usage.turns,
    total,
    p50: pct(over, 50),
    p90: pct(over, 90),
    model50: pct(model, 50),
    cmd50: pct(cmd, 50),
  };
}

async function main(): Promise<void> {
  const llm = await startLoopbackLlm();
  const provider = new BwrapProvider({ limits: "rlimit", onWarning: () => undefined });
  const spec = (n: string) => ({
    environmentDir: null,
    workdir: "/app",
    memoryMb: 1024,
    cpus: 1,
    pidsMax: 256,
    allowInternet: false,
    stateDir: join(mkdtempSync(join(tmpdir(), `lh-bench-sb-${n}-`)), "state"),
  });
  const rows = [];

  let i = 0;
  llm.setFallback(() =>
    reply.json({ analysis: "a", plan: "p", commands: [{ keystrokes: `echo ${i++}\n`, duration: 0 }] }),
  );
  const sb1 = await provider.create(spec("t"));
  const opts = parseLoopOptions({});
  rows.push(
    await measure("terminus", llm.url, async () => {
      const tmux = await TmuxSession.start(sb1, {
        width: 160,
        height: 40,
        socket: "/logs/tmux.sock",
        cwd: "/app",
      });
      return new TerminusDriver(tmux, opts);
    }),
  );
  await sb1.killAll();
  await sb1.close();

  llm.setFallback(() => reply.tools([{ name: "exec", arguments: { command: "true" } }]));
  const sb2 = await provider.create(spec("x"));
  rows.push(await measure("tools", llm.url, async () => new ToolsDriver(sb2, opts)));
  await sb2.close();
  await llm.close();

  console.log(`harness overhead per turn (${TURNS} turns each, loopback model, bwrap sandbox)`);
  console.log("agent     turns  overhead p50  overhead p90  model p50  command p50  total s  p50/target");
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(9)} ${String(r.turns).padStart(5)}  ${r.p50.toFixed(2).padStart(9)} ms  ${r.p90.toFixed(2).padStart(9)} ms  ${r.model50.toFixed(2).padStart(6)} ms  ${r.cmd50.toFixed(2).padStart(8)} ms  ${r.total.toFixed(1).padStart(7)}  ${(r.p50 / TARGET_MS).toFixed(2)}× of ${TARGET_MS} ms`,
    );
  }
}

await main();
