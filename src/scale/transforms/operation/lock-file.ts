import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { z } from "zod";
import { InternalError } from "../../../core/errors.js";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { PY_CRYPTO } from "../shared/crypto.js";
import { opaqueToken } from "../shared/names.js";
import { pathArg, sq } from "../shared/shell.js";
import { checkTargets } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({}).strict();
export type LockFileParams = z.infer<typeof Params>;

const MAGIC = "LEASEPK1\n";

const LEASE_PY = `#!/usr/bin/env python3
"""Lease tool.
  lease.py status PACK                 show who holds the lock on PACK
  lease.py release PACK --holder NAME  release the lock (the holder must match and PACK must be intact)
  lease.py unpack PACK OUT             unpack PACK to OUT (refused while PACK.lock exists)"""
import hashlib, json, os, sys, zlib

${PY_CRYPTO}

MAGIC = b"${MAGIC.trimEnd()}\\n"


def lock_of(pack):
    return pack + ".lock"


def release(pack, holder):
    lock = lock_of(pack)
    if not os.path.exists(lock):
        print("%s is not locked" % pack)
        return
    lease = json.load(open(lock, encoding="utf-8"))
    if holder != lease["holder"]:
        sys.exit("lock on %s is held by %r, not %r" % (pack, lease["holder"], holder))
    digest = hashlib.sha256(open(pack, "rb").read()).hexdigest()
    if digest != lease["pack_sha256"]:
        sys.exit("%s does not match the digest in its lease; refusing to release a lock on damaged data" % pack)
    os.remove(lock)
    print("released lock on %s" % pack)


def unpack(pack, out):
    lock = lock_of(pack)
    if os.path.exists(lock):
        holder = json.load(open(lock, encoding="utf-8")).get("holder")
        sys.exit("%s is locked by %r; release it first (lease.py release %s --holder NAME)" % (pack, holder, pack))
    data = open(pack, "rb").read()
    if not data.startswith(MAGIC):
        sys.exit("%s: not a lease pack" % pack)
    write_out(out, zlib.decompress(data[len(MAGIC) :]))


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "status":
        lock = lock_of(a[1])
        print(open(lock, encoding="utf-8").read() if os.path.exists(lock) else "%s is not locked" % a[1])
    elif len(a) == 4 and a[0] == "release" and a[2] == "--holder":
        release(a[1], a[3])
    elif len(a) == 3 and a[0] == "unpack":
        unpack(a[1], a[2])
    else:
        sys.exit(__doc__)
`;

const TOOL_PATH = ".tools/lease.py";
const TOOL_BYTES = utf8.encode(LEASE_PY);
const ROLES = ["ingest", "nightly-export", "reindex", "backup", "etl-sync"] as const;

/**
 * Packs the target and holds it under a lease: `<pack>.lock` names a holder, and the placed lease
 * tool only unpacks once the lock is released, which it allows for the named holder and only if
 * the pack still matches the digest recorded in the lease.
 */
export const lockFileTransform: Transform<LockFileParams> = {
  name: "lock-file",
  kind: "operation",
  basic: false,
  summary: "pack a file under a lease lock that a placed tool must release before unpacking",
  restoreDoc:
    "Release the lock with the lease tool (`release PACK --holder NAME`, the holder named in the lock file; " +
    "it checks the pack against the lease's digest), then `unpack PACK OUT`.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: () => ({}),
  apply({ env, targets, seed }) {
    checkTargets("lock-file", env, targets);
    const rng = new Rng(`lock-file/${seed}`);
    const b = new TreeBuilder(env);
    const steps = targets.map((t) => {
      const packBytes = new Uint8Array(
        Buffer.concat([Buffer.from(MAGIC, "ascii"), deflateSync(b.take(t), { level: 9 })]),
      );
      let pack = `${t}.pack`;
      for (let i = 0; !(b.isFree(pack) && b.isFree(`${pack}.lock`)); i++) {
        if (i > 1000) throw new InternalError(`lock-file: no free path for the pack of ${t}`);
        pack = `${t}.${opaqueToken(rng, 6)}.pack`;
      }
      b.put(pack, packBytes);
      const holder = `${rng.pick(ROLES)}-${opaqueToken(rng, 6)}`;
      const lease = {
        holder,
        resource: t,
        pack_sha256: createHash("sha256").update(packBytes).digest("hex"),
        note: "held until released by the holder with the lease tool",
      };
      const lock = `${pack}.lock`;
      b.put(lock, utf8.encode(`${JSON.stringify(lease, null, 2)}\n`));
      return { t, pack, lock, holder };
    });
    const tool = b.placeShared(TOOL_PATH, TOOL_BYTES, rng);
    return {
      env: b.build(),
      access: steps
        .map(
          ({ t, pack, lock }) =>
            `\`${t}\` is packed in \`${pack}\`, which is locked: \`${lock}\` is a lease naming its holder. ` +
            `\`python3 ${tool} unpack ${pack} ${t}\` refuses while the lock exists; release it first with ` +
            `\`python3 ${tool} release ${pack} --holder <holder from the lock file>\` (it checks the pack is intact).`,
        )
        .join(" "),
      restore: steps.flatMap(({ t, pack, holder }) => [
        {
          run: `python3 ${pathArg(tool)} release ${pathArg(pack)} --holder ${sq(holder)}`,
          why: `release the lease on ${pack}`,
        },
        {
          run: `python3 ${pathArg(tool)} unpack ${pathArg(pack)} ${pathArg(t)}`,
          why: `unpack ${t} from ${pack}`,
        },
      ]),
      produced: [...steps.flatMap(({ pack, lock }) => [pack, lock]), tool],
      removed: [...targets],
    };
  },
};
