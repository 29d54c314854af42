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
