/**
 * Signs in a verifier's output that it could not run its own tooling (no pytest, no uv, no
 * network, a read-only file system). A verifier in that state writes 0 (or nothing) whatever the
 * agent did, so such a 0 is a grading error, never the agent's score.
 *
 * Only lines that point at the verifier's own machinery count: "command not found" from the
 * test script itself (`/tests/test.sh: line 3: uvx: command not found`) or for a known test tool,
 * a missing pytest module, and file-system and name-resolution failures. A program of the agent
 * that is missing (`No module named 'solution'`, `sh: 1: mytool: not found` inside pytest) is a
 * normal failure of the agent, not evidence.
 */
const EVIDENCE: readonly RegExp[] = [
  /^\/tests\/\S+: (line \d+: )?\S+: (command )?not found/,
  // In a shell's own format only ("bash: line 2: uvx: command not found", "sh: 1: pytest: not
  // found"): a diff or cat of the agent's output ("< python3: command not found") must not turn
  // its own failure into the task's.
  /^(\S+: )?((line )?\d+: )?(uv|uvx|pytest|py\.test|pip|pip3|python|python3|curl|wget|bash|node|npm|npx): (command )?not found$/,
  /No module named '?(pytest|pip|uv|_pytest)\b/,
  /Read-only file system/,
  /Could not resolve host/,
  /Temporary failure in name resolution/,
  /Name or service not known/,
  /Network is unreachable/,
  /Failed to establish a new connection/,
];

const MAX_LINES = 5;
const MAX_LINE_CHARS = 200;

/** The lines of stdout and stderr (stderr first) that show the verifier's tooling failed. */
export function toolingEvidence(stdout: string, stderr: string): string[] {
  const out: string[] = [];
  for (const text of [stderr, stdout]) {
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      if (line === "" || !EVIDENCE.some((re) => re.test(line))) continue;
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 3)}...` : line;
      if (!out.includes(shown)) out.push(shown);
      if (out.length >= MAX_LINES) return out;
    }
  }
  return out;
}
