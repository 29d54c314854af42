/**
 * Browser code for the recording player, kept as plain JavaScript text so the page needs no build
 * step and no external asset. TERMINAL_JS is a tiny screen model (enough for shell and tmux output:
 * CR, LF, backspace, tab, cursor moves, clears); colours and every other escape sequence are dropped.
 * Tests run it in node:vm.
 */
export const TERMINAL_JS = String.raw`
// The recording's header sets the size, so it is held to what a real screen could be: a header of
// a billion rows would otherwise make one cursor move allocate a billion lines.
var TERM_MAX_SIDE = 1000;
function termNew(width, height, maxLines) {
  return { width: width > 0 ? Math.min(width, TERM_MAX_SIDE) : 80, height: height > 0 ? Math.min(height, TERM_MAX_SIDE) : 24, maxLines: maxLines || 5000, lines: [""], row: 0, col: 0, esc: "" };
}
function termPut(t, ch) {
  if (t.col >= t.width) { t.row++; t.col = 0; termEnsure(t); }
  var line = t.lines[t.row];
  if (line.length < t.col) line += " ".repeat(t.col - line.length);
  t.lines[t.row] = line.slice(0, t.col) + ch + line.slice(t.col + 1);
  t.col++;
}
function termEnsure(t) {
  // Never add more lines than the scrollback keeps: the rest would be dropped at once anyway.
  if (t.row - t.lines.length >= t.maxLines) { t.lines = []; t.row = t.maxLines - 1; }
  while (t.lines.length <= t.row) t.lines.push("");
  if (t.lines.length > t.maxLines) {
    var drop = t.lines.length - t.maxLines;
    t.lines.splice(0, drop);
    t.row -= drop;
  }
}
function termCsi(t, params, final) {
  var nums = params.replace(/[?>=]/g, "").split(";").map(function (p) { return p === "" ? NaN : Number(p); });
  // As in real terminals, a count or position of 0 (or none) means 1, and the cursor never leaves
  // the screen: "ESC[0;0H" is the top left corner, "ESC[999999999B" the bottom row.
  var n = isNaN(nums[0]) ? 1 : Math.max(1, nums[0]);
  var top = Math.max(0, t.lines.length - t.height);
  var bottom = top + t.height - 1;
  if (final === "J") {
    var mode = isNaN(nums[0]) ? 0 : nums[0];
    if (mode === 2 || mode === 3) { t.lines = [""]; t.row = 0; t.col = 0; }
    else if (mode === 0) { t.lines[t.row] = t.lines[t.row].slice(0, t.col); t.lines.length = t.row + 1; }
  } else if (final === "K") {
    var m = isNaN(nums[0]) ? 0 : nums[0];
    if (m === 0) t.lines[t.row] = t.lines[t.row].slice(0, t.col);
    else if (m === 2) t.lines[t.row] = "";
  } else if (final === "H" || final === "f") {
    // Cursor addressing is relative to the visible screen, which is the last lines of the buffer.
    t.row = top + Math.min(n, t.height) - 1;
    t.col = Math.min(isNaN(nums[1]) ? 1 : Math.max(1, nums[1]), t.width) - 1;
    termEnsure(t);
  } else if (final === "A") { t.row = Math.max(0, t.row - n); }
  else if (final === "B") { t.row = Math.max(t.row, Math.min(bottom, t.row + n)); termEnsure(t); }
  else if (final === "C") { t.col = Math.min(t.width - 1, t.col + n); }
  else if (final === "D") { t.col = Math.max(0, t.col - n); }
  else if (final === "G") { t.col = Math.min(t.width, n) - 1; }
}
function termWrite(t, text) {
  for (var i = 0; i < text.length; i++) {
    var ch = text[i];
    if (t.esc !== "") {
      t.esc += ch;
      var e = t.esc;
      if (e.length === 2 && e[1] !== "[" && e[1] !== "]" && e[1] !== "(" && e[1] !== ")") { t.esc = ""; continue; }
      if (e[1] === "[" && e.length > 2 && ch >= "@" && ch <= "~") { termCsi(t, e.slice(2, -1), ch); t.esc = ""; }
      else if (e[1] === "]" && (ch === "\x07" || e.slice(-2) === "\x1b\\")) { t.esc = ""; }
      else if ((e[1] === "(" || e[1] === ")") && e.length === 3) { t.esc = ""; }
      else if (e.length > 256) { t.esc = ""; }
      continue;
    }
    if (ch === "\x1b") { t.esc = ch; continue; }
    if (ch === "\r") { t.col = 0; continue; }
    if (ch === "\n") { t.row++; termEnsure(t); continue; }
    if (ch === "\b") { t.col = Math.max(0, t.col - 1); continue; }
    if (ch === "\t") { var to = Math.min(t.width, (Math.floor(t.col / 8) + 1) * 8); while (t.col < to) termPut(t, " "); continue; }
    if (ch < " " || ch === "\x7f") continue;
    termPut(t, ch);
  }
}
function termText(t) {
  return t.lines.map(function (l) { return l.replace(/\s+$/, ""); }).join("\n");
}
`;

/**
 * The player: fetches the recording as JSON, then replays it into <pre class="screen">, honouring
 * the recorded delays but never waiting longer than MAX_GAP seconds, so idle stretches are skipped.
 */
export const PLAYER_JS = `
(function () {
  var root = document.getElementById("player");
  if (!root) return;
  var screen = root.querySelector("pre.screen");
  var button = root.querySelector("button.play");
  var endButton = root.querySelector("button.end");
  var speedSel = root.querySelector("select.speed");
  var clock = root.querySelector(".clock");
  var MAX_GAP = 1.0;
  var rec = null, term = null, index = 0, timer = null, dirty = false;
  function render() {
    if (!dirty) return;
    dirty = false;
    screen.textContent = termText(term);
    screen.scrollTop = screen.scrollHeight;
    var t = index > 0 ? rec.events[index - 1][0] : 0;
    clock.textContent = t.toFixed(1) + " s / " + rec.duration.toFixed(1) + " s";
  }
  function reset() { term = termNew(rec.width, rec.height, 5000); index = 0; dirty = true; render(); }
  function stop() { if (timer !== null) { clearTimeout(timer); timer = null; } button.textContent = "Play"; root.dataset.state = "paused"; }
  function step() {
    timer = null;
    if (index >= rec.events.length) { stop(); root.dataset.state = "ended"; return; }
    var ev = rec.events[index];
    termWrite(term, ev[1]);
    index++;
    dirty = true;
    requestAnimationFrame(render);
    if (index >= rec.events.length) { stop(); root.dataset.state = "ended"; return; }
    var gap = Math.min(MAX_GAP, Math.max(0, rec.events[index][0] - ev[0]));
    timer = setTimeout(step, (gap * 1000) / Number(speedSel.value));
  }
  function play() {
    if (index >= rec.events.length) reset();
    button.textContent = "Pause";
    root.dataset.state = "playing";
    step();
  }
  button.addEventListener("click", function () { if (!rec) return; if (timer !== null) stop(); else play(); });
  endButton.addEventListener("click", function () {
    if (!rec) return;
    stop();
    while (index < rec.events.length) { termWrite(term, rec.events[index][1]); index++; }
    dirty = true; render(); root.dataset.state = "ended";
  });
  fetch(root.dataset.src).then(function (r) {
    if (!r.ok) throw new Error("HTTP " + r.status);
    return r.json();
  }).then(function (data) {
    rec = data;
    if (data.omitted_lines > 0) {
      var note = document.createElement("p");
      note.className = "muted omitted";
      note.textContent = "Only the last " + data.events.length + " output events are played; the first " +
        data.omitted_lines + " lines of the recording are left out.";
      root.insertBefore(note, screen);
    }
    reset();
    button.disabled = false;
    endButton.disabled = false;
    root.dataset.state = "ready";
  }).catch(function (e) {
    screen.textContent = "could not load the recording: " + e.message;
    root.dataset.state = "error";
  });
})();
`;
