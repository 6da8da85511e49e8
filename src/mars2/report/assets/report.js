// mars2 report: the interactive search-tree view. Reads the JSON in #mars2-data; no network.
"use strict";
(function () {
  const source = document.getElementById("mars2-data");
  const select = document.getElementById("tree-select");
  if (!source || !select) return; // a report without trees
  const data = JSON.parse(source.textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const DX = 34, DY = 64, R = 11, PAD = 30;
  const state = { tree: null, colourBy: "score", selected: null };

  function el(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function html(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function hex(rgb) {
    return "#" + rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");
  }
  // Same ramp as mars2.report.treeview.score_color.
  function scoreColour(score) {
    const s = Math.min(Math.max(score, 0), 1);
    const stops = data.score_stops;
    for (let i = 0; i + 1 < stops.length; i++) {
      const [a, ca] = stops[i], [b, cb] = stops[i + 1];
      if (s <= b) {
        const t = (s - a) / (b - a);
        return hex(ca.map((x, j) => x + (cb[j] - x) * t));
      }
    }
    return hex(stops[stops.length - 1][1]);
  }
  // Dark text on light fills, white on dark ones (relative luminance, sRGB weights).
  function ink(colour) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 140 ? "#fff" : "#111";
  }
  function agentColour(id) { return data.agent_colors[id % data.agent_colors.length]; }
  function agentName(tree, id) {
    const names = data.runs[tree.run].agents;
    return id < names.length ? names[id] : "agent" + id;
  }
  function fill(tree, n) {
    return state.colourBy === "score" ? scoreColour(n.score) : agentColour(n.agent);
  }

  // Selector: one option group per run and trees file.
  data.trees.forEach((tree, i) => {
    const label = data.runs[tree.run].name + " · " + tree.source;
    let group = Array.from(select.children).find((g) => g.label === label);
    if (!group) { group = html("optgroup"); group.label = label; select.appendChild(group); }
    const best = tree.nodes.reduce((m, n) => Math.max(m, n.score), 0);
    const solved = tree.nodes.some((n) => n.passed) ? " ✓" : "";
    const opt = html("option", "", tree.problem + " — " + tree.nodes.length + " nodes, best " +
                     best.toFixed(2) + solved);
    opt.value = String(i);
    group.appendChild(opt);
  });

  function pathTo(tree, id) {
    const byId = new Map(tree.nodes.map((n) => [n.id, n]));
    const ids = new Set();
    for (let n = byId.get(id); n; n = n.parent === null ? null : byId.get(n.parent)) ids.add(n.id);
    return ids;
  }

  // Redraw the tree; `centre` (a layout x) scrolls the canvas to it, else the scroll is kept.
  function draw(centre) {
    const tree = state.tree, canvas = document.getElementById("tree-canvas");
    const scroll = canvas.scrollLeft;
    canvas.textContent = "";
    const width = Math.max(tree.root_x, ...tree.nodes.map((n) => n.x)) + 1;
    const depth = Math.max(0, ...tree.nodes.map((n) => n.d));
    const w = Math.max(width * DX + 2 * PAD, 300), h = depth * DY + 2 * PAD;
    const x0 = (w - (width - 1) * DX) / 2;
    const X = (x) => x0 + x * DX, Y = (d) => PAD + d * DY;
    const fit = document.getElementById("tree-fit").checked;
    const svg = el("svg", { xmlns: SVG, width: fit ? "100%" : w, viewBox: `0 0 ${w} ${h}`,
                            "font-family": "sans-serif", "font-size": 10 });
    if (!fit) svg.setAttribute("height", String(h));
    const byId = new Map(tree.nodes.map((n) => [n.id, n]));
    const onPath = state.selected === null ? new Set() : pathTo(tree, state.selected);
    for (const n of tree.nodes) {
      const p = n.parent === null ? { x: tree.root_x, d: 0 } : byId.get(n.parent);
      const cls = "edge" + (onPath.has(n.id) ? " on-path" : "");
      svg.appendChild(el("path", { class: cls, d: `M${X(p.x)},${Y(p.d)} C${X(p.x)},${Y(p.d) + DY / 2} ` +
                                   `${X(n.x)},${Y(n.d) - DY / 2} ${X(n.x)},${Y(n.d)}` }));
    }
    const root = el("g", { class: "root" });
    root.appendChild(el("rect", { x: X(tree.root_x) - R, y: Y(0) - R, width: 2 * R, height: 2 * R,
                                  rx: 3, fill: "#555" }));
    root.appendChild(el("title", {}, "problem " + tree.problem));
    svg.appendChild(root);
    for (const n of tree.nodes) {
      const g = el("g", { class: "node" + (n.id === state.selected ? " selected" : ""),
                          "data-node": n.id, transform: `translate(${X(n.x)},${Y(n.d)})` });
      if (n.id === tree.best) g.appendChild(el("circle", { r: R + 5, fill: "none", stroke: "#111" }));
      g.appendChild(el("circle", { class: "dot", r: R, fill: fill(tree, n),
                                   stroke: n.passed ? "#111" : "#fff",
                                   "stroke-width": n.passed ? 3 : 1.5 }));
      g.appendChild(el("text", { "text-anchor": "middle", dy: "0.35em", fill: ink(fill(tree, n)),
                                 "pointer-events": "none" }, String(n.id)));
      g.appendChild(el("title", {}, `node ${n.id} by ${agentName(tree, n.agent)}: score ` +
                       `${n.score.toFixed(2)}, ${n.passed ? "passes" : "fails"} hidden tests`));
      g.addEventListener("click", () => selectNode(n.id));
      svg.appendChild(g);
    }
    canvas.appendChild(svg);
    canvas.scrollLeft = typeof centre === "number" ? X(centre) - canvas.clientWidth / 2 : scroll;
    legend(tree);
  }

  function legend(tree) {
    const box = document.getElementById("tree-legend");
    box.textContent = "";
    if (state.colourBy === "score") {
      const ramp = html("span", "ramp");
      ramp.style.background = "linear-gradient(to right, " +
        [0, 0.25, 0.5, 0.75, 1].map(scoreColour).join(", ") + ")";
      const item = html("span");
      item.append("score 0", ramp, "1");
      box.appendChild(item);
    } else {
      const agents = [...new Set(tree.nodes.map((n) => n.agent))].sort((a, b) => a - b);
      for (const a of agents) {
        const item = html("span"), sw = html("span", "sw");
        sw.style.background = agentColour(a);
        item.append(sw, agentName(tree, a));
        box.appendChild(item);
      }
    }
    box.appendChild(html("span", "", "thick dark ring: passes hidden tests · outer ring: " +
                         "Pass@1(MCTS) pick · square: the problem (root) · edges: refinement"));
  }

  function fact(list, key, value) {
    list.appendChild(html("div", "", key));
    const cell = html("div");
    if (value instanceof Node) cell.appendChild(value); else cell.textContent = String(value);
    list.appendChild(cell);
  }

  function selectNode(id, centre) {
    const tree = state.tree, n = tree.nodes.find((m) => m.id === id);
    if (!n) return;
    state.selected = id;
    draw(centre ? n.x : undefined);
    const box = document.getElementById("node-details");
    box.textContent = "";
    box.appendChild(html("h3", "", `Node ${n.id} · ${agentName(tree, n.agent)}`));
    const facts = html("div", "facts");
    fact(facts, "problem", tree.problem);
    fact(facts, "score (public)", n.score.toFixed(3));
    fact(facts, "passed (hidden)", html("span", "badge " + (n.passed ? "pass" : "fail"),
                                        n.passed ? "passed" : "failed"));
    fact(facts, "reward", n.reward.toFixed(3));
    fact(facts, "depth", n.d);
    if (n.parent === null) {
      fact(facts, "parent", "root (fresh attempt)");
    } else {
      const link = html("a", "parent-link", `node ${n.parent} (refines it)`);
      link.addEventListener("click", () => selectNode(n.parent, true));
      fact(facts, "parent", link);
    }
    const kids = tree.nodes.filter((m) => m.parent === n.id);
    if (kids.length) {
      const list = html("span");
      kids.forEach((k, i) => {
        const link = html("a", "parent-link", "node " + k.id);
        link.addEventListener("click", () => selectNode(k.id, true));
        list.append(i ? ", " : "", link);
      });
      fact(facts, "refined by", list);
    }
    fact(facts, "response tokens", n.len);
    if (n.id === tree.best) fact(facts, "pick", "Pass@1(MCTS) pick of this tree");
    box.appendChild(facts);
    box.appendChild(html("h4", "", "Code"));
    box.appendChild(html("pre", "node-code", n.code || "(no code)"));
    box.appendChild(html("h4", "", "Feedback"));
    box.appendChild(html("pre", "node-feedback", n.feedback || "(no feedback)"));
  }

  // Shareable position: #tree=<index>&node=<id> (kept up to date as the user clicks).
  function remember() {
    const node = state.selected === null ? "" : "&node=" + state.selected;
    history.replaceState(null, "", "#tree=" + data.trees.indexOf(state.tree) + node);
  }
  function restore() {
    const m = /^#tree=(\d+)(?:&node=(-?\d+))?$/.exec(location.hash);
    if (!m || Number(m[1]) >= data.trees.length) return false;
    showTree(Number(m[1]));
    if (m[2] !== undefined) selectNode(Number(m[2]), true);
    document.getElementById("trees").scrollIntoView();
    return true;
  }

  function showTree(index) {
    state.tree = data.trees[index];
    state.selected = null;
    select.value = String(index);
    draw(state.tree.root_x);
    const box = document.getElementById("node-details");
    box.textContent = "";
    box.appendChild(html("p", "note", "Click a node to see its code and feedback."));
  }

  function download() {
    const svg = document.querySelector("#tree-canvas svg");
    if (!svg) return;
    const blob = new Blob([new XMLSerializer().serializeToString(svg)], { type: "image/svg+xml" });
    const a = html("a");
    a.href = URL.createObjectURL(blob);
    a.download = "tree-" + state.tree.problem.replace(/[^A-Za-z0-9_.-]+/g, "-") + ".svg";
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  const checked = document.querySelector('input[name="colour-by"]:checked');
  if (checked) state.colourBy = checked.value;
  select.addEventListener("change", () => showTree(Number(select.value)));
  // Filter the selector by problem id (substring); the first match is shown.
  const filter = document.getElementById("tree-filter");
  filter.addEventListener("input", () => {
    const query = filter.value.trim().toLowerCase();
    let first = null;
    for (const opt of select.querySelectorAll("option")) {
      const tree = data.trees[Number(opt.value)];
      opt.hidden = query !== "" && !tree.problem.toLowerCase().includes(query);
      if (!opt.hidden && first === null) first = opt;
    }
    if (first !== null && select.selectedOptions[0].hidden) {
      showTree(Number(first.value));
      remember();
    }
  });
  for (const radio of document.querySelectorAll('input[name="colour-by"]')) {
    radio.addEventListener("change", () => { state.colourBy = radio.value; draw(); });
  }
  document.getElementById("tree-download").addEventListener("click", download);
  document.getElementById("tree-fit").addEventListener("change", () => draw());
  if (data.trees.length && !restore()) showTree(0);
  select.addEventListener("change", remember);
  document.getElementById("tree-canvas").addEventListener("click", remember);
  window.mars2Report = { showTree, selectNode, state };
})();
