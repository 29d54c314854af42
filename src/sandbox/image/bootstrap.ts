import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InfraError, UserError } from "../../core/errors.js";
import { dockerOk, lastLines } from "./docker-cli.js";
import { inspectImage } from "./inspect.js";
import type { ImageRef } from "./types.js";

export interface BootstrapOptions {
  /** Tag to import the root file system under, e.g. `debian:bookworm-slim` or `longhaul-base:bookworm`. */
  tag: string;
  /** Debian suite (default bookworm). */
  suite?: string;
  /** Package mirror (default http://deb.debian.org/debian). */
  mirror?: string;
  /** Extra packages, e.g. ["python3"]. */
  include?: readonly string[];
  /** Progress lines (debootstrap's own output). */
  onOutput?: (chunk: Buffer) => void;
}

export const BOOTSTRAP_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * Builds a minimal Debian root file system with debootstrap and imports it into the local Docker
 * daemon under `tag`, so a Dockerfile `FROM tag` builds with no image registry.
 */
export async function bootstrapImage(o: BootstrapOptions): Promise<ImageRef> {
  const root = mkdtempSync(join(tmpdir(), "longhaul-bootstrap-"));
  const suite = o.suite ?? "bookworm";
  try {
    const include = o.include && o.include.length > 0 ? [`--include=${o.include.join(",")}`] : [];
    const argv = [
      "--variant=minbase",
      ...include,
      suite,
      join(root, "rootfs"),
      o.mirror ?? "http://deb.debian.org/debian",
    ];
    const r = await run("debootstrap", argv, o.onOutput);
    if (r.code !== 0) {
      throw new InfraError(`debootstrap ${suite} failed (exit ${r.code}):\n${lastLines(r.out, 10)}`);
    }
    // Package caches and lists are not part of a base image.
    rmSync(join(root, "rootfs", "var", "cache", "apt", "archives"), { recursive: true, force: true });
    const tar = await run(
      "tar",
      ["-C", join(root, "rootfs"), "-cf", join(root, "rootfs.tar"), "."],
      o.onOutput,
    );
    if (tar.code !== 0) throw new InfraError(`tar of the root file system failed:\n${lastLines(tar.out, 5)}`);
    await dockerOk(
      [
        "import",
        "--change",
        `ENV PATH=${BOOTSTRAP_PATH}`,
        "--change",
        'CMD ["/bin/bash"]',
        join(root, "rootfs.tar"),
        o.tag,
      ],
      { timeoutSec: 600 },
    );
    const ref = await inspectImage(o.tag);
    if (ref === null) throw new InfraError(`docker import did not create ${o.tag}`);
    return ref;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function run(
  cmd: string,
  argv: string[],
  onOutput?: (c: Buffer) => void,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const take = (c: Buffer): void => {
      out = (out + c.toString("utf8")).slice(-64 * 1024);
      onOutput?.(c);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (e) =>
      reject(
        (e as NodeJS.ErrnoException).code === "ENOENT"
          ? new UserError(
              `${cmd} is not installed: run \`apt-get install -y ${cmd === "debootstrap" ? "debootstrap" : cmd}\``,
            )
          : new InfraError(`${cmd}: ${e.message}`),
      ),
    );
    child.on("close", (code) => resolve({ code, out }));
  });
}
