import type { Proposer, ProposerUsage } from "../plan/proposer.js";

/** Tokens one child's proposer calls used (absent for a proposer without a model). */
export interface ChildTokens {
  input: number;
  output: number;
}

const gates = new WeakMap<Proposer, ProposerGate>();

/**
 * One proposer call at a time, per proposer instance. Children may grow side by side
 * (`scale -n`), and a model proposer only reports cumulative usage, so a call's tokens are
 * the usage it added while no other call of the same proposer ran. The calls are short next to
 * the verification they feed, which is what runs side by side.
 */
export class ProposerGate {
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(readonly proposer: Proposer) {}

  /** The gate of this proposer instance, shared by every lineage that uses it. */
  static of(proposer: Proposer): ProposerGate {
    let gate = gates.get(proposer);
    if (gate === undefined) {
      gate = new ProposerGate(proposer);
      gates.set(proposer, gate);
    }
    return gate;
  }

  /** Runs `fn` once the calls before it have settled; adds the tokens it used to `tokens`. */
  call<T>(fn: (p: Proposer) => T | Promise<T>, tokens: ChildTokens | null): Promise<T> {
    const run = async (): Promise<T> => {
      const before = this.proposer.usage?.();
      try {
        return await fn(this.proposer);
      } finally {
        const after = this.proposer.usage?.();
        if (tokens !== null && before !== undefined && after !== undefined) add(tokens, before, after);
      }
    };
    const result = this.tail.then(run, run);
    // The next call waits for this one to settle, whether it returned or threw.
    this.tail = result.catch(() => undefined);
    return result;
  }
}

function add(tokens: ChildTokens, before: ProposerUsage, after: ProposerUsage): void {
  tokens.input += after.inputTokens - before.inputTokens;
  tokens.output += after.outputTokens - before.outputTokens;
}
