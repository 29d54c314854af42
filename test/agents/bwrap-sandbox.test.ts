import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TerminusAgent } from "../../src/agents/terminus/terminus-agent.js";
import { ToolsAgent } from "../../src/agents/tools-agent/tools-agent.js";
import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { agentContext } from "./fixtures.js";

let llm: LoopbackLlm;
const provider = new BwrapProvider({ limits: "rlimit", onWarning: () => undefined });

beforeAll(async () => {
  llm = await startLoopbackLlm();
  await provider.check();
});
afterAll(async () => {
  await llm.close();
});

async function sandbox(): Promise<Sandbox> {
  return provider.create({
    environmentDir: null,
    workdir: "/app",
    memoryMb: 1024,
    cpus: 1,
    pidsMax: 256,
    allowInternet: false,
    stateDir: join(mkdtempSync(join(tmpdir(), "lh-bwrap-agent-")), "state"),
  });
}

const json = (v: unknown) => reply.json(v, { input: 100, output: 10 });

describe("LLM agents in a real bwrap sandbox", () => {
  it("terminus drives tmux inside the sandbox through its socket", async () => {
    const sb = await sandbox();
    try {
      const start = llm.requests.length;
      llm.push(
        json({ commands: [{ keystrokes: "pwd; echo inside > out.txt; hostname\n", duration: 1 }] }),
        json({ commands: [], task_complete: true }),
        json({ commands: [], task_complete: true }),
      );
      const { ctx } = agentContext(sb, "openai-compatible:loop-model", { base_url: llm.url });
      const r = await new TerminusAgent().run(ctx);
      expect(r.selfTerminated).toBe(true);
      const seen = JSON.stringify(llm.requests[start + 1]?.body.messages);
      expect(seen).toContain("/app");
      expect(seen).toContain("sandbox");
      const cat = await sb.exec(["cat", "/app/out.txt"]);
      expect(cat.stdout).toBe("inside\n");
    } finally {
      await sb.killAll();
      await sb.close();
    }
  });

  it("tools runs its calls inside the sandbox", async () => {
    const sb = await sandbox();
    try {
      const start = llm.requests.length;
      llm.push(
        reply.tools([
          { name: "write_file", arguments: { path: "/app/w.txt", content: "via tool" } },
          { name: "exec", arguments: { command: "cat /app/w.txt; echo; hostname" } },
        ]),
        reply.tools([{ name: "finish", arguments: {} }]),
      );
      const { ctx } = agentContext(sb, "openai-compatible:loop-model", { base_url: llm.url });
      const r = await new ToolsAgent().run(ctx);
      expect(r.selfTerminated).toBe(true);
      const seen = JSON.stringify(llm.requests[start + 1]?.body.messages);
      expect(seen).toContain("via tool");
      expect(seen).toContain("sandbox");
    } finally {
      await sb.close();
    }
  });
});
