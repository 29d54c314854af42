/**
 * Installed-agent start time, install cached: from the exec that starts the agent (forwarder
 * included) to its first model request reaching the upstream, and to its exit after a one-line
 * answer. Each run is a fresh bwrap sandbox and a fresh per-trial gateway in front of the
 * loopback server, as in a trial. Run: npx tsx bench/agent-start.ts [runs] [agent…]
 * With LONGHAUL_BENCH_IMAGE=1 the sandboxes run over longhaul's Debian base image instead of the
 * host's system folders (the agent then has only what is bound in: its install and Node).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentCacheRoot, BUILTIN_INSTALLED_AGENTS, ensureInstalled } from "../src/agents/installed/index.js";
import { InstalledAgent } from "../src/agents/installed/installed-agent.js";
import { findPackageRoot } from "../src/core/index.js";
import { startGateway } from "../src/gateway/index.js";
import { settingsFromOptions } from "../src/models/settings.js";
import { BwrapProvider } from "../src/sandbox/bwrap-provider.js";
import { ensureBaseImage } from "../src/sandbox/image/base-image.js";
import { loadTask } from "../src/task/index.js";
import { reply, startLoopbackLlm } from "../test/support/loopback-llm.js";

const runs = Number(process.argv[2] ?? 5);
const only = process.argv.slice(3);
const MODELS: Record<string, string> = {
  "claude-code": "anthropic:bench-model",
  codex: "openai:bench-model",
  "qwen-code": "openai:bench-model",
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

async function main(): Promise<void> {
  const llm = await startLoopbackLlm();
  llm.setFallback(() => reply.text("done", { input: 10, output: 1 }));
  const provider = new BwrapProvider();
  await provider.check();
  const task = await loadTask(join(findPackageRoot(), "test", "fixtures", "tasks", "hello"));
  const image = process.env.LONGHAUL_BENCH_IMAGE === "1" ? await ensureBaseImage() : null;
  const env = { ...process.env, ANTHROPIC_API_KEY: "bench-key", OPENAI_API_KEY: "bench-key" };
  if (image !== null) console.log(`over image ${image.tag}\n`);
  console.log(`| agent | version | first request p50 / max (s) | exit p50 / max (s) | runs |`);
  console.log(`|---|---|---|---|---|`);
  for (const def of BUILTIN_INSTALLED_AGENTS) {
    if (only.length > 0 && !only.includes(def.name)) continue;
    await ensureInstalled(def, agentCacheRoot(), (l) => process.stderr.write(`${l}\n`));
    const first: number[] = [];
    const exit: number[] = [];
    for (let i = 0; i < runs; i++) {
      const root = mkdtempSync(join(tmpdir(), "longhaul-bench-agent-"));
      const sandbox = await provider.create({
        environmentDir: null,
        workdir: "/app",
        memoryMb: 2048,
        cpus: 2,
        pidsMax: 4096,
        allowInternet: false,
        stateDir: join(root, "state"),
        image,
      });
      const gateway = await startGateway({
        modelId: MODELS[def.name] ?? "openai:bench-model",
        settings: settingsFromOptions({ base_url: llm.url }),
        env,
        recordPath: null,
      });
      try {
        const before = llm.requests.length;
        let firstAt = Number.NaN;
        const poll = setInterval(() => {
          if (Number.isNaN(firstAt) && llm.requests.length > before) firstAt = performance.now();
        }, 5);
        const t0 = performance.now();
        const r = await new InstalledAgent(def, {}).run({
          task,
          sandbox,
          instruction: "Say done.",
          model: MODELS[def.name] ?? null,
          timeoutSec: 120,
          signal: new AbortController().signal,
          logDir: root,
          log: () => undefined,
          options: {},
          modelEndpoint: gateway.endpoint,
        });
        clearInterval(poll);
        if (r.error !== undefined) throw new Error(`${def.name}: ${r.error}`);
        first.push((firstAt - t0) / 1000);
        exit.push((performance.now() - t0) / 1000);
      } finally {
        await gateway.close();
        await sandbox.close();
        rmSync(root, { recursive: true, force: true });
      }
    }
    const v = def.install.kind === "npm" ? def.install.version : def.install.key;
    const f = (xs: number[]) => `${pct(xs, 50).toFixed(2)} / ${Math.max(...xs).toFixed(2)}`;
    console.log(`| ${def.name} | ${v} | ${f(first)} | ${f(exit)} | ${runs} |`);
  }
  await llm.close();
}

await main();
