/**
 * Model gateway overhead per call: the same scripted answer fetched directly from the loopback
 * model server and through a gateway in front of it, interleaved call by call in one run, for
 * JSON and SSE answers of each API. Overhead = gateway − direct, at p50 and p95.
 * Run: npx tsx bench/gateway.ts [--calls 400] [--apis chat,responses,messages]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startGateway } from "../src/gateway/index.js";
import { parseSettings } from "../src/models/index.js";
import { reply, startLoopbackLlm } from "../test/support/loopback-llm.js";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "400" },
    apis: { type: "string", default: "chat,responses,messages" },
  },
});
const calls = Number(values.calls);
if (!Number.isInteger(calls) || calls < 10)
  throw new Error(`--calls must be an integer ≥ 10, got ${values.calls}`);

const llm = await startLoopbackLlm();
// A mid-sized answer: a paragraph of text, so SSE carries a few events and JSON a real body.
const answer = "The sum is written to /app/sum.txt and the script is executable. ".repeat(8);
llm.setFallback(() => reply.text(answer, { input: 1500, output: 120, cached: 300 }));
const dir = mkdtempSync(join(tmpdir(), "lh-bench-gw-"));
const gw = await startGateway({
  modelId: "openai-compatible:bench",
  settings: parseSettings({ baseUrl: llm.url, apiKey: "sk-bench" }),
  env: {},
  recordPath: join(dir, "gateway.jsonl"),
});

const PATHS = { chat: "/chat/completions", responses: "/responses", messages: "/messages" } as const;
const prompt = [{ role: "user", content: "Sum the numbers in /app/numbers.txt. ".repeat(20) }];

function body(api: keyof typeof PATHS, stream: boolean): string {
  if (api === "responses") return JSON.stringify({ model: "bench", input: prompt, stream });
  if (api === "messages")
    return JSON.stringify({ model: "bench", max_tokens: 512, messages: prompt, stream });
  return JSON.stringify({ model: "bench", messages: prompt, stream });
}

async function call(base: string, key: string, api: keyof typeof PATHS, stream: boolean): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${base}${PATHS[api]}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${key}`,
      ...(api === "messages" ? { "anthropic-version": "2023-06-01" } : {}),
    },
    body: body(api, stream),
  });
  const text = await res.text();
  if (res.status !== 200 || !text.includes("sum.txt"))
    throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
  return performance.now() - t0;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

const rows: string[] = [];
const apis = values.apis.split(",").map((a) => {
  if (a !== "chat" && a !== "responses" && a !== "messages") throw new Error(`--apis: unknown API ${a}`);
  return a;
});
// Warm-up of every path first (connection pools, JIT of the gateway's code for each format): the
// first rows measured otherwise pay for it.
for (let i = 0; i < 150; i++)
  for (const api of apis)
    for (const stream of [false, true]) {
      await call(llm.url, "sk-bench", api, stream);
      await call(`${gw.endpoint.hostUrl}/v1`, gw.endpoint.token, api, stream);
    }

for (const api of apis) {
  for (const stream of [false, true]) {
    const direct: number[] = [];
    const via: number[] = [];
    // Interleaved, so both paths see the same machine load.
    for (let i = 0; i < calls; i++) {
      direct.push(await call(llm.url, "sk-bench", api, stream));
      via.push(await call(`${gw.endpoint.hostUrl}/v1`, gw.endpoint.token, api, stream));
    }
    const f = (x: number) => `${x.toFixed(2)} ms`;
    rows.push(
      `| ${api} | ${stream ? "SSE" : "JSON"} | ${f(pct(direct, 50))} | ${f(pct(via, 50))} | ${f(pct(via, 50) - pct(direct, 50))} | ${f(pct(direct, 95))} | ${f(pct(via, 95))} | ${f(pct(via, 95) - pct(direct, 95))} |`,
    );
  }
}
const counted = gw.usage();
await gw.close();
await llm.close();
rmSync(dir, { recursive: true, force: true });

process.stdout.write(
  [
    `${calls} calls per row, each path; the gateway recorded every exchange (gateway.jsonl) and counted ${counted.calls} calls, ${counted.tokens.inputTokens} input tokens`,
    "",
    "| api | answer | direct p50 | gateway p50 | overhead p50 | direct p95 | gateway p95 | overhead p95 |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n"),
);
