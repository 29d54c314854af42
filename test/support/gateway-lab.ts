import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type Gateway, type GatewayOptions, startGateway } from "../../src/gateway/index.js";
import { type PricingTable, parseSettings } from "../../src/models/index.js";
import { type LoopbackLlm, startLoopbackLlm } from "./loopback-llm.js";

/** The loopback model server every gateway test talks to, and gateways in front of it. */
export interface GatewayLab {
  readonly llm: LoopbackLlm;
  /** A gateway for `openai-compatible:m1` at the loopback server, closed after each test. */
  gateway(extra?: Partial<GatewayOptions>, settings?: Record<string, unknown>): Promise<Gateway>;
}

export const LAB_PRICING: PricingTable = {
  entries: { "openai-compatible:m1": { input: 1, output: 2, cached_input: 0.5 } },
  sources: {},
};

/**
 * Registers the file's hooks: one loopback server for the file (reset after each test), each
 * test's gateways closed after it, and a folder for their records. Fast retries (1–5 ms) unless
 * `settings` says otherwise.
 */
export function useGatewayLab(prefix: string, apiKey = "sk-real"): GatewayLab {
  let llm: LoopbackLlm | undefined;
  let dir = "";
  const open: Gateway[] = [];
  beforeAll(async () => {
    llm = await startLoopbackLlm();
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    llm?.reset();
    await Promise.all(open.splice(0).map((g) => g.close()));
  });
  afterAll(async () => {
    await llm?.close();
  });
  const server = (): LoopbackLlm => {
    if (llm === undefined) throw new Error("the loopback server starts in beforeAll");
    return llm;
  };
  return {
    get llm() {
      return server();
    },
    async gateway(extra = {}, settings = {}) {
      const g = await startGateway({
        modelId: "openai-compatible:m1",
        settings: parseSettings({
          baseUrl: server().url,
          apiKey,
          retryBaseMs: 1,
          retryMaxMs: 5,
          ...settings,
        }),
        env: {},
        pricing: LAB_PRICING,
        recordPath: join(dir, `${Math.random().toString(36).slice(2)}.jsonl`),
        ...extra,
      });
      open.push(g);
      return g;
    },
  };
}
