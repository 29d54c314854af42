// dist/ is mounted alone inside the sandbox (at /longhaul/dist), away from the root package.json:
// this marker makes plain `node` load its files as ES modules there too.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
mkdirSync("dist", { recursive: true });
writeFileSync("dist/package.json", `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`);
// The CLI is linked onto the PATH by scripts/setup.sh: keep it executable across rebuilds.
if (existsSync("dist/cli/main.js")) chmodSync("dist/cli/main.js", 0o755);
