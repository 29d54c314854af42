/**
 * What one line of a chat message says, as far as the rules can read it. A message is split into
 * lines at ";", new lines and sentence ends; each line is matched against fixed patterns (the
 * scripted team's protocol and plain English variants of it), first match wins.
 */
export type ChatLine =
  | { kind: "position"; entity: string; x: number; y: number }
  | { kind: "holds"; agent: string; item: string; qty: number }
  | { kind: "gave"; item: string; qty: number; to: string }
  | { kind: "delivered"; item: string; qty: number; to: string }
  | { kind: "done"; key: string }
  | { kind: "done_all" }
  | { kind: "take"; key: string }
  | { kind: "need"; item: string; qty: number; to: string; x: number; y: number }
  | { kind: "where"; entity: string }
  | { kind: "request"; verb: "craft" | "gather"; item: string }
  | { kind: "other" };

export interface ParsedLine {
  /** The line lower-cased, spaces collapsed, end punctuation dropped: the duplicate check's key. */
  text: string;
  line: ChatLine;
}

const ID = "([a-z][a-z0-9_]*)";
const N = "(\\d+)";
const AT = "(?:is )?(?:at|@) \\(?(\\d+) ?, ?(\\d+)\\)?";
const NEED = new RegExp(`^need ${N} ${ID} for ${ID} at \\(?(\\d+) ?, ?(\\d+)\\)?$`);
const GAVE = new RegExp(`^(?:i )?(?:gave|handed) ${N} ${ID} to ${ID}$`);
const DELIVERED = new RegExp(`^(?:i )?(?:have )?delivered ${N} ${ID} to ${ID}$`);
const DONE_ALL =
  /^(?:(?:i am|i'm|i've|i have|we are|we're|all) )?(?:done|finished|complete|completed)(?: with (?:my|our) (?:part|goal|task|work))?$|^(?:my |our |the )?(?:task|goal|part|work) (?:is )?(?:done|complete|completed|finished)$/;
const HOLDS_ME = new RegExp(`^(?:i have|i've got|i hold|i'm holding|i am holding|holding|have) ${N} ${ID}$`);
const HOLDS_OTHER = new RegExp(`^${ID} (?:has|holds) ${N} ${ID}$`);
/** "E at (x,y)", "I am at x,y", or a bare "at x,y" (the sender's own place, as the random team says it). */
const POSITION = new RegExp(`^(?:(?:(i am|i'm|me|i)|(?:the )?${ID}) )?${AT}$`);
const WHERE = new RegExp(`^where(?: is)?(?: the)? ${ID}$`);
const CRAFT = new RegExp(`\\b(?:craft|make|cook|smelt|forge|fletch|brew) (?:${N} )?${ID}`);
const GATHER = new RegExp(`\\b(?:gather|harvest|mine|chop|fish|catch) (?:${N} )?${ID}`);

/** Splits a message into lines and reads each; `self` is the sender (for "I am at …", "I have …"). */
export function parseChat(text: string, self: string): ParsedLine[] {
  return text
    .toLowerCase()
    .split(/[;\n]+|(?<=[.!?])\s+/)
    .map((s) =>
      s
        .replace(/\s+/g, " ")
        .replace(/[.!?,\s]+$/, "")
        .trim(),
    )
    .filter((s) => s !== "")
    .map((s) => ({ text: s, line: readLine(s, self) }));
}

function readLine(s: string, self: string): ChatLine {
  let m = NEED.exec(s);
  if (m !== null)
    return {
      kind: "need",
      qty: Number(m[1]),
      item: at(m, 2),
      to: at(m, 3),
      x: Number(m[4]),
      y: Number(m[5]),
    };
  m = GAVE.exec(s);
  if (m !== null) return { kind: "gave", qty: Number(m[1]), item: at(m, 2), to: at(m, 3) };
  m = DELIVERED.exec(s);
  if (m !== null) return { kind: "delivered", qty: Number(m[1]), item: at(m, 2), to: at(m, 3) };
  if (DONE_ALL.test(s)) return { kind: "done_all" };
  if (s.startsWith("done ")) return { kind: "done", key: s.slice(5) };
  if (s.startsWith("take ")) return { kind: "take", key: s.slice(5) };
  m = WHERE.exec(s);
  if (m !== null) return { kind: "where", entity: at(m, 1) };
  m = HOLDS_ME.exec(s);
  if (m !== null) return { kind: "holds", agent: self, qty: Number(m[1]), item: at(m, 2) };
  m = HOLDS_OTHER.exec(s);
  if (m !== null) return { kind: "holds", agent: at(m, 1), qty: Number(m[2]), item: at(m, 3) };
  m = POSITION.exec(s);
  if (m !== null)
    return {
      kind: "position",
      entity: m[2] ?? self,
      x: Number(m[3]),
      y: Number(m[4]),
    };
  m = CRAFT.exec(s);
  if (m !== null) return { kind: "request", verb: "craft", item: at(m, 2) };
  m = GATHER.exec(s);
  if (m !== null) return { kind: "request", verb: "gather", item: at(m, 2) };
  return { kind: "other" };
}

function at(m: RegExpExecArray, i: number): string {
  return m[i] ?? "";
}

/** Words that ask for or name a game action: a line with one of them says something. */
const ACTION_WORDS =
  /\b(?:need|where|give|bring|send|take|craft|make|cook|gather|harvest|mine|chop|fish|kill|attack|fight|buy|sell|trade|deliver|equip|meet|wait|help)\b/;

/**
 * Whether a message carries any information: a known id, an id-like token (with `_`), a number
 * or coordinate, a question or a word naming a game action. Without one it is empty talk.
 */
export function informative(text: string, known: (token: string) => boolean): boolean {
  const s = text.toLowerCase();
  if (/\d|\?|_/.test(s) || ACTION_WORDS.test(s)) return true;
  return (s.match(/[a-z][a-z0-9]*/g) ?? []).some(known);
}
