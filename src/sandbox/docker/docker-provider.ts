import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { InfraError, UserError } from "../../core/errors.js";
import { copyTree, type PersistentBind } from "../host-paths.js";
import { BASE_IMAGE_TAG } from "../image/base-image.js";
import { dockerUnavailable, lastLines } from "../image/docker-cli.js";
import { inspectImage } from "../image/inspect.js";
import type { ImageConfig } from "../image/types.js";
import { removeTreeAsync } from "../remove-tree.js";
import { chownTree } from "../sandbox-user.js";
import { baseEnv, parseSandboxSpec } from "../spec.js";
import { diskUsage, mountStorage, releaseStorage } from "../storage.js";
import { defaultRegistryDir, writeRecord } from "../sweep.js";
import type { Sandbox, SandboxProvider, SandboxSpec } from "../types.js";
import { ContainerFactsCache } from "./container-facts.js";
import { DockerSandbox } from "./docker-sandbox.js";
import type { ExecUser } from "./exec-mounts.js";
import type { FreshRootContext } from "./fresh-root.js";
import { extractFolder, pristineTars } from "./pristine.js";
import { collect, collectOk, dockerBin } from "./proc.js";
import { bindArg, confinementArgs } from "./run-args.js";
import { KEEP_ALIVE } from "./scripts.js";
import { ownerLabels, sweepStaleContainers } from "./sweep.js";
import { containerUser, imageUser } from "./users.js";

export { sweepStaleContainers } from "./sweep.js";

export const DEFAULT_DOCKER_IMAGE = BASE_IMAGE_TAG;

export interface DockerProviderOptions {
  /** Image of sandboxes whose spec names none (default longhaul-base:bookworm). */
  defaultImage?: string;
  /** Receives warnings (default: one line on stderr per message). */
  onWarning?: (message: string) => void;
  /** Poll interval of the disk-usage watchdog in ms (default 1000). */
  storageCheckMs?: number;
  /** Where live sandboxes are recorded for sweepStaleSandboxes (default tmpdir/longhaul-sandboxes). */
  registryDir?: string;
  /**
   * Where docker says a container's root file system is (default: `docker inspect`'s overlay
   * merged folder, "" under a storage driver without one). What it answers is checked
   * as ever: no folder on this host (another driver, a remote daemon) means no fresh image roots.
   */
  mergedDirOf?: (container: string) => Promise<string>;
}

const warned = new Set<string>();
function warnOnceOnStderr(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.stderr.write(`warning: ${message}\n`);
}

/**
 * Sandboxes as Docker containers: one container per sandbox, kept alive by a sleeping pid 1, each
 * exec a `docker exec`. The workdir, /logs, /tmp and /root are host folders bound into the
 * container (seeded from the image), so quotas, hostPathOf and per-exec switches work as with
 * bwrap; the rest of the image's root file system is the container's own and writable.
 */
export class DockerProvider implements SandboxProvider {
  readonly name = "docker";
  private defaultConfig: { id: string; config: ImageConfig } | null = null;
  private readonly warnedKinds = new Set<string>();

  constructor(private readonly options: DockerProviderOptions = {}) {}

  async check(): Promise<void> {
    const why = await dockerUnavailable();
    if (why !== null) throw new UserError(why);
    await sweepStaleContainers();
    // The default image is looked up only when a task without an image of its own needs it.
  }

  async create(input: SandboxSpec): Promise<Sandbox> {
    const spec = parseSandboxSpec(input);
    if (existsSync(spec.stateDir) && readdirSync(spec.stateDir).length > 0) {
      throw new UserError(`sandbox state folder ${spec.stateDir} exists and is not empty`);
    }
    if (
      spec.environmentDir !== null &&
      !statSync(spec.environmentDir, { throwIfNoEntry: false })?.isDirectory()
    ) {
      throw new UserError(`environment folder ${spec.environmentDir} does not exist or is not a folder`);
    }
    for (const m of spec.mounts ?? []) {
      if (!existsSync(m.hostPath)) throw new UserError(`mount source ${m.hostPath} does not exist`);
      // `--mount` takes comma-separated fields: a comma in a path would be read as another one.
      if (m.hostPath.includes(",") || m.sandboxPath.includes(","))
        throw new UserError(`the docker sandbox cannot bind a path with a comma: ${m.hostPath}`);
    }
    const image = await this.resolveImage(spec);
    const id = `sbx-${randomBytes(5).toString("hex")}`;
    const container = `lh-${id}`;
    const record = writeRecord(this.options.registryDir ?? defaultRegistryDir(), id, {
      ownerPid: process.pid,
      stateDir: spec.stateDir,
      uid: null,
    });
    let watchdog: NodeJS.Timeout | undefined;
    let released = false;
    const release = async (): Promise<void> => {
      if (released) return;
      released = true;
      clearInterval(watchdog);
      const rm = await collect([dockerBin(), "rm", "-f", "-v", container]);
      if (rm.code !== 0 && !/No such container/.test(rm.stderr)) {
        this.warn(`sandbox ${id}: could not remove container ${container}: ${lastLines(rm.stderr, 1)}`);
      }
      const err = await releaseStorage(spec.stateDir);
      if (err !== null) this.warn(`sandbox ${id}: could not unmount ${spec.stateDir}: ${err}`);
      // Removed by descriptor when Node's rm cannot reach it: without a quota image the agent's
      // folders are here, and a tree deeper than a path can name threw out of close().
      await removeTreeAsync(spec.stateDir);
      rmSync(record, { force: true });
    };
    try {
      let storage: "loop" | "watch" | null = null;
      if (spec.storageMb !== undefined) {
        const why = await mountStorage(spec.stateDir, spec.storageMb);
        storage = why === null ? "loop" : "watch";
        if (why !== null)
          this.warnOnce(
            "disk-quota",
            `sandbox disk quota is checked every second, not enforced by a filesystem (${why})`,
          );
      }
      const dirs = {
        app: join(spec.stateDir, "app"),
        logs: join(spec.stateDir, "logs"),
        tmp: join(spec.stateDir, "tmp"),
        home: join(spec.stateDir, "home"),
      };
      const scratch = join(spec.stateDir, "scratch");
      mkdirSync(scratch, { recursive: true, mode: 0o700 });
      const seeds = await pristineTars(image.id, [spec.workdir, "/tmp", "/root"], ownerLabels("pristine"));
      const seed = async (path: string, dest: string, mode: number): Promise<boolean> => {
        const tar = seeds.get(path) ?? null;
        if (tar !== null && (await extractFolder(tar, dest, scratch))) return true;
        mkdirSync(dest);
        chmodSync(dest, mode);
        return false;
      };
      const workdirFromImage = await seed(spec.workdir, dirs.app, 0o755);
      await seed("/tmp", dirs.tmp, 0o1777);
      await seed("/root", dirs.home, 0o700);
      mkdirSync(join(dirs.logs, "agent"), { recursive: true });
      mkdirSync(join(dirs.logs, "verifier"));
      if (spec.environmentDir !== null) await copyTree(spec.environmentDir, dirs.app);
      const binds: PersistentBind[] = [
        { sandboxRoot: spec.workdir, hostRoot: dirs.app },
        { sandboxRoot: "/logs", hostRoot: dirs.logs },
        { sandboxRoot: "/tmp", hostRoot: dirs.tmp },
        { sandboxRoot: "/root", hostRoot: dirs.home },
      ];
      await collectOk("docker run", [
        dockerBin(),
        "run",
        ...this.runArgs(spec, container, binds),
        image.id,
        ...KEEP_ALIVE.slice(1),
      ]);
      // Asked of the daemon when first needed, then kept (container-facts.ts).
      const facts = new ContainerFactsCache(container);
      const user = await containerUser(container, spec.user ?? image.config.user);
      if (user.uid !== 0) {
        chownTree(dirs.logs, user.uid, user.gid);
        if (!workdirFromImage || spec.environmentDir !== null) chownTree(dirs.app, user.uid, user.gid);
      }
      const envFor = (u: ExecUser): Record<string, string> => {
        const env = baseEnv(image.config.env);
        if (u.uid !== 0) {
          // docker fills in the user's own HOME; root's would be wrong for them.
          if (image.config.env.HOME === undefined) delete env.HOME;
          if (image.config.env.USER === undefined) delete env.USER;
        }
        return env;
      };
      const pristine = async (path: string): Promise<Buffer | null> =>
        (await pristineTars(image.id, [path], ownerLabels("pristine"))).get(path) ?? null;
      let fresh: Promise<FreshRootContext | null> | null = null;
      const sandbox = new DockerSandbox({
        id,
        spec,
        container,
        binds,
        user,
        envFor,
        scratch,
        resolveUser: (name) => containerUser(container, name),
        imageUser: (name) => imageUser(image.id, name),
        pristine,
        freshRoot: () => {
          fresh ??= this.freshRootContext(spec, image.id, container, facts, { binds, scratch, pristine });
          return fresh;
        },
        release,
        facts: () => facts.get(),
      });
      if (spec.storageMb !== undefined)
        watchdog = await this.watchDisk(sandbox, facts, spec.stateDir, spec.storageMb, storage);
      return sandbox;
    } catch (e) {
      await release();
      if (e instanceof UserError || e instanceof InfraError) throw e;
      throw new InfraError(`docker sandbox ${id} would not start: ${String(e)}`, { cause: e });
    }
  }

  private runArgs(spec: SandboxSpec, container: string, binds: readonly PersistentBind[]): string[] {
    return [
      "-d",
      "--name",
      container,
      ...ownerLabels(container.slice(3)).flatMap((l) => ["--label", l]),
      ...confinementArgs(spec),
      "--user",
      "0:0",
      ...binds.flatMap((b) => bindArg({ hostPath: b.hostRoot, sandboxPath: b.sandboxRoot, readonly: false })),
      // The spec's lifetime binds are real binds (a unix socket works through one), unlike the
      // per-exec mounts on the sandbox's own root, which are copies.
      ...(spec.mounts ?? []).flatMap(bindArg),
      "--entrypoint",
      KEEP_ALIVE[0] ?? "bash",
    ];
  }

  /**
   * What an exec on a fresh copy of the image needs of this sandbox: its container's root as a
   * host folder (the overlay's merged folder, which the fresh container shows read-only). Null,
   * with a warning, when docker does not show it here (another storage driver, a remote daemon):
   * such execs then run on the sandbox's own root.
   */
  private async freshRootContext(
    spec: SandboxSpec,
    image: string,
    container: string,
    facts: ContainerFactsCache,
    parts: Omit<FreshRootContext, "spec" | "image" | "agentRoot">,
  ): Promise<FreshRootContext | null> {
    const merged =
      this.options.mergedDirOf !== undefined
        ? await this.options.mergedDirOf(container)
        : ((await facts.get())?.mergedDir ?? "");
    if (merged.startsWith("/") && existsSync(merged)) return { spec, image, agentRoot: merged, ...parts };
    this.warnOnce(
      "fresh-root",
      "docker does not show a container's root file system here (no overlay2 merged folder): " +
        'verifiers of tasks with [verifier] root = "image" run in the agent\'s container',
    );
    return null;
  }

  private async resolveImage(spec: Pick<SandboxSpec, "image">): Promise<{ id: string; config: ImageConfig }> {
    if (spec.image) return { id: spec.image.id, config: spec.image.config };
    if (this.defaultConfig !== null) return this.defaultConfig;
    const tag = this.options.defaultImage ?? DEFAULT_DOCKER_IMAGE;
    const found = await inspectImage(tag);
    if (found === null) {
      throw new UserError(
        `the docker sandbox's default image ${tag} is missing: run \`longhaul images bootstrap${tag === BASE_IMAGE_TAG ? "" : ` --tag ${tag} --include python3`}\``,
      );
    }
    this.defaultConfig = { id: found.id, config: found.config };
    return this.defaultConfig;
  }

  /**
   * storageMb covers the host-kept folders (a loop file system when it could be mounted) and the
   * container's own writes (its overlay upper folder), which no file system caps on overlay2 over
   * ext4: both are measured every second and the sandbox's processes killed when over.
   */
  private async watchDisk(
    sandbox: DockerSandbox,
    facts: ContainerFactsCache,
    stateDir: string,
    storageMb: number,
    mode: "loop" | "watch" | null,
  ): Promise<NodeJS.Timeout | undefined> {
    const upper = (await facts.get())?.upperDir ?? "";
    const readable = upper !== "" && existsSync(upper);
    if (!readable) {
      this.warn(
        `sandbox ${sandbox.id}: writes outside its folders are not counted against storage_mb (docker does not show its upper folder here)`,
      );
      if (mode === "loop") return undefined;
    }
    const limit = storageMb * 1024 * 1024;
    const timer = setInterval(() => {
      const used = diskUsage(stateDir, limit) + (readable ? diskUsage(upper, limit) : 0);
      if (used <= limit) return;
      this.warn(`sandbox ${sandbox.id} is over its ${storageMb} MB disk quota: its processes are killed`);
      sandbox.killAll().catch(() => undefined);
    }, this.options.storageCheckMs ?? 1000);
    timer.unref();
    return timer;
  }

  private warn(message: string): void {
    (this.options.onWarning ?? warnOnceOnStderr)(message);
  }

  /** A warning about the host, not one sandbox: once per provider (one job), keyed by kind (see bwrap-provider.ts). */
  private warnOnce(kind: string, message: string): void {
    if (this.warnedKinds.has(kind)) return;
    this.warnedKinds.add(kind);
    this.warn(message);
  }
}
