import type { Calibration } from "../analysis/calibrate.js";
import { escapeHtml } from "./render-html.js";

const W = 640;
const H = 380;
const M = { left: 48, right: 16, top: 12, bottom: 40 };

function x(rate: number): number {
  return M.left + rate * (W - M.left - M.right);
}

function y(r: number): number {
  return H - M.bottom - r * (H - M.top - M.bottom);
}

function f(n: number): string {
  return n.toFixed(1);
}

/**
 * Mean R (y) against solve rate (x), one dot per task, the band shaded. Filled blue: in the band;
 * ringed: picked for the target; grey: outside; hollow: too few attempts to place.
 */
export function calibrationChart(c: Calibration): string {
  const picked = new Set(c.target?.picked ?? []);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const grid = ticks
    .map(
      (t) =>
        `<line x1="${f(x(0))}" x2="${f(x(1))}" y1="${f(y(t))}" y2="${f(y(t))}" stroke="#eee"/>` +
        `<text x="${f(x(0) - 6)}" y="${f(y(t) + 4)}" text-anchor="end">${t}</text>` +
        `<text x="${f(x(t))}" y="${f(H - M.bottom + 16)}" text-anchor="middle">${t}</text>`,
    )
    .join("");
  const band =
    `<rect class="band" x="${f(x(c.band.low))}" y="${f(y(1))}" width="${f(x(c.band.high) - x(c.band.low))}" ` +
    `height="${f(y(0) - y(1))}" fill="#dbe7ff" opacity="0.6"/>`;
  const dots = c.tasks
    .filter((t) => t.solveRate.p !== null && t.meanReward.value !== null)
    .map((t) => {
      const fill = t.fewAttempts ? "none" : t.inBand ? "#2f6fdb" : "#9a9a9a";
      const stroke = picked.has(t.task) ? "#111" : t.fewAttempts ? "#9a9a9a" : "none";
      const tip = `${t.task} (${t.category}): solve rate ${t.passes}/${t.attempts}, mean R ${(t.meanReward.value ?? 0).toFixed(3)}`;
      return (
        `<circle class="task" data-task="${escapeHtml(t.task)}" cx="${f(x(t.solveRate.p ?? 0))}" ` +
        `cy="${f(y(t.meanReward.value ?? 0))}" r="5" fill="${fill}" stroke="${stroke}" stroke-width="1.5">` +
        `<title>${escapeHtml(tip)}</title></circle>`
      );
    })
    .join("\n");
  const axes =
    `<line x1="${f(x(0))}" x2="${f(x(1))}" y1="${f(y(0))}" y2="${f(y(0))}" stroke="#333"/>` +
    `<line x1="${f(x(0))}" x2="${f(x(0))}" y1="${f(y(0))}" y2="${f(y(1))}" stroke="#333"/>` +
    `<text x="${f((x(0) + x(1)) / 2)}" y="${H - 6}" text-anchor="middle">solve rate (attempts at R ≥ ${c.threshold})</text>` +
    `<text transform="translate(12 ${f((y(0) + y(1)) / 2)}) rotate(-90)" text-anchor="middle">mean R</text>`;
  return `<svg id="chart-calibration" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="mean R against solve rate per task">
${band}${grid}${axes}
${dots}
</svg>`;
}
