import { createHash } from "node:crypto";

/**
 * The keystream cipher the operation transforms use, implemented identically here and in the
 * placed Python tools (PY_CRYPTO): block i of the keystream is SHA-256(key || i as 8-byte
 * big-endian), and data is XORed with the keystream. Symmetric: the same call decrypts.
 */
export function keystreamXor(key: Uint8Array, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  const counter = Buffer.alloc(8);
  for (let block = 0; block * 32 < data.length; block++) {
    counter.writeBigUInt64BE(BigInt(block));
    const ks = createHash("sha256").update(key).update(counter).digest();
    const base = block * 32;
    const end = Math.min(32, data.length - base);
    for (let j = 0; j < end; j++) out[base + j] = (data[base + j] as number) ^ (ks[j] as number);
  }
  return out;
}

export const SEALED_MAGIC = "SEALED1\n";

/** A sealed file: magic, tag = SHA-256(key || plaintext) so a wrong key is noticed, then the ciphertext. */
export function seal(key: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const tag = createHash("sha256").update(key).update(plaintext).digest();
  const magic = Buffer.from(SEALED_MAGIC, "ascii");
  return new Uint8Array(Buffer.concat([magic, tag, keystreamXor(key, plaintext)]));
}

/** The inverse of seal in TypeScript (tests check it against the Python tools). */
export function unseal(key: Uint8Array, sealed: Uint8Array): Uint8Array {
  const body = sealed.subarray(SEALED_MAGIC.length + 32);
  const plain = keystreamXor(key, body);
  const tag = createHash("sha256").update(key).update(plain).digest();
  if (!tag.equals(Buffer.from(sealed.subarray(SEALED_MAGIC.length, SEALED_MAGIC.length + 32)))) {
    throw new Error("wrong key or damaged sealed file");
  }
  return plain;
}

/** Python (standard library) for the same keystream and sealed format, pasted into the placed tools. */
export const PY_CRYPTO = String.raw`import hashlib


def keystream_xor(key, data):
    blocks = (len(data) + 31) // 32
    ks = b"".join(hashlib.sha256(key + i.to_bytes(8, "big")).digest() for i in range(blocks))[: len(data)]
    if not data:
        return b""
    return (int.from_bytes(data, "big") ^ int.from_bytes(ks, "big")).to_bytes(len(data), "big")


SEALED_MAGIC = b"SEALED1\n"


def unseal(key, sealed):
    if not sealed.startswith(SEALED_MAGIC):
        raise SystemExit("not a sealed file (bad magic)")
    tag, body = sealed[len(SEALED_MAGIC) : len(SEALED_MAGIC) + 32], sealed[len(SEALED_MAGIC) + 32 :]
    plain = keystream_xor(key, body)
    if hashlib.sha256(key + plain).digest() != tag:
        raise SystemExit("wrong key: the decrypted data does not match the sealed file's tag")
    return plain


def write_out(path, data):
    import os, tempfile

    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".restore-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
`;
