import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { InfraError } from "../core/errors.js";

/** The two browser bundles inlined into every HTML report, so it opens offline. */
export const BROWSER_BUNDLES = [
  { pkg: "d3", file: "dist/d3.min.js" },
  { pkg: "@observablehq/plot", file: "dist/plot.umd.min.js" },
] as const;

/**
 * The packages export only their entry points, so the bundle is found from the package root:
 * resolve the entry, then walk up to the folder holding the package's package.json.
 */
function packageRoot(pkg: string): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(pkg));
  for (let i = 0; i < 6; i++) {
    try {
      const manifest: unknown = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (typeof manifest === "object" && manifest !== null && "name" in manifest && manifest.name === pkg)
        return dir;
    } catch {
      // no package.json here; keep walking up
    }
    dir = dirname(dir);
  }
  throw new InfraError(`cannot find the installed package ${pkg}`, { retryable: false });
}

let cache: string[] | undefined;

export function browserBundles(): string[] {
  cache ??= BROWSER_BUNDLES.map(({ pkg, file }) => {
    try {
      return readFileSync(join(packageRoot(pkg), file), "utf8");
    } catch (e) {
      throw new InfraError(`cannot read ${pkg}/${file} for the HTML report`, { cause: e, retryable: false });
    }
  });
  return cache;
}

/** Text placed in a <script> element must not close it early. */
export function scriptSafe(js: string): string {
  return js.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

/**
 * A Content-Security-Policy for a page built here: only the inline scripts it was built with may
 * run (by their hashes) and nothing loads from elsewhere. Pages show agent- and model-written
 * text; escaping keeps it inert, and this keeps it inert should any ever reach a page unescaped.
 * `more` adds directives (the viewer's pages fetch from and submit forms to their own server).
 */
export function pagePolicy(scripts: readonly string[], more: readonly string[] = []): string {
  const hashes = scripts
    .filter((js) => js !== "")
    .map((js) => `'sha256-${createHash("sha256").update(js).digest("base64")}'`);
  return [
    "default-src 'none'",
    `script-src ${hashes.length > 0 ? hashes.join(" ") : "'none'"}`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "base-uri 'none'",
    ...more,
  ].join("; ");
}

/** The <meta> element carrying `pagePolicy`; it must come before any text the page shows. */
export function policyMeta(policy: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, "&quot;")}">`;
}
