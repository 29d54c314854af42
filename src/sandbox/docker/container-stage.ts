import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import { InfraError } from "../../core/errors.js";
import { copyTree } from "../host-paths.js";
import { removeTree } from "../remove-tree.js";
import type { Mount } from "../types.js";
import type { ExecUser, StageContext } from "./exec-mounts.js";
import { collectOk, dockerBin, pipeOk } from "./proc.js";
import { pipeTarsOk } from "./tar-concat.js";

/**
 * Per-exec mounts and fresh folders outside the host-kept folders: copied into the container's
 * own file system with `docker cp` (what was there is set aside in /.longhaul/aside), copied back
 * for writable mounts, then removed and what was set aside put back. Mounts that do not nest in
 * one another go in together — one set-aside script, one `docker cp` of all their trees, one
 * take-away script — since each docker call costs a tenth of a second or more.
 */

export type ContainerItem = { path: string } & ({ kind: "mount"; mount: Mount } | { kind: "fresh" });

/** A step to undo after the exec. */
export type Undo = () => Promise<void>;

/**
 * Owner of read-only per-exec files: no image user has it, and a command without capabilities
 * (even uid 0, see docs/sandbox.md) can neither write nor chmod another uid's files.
 */
export const LOCKED_UID = 2_000_000;

/**
 * Makes every folder on the way to a path ($1, the path itself too when $2 is 1) a real folder
 * root owns and may enter and write, never following a link: what the sandbox's processes left
 * there instead is removed (a link, a file) or renamed aside in its own folder (a folder of
 * another uid, which root without capabilities could neither write into nor move elsewhere).
 * Otherwise a file at /longhaul would fail the verifier's staging (an infrastructure error, left
 * out of every rate) and a link there would take the staged files wherever it points.
 */
const CLAIM = `
claim() {
  local c= rest=\${1#/}
  while [ -n "$rest" ]; do
    c=$c/\${rest%%/*}
    if [ "\${rest#*/}" = "$rest" ]; then rest=; [ "$2" = 1 ] || return 0; else rest=\${rest#*/}; fi
    if [ -L "$c" ] || { [ -e "$c" ] && [ ! -d "$c" ]; }; then
      rm -f -- "$c" || return 1
    elif [ -d "$c" ] && [ ! -O "$c" ]; then
      mv -T -- "$c" "\${c%/*}/.longhaul-moved-$RANDOM$RANDOM" || return 1
    fi
    if [ -d "$c" ]; then chmod u+rwx -- "$c" || return 1; else mkdir -m 755 -- "$c" || return 1; fi
  done
}`;

/**
 * Args: triples of path, aside name, and 1 when the path lies in a folder this exec staged
 * already (whose content is the host's: claimed when it was placed, and root may not write in a
 * read-only one). Prints the names of what it set aside, one a line. What is at a path is set
 * aside whole, never merged with what is staged there (a module the agent left in /tests would be
 * imported by the verifier's check); a folder of another uid, which root without capabilities may
 * not move to another folder, is renamed in its own and left there.
 */
const SET_ASIDE = `# longhaul-stage
${CLAIM}
claim /.longhaul/aside 1 || exit 1
while [ $# -ge 3 ]; do
  p=$1; n=$2; inside=$3; shift 3
  if [ "$inside" = 1 ]; then
    if [ -e "$p" ] || [ -L "$p" ]; then mv -- "$p" "/.longhaul/aside/$n"; fi
    mkdir -p -- "\${p%/*}/" || exit 1
  else
    claim "$p" 0 || exit 1
    if [ -d "$p" ] && [ ! -L "$p" ] && [ -O "$p" ]; then chmod u+rwx -- "$p" || exit 1; fi
    if [ -e "$p" ] || [ -L "$p" ]; then
      mv -T -- "$p" "/.longhaul/aside/$n" 2>/dev/null || mv -T -- "$p" "\${p%/*}/.longhaul-moved-$n" || exit 1
    fi
  fi
  if [ -e "/.longhaul/aside/$n" ] || [ -L "/.longhaul/aside/$n" ]; then echo "$n"; fi
done`;

/**
 * Renaming a folder needs write access to the folder itself, which root without capabilities
 * lacks on another uid's: so its owner empties it in place first, then root removes it.
 */
export const WIPE = `# longhaul-wipe
for p; do chmod -R u+w -- "$p" 2>/dev/null; rm -rf -- "$p" 2>/dev/null; done; true`;

/**
 * Args: quadruples of path, aside name, 1 when something was set aside, 1 to move the path to
 * trash (a rename in its own folder, which root may do to another uid's read-only folder) rather
 * than remove it. Prints `trash PATH` for what went to trash and `left PATH` for what is still
 * there (its owner must wipe it first), `unrestored PATH` when what was set aside could not go
 * back; exits 0 even then, so that what went to trash is always known and emptied.
 */
const TAKE_AWAY = `# longhaul-take-away
while [ $# -ge 4 ]; do
  p=$1; n=$2; aside=$3; trash=$4; shift 4
  if [ "$trash" = 1 ]; then
    t="\${p%/*}/.longhaul-trash-$n"
    mv -T -- "$p" "$t" 2>/dev/null && echo "trash $t"
  fi
  rm -rf -- "$p" 2>/dev/null
  if [ -e "$p" ] || [ -L "$p" ]; then echo "left $p"; continue; fi
  if [ "$aside" = 1 ]; then mv -- "/.longhaul/aside/$n" "$p" || echo "unrestored $p"; fi
done`;

/** Args: paths (trash) whose owner has wiped them. Removes them; exit 1 when one is left. */
export const EMPTY_TRASH = `# longhaul-empty-trash
rc=0
for p; do
  chmod -R u+w -- "$p" 2>/dev/null; rm -rf -- "$p" 2>/dev/null
  if [ -e "$p" ] || [ -L "$p" ]; then echo "could not remove $p" >&2; rc=1; fi
done
exit $rc`;

interface Placed {
  item: ContainerItem;
  /** Name under /.longhaul/aside. */
  n: string;
  owner: ExecUser;
  hadAside: boolean;
  /** Nests in no other item: may go to trash (a trash folder must hold one owner's files only). */
  trash: boolean;
}

/** Stages every item; the undo takes them all away (also after a failure half-way). */
export async function stageInContainer(ctx: StageContext, items: readonly ContainerItem[]): Promise<Undo> {
  const placed: Placed[] = [];
  const undo: Undo = () => takeAway(ctx, placed);
  try {
    // Items that nest in another (or are fresh folders, whose tar comes from the image) go one by one.
    const nested = (a: string, b: string): boolean =>
      a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
    const batch = items.filter(
      (i) => i.kind === "mount" && !items.some((j) => j !== i && nested(i.path, j.path)),
    );
    if (batch.length > 0) await placeBatch(ctx, batch, placed, true);
    for (const item of items) if (!batch.includes(item)) await placeBatch(ctx, [item], placed, false);
  } catch (e) {
    await undo().catch(() => undefined);
    throw e;
  }
  return undo;
}

async function placeBatch(
  ctx: StageContext,
  items: readonly ContainerItem[],
  placed: Placed[],
  trash: boolean,
): Promise<void> {
  const names = items.map(() => randomBytes(5).toString("hex"));
  const said = await ctx.helper(
    "0",
    SET_ASIDE,
    items.flatMap((item, i) => [
      item.path,
      names[i] ?? "",
      placed.some((q) => item.path.startsWith(`${q.item.path}/`)) ? "1" : "0",
    ]),
  );
  const aside = new Set(said.split("\n"));
  const tars: string[][] = [];
  for (const [i, item] of items.entries()) {
    const n = names[i] ?? "";
    const ro = item.kind === "mount" && item.mount.readonly;
    const owner = ro ? { name: String(LOCKED_UID), uid: LOCKED_UID, gid: LOCKED_UID } : ctx.user;
    placed.push({ item, n, owner, hadAside: aside.has(n), trash });
    if (item.kind === "mount") tars.push(mountTar(item.path, item.mount, owner, ro));
    else await placeFresh(ctx, item.path);
  }
  if (tars.length > 0)
    await pipeTarsOk(`copying ${items.map((i) => i.path).join(", ")} into the sandbox`, tars, [
      dockerBin(),
      "cp",
      "-",
      `${ctx.container}:/`,
    ]);
}

/** Arguments of a `tar -c` whose one top entry (file or folder) is the mount point's path, relative to /. */
function mountTar(path: string, m: Mount, owner: ExecUser, ro: boolean): string[] {
  const to = path.replace(/^\/+/, "").replace(/[\\&,]/g, "\\$&");
  return [
    "-C",
    dirname(m.hostPath),
    `--owner=${owner.uid}`,
    `--group=${owner.gid}`,
    "--numeric-owner",
    // Another uid's files are read-only already; only group and other lose write, so modes read
    // as under a read-only bind (a 0644 file copied out of /solution stays writable for its copier).
    ...(ro ? ["--mode=go-w"] : []),
    // Renames the top entry to the mount point's path; link targets untouched.
    `--transform=s,^[^/]*,${to},S`,
    "--",
    basename(m.hostPath),
  ];
}

async function placeFresh(ctx: StageContext, path: string): Promise<void> {
  const tar = await ctx.pristine(path);
  if (tar !== null)
    await collectOk(
      `docker cp ${path}`,
      [dockerBin(), "cp", "-", `${ctx.container}:${posix.dirname(path)}`],
      tar,
    );
  else await ctx.helper("0", 'mkdir -p -- "$1"', [path]);
}

/**
 * Copies writable mounts back, then takes every item away and puts back what was set aside.
 * Items that nest in no other go to trash in one root script, and the trash is emptied later
 * (before the sandbox's next command, or never: removing the container removes it), since
 * emptying costs a docker call per owner and a walk of every file. The rest, and whatever could
 * not go to trash, is wiped by its owner and removed now.
 */
async function takeAway(ctx: StageContext, placed: readonly Placed[]): Promise<void> {
  if (placed.length === 0) return;
  let first: unknown = null;
  for (const p of placed) {
    if (p.item.kind !== "mount" || p.item.mount.readonly) continue;
    await copyBack(ctx, p.item.path, p.item.mount.hostPath).catch((e: unknown) => {
      first ??= e;
    });
  }
  // Deepest first, so a set-aside entry goes back only once what was staged over it is gone.
  const order = [...placed].reverse();
  const said = await ctx.helper(
    "0",
    TAKE_AWAY,
    order.flatMap((p) => [p.item.path, p.n, p.hadAside ? "1" : "0", p.trash ? "1" : "0"]),
  );
  const lines = said.split("\n");
  const trashed = new Set(lines.filter((l) => l.startsWith("trash ")).map((l) => l.slice(6)));
  const left = new Set(lines.filter((l) => l.startsWith("left ")).map((l) => l.slice(5)));
  for (const p of order) {
    const t = `${posix.dirname(p.item.path).replace(/\/$/, "")}/.longhaul-trash-${p.n}`;
    if (trashed.has(t)) ctx.deferCleanup(p.owner, t);
  }
  const unrestored = (text: string): string[] =>
    text
      .split("\n")
      .filter((l) => l.startsWith("unrestored "))
      .map((l) => l.slice(11));
  const lost = unrestored(said);
  const rest = order.filter((p) => left.has(p.item.path));
  if (rest.length > 0) {
    for (const o of byOwner(rest).values()) await ctx.helper(o.user.name, WIPE, o.paths);
    const again = await ctx.helper(
      "0",
      TAKE_AWAY,
      rest.flatMap((p) => [p.item.path, p.n, p.hadAside ? "1" : "0", "0"]),
    );
    const still = again.split("\n").filter((l) => l.startsWith("left "));
    if (still.length > 0)
      first ??= new InfraError(`could not remove ${still.map((l) => l.slice(5)).join(", ")}`);
    lost.push(...unrestored(again));
  }
  if (lost.length > 0) first ??= new InfraError(`could not put back what was at ${lost.join(", ")}`);
  if (first !== null) throw first;
}

/** Paths by owner, so each owner's wipe is one docker call. */
export function byOwner(
  placed: readonly { owner: ExecUser; item: { path: string } }[],
): Map<number, { user: ExecUser; paths: string[] }> {
  const owners = new Map<number, { user: ExecUser; paths: string[] }>();
  for (const p of placed) {
    const o = owners.get(p.owner.uid) ?? { user: p.owner, paths: [] };
    o.paths.push(p.item.path);
    owners.set(p.owner.uid, o);
  }
  return owners;
}

/**
 * Copies a writable mount back to its host folder through a tar in a host staging folder. `docker
 * cp` leaves out what lies deeper than the container can name, but the staging folder's own path
 * (or the mount's) may be longer than the container's: what the agent made there can lie deeper
 * than the host can name, which cp leaves out (as for mounts on host-kept folders) and removeTree
 * reaches, where rmSync threw ENAMETOOLONG out of the exec.
 */
async function copyBack(ctx: StageContext, path: string, hostPath: string): Promise<void> {
  const staging = join(ctx.scratch, `back-${randomBytes(5).toString("hex")}`);
  mkdirSync(staging, { recursive: true });
  try {
    await pipeOk(
      `copying ${path} back`,
      [dockerBin(), "cp", `${ctx.container}:${path}`, "-"],
      ["tar", "-x", "--no-same-owner", "-C", staging, "-f", "-"],
    );
    await copyTree(join(staging, posix.basename(path)), hostPath, { skipTooDeep: true });
  } finally {
    removeTree(staging);
  }
}
