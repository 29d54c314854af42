/**
 * The spec update: the section a child appends to its parent's instruction.md, telling the agent
 * how the changed files are reached now and publishing the restore steps. The verifier reads the
 * steps back from this text (never from the plan), so what it proves is what the agent is told.
 */

/** One published restore step; `label` is "d<depth>.<plan step>" (1-based), e.g. "d2.1". */
export interface PublishedStep {
  label: string;
  why: string;
  run: string;
}

export interface SpecSection {
  depth: number;
  /** The whole section, heading included. */
  text: string;
  steps: PublishedStep[];
}

export interface SpecAccess {
  label: string;
  access: string;
}

const HEADING = /^## Environment update \(depth (\d+)\)[ \t]*$/gm;
const FENCE_OPEN = "````sh\n";
const FENCE_CLOSE = "\n````";
const STEP_LINE = /^# (d\d+\.\d+): ?(.*)$/;

export function sectionHeading(depth: number): string {
  return `## Environment update (depth ${depth})`;
}

export function stepLabel(depth: number, planStep: number): string {
  return `d${depth}.${planStep + 1}`;
}

export function renderSpecUpdate(
  depth: number,
  workdir: string,
  access: readonly SpecAccess[],
  steps: readonly PublishedStep[],
): string {
  const items = access.map((a) => `- **${a.label}** ${a.access.trim().split("\n").join("\n  ")}`);
  const earlier = depth > 1 ? `; after them, run the commands of the update at depth ${depth - 1}` : "";
  const block = steps.map((s) => `# ${s.label}: ${oneLine(s.why)}\n${s.run.trim()}`).join("\n");
  return [
    sectionHeading(depth),
    "",
    `Files in the workdir (\`${workdir}\`) were changed after the task above was written. The task,`,
    "the information in those files and the way the result is checked are unchanged; only how the",
    "information is reached has changed:",
    "",
    ...items,
    "",
    "These commands, run in order from the workdir, bring the files back to the form the task",
    `describes (each \`# d…\` line starts one step)${earlier}:`,
    "",
    `${FENCE_OPEN}${block}${FENCE_CLOSE}`,
    "",
  ].join("\n");
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** The parent's instruction with the section appended (the parent's text stays a byte-identical prefix). */
export function appendSpecUpdate(parentInstruction: string, section: string): string {
  const sep = parentInstruction.endsWith("\n") ? "\n" : "\n\n";
  return `${parentInstruction}${sep}${section}`;
}

/** The goal (text before the first spec update) and every spec update section, in file order. */
export function parseSpecUpdates(instruction: string): { goal: string; sections: SpecSection[] } {
  const marks = [...instruction.matchAll(HEADING)].map((m) => ({ at: m.index, depth: Number(m[1]) }));
  const first = marks[0];
  const goal = first === undefined ? instruction : instruction.slice(0, first.at);
  const sections = marks.map((m, i) => {
    const end = marks[i + 1]?.at ?? instruction.length;
    const text = instruction.slice(m.at, end);
    return { depth: m.depth, text, steps: parseSteps(text) };
  });
  return { goal, sections };
}

function parseSteps(section: string): PublishedStep[] {
  const open = section.indexOf(FENCE_OPEN);
  if (open < 0) return [];
  const start = open + FENCE_OPEN.length;
  const close = section.indexOf(FENCE_CLOSE, start - 1);
  const body = section.slice(start, close < 0 ? section.length : close);
  const steps: PublishedStep[] = [];
  for (const line of body.split("\n")) {
    const m = STEP_LINE.exec(line);
    const last = steps[steps.length - 1];
    if (m !== null) steps.push({ label: m[1] ?? "", why: m[2] ?? "", run: "" });
    else if (last !== undefined) last.run = last.run === "" ? line : `${last.run}\n${line}`;
  }
  return steps;
}

/**
 * Every published restore step of a child, in the order to run them: its own update first, then
 * each earlier one down to depth 1 (the newest change is undone first).
 */
export function restoreChain(instruction: string): PublishedStep[] {
  const { sections } = parseSpecUpdates(instruction);
  return [...sections].sort((a, b) => b.depth - a.depth).flatMap((s) => s.steps);
}
