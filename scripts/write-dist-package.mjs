// dist/package.json marks a finished build (written last, after tsc succeeded) and lets dist/
// load as ES modules on its own.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
mkdirSync("dist", { recursive: true });
writeFileSync("dist/package.json", `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`);
// The CLI is linked onto the PATH by scripts/setup.sh: keep it executable across rebuilds.
if (existsSync("dist/cli/main.js")) chmodSync("dist/cli/main.js", 0o755);
