/**
 * The script that draws the charts in the browser with Observable Plot (global `Plot`, which
 * needs the global `d3`). Plain ES2017 so it runs in any current browser; it reads the chart
 * rows from the JSON block the page embeds. A chart with no rows says so in text, still as an
 * SVG, so every container always holds a drawing.
 */
export const CLIENT_SCRIPT = `
(function () {
  "use strict";
  var payload = JSON.parse(document.getElementById("report-data").textContent);
  var c = payload.charts;
  var LEFT = 190;

  function width(el) { return Math.max(480, Math.min(1100, el.clientWidth || 900)); }
  function empty(w, message) {
    return Plot.plot({ width: w, height: 80, axis: null, marks: [Plot.text([message], { frameAnchor: "middle", fontSize: 14 })] });
  }
  function draw(id, make) {
    var el = document.getElementById(id);
    if (!el) return;
    try {
      el.replaceChildren(make(width(el)));
    } catch (e) {
      el.textContent = "chart failed: " + (e && e.message ? e.message : String(e));
      console.error(e);
    }
  }
  function groups(rows) {
    var seen = [];
    rows.forEach(function (r) { if (seen.indexOf(r.group) < 0) seen.push(r.group); });
    return seen;
  }
  function pct(x) { return (x * 100).toFixed(1) + "%"; }

  draw("chart-reward-dist", function (w) {
    if (c.rewardDist.length === 0) return empty(w, "no per-trial rewards");
    var gs = groups(c.rewardDist);
    return Plot.plot({
      width: w, height: 40 + 80 * gs.length, marginLeft: 50, marginTop: 24,
      x: { domain: [0, 1], label: "reward R" },
      y: { label: "share of trials", tickFormat: "%" },
      fy: { domain: gs, axis: null, padding: 0.25 },
      marks: [
        Plot.text(gs, { fy: function (d) { return d; }, text: function (d) { return d; }, frameAnchor: "top-left", dx: 4, dy: -12, fontWeight: "bold" }),
        Plot.rectY(c.rewardDist, { x1: "x1", x2: "x2", y: "share", fy: "group", fill: "#4269d0", inset: 0.5,
          title: function (d) { return d.group + ": " + d.count + " trials in [" + d.x1.toFixed(2) + ", " + d.x2.toFixed(2) + ")"; } }),
        Plot.ruleY([0]),
        Plot.ruleX([0.75, 0.95], { stroke: "#999", strokeDasharray: "3,3" })
      ]
    });
  });

  draw("chart-pass-vs-reward", function (w) {
    if (c.passVsReward.length === 0) return empty(w, "no groups with scored trials");
    return Plot.plot({
      width: w, height: 380, grid: true, marginLeft: 60, marginRight: 80,
      x: { label: "mean R", domain: [0, 1] },
      y: { label: "Pass@1 (R ≥ 0.95)", tickFormat: "%", domain: [0, 1] },
      marks: [
        Plot.dot(c.passVsReward, { x: "meanR", y: "pass", r: 5, fill: "#4269d0",
          title: function (d) { return d.group + ": pass " + pct(d.pass) + ", mean R " + d.meanR.toFixed(3) + " (n=" + d.n + ")"; } }),
        Plot.text(c.passVsReward, { x: "meanR", y: "pass", text: "group", dy: -10, fontSize: 10 })
      ]
    });
  });

  draw("chart-cost-frontier", function (w) {
    if (c.costPass.length === 0) return empty(w, "no cost data");
    var front = c.costPass.filter(function (d) { return d.frontier; }).sort(function (a, b) { return a.cost - b.cost; });
    return Plot.plot({
      width: w, height: 380, grid: true, marginLeft: 60, marginRight: 80, inset: 20,
      x: { label: "mean cost per trial (USD)" },
      y: { label: "Pass@1 (R ≥ 0.95)", tickFormat: "%" },
      color: { domain: ["on frontier", "dominated"], range: ["#d03c42", "#9a9a9a"], legend: true },
      marks: [
        Plot.line(front, { x: "cost", y: "pass", stroke: "#d03c42" }),
        Plot.dot(c.costPass, { x: "cost", y: "pass", r: 5, fill: function (d) { return d.frontier ? "on frontier" : "dominated"; },
          title: function (d) { return d.group + ": $" + d.cost.toFixed(2) + " per trial, pass " + pct(d.pass); } }),
        Plot.text(c.costPass, { x: "cost", y: "pass", text: "group", dy: -10, fontSize: 10 })
      ]
    });
  });

  function heat(rows, yKey, valueKey, yLabel) {
    return function (w) {
      if (rows.length === 0) return empty(w, "no " + yLabel + " data");
      var ys = []; rows.forEach(function (r) { if (ys.indexOf(r[yKey]) < 0) ys.push(r[yKey]); });
      ys.sort();
      return Plot.plot({
        width: w, height: 90 + 18 * ys.length, marginLeft: LEFT, marginBottom: 80,
        x: { label: null, tickRotate: -30 },
        y: { domain: ys, label: null },
        color: { scheme: "blues", domain: [0, 1], legend: true, label: "mean " + (valueKey === "meanR" ? "R" : "score") },
        marks: [
          Plot.cell(rows, { x: "group", y: yKey, fill: valueKey, inset: 0.5,
            title: function (d) { return d.group + " · " + d[yKey] + ": " + d[valueKey].toFixed(3) + " (n=" + d.n + ")"; } }),
          Plot.text(rows, { x: "group", y: yKey, text: function (d) { return d[valueKey].toFixed(2); }, fontSize: 9,
            fill: function (d) { return d[valueKey] > 0.6 ? "white" : "black"; } })
        ]
      });
    };
  }
  draw("chart-category-heatmap", heat(c.categoryHeat, "category", "meanR", "category"));
  draw("chart-subtask-heatmap", heat(c.subtaskHeat, "row", "score", "subtask"));

  draw("chart-outcomes", function (w) {
    if (c.outcomes.length === 0) return empty(w, "no outcome counts");
    var gs = groups(c.outcomes);
    return Plot.plot({
      width: w, height: 70 + 28 * gs.length, marginLeft: LEFT,
      x: { label: "trials" },
      y: { domain: gs, label: null },
      color: { domain: ["completed", "agent_timeout", "agent_error", "grading_error", "infra_error"],
        range: ["#3ca951", "#efb118", "#ff725c", "#a463f2", "#6b6b6b"], legend: true },
      marks: [
        Plot.barX(c.outcomes, { y: "group", x: "count", fill: "outcome",
          title: function (d) { return d.group + ": " + d.count + " " + d.outcome; } }),
        Plot.ruleX([0])
      ]
    });
  });
  document.body.setAttribute("data-charts-ready", "true");
})();
`;
