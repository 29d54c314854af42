import { z } from "zod";
import { collect, dockerBin } from "./proc.js";

/**
 * What the host needs to know of a sandbox's container, asked of the daemon in one `docker
 * inspect` rather than one per field: each is a client process and a round trip to the daemon,
 * and a trial asked for the init pid, the upper and the merged folder separately, the pid at
 * every killAll. Nothing here comes from inside the container.
 */
export interface ContainerFacts {
  /** The full container id, as its cgroup paths name it. */
  id: string;
  /** Host pid of the container's init (0 when it is not running). */
  pid: number;
  /** The overlay's upper folder ("" under a storage driver without one). */
  upperDir: string;
  /** The overlay's merged folder, the container's root file system ("" likewise). */
  mergedDir: string;
}

/** JSON, so no folder name can be read as another field; Data is null under some drivers. */
const FORMAT = "[{{json .Id}},{{json .State.Pid}},{{json .GraphDriver.Data}}]";

/** The container's facts, or null when docker cannot say (no such container, no daemon). */
export async function inspectContainer(container: string): Promise<ContainerFacts | null> {
  const r = await collect([dockerBin(), "inspect", "-f", FORMAT, container], undefined, 60);
  if (r.code !== 0) return null;
  return parseFacts(r.stdout.toString("utf8"));
}

// Data is an object of strings under overlay2, null (or absent) under a driver without folders.
const InspectAnswer = z.tuple([
  z.string(),
  z.number().int(),
  z.record(z.string(), z.unknown()).nullable().catch(null),
]);

export function parseFacts(text: string): ContainerFacts | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = InspectAnswer.safeParse(json);
  if (!parsed.success) return null;
  const [id, pid, data] = parsed.data;
  const field = (k: string): string => {
    const v = data?.[k];
    return typeof v === "string" ? v : "";
  };
  return { id, pid, upperDir: field("UpperDir"), mergedDir: field("MergedDir") };
}

/**
 * A container's facts, asked once and kept for its life: its id and overlay folders are fixed
 * when docker makes it, and its init pid while it runs (a sandbox's container is never restarted:
 * no restart policy, and pid 1 ending stops it). Not kept when inspect fails or the container is
 * not running, so a later caller asks again, as each did before.
 */
export class ContainerFactsCache {
  private kept: Promise<ContainerFacts | null> | null = null;

  constructor(
    private readonly container: string,
    private readonly inspect: (container: string) => Promise<ContainerFacts | null> = inspectContainer,
  ) {}

  get(): Promise<ContainerFacts | null> {
    if (this.kept !== null) return this.kept;
    const asked = this.inspect(this.container);
    this.kept = asked;
    asked.then(
      (f) => {
        if ((f === null || f.pid <= 0) && this.kept === asked) this.kept = null;
      },
      () => {
        if (this.kept === asked) this.kept = null;
      },
    );
    return asked;
  }
}
