/**
 * The world trial's round-by-round player, as plain browser JavaScript (no build step, no external
 * asset). It fetches the replay JSON (src/world/trial/replay-view.ts), draws the map crop with the
 * agents and their paths on a canvas, and lists the round's calls and the chat so far. Every text
 * from the run goes into the page through textContent only: chat is written by agents.
 */
export const WORLD_PLAYER_JS = `
(function () {
  var root = document.getElementById("world-replay");
  if (!root) return;
  var canvas = root.querySelector("canvas.map");
  var ctx = canvas.getContext("2d");
  var slider = root.querySelector("input.slider");
  var label = root.querySelector(".label");
  var playBtn = root.querySelector("button.play");
  var backBtn = root.querySelector("button.back");
  var fwdBtn = root.querySelector("button.fwd");
  var agentList = root.querySelector("ul.agents");
  var callBody = root.querySelector("table.calls tbody");
  var chatList = root.querySelector("ul.chat");
  var note = root.querySelector(".note");
  var data = null, img = null, frame = 0, timer = null;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function px(v, origin) { return (v - origin + 0.5) * data.map.scale; }
  function roundCalls(f) { return data.calls.filter(function (c) { return c.round === f - 1; }); }
  function drawPath(c, width, colour) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    for (var k = 0; k + 1 < c.path.length; k += 2) {
      var x = px(c.path[k], data.map.x), y = px(c.path[k + 1], data.map.y);
      if (k === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  function draw() {
    var s = data.map.scale;
    ctx.globalAlpha = 1;
    ctx.drawImage(img, 0, 0);
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    var done = data.calls.filter(function (c) { return c.round < frame && c.path.length >= 4; });
    // Paths so far: moves outside the closure thin and faded, contributing ones thick with an outline.
    done.forEach(function (c) {
      if (c.mark) return;
      ctx.globalAlpha = 0.55;
      drawPath(c, Math.max(1, s * 0.2), data.agents[c.agent].colour);
    });
    ctx.globalAlpha = 1;
    done.forEach(function (c) {
      if (!c.mark) return;
      drawPath(c, Math.max(3, s * 0.5) + 2, "#000");
      drawPath(c, Math.max(3, s * 0.5), data.agents[c.agent].colour);
    });
    var now = roundCalls(frame);
    // Agents on one tile are spread around its centre, so none hides another.
    var onTile = {};
    data.frames[frame].forEach(function (p) { var k = p[0] + "," + p[1]; onTile[k] = (onTile[k] || 0) + 1; });
    var placed = {};
    var r = Math.max(3, s * 0.6);
    var spots = data.agents.map(function (a, i) {
      var p = data.frames[frame][i];
      var key = p[0] + "," + p[1], n = onTile[key], k = placed[key] || 0;
      placed[key] = k + 1;
      var x = px(p[0], data.map.x), y = px(p[1], data.map.y);
      if (n > 1) { x += Math.cos((2 * Math.PI * k) / n) * r; y += Math.sin((2 * Math.PI * k) / n) * r; }
      return [x, y];
    });
    // Rings first (an agent with a contributing call this round; gold for a witness), then the dots.
    spots.forEach(function (xy, i) {
      var mine = now.filter(function (c) { return c.agent === i && c.mark; });
      if (mine.length === 0) return;
      var witness = mine.some(function (c) { return c.mark === "witness"; });
      ctx.strokeStyle = witness ? "#ffd700" : "#ffffff";
      ctx.lineWidth = witness ? 4 : 3;
      ctx.beginPath(); ctx.arc(xy[0], xy[1], r + 4, 0, Math.PI * 2); ctx.stroke();
    });
    spots.forEach(function (xy, i) {
      ctx.fillStyle = data.agents[i].colour;
      ctx.strokeStyle = "#000";
      ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.arc(xy[0], xy[1], r, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
    });
  }
  function markText(m) { return m === "witness" ? "witness" : m === "closure" ? "closure" : ""; }
  function list() {
    var now = roundCalls(frame);
    agentList.textContent = "";
    data.agents.forEach(function (a, i) {
      var p = data.frames[frame][i];
      var li = el("li");
      li.dataset.agent = a.id;
      var sw = el("span", "swatch");
      sw.style.backgroundColor = a.colour;
      li.appendChild(sw);
      li.appendChild(el("span", "pos", a.id + " (" + a.role + ") at (" + p[0] + ", " + p[1] + ")"));
      if (now.some(function (c) { return c.agent === i && c.mark; })) li.className = "wr-contrib";
      agentList.appendChild(li);
    });
    callBody.textContent = "";
    if (frame === 0) {
      var tr0 = el("tr");
      var td0 = el("td", "muted", "the start: no calls yet");
      td0.colSpan = 5;
      tr0.appendChild(td0);
      callBody.appendChild(tr0);
    }
    now.forEach(function (c) {
      var tr = el("tr", (c.mark ? "wr-" + c.mark : "") + (c.ok ? "" : " wr-error"));
      tr.dataset.call = String(c.index);
      tr.dataset.mark = c.mark || "";
      var who = el("td");
      var sw = el("span", "swatch");
      sw.style.backgroundColor = data.agents[c.agent].colour;
      who.appendChild(sw);
      who.appendChild(document.createTextNode(data.agents[c.agent].id));
      tr.appendChild(who);
      tr.appendChild(el("td", "", c.tool));
      tr.appendChild(el("td", "args", c.args));
      tr.appendChild(el("td", "res", (c.ok ? "" : "error ") + c.result));
      tr.appendChild(el("td", "mark", markText(c.mark)));
      callBody.appendChild(tr);
    });
    chatList.textContent = "";
    var said = data.chat.filter(function (m) { return m.round < frame; });
    if (said.length === 0) chatList.appendChild(el("li", "muted", "no chat yet"));
    said.forEach(function (m) {
      var li = el("li", m.round === frame - 1 ? "wr-now" : "");
      li.appendChild(el("span", "muted", "round " + (m.round + 1) + " · "));
      li.appendChild(el("b", "", data.agents[m.agent].id + (m.to ? " → " + m.to : "")));
      li.appendChild(el("span", "text", ": " + m.text));
      chatList.appendChild(li);
    });
  }
  function show(f) {
    frame = Math.max(0, Math.min(data.rounds, f));
    slider.value = String(frame);
    label.textContent = frame === 0 ? "start (round 0 of " + data.rounds + ")" : "round " + frame + " of " + data.rounds;
    root.dataset.frame = String(frame);
    draw();
    list();
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    playBtn.textContent = "Play";
    root.dataset.state = "paused";
  }
  function play() {
    if (frame >= data.rounds) show(0);
    playBtn.textContent = "Pause";
    root.dataset.state = "playing";
    timer = setInterval(function () {
      if (frame >= data.rounds) { stop(); return; }
      show(frame + 1);
    }, 700);
  }
  function step(d) { if (!data) return; stop(); show(frame + d); }
  playBtn.addEventListener("click", function () { if (!data) return; if (timer !== null) stop(); else play(); });
  backBtn.addEventListener("click", function () { step(-1); });
  fwdBtn.addEventListener("click", function () { step(1); });
  slider.addEventListener("input", function () { if (!data) return; stop(); show(Number(slider.value)); });
  document.addEventListener("keydown", function (e) {
    if (!data || e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    // A focused form control keeps its own arrow keys (the slider moves itself and reports "input").
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); step(-1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); step(1); }
  });
  fetch(root.dataset.src).then(function (r) {
    return r.json().then(function (body) {
      if (!r.ok) throw new Error(body && body.error ? body.error : "HTTP " + r.status);
      return body;
    });
  }).then(function (d) {
    data = d;
    canvas.width = d.map.w * d.map.scale;
    canvas.height = d.map.h * d.map.scale;
    slider.max = String(d.rounds);
    if (d.verdict !== "identical") note.textContent = "The replay differs from the recording (" + d.verdict + ": " + d.reason + "); shown as replayed.";
    img = new Image();
    img.onload = function () {
      [playBtn, backBtn, fwdBtn, slider].forEach(function (b) { b.disabled = false; });
      show(0);
      root.dataset.state = "ready";
    };
    img.onerror = function () { note.textContent = "could not draw the map"; root.dataset.state = "error"; };
    img.src = d.map.png;
  }).catch(function (e) {
    note.textContent = "could not load the replay: " + e.message;
    root.dataset.state = "error";
  });
})();
`;
