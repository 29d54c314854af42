import type { LineageNode } from "./store.js";

function transformsOf(n: LineageNode): string {
  if (n.plan === null) return "";
  return n.plan.steps.map((s) => `${s.transform}(${s.targets.join(", ")})`).join(" → ");
}

/** One word per check: ✓ pass, ✗ fail, - skipped. */
export function checksSummary(n: LineageNode): string {
  if (n.checks.length === 0) return "";
  return n.checks
    .map((c) => `${c.status === "pass" ? "✓" : c.status === "fail" ? "✗" : "-"}${c.name}`)
    .join(" ");
}

/**
 * The lineage as a tree: each node with its status, its transforms and its verifier result;
 * a discarded candidate also shows the diagnostics that ended it.
 */
export function renderLineageTree(nodes: readonly LineageNode[]): string {
  const kids = new Map<string | null, LineageNode[]>();
  for (const n of nodes) {
    const list = kids.get(n.parent) ?? [];
    list.push(n);
    kids.set(n.parent, list);
  }
  // lineage.jsonl is in decision order, which `scale -n` interleaves: show chains in order.
  for (const list of kids.values()) list.sort((x, y) => x.branch - y.branch || x.depth - y.depth);
  const lines: string[] = [];
  const walk = (n: LineageNode, prefix: string, last: boolean, top: boolean): void => {
    const branch = top ? "" : last ? "└─ " : "├─ ";
    const head =
      n.status === "root"
        ? `${n.id} (root)`
        : `${n.id}  ${n.status}  depth ${n.depth}  attempts ${n.attempts}`;
    lines.push(`${prefix}${branch}${head}`);
    const inner = top ? "" : `${prefix}${last ? "   " : "│  "}`;
    const children = kids.get(n.id) ?? [];
    const pad = `${inner}${children.length > 0 ? "│  " : "   "}`;
    if (n.plan !== null) lines.push(`${pad}transforms: ${transformsOf(n)}`);
    if (n.checks.length > 0) lines.push(`${pad}verifier: ${checksSummary(n)}`);
    const target = targetSummary(n);
    if (target !== null) lines.push(`${pad}${target}`);
    if (n.status === "discarded") {
      for (const d of n.diagnostics.slice(0, 5))
        lines.push(`${pad}${d.code}${d.step ? ` @${d.step}` : ""}: ${d.message}`);
    }
    children.forEach((c, i) => {
      walk(c, inner, i === children.length - 1, false);
    });
  };
  for (const r of kids.get(null) ?? []) walk(r, "", true, true);
  return `${lines.join("\n")}\n`;
}

/** The result table of `longhaul scale`: one row per child node. */
export function lineageRows(nodes: readonly LineageNode[]): string[][] {
  return nodes
    .filter((n) => n.status !== "root")
    .map((n) => [
      n.id,
      n.parent ?? "-",
      String(n.depth),
      n.status,
      String(n.attempts),
      n.plan?.steps.map((s) => s.transform).join(",") ?? "-",
      checksSummary(n) || (n.diagnostics[0]?.code ?? "-"),
    ]);
}

export const LINEAGE_TABLE_HEADER = [
  "node",
  "parent",
  "depth",
  "status",
  "attempts",
  "transforms",
  "verifier",
];

/** Model tokens the proposer spent over a lineage, and per approved child; null when no node records any. */
export function lineageTokens(
  nodes: readonly LineageNode[],
): { input: number; output: number; perApproved: number } | null {
  const counted = nodes.filter((n) => n.tokens !== undefined);
  if (counted.length === 0) return null;
  const input = counted.reduce((s, n) => s + (n.tokens?.input ?? 0), 0);
  const output = counted.reduce((s, n) => s + (n.tokens?.output ?? 0), 0);
  const approved = nodes.filter((n) => n.status === "approved").length;
  return { input, output, perApproved: approved === 0 ? 0 : Math.round((input + output) / approved) };
}

/** Seconds and model tokens spent on one part of a lineage. */
export interface CostPart {
  seconds: number;
  input: number;
  output: number;
}

/**
 * A lineage's cost, split as the adaptive stop needs: constructing children (planning, building,
 * verifying, repairs; every node's `seconds` and `tokens`) apart from evaluating them with the
 * target agent (every node's `target`); `target` is null when no node was evaluated.
 */
export interface LineageCost {
  /**
   * `rootCheck`: seconds of the root's own oracle trial before planning, kept apart from the
   * children's cost so seconds per approved child stay comparable across roots; null when the root
   * records no check (trials off), 0 when another lineage of an experiment ran the shared check.
   */
  construction: CostPart & { approved: number; rootCheck: number | null };
  target: (CostPart & { children: number; trials: number; agent: string }) | null;
}

export function lineageCost(nodes: readonly LineageNode[]): LineageCost {
  const kids = nodes.filter((n) => n.status !== "root");
  const root = nodes.find((n) => n.status === "root");
  const construction = {
    rootCheck: root !== undefined && (root.checks?.length ?? 0) > 0 ? round(root.seconds) : null,
    seconds: round(kids.reduce((s, n) => s + n.seconds, 0)),
    input: kids.reduce((s, n) => s + (n.tokens?.input ?? 0), 0),
    output: kids.reduce((s, n) => s + (n.tokens?.output ?? 0), 0),
    approved: kids.filter((n) => n.status === "approved").length,
  };
  const evaluated = kids.flatMap((n) => (n.target === undefined ? [] : [n.target]));
  const first = evaluated[0];
  if (first === undefined) return { construction, target: null };
  return {
    construction,
    target: {
      seconds: round(evaluated.reduce((s, t) => s + t.seconds, 0)),
      input: evaluated.reduce((s, t) => s + t.tokens.input, 0),
      output: evaluated.reduce((s, t) => s + t.tokens.output, 0),
      children: evaluated.length,
      trials: evaluated.reduce((s, t) => s + t.attempts, 0),
      agent: first.model === null ? first.agent : `${first.agent} (${first.model})`,
    },
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The cost report `scale` prints at the end and `scale tree` under the tree. */
export function renderCost(cost: LineageCost): string {
  const c = cost.construction;
  const per =
    c.approved === 0 ? "" : `, ${Math.round((c.input + c.output) / c.approved)} tokens per approved child`;
  const lines = [
    `construction: ${c.seconds.toFixed(1)} s, ${c.input} input + ${c.output} output tokens (${c.approved} approved${per})`,
  ];
  if (c.rootCheck !== null)
    lines.push(`root check (the root's oracle, before planning): ${c.rootCheck.toFixed(1)} s`);
  const t = cost.target;
  if (t !== null) {
    lines.push(
      `target evaluation (${t.agent}): ${t.seconds.toFixed(1)} s, ${t.input} input + ${t.output} output tokens (${t.trials} trials on ${t.children} ${t.children === 1 ? "child" : "children"})`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** One line of `scale tree` for an evaluated child: passes, each attempt's R, seconds. */
export function targetSummary(n: LineageNode): string | null {
  const t = n.target;
  if (t === undefined) return null;
  const rs = t.rewards.map((r) => (r === null ? "null" : String(Math.round(r * 1000) / 1000))).join(", ");
  const verdict = t.passed ? "passed" : "failed every attempt";
  return `target: ${t.agent} ${t.passes}/${t.attempts} ≥ ${t.threshold} (R ${rs}), ${verdict}, ${t.seconds.toFixed(1)} s`;
}
