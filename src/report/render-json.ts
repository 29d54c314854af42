import type { Comparison } from "../analysis/compare.js";
import type { Summary } from "../analysis/summary-types.js";

/** The summary as computed; its `schema` field names the shape for readers. */
export function renderJson(value: Summary | Comparison): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
