import { UserError } from "../../core/index.js";
import type { Observation } from "../engine/observe.js";
import type { WorldTaskSpec } from "../task/schema.js";
import type { TeamMember } from "../team/types.js";
import { BUILTIN_WORLD_MODIFIERS } from "./builtin-modifiers.js";
import {
  type ModifierContext,
  type ObservationSource,
  WORLD_MODIFIERS_OPTION,
  type WorldModifierDefinition,
} from "./modifier-types.js";

export { type ModifierContext, type ObservationSource, WORLD_MODIFIERS_OPTION, type WorldModifierDefinition };

/** A modifier as selected: its definition, its value, and its label (`round-budget=40`). */
export interface AppliedModifier {
  def: WorldModifierDefinition;
  value: number | null;
  label: string;
}

const modifiers = new Map<string, WorldModifierDefinition>();

/** Adds a modifier by name (a second, different one of the same name is an error). */
export function registerWorldModifier(def: WorldModifierDefinition): void {
  if (!/^[a-z][a-z0-9-]*$/.test(def.name))
    throw new UserError(`world modifier name "${def.name}": use lowercase letters, digits and -`);
  const had = modifiers.get(def.name);
  if (had !== undefined && had !== def)
    throw new UserError(`world modifier "${def.name}" is already registered`);
  modifiers.set(def.name, def);
}

/** A modifier by name; an unknown name is a UserError listing the known ones. */
export function getWorldModifier(name: string): WorldModifierDefinition {
  const def = modifiers.get(name);
  if (def === undefined)
    throw new UserError(`unknown world modifier "${name}" (known: ${[...modifiers.keys()].join(", ")})`);
  return def;
}

export function listWorldModifiers(): WorldModifierDefinition[] {
  return [...modifiers.values()];
}

/**
 * Parses a comma-separated modifier list (`no-comm,round-budget=40`; empty: none). Unknown
 * names, missing or unexpected values, bad values and repeats are UserErrors naming where the
 * list came from: `source`, by default the agent option (a run file's list names its field).
 */
export function parseWorldModifiers(
  text: string,
  source = `option ${WORLD_MODIFIERS_OPTION}`,
): AppliedModifier[] {
  const out: AppliedModifier[] = [];
  for (const raw of text.split(",")) {
    const item = raw.trim();
    if (item === "") continue;
    const eq = item.indexOf("=");
    const name = eq < 0 ? item : item.slice(0, eq);
    const valueText = eq < 0 ? null : item.slice(eq + 1);
    let def: WorldModifierDefinition;
    try {
      def = getWorldModifier(name);
    } catch (e) {
      throw new UserError(`${source}: ${(e as Error).message}`);
    }
    if (out.some((m) => m.def.name === name)) throw new UserError(`${source}: ${name} is given twice`);
    if (def.parseValue === undefined && valueText !== null)
      throw new UserError(`${source}: ${name} takes no value (got ${item})`);
    if (def.parseValue !== undefined && valueText === null)
      throw new UserError(`${source}: ${name} needs a value (${name}=N)`);
    const value = valueText === null ? null : parsedValue(def, valueText, source);
    out.push({ def, value, label: value === null ? name : `${name}=${value}` });
  }
  for (const [a, b] of CONFLICTS) {
    if (out.some((m) => m.def.name === a) && out.some((m) => m.def.name === b))
      throw new UserError(`${source}: ${a} and ${b} contradict each other; choose one`);
  }
  return out;
}

/** A modifier's value; its parser's complaint is prefixed with where the list came from. */
function parsedValue(def: WorldModifierDefinition, text: string, source: string): number | null {
  if (def.parseValue === undefined) return null;
  try {
    return def.parseValue(text);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    throw new UserError(`${source}: ${e.message}`, { cause: e });
  }
}

/** Pairs that ask for opposite amounts of communication: together they would mean nothing clear. */
const CONFLICTS: readonly (readonly [string, string])[] = [
  ["no-comm", "shared-plan"],
  ["no-comm", "oracle-comm"],
  ["shared-plan", "oracle-comm"],
];

/** The modifiers an agent-options map selects (none when the option is absent). */
export function modifiersOf(options: Readonly<Record<string, string>>): AppliedModifier[] {
  return parseWorldModifiers(options[WORLD_MODIFIERS_OPTION] ?? "");
}

/** The task as the modifiers change it, in the order they were given. */
export function modifySpec(
  spec: WorldTaskSpec,
  mods: readonly AppliedModifier[],
  ctx: ModifierContext,
): WorldTaskSpec {
  return mods.reduce((s, m) => m.def.spec?.(s, m.value, ctx) ?? s, spec);
}

export function modifyMembers(
  members: readonly TeamMember[],
  mods: readonly AppliedModifier[],
): TeamMember[] {
  return mods.reduce<TeamMember[]>((ms, m) => m.def.members?.(ms, m.value) ?? ms, [...members]);
}

export function modifyObservation(
  obs: Observation,
  mods: readonly AppliedModifier[],
  source?: ObservationSource,
): Observation {
  return mods.reduce((o, m) => m.def.observation?.(o, source) ?? o, obs);
}

/** Refuses a team agent that one of the modifiers cannot be played with (a UserError). */
export function checkTeamForModifiers(team: string, mods: readonly AppliedModifier[]): void {
  for (const m of mods) m.def.checkTeam?.(team);
}

for (const def of BUILTIN_WORLD_MODIFIERS) registerWorldModifier(def);
