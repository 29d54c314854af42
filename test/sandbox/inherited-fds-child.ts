import { join } from "node:path";
import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { inheritedFds } from "../../src/sandbox/inherited-fds.js";

// Run by inherited-fds.test.ts with a pipe of the test's on descriptor 200 (not close-on-exec, as a
// harness's would be): a command in the sandbox tries to write into it.
const [stateRoot] = process.argv.slice(2);
const sandbox = await new BwrapProvider().create({
  environmentDir: null,
  workdir: "/app",
  memoryMb: 256,
  cpus: 1,
  pidsMax: 64,
  allowInternet: false,
  stateDir: join(stateRoot ?? "/tmp", "fds-state"),
});
process.stdout.write(
  `inherited: ${inheritedFds()
    .filter((fd) => fd === 200)
    .join(" ")}\n`,
);
try {
  const r = await sandbox.exec([
    "sh",
    "-c",
    "echo from-the-sandbox > /proc/self/fd/200 && echo wrote; readlink /proc/self/fd/200 || echo no-fd-200",
  ]);
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
} finally {
  await sandbox.close();
}
