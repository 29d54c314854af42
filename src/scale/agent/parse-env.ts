import { type PublishedStep, renderSpecUpdate, type SpecSection } from "../child/spec-update.js";
import { ENV_WORDINGS, recogniseAccess } from "./env-wording.js";
import { FollowError, firstDifference, quote } from "./follow-error.js";

/** One published step of an environment update, understood: its transform, files and commands. */
export interface EnvStep {
  /** "d<depth>.<n>" as the update labels it. */
  label: string;
  transform: string;
  /** The access sentence the step was recognised from. */
  access: string;
  /** Paths the access text says the step brings back; checked after its commands run. */
  targets: string[];
  /** The commands the update publishes for this step, in order. */
  commands: PublishedStep[];
}

export interface EnvSection {
  depth: number;
  workdir: string;
  /** In the order the update says to run them (its last applied change first). */
  steps: EnvStep[];
}

const WORKDIR = /^Files in the workdir \(`([^`]+)`\) were changed after the task above was written\./m;
const ITEM = /^- \*\*(d\d+\.\d+)\*\* (.*)$/;

/** True when the section is an environment update (rather than an input-channel one). */
export function isEnvSection(text: string): boolean {
  return WORKDIR.test(text);
}

/**
 * Reads one `## Environment update (depth k)` section of an environment-data task: each access
 * item must be a known transform's wording, each must have published commands under its label,
 * and the rest of the section must be, word for word, what longhaul writes around them.
 */
export function parseEnvSection(section: SpecSection): EnvSection {
  const where = `update at depth ${section.depth}`;
  const workdir = WORKDIR.exec(section.text)?.[1];
  if (workdir === undefined) throw new FollowError(`${where}: no sentence naming the workdir`);
  const items: { label: string; access: string }[] = [];
  let inList = false;
  for (const line of section.text.split("\n")) {
    const m = ITEM.exec(line);
    const last = items[items.length - 1];
    if (m !== null) {
      items.push({ label: m[1] ?? "", access: m[2] ?? "" });
      inList = true;
    } else if (inList && line.startsWith("  ") && last !== undefined) {
      last.access = `${last.access}\n${line.slice(2)}`;
    } else if (inList) break;
  }
  const rendered = renderSpecUpdate(section.depth, workdir, items, section.steps);
  if (rendered.trimEnd() !== section.text.trimEnd()) {
    throw new FollowError(
      `${where}: the sentence ${firstDifference(section.text, rendered)} is not worded as the agent knows`,
    );
  }
  const byLabel = new Map<string, PublishedStep[]>();
  for (const s of section.steps) byLabel.set(s.label, [...(byLabel.get(s.label) ?? []), s]);
  const access = new Map(items.map((i) => [i.label, i.access]));
  for (const label of byLabel.keys()) {
    if (!access.has(label))
      throw new FollowError(`${where}: commands of ${label} are published with no access text`);
  }
  const steps: EnvStep[] = [];
  for (const label of [...byLabel.keys()]) {
    const text = access.get(label) ?? "";
    const known = recogniseAccess(text, ENV_WORDINGS);
    if (known === null)
      throw new FollowError(
        `${label}: the access text ${quote(text)} matches no transform wording the agent knows`,
      );
    steps.push({
      label,
      transform: known.transform,
      access: text,
      targets: known.targets,
      commands: byLabel.get(label) ?? [],
    });
  }
  for (const i of items) {
    if (!byLabel.has(i.label))
      throw new FollowError(`${i.label}: ${quote(i.access)} has no published commands`);
  }
  return { depth: section.depth, workdir, steps };
}
