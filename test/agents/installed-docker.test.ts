import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerUnavailable } from "../../src/sandbox/image/docker-cli.js";
import { ensureTestBaseImage } from "../support/base-image.js";
import {
  type LoopbackLlm,
  type RecordedRequest,
  reply,
  type ScriptedReply,
  startLoopbackLlm,
} from "../support/loopback-llm.js";
import {
  anthropicToolResult,
  KEY_CHECK_COMMAND,
  REAL_KEY,
  realKeyOnHost,
  runOne,
  SUM_COMMAND,
  SUM_SCRIPT,
} from "./installed-e2e.js";

/**
 * Claude Code through the runner on the docker sandbox (no network): its install, the host's Node
 * and the gateway's socket folder are bound into the container when it is made, and its calls
 * reach the loopback server through the socket.
 */
const noDocker = await dockerUnavailable();
let llm: LoopbackLlm;

function script(req: RecordedRequest): ScriptedReply {
  const usage = { input: 900, output: 40, cached: 300 };
  if (!Array.isArray(req.body.tools) || req.body.tools.length === 0) return reply.text("ok");
  const messages = Array.isArray(req.body.messages) ? req.body.messages : [];
  const results = JSON.stringify(messages).split('"type":"tool_result"').length - 1;
  const steps: ScriptedReply[] = [
    reply.tools(
      [{ name: "Write", arguments: { file_path: "/app/bin/sum", content: SUM_SCRIPT }, id: "toolu_1" }],
      usage,
    ),
    reply.tools(
      [
        {
          name: "Bash",
          arguments: {
            command: `${SUM_COMMAND}; chmod +x /app/bin/sum; ${KEY_CHECK_COMMAND}`,
            description: "solve",
          },
          id: "toolu_2",
        },
      ],
      usage,
    ),
  ];
  return steps[results] ?? reply.text("All done.", usage);
}

realKeyOnHost("ANTHROPIC_API_KEY");

beforeAll(async () => {
  if (noDocker !== null) return;
  await ensureTestBaseImage();
  llm = await startLoopbackLlm();
}, 600_000);
afterAll(async () => {
  await llm?.close();
});

describe.skipIf(noDocker !== null)(
  `claude-code on the docker sandbox${noDocker === null ? "" : ` (skipped: ${noDocker})`}`,
  () => {
    it("solves the fixture to R = 1.0 through the gateway's socket, never seeing the real key", async () => {
      llm.setFallback(script);
      const { trial } = await runOne("claude-code", "anthropic:claude-loop", "ccd", llm.url, "docker");
      expect({ outcome: trial.outcome, error: trial.error }).toEqual({ outcome: "completed", error: null });
      expect(trial.reward).toBe(1);
      const main = llm.requests.filter((r) => Array.isArray(r.body.tools));
      expect(main.length).toBe(3);
      for (const r of llm.requests) expect(r.headers["x-api-key"]).toBe(REAL_KEY);
      expect(anthropicToolResult(main.at(-1)?.body.messages, "toolu_2")).toMatch(/KEY-CHECK-END$/);
      expect(anthropicToolResult(main.at(-1)?.body.messages, "toolu_2")).not.toMatch(/KEY-FOUND/);
    }, 120_000);
  },
);
