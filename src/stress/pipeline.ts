import type { Rng } from "../core/rng.js";
import { utf8 } from "./bytes.js";
import { type PerturbationId, stageOf } from "./catalog.js";
import { buildManifestTree } from "./manifest.js";
import { injectJunkLines } from "./noise.js";
import {
  type AppliedPerturbation,
  applyRecordPerturbation,
  type RecordStageOptions,
  type RecordState,
} from "./pipeline-records.js";
import { RECORD_FORMATS, type RecordFormat, serializeRecords } from "./records.js";
import { splitBytes } from "./split.js";
import { CHARSETS, encodeText } from "./text-encoding.js";
import type { FileTree, Row } from "./types.js";
import { layerSuffix, randomLayers, wrap } from "./wrappers.js";

export interface PerturbOptions extends RecordStageOptions {
  /** Base name of the produced file(s). */
  name?: string;
  /** Serialisation; omitted → seed-chosen (line-based when junk-lines applies). */
  format?: RecordFormat;
}

export interface PerturbedRecords {
  inputs: FileTree;
  /** The file to start from: the data file, the parts manifest, or the root of the manifest tree. */
  entry: string;
  format: RecordFormat;
  /** The records as serialised, after every record-level perturbation. */
  records: Row[];
  applied: AppliedPerturbation[];
  skipped: PerturbationId[];
  notes: string[];
}

/** Apply perturbations in the given order (use pickPerturbations/orderPerturbations to get a valid one). */
export function applyPerturbations(
  rng: Rng,
  records: readonly Row[],
  ids: readonly PerturbationId[],
  options: PerturbOptions = {},
): PerturbedRecords {
  const name = options.name ?? "data";
  const applied: AppliedPerturbation[] = [];
  const skipped: PerturbationId[] = [];
  const origin = new Map<string, string>();
  for (const r of records) for (const k of Object.keys(r)) origin.set(k, k);
  const state: RecordState = { rows: records.map((r) => ({ ...r })), origin };
  const record = (a: AppliedPerturbation | null, id: PerturbationId): void => {
    if (a === null) skipped.push(id);
    else applied.push(a);
  };

  for (const id of ids)
    if (stageOf(id) === "records") record(applyRecordPerturbation(rng, id, state, options), id);

  const lineBased: readonly RecordFormat[] = ["csv", "tsv", "jsonl"];
  const format = options.format ?? rng.pick(ids.includes("junk-lines") ? lineBased : RECORD_FORMATS);
  let text = serializeRecords(state.rows, format);
  let bytes: Uint8Array | null = null;
  let suffix = "";

  for (const id of ids) {
    const stage = stageOf(id);
    if (stage === "records" || stage === "files") continue;
    if (id === "junk-lines") {
      const multiline =
        format !== "jsonl" && state.rows.some((r) => Object.values(r).some((v) => /[\r\n]/.test(String(v))));
      if (!lineBased.includes(format) || multiline || bytes !== null) {
        skipped.push(id);
        continue;
      }
      const count = Math.max(1, Math.round(text.split("\n").length * 0.05));
      const junk = injectJunkLines(rng, text, { count, keepFirst: format === "jsonl" ? 0 : 1 });
      text = junk.text;
      record(
        { id, report: { inserted: junk.inserted }, note: `${junk.inserted.length} junk lines inserted` },
        id,
      );
    } else if (id === "text-encoding") {
      const charset = rng.pick(CHARSETS);
      const spec = {
        charset,
        bom: charset !== "utf-8" || rng.next() < 0.5,
        newline: rng.pick(["lf", "crlf"] as const),
      };
      bytes = encodeText(text, spec);
      record(
        {
          id,
          report: { ...spec },
          note: `text encoded as ${charset}${spec.bom ? " with BOM" : ""}, ${spec.newline}`,
        },
        id,
      );
    } else if (id === "wrap-layers") {
      const layers = randomLayers(rng, 1, 3);
      bytes = wrap(bytes ?? utf8(text), layers);
      suffix += layerSuffix(layers);
      record({ id, report: { layers }, note: `wrapped in ${layers.join(" then ")}` }, id);
    }
  }
  const data = bytes ?? utf8(text);
  const fileName = `${name}.${format}${suffix}`;
  let inputs: FileTree = { [fileName]: data };
  let entry = fileName;

  for (const id of ids) {
    if (id === "split-parts") {
      const { files, manifest } = splitBytes(rng, data, { parts: rng.int(2, 5), prefix: `${fileName}.part` });
      inputs = Object.fromEntries(Object.entries(files).map(([p, b]) => [`${name}.parts/${p}`, b]));
      entry = `${name}.parts/manifest.json`;
      inputs[entry] = utf8(`${JSON.stringify(manifest, null, 2)}\n`);
      record(
        {
          id,
          report: { manifest: entry, parts: manifest.parts.length },
          note: `split into ${manifest.parts.length} parts`,
        },
        id,
      );
    } else if (id === "nested-manifest") {
      const tree = buildManifestTree(rng, data, {
        depth: rng.int(2, 4),
        fanout: 3,
        root: `${name}/manifest.json`,
      });
      inputs = tree.files;
      entry = tree.root;
      record(
        {
          id,
          report: { root: tree.root, depth: tree.depth, dataFiles: tree.dataFiles },
          note: `nested manifests, depth ${tree.depth}`,
        },
        id,
      );
    }
  }
  return { inputs, entry, format, records: state.rows, applied, skipped, notes: applied.map((a) => a.note) };
}
