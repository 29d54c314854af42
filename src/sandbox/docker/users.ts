import { UserError } from "../../core/errors.js";
import { lastLines } from "../image/docker-cli.js";
import type { ExecUser } from "./exec-mounts.js";
import { collect, dockerBin } from "./proc.js";
import { ownerLabels } from "./sweep.js";

/** Prints "uid gid" of the user it runs as. */
const ID_SCRIPT = ["bash", "-c", 'echo "$(id -u) $(id -g)"'];

const isRoot = (user: string): boolean => user === "root" || user === "0" || user === "0:0";

async function userIds(user: string, argv: readonly string[]): Promise<ExecUser> {
  const r = await collect(argv);
  const m = /^(\d+) (\d+)\s*$/.exec(r.stdout.toString("utf8"));
  if (r.code !== 0 || m === null) {
    throw new UserError(`user ${user} does not exist in the image: ${lastLines(r.stderr, 2)}`);
  }
  return { name: user, uid: Number(m[1]), gid: Number(m[2]) };
}

/** The uid and gid of a user of the image (its USER by default), as the container resolves it. */
export function containerUser(container: string, user: string | null): Promise<ExecUser> {
  if (user === null || isRoot(user)) return Promise.resolve({ name: "0", uid: 0, gid: 0 });
  return userIds(user, [dockerBin(), "exec", "-u", user, container, ...ID_SCRIPT]);
}

/**
 * The same, looked up in a throwaway container of the image as it was built: for an exec on a
 * fresh copy of the image, whose users the sandbox's commands may have changed in its own.
 */
export function imageUser(image: string, user: string): Promise<ExecUser> {
  if (isRoot(user)) return Promise.resolve({ name: "0", uid: 0, gid: 0 });
  return userIds(user, [
    dockerBin(),
    "run",
    "--rm",
    "--network",
    "none",
    "--log-driver",
    "none",
    ...ownerLabels("user-lookup").flatMap((l) => ["--label", l]),
    "-u",
    user,
    "--entrypoint",
    ID_SCRIPT[0] ?? "bash",
    image,
    ...ID_SCRIPT.slice(1),
  ]);
}
