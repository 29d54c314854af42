export { FollowAgent, followCommands } from "./follow-agent.js";
export { FollowError } from "./follow-error.js";
export { type FollowPlan, planFollow } from "./follow-plan.js";
export { registerScaleAgents } from "./register.js";
