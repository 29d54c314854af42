const encoder = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF: stripping it is text-encoding.ts's job, and it reports doing so.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? utf8(data) : data;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A plain Uint8Array copy (Buffers from node:zlib would otherwise leak their pooled backing store). */
export function plainBytes(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  out.set(data);
  return out;
}
