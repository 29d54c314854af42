import { esc } from "./html.js";

const CSS = `
.wr .controls { display: flex; gap: 10px; align-items: center; margin: 6px 0; flex-wrap: wrap; }
.wr .controls input.slider { width: 320px; }
.wr .body { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; }
.wr canvas.map { image-rendering: pixelated; max-width: 100%; border: 1px solid var(--line); }
.wr .side { flex: 1; min-width: 380px; max-height: 760px; overflow: auto; }
.wr ul { list-style: none; padding: 0; margin: 4px 0 10px; }
.wr .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 5px; border: 1px solid #000; }
.wr li.wr-contrib { font-weight: 600; }
.wr table.calls td.args { font: 12px ui-monospace, monospace; word-break: break-all; max-width: 260px; }
.wr tr.wr-closure td { background: rgba(37, 99, 235, 0.14); }
.wr tr.wr-witness td { background: rgba(234, 179, 8, 0.3); font-weight: 600; }
.wr tr.wr-error td.res { color: #dc2626; }
.wr ul.chat li { white-space: pre-wrap; word-break: break-word; }
.wr ul.chat li.wr-now { background: var(--alt); }
`;

/**
 * The world trial's replay: controls, the map canvas, and the lists the player fills in from
 * /api/jobs/:job/trials/:trial/world-replay (see world-player-js.ts).
 */
export function worldReplaySection(jobId: string, trialId: string, hasCce: boolean): string {
  const src = `/api/jobs/${encodeURIComponent(jobId)}/trials/${encodeURIComponent(trialId)}/world-replay`;
  const legend = hasCce
    ? "Calls in the causal-contribution closure are shaded (success witnesses in gold); their moves are drawn thick, and an agent making one this round is ringed (gold for a witness)."
    : "This trial has no causal-contribution record: no call is marked.";
  return `<style>${CSS}</style>
<h3>Replay</h3>
<div id="world-replay" class="wr" data-src="${esc(src)}" data-state="loading">
<div class="controls"><button class="back" disabled title="step back (←)">◀ back</button><button class="play" disabled>Play</button><button class="fwd" disabled title="step forward (→)">forward ▶</button>
<input type="range" class="slider" min="0" max="0" value="0" disabled aria-label="round">
<span class="label muted">loading…</span></div>
<p class="note error"></p>
<div class="body"><canvas class="map" width="1" height="1"></canvas>
<div class="side"><h4>Agents</h4><ul class="agents"></ul>
<h4>Calls this round</h4><table class="calls"><thead><tr><th>agent</th><th>tool</th><th>args</th><th>result</th><th>CCE</th></tr></thead><tbody></tbody></table>
<h4>Chat so far</h4><ul class="chat"></ul></div></div>
<p class="muted">${esc(legend)} Arrow keys step through rounds.</p>
</div>`;
}
