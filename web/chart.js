// The profile's six-month trend, drawn as SVG: games (bars) and wins (the darker part) per
// month, and the win rate as a line. Six points need no charting library; this keeps the
// chart crisp on any screen, in the page's colours, and named for screen readers.
const W = 360;
const H = 180;
const PAD = { left: 28, right: 34, top: 12, bottom: 28 };
const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

function monthLabel(month) {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(undefined, { month: "short", timeZone: "UTC" });
}

/** An <svg role="img"> named "Six-month trend", described month by month in words. */
export function trendChart(months) {
  const most = Math.max(1, ...months.map((m) => m.games));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, months.length);
  const bar = step * 0.55;
  const y = (n) => PAD.top + plotH - (n / most) * plotH;
  const words = months.map((m) => `${monthLabel(m.month)}: ${m.games} games, ${m.wins} won`).join("; ");
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Six-month trend. ${words}.`, class: "trend" });
  svg.append(el("title", {}, "Six-month trend"));
  for (const n of [0, most]) {
    svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: y(n), y2: y(n), class: "grid" }));
    svg.append(el("text", { x: PAD.left - 6, y: y(n) + 4, "text-anchor": "end", class: "tick" }, String(n)));
  }
  svg.append(el("text", { x: W - PAD.right + 6, y: PAD.top + 4, class: "tick" }, "100%"));
  svg.append(el("text", { x: W - PAD.right + 6, y: PAD.top + plotH + 4, class: "tick" }, "0%"));
  const points = [];
  months.forEach((m, i) => {
    const x = PAD.left + i * step + (step - bar) / 2;
    svg.append(el("rect", { x, y: y(m.games), width: bar, height: PAD.top + plotH - y(m.games), class: "games", rx: 2 }));
    svg.append(el("rect", { x, y: y(m.wins), width: bar, height: PAD.top + plotH - y(m.wins), class: "wins", rx: 2 }));
    svg.append(el("text", { x: x + bar / 2, y: H - 8, "text-anchor": "middle", class: "tick" }, monthLabel(m.month)));
    if (m.games) points.push([x + bar / 2, PAD.top + plotH - (m.wins / m.games) * plotH]);
  });
  if (points.length > 1) svg.append(el("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "rate" }));
  for (const [cx, cy] of points) svg.append(el("circle", { cx, cy, r: 3, class: "rate-dot" }));
  return svg;
}
