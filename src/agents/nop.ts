import type { Agent, AgentRunResult } from "./types.js";

/** Does nothing: the floor every task's reward must sit near (R ≤ 0.05). */
export class NopAgent implements Agent {
  readonly name = "nop";
  async run(): Promise<AgentRunResult> {
    return { selfTerminated: true };
  }
}
