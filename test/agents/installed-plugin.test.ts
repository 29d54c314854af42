import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { type LoopbackLlm, type RecordedRequest, reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { readTrajectory, SUM_COMMAND, SUM_SCRIPT } from "./installed-e2e.js";

/**
 * A user's own installed agent, added by a plugin without touching longhaul: a script install
 * (run once on the host into the agent cache) of a small Node agent that speaks chat completions
 * to the base URL and token it is given, runs the shell command the model asks for and reports
 * back. It runs through `longhaul run` like a built-in one: the in-sandbox forwarder, the trial's
 * gateway, R = 1.0 on the fixture, and a trajectory from the gateway's record (it keeps no log).
 */
const ROOT = resolve(import.meta.dirname, "../..");
const TASK = join(ROOT, "test", "fixtures", "tasks", "hello");
const WRITE_SUM = `mkdir -p /app/bin && echo ${Buffer.from(SUM_SCRIPT).toString("base64")} | base64 -d > /app/bin/sum && chmod +x /app/bin/sum`;

const AGENT_JS = `
import { execSync } from "node:child_process";
const [base, token, model, instruction] = process.argv.slice(2);
const messages = [{ role: "user", content: instruction }];
for (let turn = 0; turn < 5; turn++) {
  const res = await fetch(base + "/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer " + token },
    body: JSON.stringify({ model, messages, tools: [{ type: "function", function: { name: "bash", parameters: { type: "object" } } }] }),
  });
  if (!res.ok) { console.error("model call failed: " + res.status); process.exit(3); }
  const m = (await res.json()).choices[0].message;
  messages.push(m);
  if (!m.tool_calls || m.tool_calls.length === 0) { console.log(m.content); process.exit(0); }
  for (const c of m.tool_calls) {
    const out = execSync(JSON.parse(c.function.arguments).command, { encoding: "utf8", shell: "/bin/bash" });
    messages.push({ role: "tool", tool_call_id: c.id, content: out });
  }
}
process.exit(4);
`;

let llm: LoopbackLlm;
beforeAll(async () => {
  llm = await startLoopbackLlm();
  llm.setFallback((req: RecordedRequest) => {
    const messages = Array.isArray(req.body.messages) ? req.body.messages : [];
    const results = messages.filter((m: { role?: string }) => m?.role === "tool").length;
    const usage = { input: 400, output: 25 };
    const steps = [
      reply.tools([{ name: "bash", arguments: { command: SUM_COMMAND }, id: "call_1" }], usage),
      reply.tools([{ name: "bash", arguments: { command: WRITE_SUM }, id: "call_2" }], usage),
    ];
    return steps[results] ?? reply.text("done", usage);
  });
});
afterAll(async () => {
  await llm?.close();
});

describe("an installed agent from a plugin", () => {
  it("is installed by its script, runs through the gateway and reaches R = 1.0", async () => {
    const dir = tempDir("installed-plugin");
    writeFileSync(join(dir, "agent.mjs"), AGENT_JS);
    const api = pathToFileURL(join(ROOT, "dist", "index.js")).href;
    writeFileSync(
      join(dir, "my-agent.mjs"),
      [
        `import { installedAgent } from ${JSON.stringify(api)};`,
        "export function register(api) {",
        '  api.registerAgent("my-agent", installedAgent({',
        '    name: "my-agent",',
        '    description: "a user\'s agent (chat completions)",',
        `    install: { kind: "script", key: "my-agent@1.0.0", script: ${JSON.stringify(`cp ${join(dir, "agent.mjs")} "$PREFIX/agent.mjs"`)} },`,
        '    bin: "agent.mjs",',
        "    node: true,",
        "    args: (c) => [c.baseUrl, c.token, c.model, c.instruction],",
        "    env: (c) => ({ HOME: c.home }),",
        "    result: (o) => (o.exitCode === 0 ? { selfTerminated: true } : { selfTerminated: false, error: o.stderr }),",
        "  }));",
        "}",
      ].join("\n"),
    );
    const cache = join(dir, "cache");
    const jobs = join(dir, "jobs");
    const before = llm.requests.length;
    const run = await runCli(
      ["--plugin", join(dir, "my-agent.mjs"), "run", TASK, "--agent", "my-agent"].concat(
        [
          "--model",
          "openai-compatible:user-model",
          "--base-url",
          llm.url,
          "--agent-opt",
          `cache_dir=${cache}`,
        ],
        ["--jobs-dir", jobs, "--job", "plug", "--timeout-multiplier", "4", "--json"],
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { trials: { trial_id: string; outcome: string; reward: number }[] };
    expect(out.trials[0]).toMatchObject({ outcome: "completed", reward: 1 });
    const trialDir = join(jobs, "plug", out.trials[0]?.trial_id ?? "");
    // Tokens as the gateway counted them: three calls of 400 in, 25 out.
    const result = JSON.parse(readFileSync(join(trialDir, "result.json"), "utf8")) as {
      usage: { input_tokens: number; output_tokens: number };
    };
    expect(result.usage).toMatchObject({ input_tokens: 3 * 400, output_tokens: 3 * 25 });
    // Installed once into the cache by the plugin's script, marked complete.
    expect(existsSync(join(cache, "my-agent@1.0.0", "agent.mjs"))).toBe(true);
    expect(existsSync(join(cache, "my-agent@1.0.0", ".longhaul-installed"))).toBe(true);
    // Its calls went through the gateway, which sent them upstream as the trial's model.
    const calls = llm.requests.slice(before);
    expect(calls.length).toBe(3);
    for (const c of calls) expect(c.body.model).toBe("user-model");
    const t = readTrajectory(trialDir);
    expect(t.agent.name).toBe("my-agent");
    expect(t.final_metrics.extra?.source).toBe("model gateway record");
    expect(t.steps.flatMap((s) => s.tool_calls ?? []).map((c) => c.function_name)).toEqual(["bash", "bash"]);
    expect(readFileSync(join(trialDir, "agent", "gateway.jsonl"), "utf8")).toContain("user-model");
  }, 180_000);
});
