import { join } from "node:path";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";

// Run by docker.test.ts: makes one sandbox, prints its container's name, and waits to be killed.
const [image, stateRoot] = process.argv.slice(2);
const provider = new DockerProvider({ defaultImage: image });
const sandbox = await provider.create({
  environmentDir: null,
  workdir: "/app",
  memoryMb: 256,
  cpus: 1,
  pidsMax: 64,
  allowInternet: false,
  stateDir: join(stateRoot ?? "/tmp", "crash-state"),
});
await sandbox.exec("echo up > /tmp/up");
process.stdout.write(`container lh-${sandbox.id}\n`);
setInterval(() => undefined, 60_000);
