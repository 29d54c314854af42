// dist/ is mounted alone inside the sandbox (at /longhaul/dist), away from the root package.json:
// this marker makes plain `node` load its files as ES modules there too.
import { mkdirSync, writeFileSync } from "node:fs";
mkdirSync("dist", { recursive: true });
writeFileSync("dist/package.json", `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`);
