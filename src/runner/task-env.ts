import type { ExecOptions, Sandbox } from "../sandbox/types.js";
import { resolveEnvTemplates } from "../task/env-template.js";
import type { Task } from "../task/types.js";

/** Agents that run the task's own solution scripts, and so get [solution.env]. */
const SOLUTION_AGENTS = new Set(["oracle", "partial", "mutant"]);

/**
 * The variables every agent-phase command gets (Harbor sets [environment.env] on the container):
 * [environment.env], plus [solution.env] for the agents that run solution/ scripts. Templates
 * (`${VAR}`, `${VAR:-default}`) are resolved from the host now, never stored.
 */
export function agentEnv(task: Task, agent: string): Record<string, string> {
  const env = resolveEnvTemplates(task.config.environment.env);
  if (SOLUTION_AGENTS.has(agent)) Object.assign(env, resolveEnvTemplates(task.config.solution.env));
  return env;
}

/** The verifier's task variables: [environment.env], then [verifier.env] over it. */
export function verifierTaskEnv(task: Task): Record<string, string> {
  return {
    ...resolveEnvTemplates(task.config.environment.env),
    ...resolveEnvTemplates(task.config.verifier.env),
  };
}

/**
 * The sandbox as the agent sees it: every exec and background process gets `env` underneath its
 * own variables (an exec's own value wins, as `docker exec -e` does over the container's).
 */
export function withEnv(sandbox: Sandbox, env: Record<string, string>): Sandbox {
  if (Object.keys(env).length === 0) return sandbox;
  const merge = <O extends Pick<ExecOptions, "env">>(o: O | undefined): O =>
    ({ ...o, env: { ...env, ...(o?.env ?? {}) } }) as O;
  const spawn = sandbox.spawnBackground?.bind(sandbox);
  const hostPathOf = sandbox.hostPathOf?.bind(sandbox);
  return {
    get id() {
      return sandbox.id;
    },
    get spec() {
      return sandbox.spec;
    },
    // An agent that checks whether it may nest (as the verifier's options do) must see the
    // sandbox's own answer, not "unknown".
    get nestingAllowed() {
      return sandbox.nestingAllowed;
    },
    exec: (command, options) => sandbox.exec(command, merge(options)),
    upload: (hostPath, sandboxPath) => sandbox.upload(hostPath, sandboxPath),
    download: (sandboxPath, hostPath) => sandbox.download(sandboxPath, hostPath),
    killAll: () => sandbox.killAll(),
    close: () => sandbox.close(),
    ...(spawn ? { spawnBackground: (command, options) => spawn(command, merge(options)) } : {}),
    ...(hostPathOf ? { hostPathOf } : {}),
  } satisfies Sandbox;
}
