/// The style and script of `report.html` (`ReviewPage`), inline in the page; the page's Content-Security-Policy
/// names each by its SHA-256, so nothing else runs. The script reads the page's JSON blob and puts every text into
/// the DOM with `textContent` (never `innerHTML`); it computes no model: each hold is the trace's own frames.
enum ReviewPageAssets {
    static let style = #"""
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--card:#f6f8fa;--accent:#0969da;--fill:#0969da;--track:#e6e9ed;--good:#1a7f37;--warn:#9a6700;--bad:#cf222e;--pulse:#f08c00;--full:#8250df;--fire:#cf222e}
@media (prefers-color-scheme: dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--card:#161b22;--accent:#4493f8;--fill:#4493f8;--track:#262c36;--good:#3fb950;--warn:#d29922;--bad:#f85149;--pulse:#ffa657;--full:#bc8cff;--fire:#ff7b72}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg)}
body{margin:0 auto;max-width:1400px;padding:24px 32px 48px;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
h1{font-size:28px;margin:0 0 8px}h2{font-size:22px;margin:32px 0 12px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:18px;margin:20px 0 8px}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:90%;background:var(--card);padding:0 3px;border-radius:3px;overflow-wrap:anywhere}
p{margin:6px 0}.muted{color:var(--muted)}
.controls{display:flex;flex-wrap:wrap;gap:12px 24px;align-items:center;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:8px 0 16px}
.controls label{display:flex;gap:8px;align-items:center}
input[type=range]{width:320px;accent-color:var(--accent)}
button,select{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:4px 14px;cursor:pointer}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));gap:16px}
.card{border:1px solid var(--line);border-radius:8px;padding:12px 16px;background:var(--bg)}
.card h3{margin:0 0 4px}.badge{font-size:12px;border:1px solid var(--line);border-radius:10px;padding:0 8px;margin-left:8px;color:var(--muted);vertical-align:middle}
.stage{display:flex;align-items:center;gap:16px;margin:10px 0}
.track{position:relative;width:420px;height:28px;background:var(--track);border-radius:6px;overflow:hidden;flex:none}
.fill{position:absolute;left:0;top:0;bottom:0;width:0;background:var(--fill)}
.dot{width:18px;height:18px;border-radius:50%;border:2px solid var(--pulse);flex:none}
.dot.flash{background:var(--pulse)}.dot.flash.completion{background:var(--fire);border-color:var(--fire)}
.status{min-width:200px}.status.fired{color:var(--good);font-weight:600}.status.released{color:var(--bad)}
.timeline{width:100%;height:auto;display:block}
.timeline text{font-size:13px;fill:var(--muted)}.timeline .axis{stroke:var(--line)}.timeline .curve{fill:none;stroke:var(--fill);stroke-width:2}
.timeline .full{fill:var(--full)}.timeline .fire{fill:var(--fire)}.timeline .release{stroke:var(--bad);stroke-dasharray:4 3}.timeline .pulse{stroke:var(--pulse);stroke-width:2}
.timeline .playhead{stroke:var(--fg);stroke-width:1.5}
table{border-collapse:collapse;margin:8px 0;font-size:14px}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}th{background:var(--card)}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:var(--good)}.warn{color:var(--warn);font-weight:600}.fail{color:var(--bad);font-weight:700}
.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{width:560px;max-width:100%;height:auto;border:1px solid var(--line);border-radius:8px;background:var(--bg)}
.chart text{font-size:13px;fill:var(--muted)}.chart .axis{stroke:var(--line)}.chart .series{fill:none;stroke:var(--accent);stroke-width:2}
.chart .bar{stroke:var(--accent);stroke-width:1.5}.chart .pt{fill:var(--accent)}.chart .sel{stroke:var(--fg);stroke-width:1.5}.chart .selpt{fill:var(--fg)}
.chart .base{stroke:var(--full);stroke-dasharray:6 4;stroke-width:2}.chart .basetext{fill:var(--full)}
.readout{font-variant-numeric:tabular-nums;margin:6px 0}
.recommendation{font-size:18px;border-left:4px solid var(--accent);padding:4px 16px;background:var(--card);border-radius:0 8px 8px 0}
footer{margin-top:40px;font-size:13px;color:var(--muted)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (prefers-reduced-motion: reduce){*{transition:none!important;animation:none!important}}
"""#

    static let script = #"""
(function () {
"use strict";
var data = JSON.parse(document.getElementById("holdlab-data").textContent);
var SVG = "http://www.w3.org/2000/svg";
var main = document.getElementById("main");
function el(tag, attrs, text) {
  var node = document.createElement(tag);
  if (attrs) { for (var key in attrs) { node.setAttribute(key, attrs[key]); } }
  if (text !== undefined && text !== null) { node.textContent = String(text); }
  return node;
}
function sv(tag, attrs, text) {
  var node = document.createElementNS(SVG, tag);
  if (attrs) { for (var key in attrs) { node.setAttribute(key, attrs[key]); } }
  if (text !== undefined && text !== null) { node.textContent = String(text); }
  return node;
}
function add(parent, child) { parent.appendChild(child); return child; }
function runs(parent, list) {
  list.forEach(function (run) {
    if (run[0] === "b") { add(parent, el("strong", null, run[1])); }
    else if (run[0] === "c") { add(parent, el("code", null, run[1])); }
    else if (run[0] === "i") { add(parent, el("em", null, run[1])); }
    else { parent.appendChild(document.createTextNode(run[1])); }
  });
  return parent;
}
function pct(value) {
  if (value === null || value === undefined) { return "–"; }
  var x = value * 100;
  return x.toFixed(x !== 0 && Math.abs(x) < 1 ? 2 : 1) + " %";
}
function pctBare(value) { var text = pct(value); return text.slice(0, text.length - 2); }
function ms(value) { return value === null || value === undefined ? "–" : Math.round(value) + " ms"; }
function section(title, id) {
  var node = add(main, el("section", { id: id, "aria-labelledby": id + "-h" }));
  add(node, el("h2", { id: id + "-h" }, title));
  return node;
}
function column(table, name) { return table.columns.indexOf(name); }
function cellText(table, row, index) {
  var value = row[index];
  if (value === null) { return "NaN"; }
  return String(value);
}

// The recommendation.
if (data.recommendation.length > 0) {
  var rec = section("Recommendation", "recommendation");
  data.recommendation.forEach(function (paragraph, index) {
    runs(add(rec, el("p", index === 0 ? { "class": "recommendation", id: "recommendation-text" } : null)), paragraph);
  });
}
add(section("Review", "about"), el("p", { "class": "muted" },
  "Simulated with holdlab " + data.version + ": " + data.usersPhrase + " (seed " + data.seed +
  "), every design on the same people. Populations: " + data.populations.join(", ") + "."));

// The holds: every design's trace frames, on one clock, at one release time.
var designs = data.designs;
var holdsSection = section("Each design's hold", "holds");
add(holdsSection, el("p", { "class": "muted" },
  "The fill as each display draws it: holdlab trace's frames at the profile's refresh rate (the last frame at or before each instant). " +
  "A dot flashes when a haptic pulse plays. The timeline marks the first frame that looks full (square), the instant the action fires (circle), the release (dashed) and the pulses (ticks)."));
var controls = add(holdsSection, el("div", { "class": "controls", role: "group", "aria-label": "Animation controls" }));
var playButton = add(controls, el("button", { type: "button", id: "play", "aria-pressed": "false" }, "Play"));
var timeLabel = add(controls, el("label", { "for": "time" }, "Time"));
var timeInput = add(timeLabel, el("input", { type: "range", id: "time", min: "0", max: "1000", step: "1", value: "0", "aria-describedby": "time-value" }));
var timeValue = add(controls, el("output", { id: "time-value", "for": "time", "aria-live": "off" }, "0 ms"));
var releaseLabel = add(controls, el("label", { "for": "release" }, "Release"));
var grid = designs.length > 0 && designs[0].holds ? designs[0].holds.map(function (hold) { return hold.releaseMs; }) : [];
var releaseInput = add(releaseLabel, el("input", { type: "range", id: "release", min: "0", max: String(Math.max(0, grid.length - 1)), step: "1", value: String(Math.max(0, grid.length - 1)), "aria-describedby": "release-value" }));
var releaseValue = add(controls, el("output", { id: "release-value", "for": "release", "aria-live": "polite" }));
var speedLabel = add(controls, el("label", { "for": "speed" }, "Speed"));
var speedInput = add(speedLabel, el("select", { id: "speed" }));
[["1", "1×"], ["0.25", "¼×"], ["0.1", "1/10×"]].forEach(function (option) { add(speedInput, el("option", { value: option[0] }, option[1])); });

var cards = add(holdsSection, el("div", { "class": "cards" }));
var views = designs.map(function (design, index) {
  var card = add(cards, el("article", { "class": "card", id: "design-" + index, "aria-labelledby": "design-" + index + "-h" }));
  var heading = add(card, el("h3", { id: "design-" + index + "-h" }));
  add(heading, el("span", { "class": "label" }, design.label));
  if (design.baseline) { add(heading, el("span", { "class": "badge" }, "baseline")); }
  var meta = add(card, el("p", { "class": "muted" }));
  add(meta, el("code", null, design.profile));
  meta.appendChild(document.createTextNode(" (" + design.hash + ")" + (design.sets.length ? " with " : "")));
  design.sets.forEach(function (set) { add(meta, el("code", null, set)); meta.appendChild(document.createTextNode(" ")); });
  meta.appendChild(document.createTextNode(" · " + design.refreshHz + " Hz display"));
  if (design.description) { add(card, el("p", { "class": "description" }, design.description)); }
  var stage = add(card, el("div", { "class": "stage" }));
  var track = add(stage, el("div", { "class": "track", role: "progressbar", "aria-valuemin": "0", "aria-valuemax": "100", "aria-label": design.label + ": displayed fill" }));
  var fill = add(track, el("div", { "class": "fill" }));
  var dot = add(stage, el("div", { "class": "dot", title: "haptic pulse", "aria-hidden": "true" }));
  var status = add(stage, el("div", { "class": "status" }));
  var readout = add(card, el("p", { "class": "readout" }));
  var outcome = add(card, el("p", { "class": "outcome muted", id: "design-" + index + "-outcome" }));
  var timeline = add(card, sv("svg", { "class": "timeline", viewBox: "0 0 1000 130", role: "img" }));
  return { design: design, track: track, fill: fill, dot: dot, status: status, readout: readout, outcome: outcome, timeline: timeline, playhead: null };
});

var state = { t: 0, release: Math.max(0, grid.length - 1), playing: false, startClock: 0, startT: 0, speed: 1, end: 1000 };
function hold(view) { return view.design.holds[state.release]; }
// The last row at or before t: the frame the display shows (as trace's displayed_progress).
function rowAt(hold, t) {
  var rows = hold.rows, low = 0, high = rows.length;
  while (low < high) { var middle = (low + high) >> 1; if (rows[middle][0] <= t) { low = middle + 1; } else { high = middle; } }
  return low === 0 ? null : rows[low - 1];
}
function eventIndex(hold, name) { return hold.events.indexOf(name); }
function timeOf(hold, name) {
  var code = eventIndex(hold, name);
  for (var i = 0; i < hold.rows.length; i++) { if (hold.rows[i][3] === code) { return hold.rows[i][0]; } }
  return null;
}
function x(t) { return 50 + 920 * t / state.end; }

function drawTimeline(view) {
  var h = hold(view), svg = view.timeline;
  while (svg.firstChild) { svg.removeChild(svg.firstChild); }
  var full = h.fullMs, fire = h.triggerMs, release = h.pressEndMs;
  var pulseCode = eventIndex(h, "pulse"), completionCode = eventIndex(h, "completion_pulse"), pulses = [];
  h.rows.forEach(function (row) { if (row[3] === pulseCode || row[3] === completionCode) { pulses.push(row); } });
  var summary = view.design.label + ": " + (full === null ? "the bar never looks full" : "the bar first looks full at " + ms(full)) + ", " +
    (fire === null ? "the action does not fire" : "the action fires at " + ms(fire)) + ", released at " + ms(release) + ", " + pulses.length + " haptic pulses.";
  add(svg, sv("title", null, summary));
  svg.setAttribute("aria-label", summary);
  view.outcome.textContent = (h.completed ? "Action fires at " + ms(fire) : "Released at " + ms(release) + ": no action") +
    (full === null ? "; the bar never looks full." : "; the bar looks full at " + ms(full) + ".");
  add(svg, sv("line", { "class": "axis", x1: 50, x2: 970, y1: 100, y2: 100 }));
  add(svg, sv("line", { "class": "axis", x1: 50, x2: 50, y1: 10, y2: 100 }));
  add(svg, sv("text", { x: 44, y: 16, "text-anchor": "end" }, "1"));
  add(svg, sv("text", { x: 44, y: 104, "text-anchor": "end" }, "0"));
  for (var tick = 0; tick <= state.end; tick += state.end > 2000 ? 500 : 250) {
    add(svg, sv("text", { x: x(tick), y: 122, "text-anchor": "middle" }, tick + " ms"));
  }
  var path = "M" + x(0) + " 100", last = 0;
  h.rows.forEach(function (row) { var y = 100 - 90 * row[1]; path += " H" + x(row[0]).toFixed(2) + " V" + y.toFixed(2); last = row[0]; });
  path += " H" + x(state.end).toFixed(2);
  add(svg, sv("path", { "class": "curve", d: path }));
  pulses.forEach(function (row) { add(svg, sv("line", { "class": "pulse", x1: x(row[0]), x2: x(row[0]), y1: 92, y2: 100 })); });
  if (release !== null && !h.completed) { add(svg, sv("line", { "class": "release", x1: x(release), x2: x(release), y1: 10, y2: 100 })); }
  if (full !== null) { add(svg, sv("rect", { "class": "full", x: x(full) - 5, y: 5, width: 10, height: 10 })); add(svg, sv("text", { x: x(full) + 8, y: 14 }, "looks full " + ms(full))); }
  if (fire !== null) { add(svg, sv("circle", { "class": "fire", cx: x(fire), cy: 30, r: 6 })); add(svg, sv("text", { x: x(fire) + 8, y: 34 }, "fires " + ms(fire))); }
  view.playhead = add(svg, sv("line", { "class": "playhead", x1: x(state.t), x2: x(state.t), y1: 5, y2: 105 }));
}

function setRelease(index) {
  state.release = Math.max(0, Math.min(grid.length - 1, index));
  releaseInput.value = String(state.release);
  var releaseMs = grid[state.release];
  releaseValue.textContent = releaseMs === null ? "held to the end" : "released at " + (releaseMs / 1000).toFixed(2) + " s";
  var end = 0;
  views.forEach(function (view) { end = Math.max(end, hold(view).endMs); });
  state.end = Math.ceil((end + 250) / 50) * 50;
  timeInput.max = String(state.end);
  views.forEach(drawTimeline);
  render();
}

function render() {
  var t = state.t;
  timeInput.value = String(t);
  timeValue.textContent = t.toFixed(1) + " ms";
  views.forEach(function (view) {
    var h = hold(view), row = rowAt(h, t), shown = row === null ? 0 : row[1];
    view.fill.style.width = (shown * 100) + "%";
    view.track.setAttribute("aria-valuenow", (shown * 100).toFixed(1));
    var frameMs = 1000 / view.design.refreshHz, pulseCode = eventIndex(h, "pulse"), completionCode = eventIndex(h, "completion_pulse");
    var flash = false, completion = false;
    h.rows.forEach(function (r) {
      if ((r[3] === pulseCode || r[3] === completionCode) && r[0] > t - frameMs && r[0] <= t) { flash = true; completion = completion || r[3] === completionCode; }
    });
    view.dot.className = "dot" + (flash ? " flash" : "") + (completion ? " completion" : "");
    var recognized = timeOf(h, "recognized");
    var status, kind = "";
    if (h.triggerMs !== null && h.triggerMs <= t) { status = "action fired"; kind = " fired"; }
    else if (h.pressEndMs <= t) { status = "released: cancelled"; kind = " released"; }
    else if (recognized === null || t < recognized) { status = "holding…"; }
    else { status = "recognised: holding…"; }
    view.status.className = "status" + kind;
    view.status.textContent = status;
    view.readout.textContent = "shown " + (shown * 100).toFixed(1) + " % · pulses " + (row === null ? 0 : row[2]);
    if (view.playhead) { view.playhead.setAttribute("x1", x(t)); view.playhead.setAttribute("x2", x(t)); }
  });
}

function tick(clock) {
  if (!state.playing) { return; }
  state.t = Math.min(state.end, state.startT + (clock - state.startClock) * state.speed);
  render();
  if (state.t >= state.end) { pause(); } else { window.requestAnimationFrame(tick); }
}
function play() {
  if (state.t >= state.end) { state.t = 0; }
  state.playing = true;
  state.startT = state.t;
  state.startClock = performance.now();
  playButton.textContent = "Pause";
  playButton.setAttribute("aria-pressed", "true");
  window.requestAnimationFrame(tick);
}
function pause() {
  state.playing = false;
  playButton.textContent = "Play";
  playButton.setAttribute("aria-pressed", "false");
}
function toggle() { if (state.playing) { pause(); } else { play(); } }
// The hook the scrubber uses, and a test: show the instant `seconds` after touch-down (paused).
window.holdlabSeek = function (seconds) { pause(); state.t = Math.max(0, Math.min(state.end, seconds * 1000)); render(); return state.t; };
window.holdlabRelease = function (index) { setRelease(index); return grid[state.release]; };
playButton.addEventListener("click", toggle);
timeInput.addEventListener("input", function () { window.holdlabSeek(Number(timeInput.value) / 1000); });
releaseInput.addEventListener("input", function () { var playing = state.playing; pause(); setRelease(Number(releaseInput.value)); if (playing) { play(); } });
speedInput.addEventListener("change", function () { var playing = state.playing; pause(); state.speed = Number(speedInput.value); if (playing) { play(); } });
document.addEventListener("keydown", function (event) {
  var tag = event.target && event.target.tagName;
  if ((event.key === " " || event.key === "k") && tag !== "BUTTON" && tag !== "SELECT" && tag !== "SUMMARY") { event.preventDefault(); toggle(); }
});
if (grid.length > 0) { setRelease(grid.length - 1); } else { holdsSection.hidden = true; }

// Rates per population (designs.csv) and the findings.
var designsTable = data.tables["designs.csv"];
var findings = section("Findings", "findings");
data.findings.forEach(function (group, groupIndex) {
  add(findings, el("h3", null, group.population));
  var list = add(findings, el("ul"));
  group.sentences.forEach(function (sentence) { runs(add(list, el("li")), sentence); });
  if (!designsTable) { return; }
  var table = add(findings, el("table", { id: "rates-" + groupIndex }));
  add(table, el("caption", { "class": "sr" }, "Rates for " + group.population + " users, 95 % Wilson intervals (designs.csv)"));
  var head = add(add(table, el("thead")), el("tr"));
  ["design", "completion (95 % CI)", "false activation (95 % CI)", "mean time to confirm"].forEach(function (name) { add(head, el("th", { scope: "col" }, name)); });
  var body = add(table, el("tbody"));
  var d = column(designsTable, "design"), p = column(designsTable, "population");
  designsTable.rows.forEach(function (row) {
    if (row[p] !== group.population) { return; }
    var tr = add(body, el("tr"));
    add(tr, el("th", { scope: "row" }, row[d]));
    ["completion_rate", "false_activation_rate"].forEach(function (metric) {
      var v = row[column(designsTable, metric)], lo = row[column(designsTable, metric + "_lo")], hi = row[column(designsTable, metric + "_hi")];
      add(tr, el("td", { "class": "num", "data-metric": metric }, pct(v) + " (" + pctBare(lo) + "–" + pctBare(hi) + ")"));
    });
    var mean = column(designsTable, "completion_time_mean_ms");
    add(tr, el("td", { "class": "num" }, mean < 0 ? "–" : ms(row[mean])));
  });
});

// The sweeps: move along the swept key and read each rate with its interval.
if (data.sweeps.length > 0) {
  var sweepsSection = section("Sweeps", "sweeps");
  data.sweeps.forEach(function (sweep, sweepIndex) {
    var table = data.tables[sweep.file];
    if (!table) { return; }
    var xi = column(table, sweep.column);
    var points = table.rows.map(function (row) { return row[xi]; });
    var numeric = points.every(function (v) { return typeof v === "number"; });
    var block = add(sweepsSection, el("div", { "class": "sweep", id: "sweep-" + sweepIndex }));
    var heading = add(block, el("h3"));
    heading.appendChild(document.createTextNode(sweep.baselineLabel + " over "));
    add(heading, el("code", null, sweep.key));
    heading.appendChild(document.createTextNode(" (" + sweep.file + ")"));
    var baseIndex = -1;
    points.forEach(function (v, i) { if (sweep.baselineValue !== null && (String(v) === sweep.baselineValue || (numeric && Number(sweep.baselineValue) === v))) { baseIndex = i; } });
    var baseNumber = numeric && sweep.baselineValue !== null && isFinite(Number(sweep.baselineValue)) ? Number(sweep.baselineValue) : null;
    add(block, el("p", { "class": "muted" }, sweep.baselineValue === null ? "" : "The baseline design has " + sweep.key + " = " + sweep.baselineValue + " (dashed line)."));
    var label = add(block, el("label", { "for": "sweep-" + sweepIndex + "-slider" }, sweep.key + " "));
    var slider = add(label, el("input", { type: "range", id: "sweep-" + sweepIndex + "-slider", min: "0", max: String(points.length - 1), step: "1", value: String(baseIndex >= 0 ? baseIndex : 0), "aria-describedby": "sweep-" + sweepIndex + "-readout" }));
    var readout = add(block, el("p", { "class": "readout", id: "sweep-" + sweepIndex + "-readout", "aria-live": "polite" }));
    var charts = add(block, el("div", { "class": "charts" }));
    var metrics = [["completion_rate", "completion"], ["false_activation_rate", "false activation"]];
    var lo = numeric ? Math.min.apply(null, points) : 0, hi = numeric ? Math.max.apply(null, points) : points.length - 1;
    if (baseNumber !== null) { lo = Math.min(lo, baseNumber); hi = Math.max(hi, baseNumber); }
    if (hi === lo) { hi = lo + 1; }
    function px(i) { var v = numeric ? points[i] : i; return 70 + 460 * (v - lo) / (hi - lo); }
    var selections = metrics.map(function (metric) {
      var mi = column(table, metric[0]), li = column(table, metric[0] + "_lo"), ui = column(table, metric[0] + "_hi");
      var values = [];
      table.rows.forEach(function (row) { [row[mi], row[li], row[ui]].forEach(function (v) { if (typeof v === "number") { values.push(v); } }); });
      var ymin = Math.min.apply(null, values), ymax = Math.max.apply(null, values);
      if (!(ymax > ymin)) { ymin -= 0.01; ymax += 0.01; }
      var pad = (ymax - ymin) * 0.08; ymin = Math.max(0, ymin - pad); ymax = Math.min(1, ymax + pad);
      function py(v) { return 230 - 200 * (v - ymin) / (ymax - ymin); }
      var description = metric[1] + " rate of " + sweep.baselineLabel + " against " + sweep.key + ", " + points.length + " points, from " +
        pct(table.rows[0][mi]) + " at " + points[0] + " to " + pct(table.rows[points.length - 1][mi]) + " at " + points[points.length - 1] +
        " (95 % intervals; the table below lists every point)";
      var svg = add(charts, sv("svg", { "class": "chart", viewBox: "0 0 560 280", role: "img", "aria-label": description, id: "sweep-" + sweepIndex + "-" + metric[0] }));
      add(svg, sv("title", null, description));
      add(svg, sv("line", { "class": "axis", x1: 60, x2: 540, y1: 240, y2: 240 }));
      add(svg, sv("line", { "class": "axis", x1: 60, x2: 60, y1: 20, y2: 240 }));
      add(svg, sv("text", { x: 300, y: 14, "text-anchor": "middle" }, metric[1] + " rate"));
      [ymin, (ymin + ymax) / 2, ymax].forEach(function (v) { add(svg, sv("text", { x: 56, y: py(v) + 4, "text-anchor": "end" }, pct(v))); });
      points.forEach(function (v, i) { add(svg, sv("text", { x: px(i), y: 258, "text-anchor": "middle" }, String(v))); });
      add(svg, sv("text", { x: 300, y: 276, "text-anchor": "middle" }, sweep.key));
      if (baseNumber !== null || baseIndex >= 0) {
        var bx = baseNumber !== null ? 70 + 460 * (baseNumber - lo) / (hi - lo) : px(baseIndex);
        add(svg, sv("line", { "class": "base", x1: bx, x2: bx, y1: 20, y2: 240 }));
        add(svg, sv("text", { "class": "basetext", x: bx + 4, y: 34 }, "baseline"));
      }
      var path = "";
      table.rows.forEach(function (row, i) {
        if (typeof row[mi] !== "number") { return; }
        if (typeof row[li] === "number" && typeof row[ui] === "number") { add(svg, sv("line", { "class": "bar", x1: px(i), x2: px(i), y1: py(row[li]), y2: py(row[ui]) })); }
        add(svg, sv("circle", { "class": "pt", cx: px(i), cy: py(row[mi]), r: 4 }));
        path += (path ? " L" : "M") + px(i).toFixed(2) + " " + py(row[mi]).toFixed(2);
      });
      add(svg, sv("path", { "class": "series", d: path }));
      var line = add(svg, sv("line", { "class": "sel", x1: 0, x2: 0, y1: 20, y2: 240 }));
      var dot = add(svg, sv("circle", { "class": "selpt", r: 6, cx: 0, cy: 0 }));
      return function (i) {
        line.setAttribute("x1", px(i)); line.setAttribute("x2", px(i));
        var v = table.rows[i][mi];
        dot.setAttribute("cx", px(i)); dot.setAttribute("cy", typeof v === "number" ? py(v) : -100);
      };
    });
    function show(i) {
      slider.value = String(i);
      while (readout.firstChild) { readout.removeChild(readout.firstChild); }
      add(readout, el("strong", { "class": "point", "data-value": String(points[i]) }, sweep.key + " = " + points[i] + (i === baseIndex ? " (baseline)" : "")));
      metrics.forEach(function (metric) {
        var row = table.rows[i];
        readout.appendChild(document.createTextNode(" · " + metric[1] + " "));
        add(readout, el("span", { "data-metric": metric[0] }, pct(row[column(table, metric[0])])));
        readout.appendChild(document.createTextNode(" (95 % CI "));
        add(readout, el("span", { "data-metric": metric[0] + "_lo" }, pctBare(row[column(table, metric[0] + "_lo")])));
        readout.appendChild(document.createTextNode("–"));
        add(readout, el("span", { "data-metric": metric[0] + "_hi" }, pctBare(row[column(table, metric[0] + "_hi")])));
        readout.appendChild(document.createTextNode(" %)"));
      });
      selections.forEach(function (select) { select(i); });
    }
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    show(Number(slider.value));
    var details = add(block, el("details"));
    add(details, el("summary", null, "Every point as a table"));
    var t = add(details, el("table"));
    var hr = add(add(t, el("thead")), el("tr"));
    [sweep.key, "completion (95 % CI)", "false activation (95 % CI)"].forEach(function (name) { add(hr, el("th", { scope: "col" }, name)); });
    var tb = add(t, el("tbody"));
    table.rows.forEach(function (row, i) {
      var tr = add(tb, el("tr"));
      add(tr, el("th", { scope: "row" }, String(points[i]) + (i === baseIndex ? " (baseline)" : "")));
      metrics.forEach(function (metric) {
        add(tr, el("td", { "class": "num" }, pct(row[column(table, metric[0])]) + " (" + pctBare(row[column(table, metric[0] + "_lo")]) + "–" + pctBare(row[column(table, metric[0] + "_hi")]) + ")"));
      });
    });
  });
}

// A CSV as a table: every cell as the CSV writes it; rule statuses coloured.
function plainTable(parent, name, caption) {
  var table = data.tables[name];
  if (!table) { return; }
  var node = add(parent, el("table", { id: "table-" + name.replace(/[^a-z0-9]/g, "-") }));
  add(node, el("caption", { "class": "sr" }, caption));
  var head = add(add(node, el("thead")), el("tr"));
  table.columns.forEach(function (name) { add(head, el("th", { scope: "col" }, name)); });
  var body = add(node, el("tbody"));
  table.rows.forEach(function (row) {
    var tr = add(body, el("tr"));
    row.forEach(function (value, index) {
      var text = cellText(table, row, index);
      var cls = typeof value === "number" ? "num" : (text === "pass" || text === "warn" || text === "fail") ? text : "";
      add(tr, el("td", cls ? { "class": cls } : null, text));
    });
  });
}
if (data.tables["scorecard.csv"]) {
  var scorecard = section("Scorecard", "scorecard");
  add(scorecard, el("p", { "class": "muted" }, "Each design's rates, time to confirm and rule results per population (scorecard.csv)."));
  plainTable(scorecard, "scorecard.csv", "Scorecard");
}
var checks = section("Guideline checks", "checks");
add(checks, el("p", { "class": "muted" }, "Every rule on every design, simulated against " + data.checkPopulation + " (checks.csv; each fix placed where the design's values are given, as report.md places it)."));
plainTable(checks, "checks.csv", "Guideline rule results");

var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
performance.mark("holdlab-ready");
document.documentElement.setAttribute("data-ready", "1");
// Motion only on request when the reader asked for less of it.
if (!reduce && grid.length > 0) { state.t = 0; play(); }
})();
"""#
}
