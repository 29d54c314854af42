import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeResult } from "../../src/agents/installed/claude-code.js";
import { codexResult } from "../../src/agents/installed/codex.js";
import { defFromSpec } from "../../src/agents/installed/from-config.js";
import { GATEWAY_RECORD, gatewayTrajectory } from "../../src/agents/installed/gateway-record.js";
import { ensureInstalled, FORWARDER_SCRIPT, installKey } from "../../src/agents/installed/index.js";
import { qwenResult } from "../../src/agents/installed/qwen-code.js";
import type { InstalledAgentDef } from "../../src/agents/installed/types.js";
import { parseConfigFile } from "../../src/config.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `longhaul-test-${p}-`));
const out = (stdout: string, exitCode = 0) => ({ stdout, stderr: "", exitCode, timedOut: false });

function scriptAgent(script: string, key = "fake@1.0.0"): InstalledAgentDef {
  return {
    name: "fake",
    description: "fake",
    install: { kind: "script", script, key },
    bin: "bin/fake",
    node: false,
    executables: ["bin/fake"],
    args: () => [],
    env: () => ({}),
    result: () => ({ selfTerminated: true }),
  };
}

describe("agent cache", () => {
  it("installs once when trials ask at the same time, and marks helpers executable", async () => {
    const root = tmp("agent-cache");
    const counter = join(root, "..", `count-${Date.now()}`);
    const def = scriptAgent(
      `sleep 0.3; echo run >> ${counter}; mkdir -p "$PREFIX/bin"; printf '#!/bin/sh\\necho hi\\n' > "$PREFIX/bin/fake"`,
    );
    const dirs = await Promise.all([1, 2, 3].map(() => ensureInstalled(def, root)));
    expect(new Set(dirs).size).toBe(1);
    expect(dirs[0]).toBe(join(root, installKey(def.install)));
    expect(readFileSync(counter, "utf8").trim().split("\n")).toEqual(["run"]);
    expect(spawnSync(join(dirs[0] ?? "", "bin", "fake")).stdout.toString()).toBe("hi\n");
    // Cached: a later call does not run the script again.
    await ensureInstalled(def, root);
    expect(readFileSync(counter, "utf8").trim().split("\n")).toHaveLength(1);
    expect(existsSync(join(root, "fake@1.0.0.lock"))).toBe(false);
  });

  it("leaves nothing behind when an install fails, so the next trial tries again", async () => {
    const root = tmp("agent-cache-fail");
    await expect(ensureInstalled(scriptAgent("echo broken >&2; exit 3", "bad@1"), root)).rejects.toThrow(
      /exited 3: broken/,
    );
    expect(existsSync(join(root, "bad@1"))).toBe(false);
    expect(existsSync(join(root, "bad@1.lock"))).toBe(false);
  });

  it("keys npm installs by package and exact version", () => {
    expect(installKey({ kind: "npm", package: "@openai/codex", version: "0.171.0" })).toBe(
      "@openai+codex@0.171.0",
    );
  });
});

describe("forwarder", () => {
  it("serves the unix socket on a loopback port, passes it to the agent and returns its exit code", async () => {
    const dir = tmp("fwd");
    const sock = join(dir, "gw.sock");
    const server = createServer((req, res) => res.end(`via socket ${req.url} ${req.headers.authorization}`));
    await new Promise<void>((ok) => server.listen(sock, ok));
    const agent = join(dir, "agent.mjs");
    writeFileSync(
      agent,
      `const r = await fetch(process.env.BASE + "/v1/x", { headers: { authorization: "Bearer t" } });
       console.log(await r.text(), process.argv[2].startsWith("http://127.0.0.1:")); process.exit(7);`,
    );
    const { stdout, status } = await new Promise<{ stdout: string; status: number | null }>((ok) => {
      const p = spawn(
        process.execPath,
        ["-e", FORWARDER_SCRIPT, sock, process.execPath, agent, "http://127.0.0.1:{{PORT}}"],
        { env: { ...process.env, BASE: "http://127.0.0.1:{{PORT}}" } },
      );
      let s = "";
      p.stdout.on("data", (d: Buffer) => {
        s += d.toString();
      });
      p.on("close", (code: number | null) => ok({ stdout: s, status: code }));
    });
    server.close();
    expect(stdout.trim()).toBe("via socket /v1/x Bearer t true");
    expect(status).toBe(7);
  });
});

describe("agent results", () => {
  it("reads Claude Code's JSON result: success, turn budget, error", () => {
    const base = {
      type: "result",
      num_turns: 3,
      usage: { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 2 },
    };
    const ok = claudeResult(out(JSON.stringify({ ...base, subtype: "success", is_error: false })));
    expect(ok).toMatchObject({
      selfTerminated: true,
      usage: { input_tokens: 15, cached_tokens: 5, turns: 3 },
    });
    expect(
      claudeResult(out(JSON.stringify({ ...base, subtype: "error_max_turns", is_error: true }))),
    ).toMatchObject({
      selfTerminated: false,
      budgetExhausted: true,
    });
    expect(claudeResult(out("", 1)).error).toMatch(/without a result/);
  });

  it("reads codex's event stream and qwen's JSON list", () => {
    const ev = (o: unknown) => JSON.stringify(o);
    const c = codexResult(
      out(
        [
          ev({ type: "turn.started" }),
          ev({ type: "item.completed", item: { type: "agent_message", text: "done" } }),
          ev({
            type: "turn.completed",
            usage: { input_tokens: 9, cached_input_tokens: 4, output_tokens: 3 },
          }),
        ].join("\n"),
      ),
    );
    expect(c).toMatchObject({ selfTerminated: true, usage: { input_tokens: 9, cached_tokens: 4, turns: 1 } });
    expect(
      codexResult(out(ev({ type: "turn.failed", error: { message: "stream disconnected" } }), 1)),
    ).toMatchObject({
      selfTerminated: false,
      error: "stream disconnected",
    });
    const q = qwenResult(
      out(JSON.stringify([{ type: "system" }, { type: "result", subtype: "success", num_turns: 2 }])),
    );
    expect(q).toMatchObject({ selfTerminated: true, usage: { turns: 2 } });
  });
});

describe("gateway record fallback", () => {
  it("turns JSON and SSE answers of each API into agent steps with the gateway's counts", () => {
    const dir = tmp("gw-record");
    const usage = { input_tokens: 100, output_tokens: 7, cached_tokens: 20 };
    const line = (body: unknown, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        time: "2026-01-01T00:00:00Z",
        status: 200,
        refused: null,
        usage,
        request: {},
        response: { body },
        ...extra,
      });
    const chatSse = [
      { choices: [{ delta: { content: "run " } }] },
      {
        choices: [
          { delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "sh", arguments: '{"cmd":' } }] } },
        ],
      },
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] } }] },
    ]
      .map((e) => `data: ${JSON.stringify(e)}\n\n`)
      .join("");
    const anthropic = { content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "pwd" } }] };
    const responses = `event: response.completed\ndata: ${JSON.stringify({
      type: "response.completed",
      response: { output: [{ type: "message", content: [{ type: "output_text", text: "all done" }] }] },
    })}\n\n`;
    writeFileSync(
      join(dir, GATEWAY_RECORD),
      [line(chatSse), line(anthropic), line(null, { status: 400, refused: "budget" }), line(responses)].join(
        "\n",
      ),
    );
    const t = gatewayTrajectory(dir, { agentName: "x", version: "1", modelId: "openai:m" });
    expect(
      t?.steps.map((s) => [s.message, s.tool_calls?.map((c) => [c.function_name, c.arguments])]),
    ).toEqual([
      ["run ", [["sh", { cmd: "ls" }]]],
      ["", [["Bash", { command: "pwd" }]]],
      ["all done", undefined],
    ]);
    expect(t?.final_metrics).toMatchObject({
      total_prompt_tokens: 300,
      total_cached_tokens: 60,
      total_steps: 3,
    });
  });
});

describe("installed agents from the config file", () => {
  it("parses an entry and renders its start from the trial's context", () => {
    const file = parseConfigFile(
      "longhaul.config.toml",
      [
        "[agents.my-agent]",
        'package = "@acme/agent"',
        'version = "1.2.3"',
        'bin = "node_modules/@acme/agent/cli.js"',
        "node = true",
        'args = ["run", "--model", "{model}", "{instruction}"]',
        'env = { ACME_BASE_URL = "{base_url}/v1", ACME_KEY = "{token}" }',
        'files = { "settings.json" = "{\\"home\\": \\"{home}\\"}" }',
      ].join("\n"),
    );
    const spec = file.agents?.["my-agent"];
    if (spec === undefined) throw new Error("no agent parsed");
    const def = defFromSpec("my-agent", spec);
    const c = {
      instruction: "do it {model}",
      model: "m1",
      provider: "openai",
      baseUrl: "http://127.0.0.1:{{PORT}}",
      token: "lh-tok",
      home: "/logs/agent/my-agent",
      workdir: "/app",
      installDir: "/longhaul/agent",
      node: "/longhaul/node/bin/node",
      options: {},
    };
    expect(def.install).toEqual({ kind: "npm", package: "@acme/agent", version: "1.2.3" });
    expect(def.node).toBe(true);
    // The instruction is inserted as given: braces inside it are not templates.
    expect(def.args(c)).toEqual(["run", "--model", "m1", "do it {model}"]);
    expect(def.env(c)).toEqual({ ACME_BASE_URL: "http://127.0.0.1:{{PORT}}/v1", ACME_KEY: "lh-tok" });
    expect(def.files?.(c)).toEqual([{ path: "settings.json", content: '{"home": "/logs/agent/my-agent"}' }]);
    expect(() =>
      parseConfigFile(
        "x.json",
        JSON.stringify({ agents: { a: { package: "p", version: "^1", bin: "b", args: [] } } }),
      ),
    ).toThrow(/exact version/);
  });
});
