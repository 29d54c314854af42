import { registerAgent } from "../../agents/registry.js";
import { FollowAgent } from "./follow-agent.js";

/** Agents of the scale layer (the agents layer cannot import it), registered by the CLI. */
export function registerScaleAgents(): void {
  registerAgent(
    "follow",
    "follows only a scaled task's public environment updates, then runs the root's solution (--agent-opt root=DIR or solver=DIR)",
    (o) => new FollowAgent(o),
  );
}
