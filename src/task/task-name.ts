/** Why a [task] name is refused, or null. Each rule is its own message, so the author sees which one. */
export function taskNameProblem(name: string): string | null {
  const bad = /[^A-Za-z0-9._/-]/.exec(name)?.[0];
  if (bad !== undefined) return `must use only letters, digits, . _ - or / (not ${JSON.stringify(bad)})`;
  // A name is also a package path (org/name): a . or .. part would point elsewhere.
  if (name.split("/").some((p) => p === "." || p === "..")) return "must not have a . or .. path part";
  if (!/^[A-Za-z0-9]/.test(name)) return "must start with a letter or digit";
  return null;
}
