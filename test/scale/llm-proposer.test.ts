import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InfraError } from "../../src/core/errors.js";
import { parseSettings } from "../../src/models/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { loadParent } from "../../src/scale/child/build-child.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { readLineage } from "../../src/scale/lineage/store.js";
import { LlmProposer } from "../../src/scale/plan/llm-proposer.js";
import type { ProposeRequest } from "../../src/scale/plan/proposer.js";
import type { Plan } from "../../src/scale/plan/schema.js";
import { basicTransforms } from "../../src/scale/transforms/registry.js";
import { tempDir } from "../runner/helpers.js";
import { type LoopbackLlm, type RecordedRequest, reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { cli } from "./support/cli.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");
const MODEL = "openai-compatible:loopback";
/** One base64 step on a file the fixture's tests read: applicable, restorable, and leaks nothing. */
const BASE64_STEP = {
  transform: "base64",
  targets: ["config/rates.json"],
  params: { suffix: ".b64", lineWidth: 0 },
};

let llm: LoopbackLlm;
let request: ProposeRequest;

beforeAll(async () => {
  llm = await startLoopbackLlm();
  const root = await loadParent(LEDGER);
  request = {
    tree: root.tree.tree,
    resources: root.resources,
    library: "basic",
    transforms: basicTransforms(),
    steps: 2,
    seed: 4242,
  };
});
afterEach(() => {
  llm.reset();
  llm.requests.length = 0;
});
afterAll(async () => {
  await llm.close();
});

function proposer(baseUrl = llm.url): LlmProposer {
  return new LlmProposer(MODEL, { settings: parseSettings({ baseUrl, maxRetries: 0 }) });
}

/** Everything the model was sent in one request: system prompt and every turn. */
function sent(r: RecordedRequest | undefined): string {
  const messages = (r?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

describe("LlmProposer against a loopback chat-completions server", () => {
  it("returns the model's plan, with proposer, library and seeds filled, and counts its tokens", async () => {
    llm.push(reply.json({ steps: [BASE64_STEP] }, { input: 812, output: 47 }));
    const p = proposer();
    const plan = await p.propose(request);
    expect(plan).not.toBeNull();
    expect(plan?.proposer).toBe(`llm:${MODEL}`);
    expect(plan?.library).toBe("basic");
    expect(plan?.seed).toBe(4242);
    expect(plan?.steps).toHaveLength(1);
    expect(plan?.steps[0]).toMatchObject(BASE64_STEP);
    expect(Number.isInteger(plan?.steps[0]?.seed)).toBe(true);
    expect(p.usage()).toEqual({ calls: 1, inputTokens: 812, outputTokens: 47 });
    // The prompt names the library's transforms and the fixture's resources with their sizes.
    const prompt = sent(llm.requests[0]);
    for (const t of basicTransforms()) expect(prompt).toContain(`- ${t.name} (`);
    expect(prompt).toContain("config/rates.json (73 bytes, json");
    expect(prompt).toContain("data/orders.csv (316 bytes, csv table");
    expect(prompt).toContain("Plan 2 steps");
  });

  it("derives a missing step seed from the request seed, and default params for it, the same each time", async () => {
    const answer = `Here is the plan:\n\`\`\`json\n${JSON.stringify({ steps: [{ transform: "gzip", targets: ["data/orders.csv"] }] })}\n\`\`\``;
    llm.push(reply.text(answer), reply.text(answer));
    const a = await proposer().propose(request);
    const b = await proposer().propose(request);
    expect(a?.steps[0]?.transform).toBe("gzip");
    expect(a?.steps[0]?.params).not.toBeUndefined();
    expect(a?.steps[0]?.seed).toBe(b?.steps[0]?.seed);
    expect(a?.steps[0]?.params).toEqual(b?.steps[0]?.params);
  });

  it("retries once with the parse error shown when the first answer is not JSON", async () => {
    llm.push(
      reply.text("Sure! {steps: [base64"),
      reply.json({ steps: [BASE64_STEP] }, { input: 10, output: 5 }),
    );
    const p = proposer();
    const plan = await p.propose(request);
    expect(plan?.steps[0]?.transform).toBe("base64");
    expect(llm.requests).toHaveLength(2);
    const second = sent(llm.requests[1]);
    expect(second).toContain("Your answer was rejected: not JSON");
    expect(second).toContain("Sure! {steps: [base64");
    expect(sent(llm.requests[0])).not.toContain("Your answer was rejected");
    expect(p.usage().calls).toBe(2);
  });

  it("shows the model an unknown transform or bad params before the verifier ever sees them", async () => {
    llm.push(
      reply.json({ steps: [{ transform: "teleport", targets: ["data/orders.csv"], params: {} }] }),
      reply.json({ steps: [{ ...BASE64_STEP, params: { suffix: ".zip", lineWidth: 0 } }] }),
    );
    expect(await proposer().propose(request)).toBeNull();
    expect(sent(llm.requests[1])).toContain('steps.0.transform: "teleport" is not in the basic library');
  });

  it("gives up (null) after two answers that are not plans, without throwing", async () => {
    llm.push(reply.text("I cannot help with that."), reply.json({ steps: [] }));
    await expect(proposer().propose(request)).resolves.toBeNull();
    expect(llm.requests).toHaveLength(2);
    expect(sent(llm.requests[1])).toContain("not JSON");
  });

  it("sends the rejected plans and the verifier's diagnostics on repair", async () => {
    const previous: Plan = {
      proposer: `llm:${MODEL}`,
      library: "basic",
      seed: 4242,
      steps: [{ transform: "split", targets: ["config/rates.json"], params: { parts: 2 }, seed: 9 }],
    };
    const older: Plan = { ...previous, steps: [{ ...BASE64_STEP, targets: ["data/nowhere.csv"], seed: 3 }] };
    llm.push(reply.json({ steps: [BASE64_STEP] }));
    const plan = await proposer().repair({
      ...request,
      previous,
      attempt: 2,
      rejected: [older, previous],
      diagnostics: [
        { code: "restore-failed", step: "d1.1", message: "cat: config/rates.json.part-*: No such file" },
        { code: "leaked-fact", step: null, message: "the spec update names a protected value" },
      ],
    });
    expect(plan?.steps[0]?.targets).toEqual(["config/rates.json"]);
    const body = JSON.stringify(llm.requests[0]?.body);
    const prompt = sent(llm.requests[0]);
    expect(body).toContain("restore-failed d1.1: cat: config/rates.json.part-*: No such file");
    expect(prompt).toContain("- leaked-fact -: the spec update names a protected value");
    expect(prompt).toContain("Repair attempt 2");
    expect(prompt).toContain('"transform":"split","targets":["config/rates.json"]');
    expect(prompt).toContain("data/nowhere.csv");
  });

  it("reports a server that is down as an infrastructure error with one clear line", async () => {
    const port = await closedPort();
    const err = await proposer(`http://127.0.0.1:${port}/v1`)
      .propose(request)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(InfraError);
    const message = (err as InfraError).message;
    expect(message).toMatch(new RegExp(`^model ${MODEL}: .*\\(gave up after 1 attempts\\)$`));
    expect(message).not.toContain("\n");
  });
});

describe("`longhaul scale --proposer llm` of ledger-report at depth 1 (no trials)", () => {
  it("approves the model's child and records the proposer and its tokens in the lineage", async () => {
    llm.setFallback(() => reply.json({ steps: [BASE64_STEP] }, { input: 1500, output: 60 }));
    const out = join(tempDir("res-llm"), "out");
    const r = await cli([
      "scale",
      LEDGER,
      "--depth",
      "1",
      "--library",
      "basic",
      "--no-trials",
      "--proposer",
      "llm",
      "--model",
      MODEL,
      "--base-url",
      llm.url,
      "--out",
      out,
    ]);
    expect(r.stderr).toContain("1 approved, 0 discarded");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("1500 input + 60 output tokens (1560 per approved child)");
    const child = readLineage(out).find((n) => n.id === "ledger-report-b1-d1");
    expect(child?.status).toBe("approved");
    expect(child?.proposer).toBe(`llm:${MODEL}`);
    expect(child?.tokens).toEqual({ input: 1500, output: 60 });
    expect(child?.plan?.steps.map((s) => `${s.transform}(${s.targets.join(",")})`)).toEqual([
      "base64(config/rates.json)",
    ]);
    expect(llm.requests).toHaveLength(1);
  }, 120_000);

  it("refuses --proposer llm without --model, and an unknown proposer, with exit 2", async () => {
    const noModel = await cli(["scale", LEDGER, "--depth", "1", "--proposer", "llm"]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr.trim()).toBe("longhaul: --proposer llm needs --model provider:model");
    const unknown = await cli(["scale", LEDGER, "--depth", "1", "--proposer", "oracle"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--proposer must be one of seeded, llm, got "oracle"');
  });

  it("stops the lineage with an infrastructure error when the model server is down", async () => {
    const port = await closedPort();
    const out = join(tempDir("res-llm-down"), "out");
    const down = new LlmProposer(MODEL, {
      settings: parseSettings({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }),
    });
    const run = scaleTask({
      taskDir: LEDGER,
      outDir: out,
      depth: 1,
      children: 1,
      library: "basic",
      mode: "recursive",
      seed: 1,
      provider: getSandboxProvider("bwrap"),
      trials: false,
      proposer: down,
    });
    await expect(run).rejects.toBeInstanceOf(InfraError);
    // The root was recorded before the failure; the lineage file stays readable.
    expect(readLineage(out).map((n) => n.status)).toEqual(["root"]);
  });
});

/** A port nothing listens on: bound once by the OS, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const address = s.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}
