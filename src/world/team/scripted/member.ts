import type { Observation } from "../../engine/observe.js";
import type { ToolCall } from "../../model/tool-args.js";
import type { TeamTaskView } from "../task-view.js";
import { fromTeam, newTally, recordSuccess, startingKit } from "./books.js";
import { goalStep } from "./goal-steps.js";
import { type Goal, goalKey } from "./goals.js";
import type { Knowledge, Point } from "./knowledge.js";
import { formatLine, type Line, parseMessage } from "./protocol.js";
import { call, cheb, type Mind } from "./steps.js";

/**
 * One agent of the scripted team. It knows its document (`know`), the task's goals and what it
 * observes and is told; it keeps its own board of goals (the task's, plus teammates' requests),
 * claims (who does what) and places. Each turn: read messages and its last result, claim team
 * goals it can do, plan its goals in order (the first goal with a call to make wins; goals
 * waiting for teammates are skipped), and say what it has to say before acting.
 */
export class ScriptedMember implements Mind {
  obs!: Observation;
  readonly depleted = new Map<number, number>();
  readonly refused = new Set<string>();
  private readonly board: Goal[];
  private readonly owner = new Map<string, string>();
  private readonly doneKeys = new Set<string>();
  private readonly places = new Map<string, Point>();
  private readonly asked = new Set<string>();
  private readonly questions = new Set<string>();
  private readonly needs = new Map<string, { since: number; qty: number }>();
  private readonly outbox: Line[] = [];
  /** Lines worth saying but not worth a turn of their own (hand-overs made): said with others or when idle. */
  private readonly news: Line[] = [];
  private readonly received = new Map<string, number>();
  /** What it held at its first turn. */
  private kit = new Map<string, number>();
  private readonly tally = newTally();
  private last: ToolCall | null = null;
  private silent = false;

  constructor(
    readonly id: string,
    readonly know: Knowledge,
    readonly view: TeamTaskView,
    readonly goal: string,
    goals: readonly Goal[],
    private readonly log: (line: string) => void,
  ) {
    this.board = [...goals];
  }

  get home(): Point {
    return this.start(this.id);
  }

  private get solo(): boolean {
    return this.view.agents.length === 1;
  }

  private start(id: string): Point {
    const a = this.view.agents.find((x) => x.id === id);
    return a === undefined ? this.obs.position : { x: a.x, y: a.y };
  }

  inbound(item: string): boolean {
    return this.board.some((g) => g.kind === "deliver" && g.to === this.id && g.item === item);
  }

  need(item: string, qty: number): { since: number; taken: boolean } {
    let n = this.needs.get(item);
    if (n === undefined) {
      n = { since: this.obs.tick, qty };
      this.needs.set(item, n);
      this.say({ kind: "need", item, qty, to: this.id, at: this.start(this.id) });
    }
    return { since: n.since, taken: this.owner.has(goalKey(this.needGoal(item, n.qty))) };
  }

  private needGoal(item: string, qty: number): Goal {
    return { kind: "deliver", item, qty, to: this.id, at: this.start(this.id) };
  }

  npcAt(npc: string, ask = true): Point | undefined {
    const at = this.know.npcs.get(npc) ?? this.places.get(npc);
    if (at !== undefined) return at;
    const seen = this.obs.nearby.find((t) => t.kind === "npc" && t.id === npc);
    if (seen !== undefined) return { x: seen.x, y: seen.y };
    if (ask && !this.asked.has(npc)) {
      this.asked.add(npc);
      this.say({ kind: "where", npc });
    }
    return undefined;
  }

  spawnIds(mob: string): ReadonlySet<string> {
    const w = this.view.world;
    const idx = w.spawnIndex.get(mob);
    const list = idx !== undefined ? [idx] : (w.spawnsOf.get(mob) ?? []);
    return new Set(list.map((i) => w.pack.spawns[i]?.id ?? ""));
  }

  postsOf(mob: string): readonly Point[] {
    const placed = this.view.placedMobs.find((p) => p.id === mob);
    if (placed !== undefined) return [placed];
    const w = this.view.world;
    const idx = w.spawnIndex.get(mob);
    const kind = idx === undefined ? mob : (w.pack.spawns[idx]?.mob ?? mob);
    // A fighter's document names the kind, not where it lives: the posts come from its knowledge.
    if (!this.know.monsters.has(kind)) return [];
    const posts =
      idx === undefined ? (this.know.monsters.get(kind) ?? []) : [w.pack.spawns[idx] ?? { x: 0, y: 0 }];
    const from = this.start(this.id);
    return [...posts].sort((a, b) => cheb(a, from) - cheb(b, from)).slice(0, 4);
  }

  private say(l: Line): void {
    if (!this.silent && !this.solo) this.outbox.push(l);
  }

  act(obs: Observation): ToolCall {
    this.obs = obs;
    if (this.last === null) this.kit = startingKit(obs);
    this.readResult();
    this.readMessages();
    this.noteDepleted();
    this.claim();
    for (const npc of this.questions) {
      const at = this.know.npcs.get(npc);
      if (at !== undefined) this.say({ kind: "place", npc, at });
    }
    this.questions.clear();
    const next = this.plan();
    if (this.outbox.length > 0 || next.call.tool === "wait") this.outbox.push(...this.news.splice(0));
    const out =
      this.outbox.length > 0 ? call("chat", { message: this.outbox.map(formatLine).join("; ") }) : next;
    this.outbox.length = 0;
    this.last = out.call;
    return out.call;
  }

  /** The goals this agent does: its own, the hand-overs asked of it, the team goals it claimed. */
  private mine(): Goal[] {
    const own = this.board.filter((g) =>
      g.kind === "deliver"
        ? g.from === this.id || this.owner.get(goalKey(g)) === this.id
        : g.agent === this.id || this.owner.get(goalKey(g)) === this.id,
    );
    // Wearing gear first: it helps every fight after it.
    return [...own.filter((g) => g.kind === "equip"), ...own.filter((g) => g.kind !== "equip")];
  }

  private plan(): { call: ToolCall } {
    let first: { call: ToolCall } | null = null;
    let later: { call: ToolCall } | null = null;
    let open = false;
    // Every goal is planned each turn, so requests for all of them go out at once.
    for (const g of this.mine()) {
      const s = goalStep(this, g, this.tally, this.fightsBeforeDone(g));
      if (s === "done") {
        if (g.kind === "kill" && !this.doneKeys.has(goalKey(g))) {
          this.doneKeys.add(goalKey(g));
          // Only fights listed after it wait for this news.
          if (this.board.slice(this.board.indexOf(g) + 1).some((h) => h.kind === "kill"))
            this.say({ kind: "done", key: goalKey(g) });
        }
        continue;
      }
      open = true;
      if (s !== "blocked" && s.later === true) later ??= s;
      else if (s !== "blocked") first ??= s;
    }
    if (first !== null) return first;
    if (later !== null) return later;
    if (open || this.obs.tick === 0 || this.canHelp() || this.awaited()) {
      // Waiting for teammates: at the place it told them it would be.
      const home = this.start(this.id);
      return cheb(home, this.obs.position) > 0 ? call("move_to", { x: home.x, y: home.y }) : call("wait");
    }
    return call("complete", {
      summary: `done: ${this.mine().map(goalKey).join(", ") || "nothing asked of me"}`,
    });
  }

  /** Fights happen one after another in the order the task lists them. */
  private fightsBeforeDone(g: Goal): boolean {
    if (g.kind !== "kill") return true;
    for (const h of this.board) {
      if (h === g) return true;
      if (h.kind === "kill" && !this.doneKeys.has(goalKey(h))) return false;
    }
    return true;
  }

  /** Whether a hand-over to it is still to come (it stays online to receive it). */
  private awaited(): boolean {
    return this.board.some(
      (g) =>
        g.kind === "deliver" &&
        g.to === this.id &&
        Math.max(this.received.get(g.item) ?? 0, fromTeam(this.tally, this.kit, this.obs, g.item)) < g.qty,
    );
  }

  /** Whether a request it could serve is still open (so it stays online). */
  private canHelp(): boolean {
    return this.board.some((g) => !this.owner.has(goalKey(g)) && this.able(g));
  }

  /** Whether this agent can do a team goal nobody is named for (it then claims it). */
  private able(g: Goal): boolean {
    const k = this.know;
    const makes = (item: string): boolean =>
      k.recipes.has(item) || k.resources.has(item) || k.shops.has(item);
    switch (g.kind) {
      case "deliver":
        return g.from === undefined && g.to !== this.id && makes(g.item);
      case "kill":
        return g.agent === undefined && k.fights && this.postsOf(g.mob).length > 0;
      case "craft":
        return g.agent === undefined && k.recipes.has(g.item);
      case "gather":
        return g.agent === undefined && k.resources.has(g.item);
      case "hold":
      case "sell":
        return g.agent === undefined && makes(g.item);
      default:
        return g.agent === undefined;
    }
  }

  /** Claims, in board order, every team goal nobody has taken that this agent can do. */
  private claim(): void {
    for (const g of this.board) {
      const key = goalKey(g);
      if (this.owner.has(key) || !this.able(g)) continue;
      this.owner.set(key, this.id);
      this.say({ kind: "take", key });
    }
  }

  private readMessages(): void {
    for (const msg of this.obs.messages) {
      for (const l of parseMessage(msg.text)) {
        if (l.kind === "need") {
          const g: Goal = { kind: "deliver", item: l.item, qty: l.qty, to: l.to, at: l.at };
          if (!this.board.some((h) => goalKey(h) === goalKey(g))) this.board.push(g);
        } else if (l.kind === "take") {
          if (!this.owner.has(l.key)) this.owner.set(l.key, msg.from);
        } else if (l.kind === "done") this.doneKeys.add(l.key);
        else if (l.kind === "place") this.places.set(l.npc, l.at);
        else if (l.kind === "gave" && l.to === this.id)
          this.received.set(l.item, (this.received.get(l.item) ?? 0) + l.qty);
        else if (l.kind === "where") this.questions.add(l.npc);
      }
    }
  }

  /** Counts what its last call did (crafts, harvests, hand-overs, sales, kills) or learns why it failed. */
  private readResult(): void {
    const r = this.obs.lastResult;
    const c = this.last;
    if (r === null || c === null) return;
    const a = c.args;
    const str = (k: string): string => (typeof a[k] === "string" ? a[k] : "");
    if (!r.ok) {
      if (r.error.code === "no_communication") this.silent = true;
      // Too far: the tool says where the NPC stands, so the agent walks there and tries again.
      const far = /^\((\d+), (\d+)\) is \d+ tiles away/.exec(r.error.message);
      if (c.tool === "trade_npc" && r.error.code === "too_far" && far !== null)
        this.places.set(str("npc"), { x: Number(far[1]), y: Number(far[2]) });
      else if (c.tool === "trade_npc" && a.action === "buy") this.refused.add(`${str("npc")}/${str("item")}`);
      this.log(`scripted ${this.id}: ${c.tool} failed [${r.error.code}] ${r.error.message}`);
      return;
    }
    const gave = recordSuccess(this.view.world, this.tally, c, r.message, this.obs);
    if (gave !== null && !this.silent && !this.solo) this.news.push(gave);
  }

  /** Harvest points in view: depleted ones are avoided for a while, ready ones are trusted again. */
  private noteDepleted(): void {
    const w = this.view.world;
    for (const t of this.obs.nearby) {
      if (t.kind !== "resource") continue;
      const i = w.nodeIndex.get(t.id);
      if (i === undefined) continue;
      if (t.detail.includes("depleted")) this.depleted.set(i, this.obs.tick + 20);
      else this.depleted.delete(i);
    }
  }
}
