import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Harness, testRole } from "../../../test/world/kit.js";
import { step } from "../engine/step.js";
import { TOOL_NAMES } from "../model/tool-args.js";
import { TOOL_ERROR_CODES, type ToolResult } from "../model/types.js";
import { getWorldTool, listWorldTools, registerWorldTool, type WorldTool } from "./registry.js";

// Every world tool, built in or added, keeps the same contract with `step`.

const JUNK: unknown[] = [null, 42, "move", [], { __junk: 1 }];
/** Arguments that are free text, not a reference to something in the world. */
const FREE_TEXT = new Set(["summary", "message"]);
const MISSING = "no_such_thing_404";

interface JsonSchemaProp {
  type?: string;
  enum?: unknown[];
}

/** Arguments that parse but name nothing that exists (coordinates off the map). */
function unknownTargetArgs(tool: WorldTool): { args: Record<string, unknown>; refs: number } {
  const schema = z.toJSONSchema(tool.args) as { properties?: Record<string, JsonSchemaProp> };
  const args: Record<string, unknown> = {};
  let refs = 0;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (!FREE_TEXT.has(key)) refs++;
    if (prop.enum !== undefined) args[key] = prop.enum[0];
    else if (prop.type === "string") args[key] = MISSING;
    else if (prop.type === "integer" || prop.type === "number")
      args[key] = key === "x" || key === "y" ? -7 : 1;
    else if (prop.type === "boolean") args[key] = true;
  }
  return { args, refs };
}

function expectTypedResult(r: ToolResult, tool: string): void {
  expect(r.tool).toBe(tool);
  if (r.ok) expect(r.message).toEqual(expect.any(String));
  else {
    expect(TOOL_ERROR_CODES).toContain(r.error.code);
    expect(r.error.message.length).toBeGreaterThan(0);
  }
}

function expectConforms(name: string, h: Harness): void {
  const tool = getWorldTool(name);
  expect(tool, name).toBeDefined();
  if (tool === undefined) return;
  expect(tool.name).toBe(name);
  expect(tool.description.trim().length, name).toBeGreaterThan(10);
  for (const junk of JUNK)
    expect(tool.args.safeParse(junk).success, `${name} accepts ${JSON.stringify(junk)}`).toBe(false);
  const { args, refs } = unknownTargetArgs(tool);
  expect(tool.args.safeParse(args).success, `${name} args ${JSON.stringify(args)}`).toBe(true);
  // Through step, as agents call it: a typed result, never a throw; the state passed in is kept.
  const before = h.state;
  const out = step(h.world, h.state, "a", { tool: name, args });
  expect(h.state).toBe(before);
  expectTypedResult(out.result, name);
  if (refs > 0) {
    expect(out.result.ok, `${name} ${JSON.stringify(args)}`).toBe(false);
    // The args parsed above, so this failure is the handler's (move_to calls a tile off the map
    // invalid_args itself).
  }
}

const ping = {
  name: "ping_teammate",
  description: "Tell one teammate you are here (test tool).",
  args: z.strictObject({ to: z.string().min(1).max(80) }),
  handler: (d: Parameters<WorldTool["handler"]>[0], args: { to: string }) => {
    const other = d.agent(args.to);
    d.emit("pinged", { to: other.id });
    return `pinged ${other.id}`;
  },
};

function harness(extraTools: string[] = []): Harness {
  const h = new Harness(
    [
      { id: "a", role: "t_all" },
      { id: "b", role: "t_all" },
    ],
    [testRole("t_all", { attack: 10 })],
  );
  const idx = h.state.agentIndex.a ?? 0;
  const a = h.agent("a");
  h.state = {
    ...h.state,
    agents: h.state.agents.set(idx, { ...a, allowedTools: [...a.allowedTools, ...extraTools] }),
  };
  return h;
}

describe("world tool registry", () => {
  it("holds the 13 built-in tools under their names", () => {
    expect(listWorldTools().map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(TOOL_NAMES).toHaveLength(13);
    for (const t of listWorldTools()) expect(getWorldTool(t.name)).toBe(t);
    expect(getWorldTool("teleport")).toBeUndefined();
  });

  it("every built-in tool conforms: schema rejects junk, described, unknown target is a typed failure", () => {
    const h = harness();
    for (const name of TOOL_NAMES) expectConforms(name, h);
  });

  it("an added tool conforms and is called through step like the built-ins", () => {
    registerWorldTool(ping);
    registerWorldTool(ping); // the same definition again is harmless
    expect(listWorldTools().map((t) => t.name)).toContain("ping_teammate");
    const h = harness(["ping_teammate"]);
    expectConforms("ping_teammate", h);
    const ok = h.call("a", "ping_teammate", { to: "b" });
    expect(ok).toEqual({ ok: true, tool: "ping_teammate", message: "pinged b" });
    expect(h.events.some((e) => e.type === "pinged" && e.data.to === "b")).toBe(true);
    expect(h.events.some((e) => e.type === "action" && e.data.tool === "ping_teammate")).toBe(true);
    // The usual gates apply: schema, then the role's tool list.
    const bad = h.call("a", "ping_teammate", { to: "b", loud: true });
    expect(!bad.ok && bad.error.code).toBe("invalid_args");
    const denied = h.call("b", "ping_teammate", { to: "a" });
    expect(!denied.ok && denied.error.code).toBe("tool_not_allowed");
  });

  it("refuses a second tool under a taken name and a badly formed name", () => {
    expect(() => registerWorldTool({ ...ping })).toThrow(/already registered/);
    expect(() => registerWorldTool({ ...ping, name: "move_to" })).toThrow(/already registered/);
    expect(() => registerWorldTool({ ...ping, name: "Bad Name" })).toThrow(/lowercase/);
  });
});
