import { registerAgent } from "../../agents/registry.js";
import type { Agent, AgentContext, AgentRunResult } from "../../agents/types.js";
import { parseFollowOptions } from "./follow-options.js";

/**
 * The follow agent as the CLI registers it: its options checked at once (a bad one is the job's
 * user error, before any trial), its module, which loads the scale layer's child builder and every
 * transform, only when a trial runs it: `run`, `worker` and `task` start without it.
 */
class OnDemandFollowAgent implements Agent {
  readonly name = "follow";
  constructor(private readonly options: Record<string, string>) {
    parseFollowOptions(options);
  }
  async run(ctx: AgentContext): Promise<AgentRunResult> {
    const { FollowAgent } = await import("./follow-agent.js");
    return new FollowAgent(this.options).run(ctx);
  }
}

/** Agents of the scale layer (the agents layer cannot import it), registered by the CLI. */
export function registerScaleAgents(): void {
  registerAgent(
    "follow",
    "follows only a scaled task's public environment updates, then runs the root's solution (--agent-opt root=DIR or solver=DIR)",
    (o) => new OnDemandFollowAgent(o),
  );
}
