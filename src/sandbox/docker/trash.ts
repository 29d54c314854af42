import { byOwner, EMPTY_TRASH, WIPE } from "./container-stage.js";
import type { ExecUser } from "./exec-mounts.js";

type Helper = (user: string, script: string, args: readonly string[]) => Promise<string>;

/**
 * Staged folders an exec left in trash (container-stage.ts): its read-only copies of /tests and
 * the like, which no later command may see. Emptied before the sandbox's next command; never when
 * the container is removed first.
 */
export class TrashBin {
  private items: { owner: ExecUser; item: { path: string } }[] = [];
  private emptying: Promise<void> | null = null;

  constructor(private readonly helper: Helper) {}

  add(owner: ExecUser, path: string): void {
    this.items.push({ owner, item: { path } });
  }

  /** True when trash lies inside one of `paths` (staging them would move it). */
  holdsUnder(paths: readonly string[]): boolean {
    return this.items.some((t) => paths.some((p) => t.item.path.startsWith(`${p}/`)));
  }

  /**
   * Each owner wipes its own files, then root removes what is left. A failure is an InfraError
   * (from the helper), and the trash stays queued, so no later command runs beside it either.
   */
  empty(): Promise<void> {
    if (this.emptying !== null) return this.emptying;
    if (this.items.length === 0) return Promise.resolve();
    const batch = this.items;
    this.emptying = (async () => {
      for (const o of byOwner(batch).values())
        if (o.user.uid !== 0) await this.helper(o.user.name, WIPE, o.paths);
      await this.helper(
        "0",
        EMPTY_TRASH,
        batch.map((t) => t.item.path),
      );
      this.items = this.items.filter((t) => !batch.includes(t));
    })().finally(() => {
      this.emptying = null;
    });
    return this.emptying;
  }
}
