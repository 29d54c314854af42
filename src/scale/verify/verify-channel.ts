import { errorMessage } from "../../core/errors.js";
import { buildChannelChildFiles } from "../channel/build-channel-child.js";
import { acceptEarlierKit } from "../channel/known-kits.js";
import { CHANNEL_DECL, CHANNEL_DIR } from "../channel/materialize.js";
import type { ParentInfo } from "../child/build-child.js";
import { parseSpecUpdates, stepLabel } from "../child/spec-update.js";
import { PlanStepError } from "../plan/apply.js";
import { parsePlan } from "../plan/schema.js";
import { checkChannelRestore, sampleInput } from "./channel-restore.js";
import { type ChildState, changedPaths, listShort, taskTomlDiff } from "./context.js";
import {
  type CheckResult,
  checkResult,
  type Diagnostic,
  diag,
  type Verdict,
  verdictOf,
} from "./diagnostics.js";
import { checkLeak } from "./leak.js";
import { checkOracle } from "./oracle-trials.js";
import { checkProtected } from "./protected.js";
import { restoreAndOracle } from "./restore-and-oracle.js";
import type { VerifyOptions } from "./verify-child.js";

type Files = ReadonlyMap<string, Uint8Array>;

function sub(files: Files, prefix: string): Map<string, Uint8Array> {
  return new Map(
    [...files].filter(([p]) => p.startsWith(prefix)).map(([p, b]) => [p.slice(prefix.length), b]),
  );
}

/**
 * Check (b) for a program task: the channel re-derived from the parent and the plan alone gives
 * the child's tests/res/channel.json and res.json channel byte for byte, its spec update, its
 * solution/ and its (unchanged) environment/.
 */
export function checkChannelReproducible(
  child: ChildState,
  parent: ParentInfo,
): { check: CheckResult; expected: Files | null } {
  const res = child.res;
  let expected: Map<string, Uint8Array>;
  try {
    expected = buildChannelChildFiles(parent, parsePlan(res.plan, `${child.dir}/res.json`), {
      id: res.id,
      depth: res.depth,
      mode: res.mode,
      branch: res.branch,
      attempt: res.attempt,
      childDir: child.dir,
    }).files;
  } catch (e) {
    const step = e instanceof PlanStepError ? stepLabel(res.depth, e.step) : null;
    return {
      check: checkResult("reproducible", [diag("plan-invalid", step, errorMessage(e))], ""),
      expected: null,
    };
  }
  // A child made before the last kit change carries the kit of its day: one of ours, run by (c) and (d).
  const earlierKit = acceptEarlierKit(expected, child);
  const out: Diagnostic[] = [];
  const decl = changedPaths(
    sub(child.tests, `${CHANNEL_DIR}/`),
    sub(sub(expected, "tests/"), `${CHANNEL_DIR}/`),
  );
  if (decl.length > 0) {
    out.push(
      diag(
        "non-reproducible",
        null,
        `tests/${CHANNEL_DIR}/ is not the channel the plan gives: ${listShort(decl)}`,
      ),
    );
  }
  const recorded = JSON.parse(new TextDecoder().decode(expected.get("res.json"))) as typeof res;
  if (JSON.stringify(recorded.channel) !== JSON.stringify(res.channel)) {
    out.push(
      diag("non-reproducible", null, "res.json channel is not the parent's channel plus the plan's steps"),
    );
  }
  const env = changedPaths(child.environment, sub(expected, "environment/"));
  if (env.length > 0)
    out.push(diag("non-reproducible", null, `environment/ is not the parent's: ${listShort(env)}`));
  if (child.instruction !== new TextDecoder().decode(expected.get("instruction.md"))) {
    out.push(
      diag("spec-mismatch", null, "instruction.md is not the parent's instruction plus the channel update"),
    );
  }
  const sol = changedPaths(child.solution, sub(expected, "solution/"));
  if (sol.length > 0) {
    out.push(
      diag(
        "spec-mismatch",
        null,
        `solution/ is not the root's solution plus the channel wrapper: ${listShort(sol)}`,
      ),
    );
  }
  if (JSON.stringify(recorded.steps) !== JSON.stringify(res.steps)) {
    out.push(diag("spec-mismatch", null, "res.json steps are not what the plan gives"));
  }
  out.push(...taskTomlDiff(child, expected));
  const n = res.channel?.steps.length ?? 0;
  const kitNote = earlierKit === null ? "" : ` (made with an earlier kit, ${earlierKit.slice(0, 12)})`;
  return {
    check: checkResult("reproducible", out, `channel of ${n} step(s) re-derived from the plan${kitNote}`),
    expected,
  };
}

/**
 * Verifies a program task's child (docs/scale.md, "Program tasks"): (a) goal, root tests/ and
 * rubric unchanged, (b) the channel reproduces from the plan, (e) the update shows no line of the
 * hidden grader, (c) a sample input survives present + restore in a fresh sandbox, (d) the child's
 * wrapped reference scores 1 and the root's bare solution does not.
 */
export async function verifyChannelChild(
  child: ChildState,
  parent: ParentInfo,
  o: VerifyOptions,
): Promise<Verdict> {
  const program = parent.program;
  const kit = child.tests.get(`${CHANNEL_DIR}/res_channel.py`);
  const declBytes = child.tests.get(CHANNEL_DECL);
  // The root's tests/ plus the kit; channel.json is (b)'s to judge, so (a) takes the child's own.
  const expectedTests = new Map(parent.requirements.originalTests);
  for (const [p, b] of child.tests)
    if (p.startsWith(`${CHANNEL_DIR}/`) && p !== `${CHANNEL_DIR}/res_channel.py`) expectedTests.set(p, b);
  const { check: repro, expected } = checkChannelReproducible(child, parent);
  const expectedKit = expected?.get(`tests/${CHANNEL_DIR}/res_channel.py`);
  if (expectedKit !== undefined) expectedTests.set(`${CHANNEL_DIR}/res_channel.py`, expectedKit);
  const checks: CheckResult[] = [checkProtected(child, parent, expectedTests), repro];
  const mine = parseSpecUpdates(child.instruction).sections.find((s) => s.depth === child.res.depth);
  // The hidden grader's own lines stand in for protected values: the update must show none.
  checks.push(
    checkLeak({
      section: mine?.text ?? "",
      facts: [],
      snapshot: parent.requirements.originalTests,
      alreadyPublic: parent.instruction,
    }),
  );
  if (program === null || kit === undefined || declBytes === undefined) {
    const why =
      program === null ? "the parent is not a program task" : `tests/${CHANNEL_DECL} or the kit is missing`;
    checks.push(checkResult("restore", [diag("restore-failed", null, why)], ""));
    checks.push({
      name: "oracle",
      status: "skipped",
      detail: o.trials === false ? "trials not requested" : "the channel does not restore",
      diagnostics: [],
    });
    return verdictOf(checks);
  }
  checks.push(
    ...(await restoreAndOracle({
      restore: (signal) =>
        checkChannelRestore({
          kit,
          decl: declBytes,
          sample: sampleInput(program.inputKind, parent.tree.tree),
          provider: o.provider,
          signal,
        }),
      oracle: (signal) =>
        checkOracle({
          childDir: child.dir,
          // The bare solution is the root's: every level wraps the root's program. Taken from
          // the verified parent, not from the child's res.json (check (a) compares the two).
          parentDir: parent.root.dir,
          bareLabel: "root",
          provider: o.provider,
          seed: o.seed,
          timeoutMultiplier: o.timeoutMultiplier,
          signal,
          images: o.images,
        }),
      trials: o.trials,
      signal: o.signal,
      skippedBecause: "the channel does not restore",
    })),
  );
  return verdictOf(checks);
}
