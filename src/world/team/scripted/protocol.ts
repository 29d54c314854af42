import type { Point } from "./knowledge.js";

/**
 * The scripted team's chat lines: plain text a teammate (scripted or not) can read. One chat
 * message carries several lines joined by "; ".
 *
 * - `need 2 copper_ore for smith at (520,383)`: the sender waits there for a hand-over.
 * - `take deliver 2 copper_ore to smith`: the sender does that goal (the first claim wins).
 * - `where greenvale_smith` / `greenvale_smith at (530,386)`: asking for and telling a place.
 * - `done kill 1 east_warden`: a goal finished (fights wait for the ones listed before them).
 * - `gave 2 copper_ore to smith`: a hand-over made.
 */
export type Line =
  | { kind: "need"; item: string; qty: number; to: string; at: Point }
  | { kind: "take"; key: string }
  | { kind: "where"; npc: string }
  | { kind: "place"; npc: string; at: Point }
  | { kind: "done"; key: string }
  | { kind: "gave"; item: string; qty: number; to: string };

export function formatLine(l: Line): string {
  switch (l.kind) {
    case "need":
      return `need ${l.qty} ${l.item} for ${l.to} at (${l.at.x},${l.at.y})`;
    case "take":
      return `take ${l.key}`;
    case "where":
      return `where ${l.npc}`;
    case "place":
      return `${l.npc} at (${l.at.x},${l.at.y})`;
    case "done":
      return `done ${l.key}`;
    case "gave":
      return `gave ${l.qty} ${l.item} to ${l.to}`;
  }
}

const ID = "([a-z0-9_]+)";
const AT = "at \\((\\d+),(\\d+)\\)";
const NEED = new RegExp(`^need (\\d+) ${ID} for ${ID} ${AT}$`);
const PLACE = new RegExp(`^${ID} ${AT}$`);
const GAVE = new RegExp(`^gave (\\d+) ${ID} to ${ID}$`);

/** The lines of a chat message this protocol understands (anything else is ignored). */
export function parseMessage(text: string): Line[] {
  const out: Line[] = [];
  for (const raw of text.split(";")) {
    const s = raw.trim();
    let m = NEED.exec(s);
    if (m !== null) {
      out.push({ kind: "need", qty: Number(m[1]), item: m[2] ?? "", to: m[3] ?? "", at: pt(m[4], m[5]) });
      continue;
    }
    m = GAVE.exec(s);
    if (m !== null) {
      out.push({ kind: "gave", qty: Number(m[1]), item: m[2] ?? "", to: m[3] ?? "" });
      continue;
    }
    if (s.startsWith("take ")) out.push({ kind: "take", key: s.slice(5) });
    else if (s.startsWith("done ")) out.push({ kind: "done", key: s.slice(5) });
    else if (/^where [a-z0-9_]+$/.test(s)) out.push({ kind: "where", npc: s.slice(6) });
    else {
      m = PLACE.exec(s);
      if (m !== null) out.push({ kind: "place", npc: m[1] ?? "", at: pt(m[2], m[3]) });
    }
  }
  return out;
}

function pt(x: string | undefined, y: string | undefined): Point {
  return { x: Number(x), y: Number(y) };
}
