// Charts drawn in the page as SVG from the statistics' JSON: horizontal bars (with an interval or
// a comparison mark), stacked bars, columns and a calendar heat map. Each is drawn at the width
// it is given on screen (redrawn when that changes), so its text stays at its own size on a phone;
// every mark can be focused and names its value, shown on hover, tap and focus.
import { h, s, clear } from './dom.js';
import { t, num } from './i18n.js';

export const PALETTE = ['#0b6bcb', '#c25400', '#17723e', '#b0307a', '#6d4fc2', '#7a6a00', '#007c89', '#8a3b12', '#4f5d75', '#a3241b', '#3d7a00'];
const FONT = 13;
const LINE = 22;

// A figure that draws itself at its width: draw(width) returns the svg.
function figure(label, draw, { caption, legend } = {}) {
  const tip = h('div', { class: 'sv-tip', role: 'status', hidden: true });
  const box = h('div', { class: 'sv-box' });
  const fig = h('figure', { class: 'sv-chart' }, caption ? h('figcaption', {}, caption) : null, legend || null, box, tip);
  let drawn = 0;
  const redraw = () => {
    const width = Math.max(240, Math.floor(box.clientWidth || 320));
    if (width === drawn) return;
    drawn = width;
    const svg = draw(width);
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', label);
    svg.setAttribute('width', width);
    svg.style.maxWidth = '100%';
    clear(box).append(svg);
    wire(svg, tip, box);
  };
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(redraw).observe(box);
  queueMicrotask(redraw);
  fig.redraw = redraw;
  return fig;
}

// hover, tap and focus show a mark's words in the tip beside it
function wire(svg, tip, box) {
  const show = (mark) => {
    tip.textContent = mark.getAttribute('aria-label');
    tip.hidden = false;
    const r = mark.getBoundingClientRect(); const b = box.getBoundingClientRect();
    tip.style.left = `${Math.max(0, Math.min(b.width - tip.offsetWidth, r.left - b.left))}px`;
    tip.style.top = `${r.bottom - b.top + 4}px`;
    for (const m of svg.querySelectorAll('.sv-mark.on')) m.classList.remove('on');
    mark.classList.add('on');
  };
  const hide = () => { tip.hidden = true; for (const m of svg.querySelectorAll('.sv-mark.on')) m.classList.remove('on'); };
  for (const mark of svg.querySelectorAll('.sv-mark')) {
    mark.addEventListener('pointerenter', () => show(mark));
    // a pointer already resting where a mark is drawn enters nothing: its first move shows the mark
    mark.addEventListener('pointermove', () => { if (!mark.classList.contains('on')) show(mark); });
    mark.addEventListener('pointerleave', hide);
    mark.addEventListener('focus', () => show(mark));
    mark.addEventListener('blur', hide);
    mark.addEventListener('click', () => show(mark));
  }
}

function mark(label, ...children) {
  return s('g', { class: 'sv-mark', tabindex: 0, role: 'img', 'aria-label': label }, s('title', {}, label), ...children);
}

function text(x, y, words, attrs = {}) {
  return s('text', { x, y, 'font-size': FONT, ...attrs }, words);
}

// Roughly how wide a text is at the chart's size (no layout needed to draw).
// (a Japanese character takes a whole em)
const widthOf = (words) => [...String(words)].reduce((w, c) => w + (c >= '\u2e80' ? FONT : FONT * 0.58), 0);

// Room for the row names left of the bars; where the longest would take more than ``share`` of
// the width (a long title on a phone), every name goes on its own line above its bar instead.
const ABOVE = FONT + 4;
function labelRoom(rows, width, share) {
  const wanted = Math.max(...rows.map((r) => widthOf(r.label)), 40) + 8;
  return wanted <= width * share ? { labelW: wanted, above: 0 } : { labelW: 4, above: ABOVE };
}

function rowLabel(words, labelW, top, above) {
  return above ? text(labelW + 4, top + FONT, words, { class: 'sv-label' })
    : text(labelW - 6, top + LINE * 0.7, words, { 'text-anchor': 'end', class: 'sv-label' });
}

function scale(lo, hi, x0, x1) {
  const span = hi - lo || 1;
  return (v) => x0 + ((v - lo) / span) * (x1 - x0);
}

// Horizontal bars, one a row: {label, value, display, low?, high?, compare?, colour?, note?}.
// ``domain`` fixes the axis (e.g. [0, 1] for rates); ``compareLabel`` names the comparison mark.
export function bars(label, rows, { domain, caption, colour = PALETTE[0], legend } = {}) {
  return figure(label, (width) => {
    const { labelW, above } = labelRoom(rows, width, 0.42);
    const row = LINE + 6 + above;
    const valueW = Math.min(width * 0.3, Math.max(...rows.map((r) => widthOf(r.display)), 30) + 8);
    const values = rows.flatMap((r) => [r.value, r.low, r.high, r.compare]).filter((v) => v !== null && v !== undefined);
    const [lo, hi] = domain || [Math.min(0, ...values), Math.max(0, ...values)];
    const x = scale(lo, hi, labelW, width - valueW);
    const height = rows.length * row + 8;
    const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, height, class: 'sv-bars' });
    const axis = x(Math.max(lo, Math.min(hi, 0)));
    svg.append(s('line', { x1: axis, x2: axis, y1: 0, y2: height, class: 'sv-axis' }));
    rows.forEach((r, i) => {
      const top = 4 + i * row; const y = top + above;
      const zero = x(Math.max(lo, Math.min(hi, 0))); const end = x(r.value);
      const parts = [
        // the whole row answers a finger, its name as well as its bar
        s('rect', { x: 0, y: top, width, height: row - 2, fill: 'transparent', class: 'sv-hit' }),
        rowLabel(r.label, labelW, top, above),
        s('rect', { x: Math.min(zero, end), y: y + 2, width: Math.max(1, Math.abs(end - zero)), height: LINE - 4, rx: 3, fill: r.colour || colour, class: r.note ? 'sv-bar few' : 'sv-bar' }),
      ];
      if (r.low !== undefined && r.low !== null) {
        const mid = y + LINE / 2;
        parts.push(s('line', { x1: x(r.low), x2: x(r.high), y1: mid, y2: mid, class: 'sv-whisker' }),
          s('line', { x1: x(r.low), x2: x(r.low), y1: mid - 6, y2: mid + 6, class: 'sv-whisker' }),
          s('line', { x1: x(r.high), x2: x(r.high), y1: mid - 6, y2: mid + 6, class: 'sv-whisker' }));
      }
      if (r.compare !== undefined && r.compare !== null) {
        parts.push(s('line', { x1: x(r.compare), x2: x(r.compare), y1: y - 1, y2: y + LINE + 1, class: 'sv-compare' }));
      }
      parts.push(text(width - valueW + 6, y + LINE * 0.7, r.display, { class: 'sv-value' }));
      svg.append(mark(r.aria || `${r.label}: ${r.display}${r.note ? ` (${r.note})` : ''}`, ...parts));
    });
    return svg;
  }, { caption, legend });
}

// Stacked horizontal bars: rows {label, parts: [{key, value}]}, keys [{key, name, colour}];
// negative parts stack to the left of zero.
export function stacked(label, rows, keys, { caption, format = String } = {}) {
  const colourOf = Object.fromEntries(keys.map((k, i) => [k.key, k.colour || PALETTE[i % PALETTE.length]]));
  const nameOf = Object.fromEntries(keys.map((k) => [k.key, k.name]));
  const legend = h('ul', { class: 'sv-legend' }, keys.map((k) => h('li', {}, h('span', { class: 'sv-swatch', style: `background:${colourOf[k.key]}` }), k.name)));
  return figure(label, (width) => {
    const { labelW, above } = labelRoom(rows, width, 0.4);
    const row = LINE + 8 + above;
    const neg = Math.min(0, ...rows.map((r) => r.parts.reduce((a, p) => a + Math.min(0, p.value), 0)));
    const pos = Math.max(0, ...rows.map((r) => r.parts.reduce((a, p) => a + Math.max(0, p.value), 0)));
    const x = scale(neg, pos, labelW, width - 8);
    const height = rows.length * row + 8;
    const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, height, class: 'sv-stacked' });
    svg.append(s('line', { x1: x(0), x2: x(0), y1: 0, y2: height, class: 'sv-axis' }));
    rows.forEach((r, i) => {
      const top = 4 + i * row; const y = top + above;
      svg.append(rowLabel(r.label, labelW, top, above));
      let right = 0; let left = 0;
      for (const p of r.parts) {
        if (!p.value) continue;
        const a = p.value > 0 ? right : left + p.value;
        if (p.value > 0) right += p.value; else left += p.value;
        const x0 = x(a); const w = Math.max(1, x(a + Math.abs(p.value)) - x0);
        svg.append(mark(`${r.label}, ${nameOf[p.key] || p.key}: ${format(p.value)}`,
          s('rect', { x: x0, y: y + 2, width: w, height: LINE - 4, fill: colourOf[p.key], class: 'sv-bar', stroke: '#fff', 'stroke-width': 1 })));
      }
    });
    return svg;
  }, { caption, legend });
}

// Columns over categories in order (months, score ranges): rows {label, value, part?, display}.
// ``part`` (e.g. wins of the games) is drawn inside its column in a darker shade.
export function columns(label, rows, { caption, partName, valueName = t('stats.value'), tick = (v) => num(Math.round(v)) } = {}) {
  return figure(label, (width) => {
    const values = rows.map((r) => r.value);
    const lo = Math.min(0, ...values); const hi = Math.max(0, ...values) || (lo < 0 ? 0 : 1);
    const left = Math.max(28, ...[lo, hi].map((v) => widthOf(tick(v)) + 8));
    const height = 180; const bottom = 36; const top = 8;
    const y = scale(lo, hi, height - bottom, top);
    const step = (width - left - 4) / Math.max(1, rows.length);
    const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, height, class: 'sv-columns' });
    svg.append(s('line', { x1: left, x2: width, y1: y(0), y2: y(0), class: 'sv-axis' }),
      text(left - 4, y(0) + 4, tick(0), { 'text-anchor': 'end', class: 'sv-tick' }));
    if (hi > 0) svg.append(text(left - 4, y(hi) + 4, tick(hi), { 'text-anchor': 'end', class: 'sv-tick' }));
    if (lo < 0) svg.append(text(left - 4, y(lo), tick(lo), { 'text-anchor': 'end', class: 'sv-tick' }));
    const every = Math.max(1, Math.ceil(rows.length / Math.floor((width - left) / 56)));
    rows.forEach((r, i) => {
      const x0 = left + i * step + 1; const w = Math.max(2, step - 3);
      const y0 = y(Math.max(0, r.value)); const y1 = y(Math.min(0, r.value));
      const parts = [s('rect', { x: x0, y: y0, width: w, height: Math.max(1, y1 - y0), fill: PALETTE[0], opacity: r.part !== undefined ? 0.45 : 1, class: 'sv-bar' })];
      if (r.part !== undefined && r.part > 0) {
        const yp = y(r.part);
        parts.push(s('rect', { x: x0, y: yp, width: w, height: Math.max(1, y(0) - yp), fill: PALETTE[0], class: 'sv-bar' }));
      }
      if (i % every === 0) parts.push(text(x0 + w / 2, height - bottom + 16, r.label, { 'text-anchor': 'middle', class: 'sv-tick' }));
      svg.append(mark(r.aria || `${r.label}: ${r.display}`, ...parts));
    });
    return svg;
  }, { caption, legend: partName ? h('ul', { class: 'sv-legend' }, h('li', {}, h('span', { class: 'sv-swatch', style: `background:${PALETTE[0]};opacity:.45` }), valueName), h('li', {}, h('span', { class: 'sv-swatch', style: `background:${PALETTE[0]}` }), partName)) : null });
}

// A calendar heat map: a row a year, a cell a month, darker for more games. ``months``:
// [{month: 'YYYY-MM', games}]; ``monthName(m)`` names month m (0-11) in the reader's language.
export function heatmap(label, months, { caption, monthName, describe }) {
  const counts = Object.fromEntries(months.map((m) => [m.month, m.games]));
  const years = months.length ? [...new Set(months.map((m) => Number(m.month.slice(0, 4))))] : [];
  const first = Math.min(...years); const last = Math.max(...years);
  const all = []; for (let y = first; y <= last; y += 1) all.push(y);
  const top = Math.max(1, ...months.map((m) => m.games));
  const shade = (n) => (n ? `rgba(11, 92, 173, ${0.18 + 0.82 * (n / top)})` : '#efe9dc');
  const legend = h('p', { class: 'sv-legend small' }, h('span', { class: 'sv-swatch', style: `background:${shade(0)}` }), ` ${t('stats.heat-none')} `,
    h('span', { class: 'sv-swatch', style: `background:${shade(Math.ceil(top / 2))}` }), ` ${t('stats.heat-some')} `,
    h('span', { class: 'sv-swatch', style: `background:${shade(top)}` }), ` ${t('stats.heat-most', { n: top })}`);
  return figure(label, (width) => {
    const left = 44; const cell = Math.min(48, Math.floor((width - left - 4) / 12)); const gap = 3;
    const height = 20 + all.length * (cell + gap);
    const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, height, class: 'sv-heat' });
    for (let m = 0; m < 12; m += 1) {
      // a language that numbers its months (1月 … 12月) keeps the number whole, however narrow the cell
      const name = monthName(m);
      const tick = /^\d/.test(name) ? (cell < 30 ? String(m + 1) : name) : name.slice(0, cell < 30 ? 1 : 3);
      svg.append(text(left + m * cell + cell / 2, 14, tick, { 'text-anchor': 'middle', class: 'sv-tick', 'aria-hidden': 'true' }));
    }
    all.forEach((year, row) => {
      const y = 20 + row * (cell + gap);
      svg.append(text(left - 6, y + cell * 0.65, String(year), { 'text-anchor': 'end', class: 'sv-tick' }));
      for (let m = 0; m < 12; m += 1) {
        const key = `${year}-${String(m + 1).padStart(2, '0')}`;
        const n = counts[key] || 0;
        svg.append(mark(describe(key, n), s('rect', { x: left + m * cell, y, width: cell - gap, height: cell - gap, rx: 3, fill: shade(n), class: 'sv-cell', 'data-month': key, 'data-games': n })));
      }
    });
    return svg;
  }, { caption, legend });
}

// A line over games in order with a shaded band: points {value, low, high, aria}. Every point
// the line passes is drawn; at most ``marks`` of them (evenly spread, the last always) can be
// focused, so a long history does not take hundreds of steps of the keyboard.
export function line(label, points, { caption, tick = (v) => num(Math.round(v)), marks = 40 } = {}) {
  return figure(label, (width) => {
    const values = points.flatMap((p) => [p.low, p.high, p.value]);
    const lo = Math.floor(Math.min(...values)); const hi = Math.ceil(Math.max(...values));
    const left = Math.max(28, ...[lo, hi].map((v) => widthOf(tick(v)) + 8));
    const height = 180; const top = 10; const bottom = 14;
    const y = scale(lo, hi, height - bottom, top);
    const x = scale(0, Math.max(1, points.length - 1), left + 6, width - 8);
    const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, height, class: 'sv-line' });
    svg.append(s('line', { x1: left, x2: width, y1: height - bottom, y2: height - bottom, class: 'sv-axis' }),
      text(left - 4, y(hi) + 4, tick(hi), { 'text-anchor': 'end', class: 'sv-tick' }),
      text(left - 4, y(lo) + 4, tick(lo), { 'text-anchor': 'end', class: 'sv-tick' }));
    const band = [...points.map((p, i) => `${x(i)},${y(p.high)}`), ...points.map((p, i) => `${x(i)},${y(p.low)}`).reverse()];
    svg.append(s('polygon', { points: band.join(' '), fill: PALETTE[0], opacity: 0.15, class: 'sv-band' }),
      s('polyline', { points: points.map((p, i) => `${x(i)},${y(p.value)}`).join(' '), fill: 'none', stroke: PALETTE[0], 'stroke-width': 2, class: 'sv-path' }));
    const every = Math.max(1, Math.ceil(points.length / marks));
    points.forEach((p, i) => {
      if (i % every !== 0 && i !== points.length - 1) return;
      const cx = x(i); const cy = y(p.value);
      svg.append(mark(p.aria, s('rect', { x: cx - 11, y: cy - 11, width: 22, height: 22, fill: 'transparent', class: 'sv-hit' }),
        s('circle', { cx, cy, r: 4, fill: PALETTE[0], class: 'sv-dot' })));
    });
    return svg;
  }, { caption });
}

// Lines over steps, one a series: series [{name, colour, values: [number per step]}], ``steps``
// the steps' numbers. ``marks`` [{step, value, aria, kind}] are the points one may focus (a ring
// each, ``kind`` 'turn' draws a dashed line across as well). The drawn svg's ``xOf(step)`` places
// a step, for a caller's "you are here" line (class sv-now, moved with ``place``).
export function lines(label, steps, series, { caption, marks = [], tick = (v) => num(Math.round(v)) } = {}) {
  const legend = h('ul', { class: 'sv-legend' }, series.map((one) => h('li', {}, h('span', { class: 'sv-swatch', style: `background:${one.colour}` }), one.name)));
  const fig = figure(label, (width) => {
    const values = series.flatMap((one) => one.values);
    const lo = Math.min(0, ...values); const hi = Math.max(lo + 1, 0, ...values);
    const left = Math.max(28, ...[lo, hi].map((v) => widthOf(tick(v)) + 8));
    const height = 180; const top = 10; const bottom = 14;
    const y = scale(lo, hi, height - bottom, top);
    const first = steps.length ? steps[0] : 0; const last = steps.length ? steps[steps.length - 1] : 1;
    const x = scale(first, Math.max(first + 1, last), left + 6, width - 12);
    const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, height, class: 'sv-line sv-race' });
    svg.append(s('line', { x1: left, x2: width, y1: y(0), y2: y(0), class: 'sv-axis' }),
      text(left - 4, y(hi) + 4, tick(hi), { 'text-anchor': 'end', class: 'sv-tick' }),
      text(left - 4, y(lo) + 4, tick(lo), { 'text-anchor': 'end', class: 'sv-tick' }));
    if (lo < 0 && hi > 0) svg.append(text(left - 4, y(0) + 4, tick(0), { 'text-anchor': 'end', class: 'sv-tick' }));
    svg.append(s('line', { x1: x(first), x2: x(first), y1: top, y2: height - bottom, class: 'sv-now', 'aria-hidden': 'true' }));
    for (const one of series) {
      svg.append(s('polyline', { points: one.values.map((v, i) => `${x(steps[i])},${y(v)}`).join(' '), fill: 'none', stroke: one.colour, 'stroke-width': 2, class: 'sv-path' }));
    }
    for (const m of marks) {
      const cx = x(m.step); const cy = y(m.value);
      const parts = [s('rect', { x: cx - 22, y: cy - 22, width: 44, height: 44, fill: 'transparent', class: 'sv-hit' }),
        s('circle', { cx, cy, r: 7, fill: 'none', stroke: '#1f1d1a', 'stroke-width': 2.5, class: `sv-ring ${m.kind || ''}` })];
      if (m.kind === 'turn') parts.unshift(s('line', { x1: cx, x2: cx, y1: top, y2: height - bottom, class: 'sv-turn' }));
      svg.append(mark(m.aria, ...parts));
    }
    svg.xOf = x;
    if (fig.placed !== undefined) place(svg, fig.placed);
    return svg;
  }, { caption, legend });
  // the replay's step now, as a line across
  const place = (svg, step) => {
    const now = svg && svg.querySelector('.sv-now');
    if (!now || !svg.xOf) return;
    const at = svg.xOf(step);
    now.setAttribute('x1', at); now.setAttribute('x2', at);
  };
  fig.place = (step) => { fig.placed = step; place(fig.querySelector('svg'), step); };
  return fig;
}
