// Zoom and pan for a map drawn in SVG: the whole map fits the width at first; buttons, the wheel and
// a pinch zoom, a drag pans, and the view never leaves the map (every place stays reachable).
import { h } from './dom.js';
import { t } from './i18n.js';
import { placeLabels } from './maplabels.js';

const MAX_ZOOM = 4;
const views = new Map(); // key -> {x, y, w, h}: the view survives the redraw after each move
const auto = new Map(); // key -> true while the view is the page's own zoom to a decision (focusOn)

function clamp(v, box) {
  const w = Math.min(box.w, Math.max(box.w / MAX_ZOOM, v.w));
  const hh = w * (box.h / box.w);
  return { x: Math.min(box.x + box.w - w, Math.max(box.x, v.x)), y: Math.min(box.y + box.h - hh, Math.max(box.y, v.y)), w, h: hh };
}

// a map's labels are sized and placed again when its width on the screen changes (a map redrawn
// away is let go: its size goes to nothing once it leaves the page)
const resized = new ResizeObserver((entries) => {
  for (const e of entries) if (!e.target.isConnected) resized.unobserve(e.target); else if (e.target.relabel) e.target.relabel();
});

// ``wrap`` holds ``svg`` (a viewBox of the whole map); ``key`` names the view kept across redraws.
// ``labels``: its words are kept readable (maplabels.js).
export function zoomable(wrap, svg, key, { labels = false } = {}) {
  const [bx, by, bw, bh] = svg.getAttribute('viewBox').split(/\s+/).map(Number);
  const box = { x: bx, y: by, w: bw, h: bh };
  let v = clamp(views.get(key) || box, box);
  let placedAt = null; // the map units per px the labels were last placed for
  let ahead = null; // the places whose labels go first (the part of the map in use)
  const relabel = () => {
    const width = svg.getBoundingClientRect().width;
    if (!labels || !width) return;
    const u = v.w / width;
    if (placedAt && Math.abs(placedAt - u) < 1e-3) return; // a pan: the labels keep their places
    placedAt = u;
    svg.style.setProperty('--u', u.toFixed(4));
    placeLabels(svg, box, ahead);
    wrap.dataset.labels = u.toFixed(4);
  };
  svg.relabel = () => { placedAt = null; relabel(); };
  const set = (next) => {
    v = clamp(next, box);
    views.set(key, v);
    svg.setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
    wrap.dataset.zoom = (box.w / v.w).toFixed(2);
    out.disabled = fit.disabled = v.w >= box.w;
    zin.disabled = v.w <= box.w / MAX_ZOOM + 1e-6;
    relabel();
  };
  // zoom by ``f`` about a point given as fractions of the drawing (0..1 either way)
  const zoom = (f, fx = 0.5, fy = 0.5) => {
    const w = v.w / f; const hh = w * (box.h / box.w);
    set({ x: v.x + (v.w - w) * fx, y: v.y + (v.h - hh) * fy, w, h: hh });
  };
  const byHand = () => { auto.delete(key); delete wrap.dataset.focused; };
  const zin = h('button', { type: 'button', class: 'map-zoom-in', 'aria-label': t('mapfaces.zoom-in'), onclick: () => { byHand(); zoom(1.5); } }, '+');
  const out = h('button', { type: 'button', class: 'map-zoom-out', 'aria-label': t('mapfaces.zoom-out'), onclick: () => { byHand(); zoom(1 / 1.5); } }, '−');
  const fit = h('button', { type: 'button', class: 'map-zoom-fit', 'aria-label': t('mapfaces.zoom-fit'), onclick: () => { byHand(); set(box); } }, '⤢');
  wrap.append(h('div', { class: 'map-zoom', role: 'group', 'aria-label': t('mapfaces.zoom') }, zin, out, fit));

  // The page zooms to the part of the map a decision needs (``places``: elements of the map) and
  // back to the whole map after it; a view the reader zoomed or panned by hand stays theirs.
  wrap.focusOn = (places) => {
    const at = (places || []).map((p) => p.transform && p.transform.baseVal.consolidate()).filter(Boolean).map((m) => [m.matrix.e, m.matrix.f]);
    if (!at.length) return;
    const pad = 90; // map units around the places: their names and what lies on them
    const [x0, x1] = [Math.min(...at.map((p) => p[0])) - pad, Math.max(...at.map((p) => p[0])) + pad];
    const [y0, y1] = [Math.min(...at.map((p) => p[1])) - pad, Math.max(...at.map((p) => p[1])) + pad];
    const w = Math.max(x1 - x0, (y1 - y0) * (box.w / box.h));
    const hh = w * (box.h / box.w);
    ahead = places;
    placedAt = null;
    set({ x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - hh / 2, w, h: hh });
    auto.set(key, true);
    wrap.dataset.focused = 'true';
  };
  wrap.unfocus = () => {
    if (!auto.get(key)) return;
    auto.delete(key);
    ahead = null;
    placedAt = null;
    set(box);
    delete wrap.dataset.focused;
  };
  if (auto.get(key)) wrap.dataset.focused = 'true';

  wrap.classList.add('zoomable');
  if (labels) { wrap.classList.add('labelled'); resized.observe(svg); }

  const frac = (ev) => { const r = svg.getBoundingClientRect(); return [(ev.clientX - r.left) / r.width, (ev.clientY - r.top) / r.height]; };
  svg.addEventListener('wheel', (ev) => {
    // a whole map lets the page scroll by (a trackpad's pinch comes as ctrl + wheel and zooms)
    if (!ev.ctrlKey && !ev.metaKey && v.w >= box.w) return;
    ev.preventDefault();
    byHand();
    zoom(ev.deltaY < 0 ? 1.2 : 1 / 1.2, ...frac(ev));
  }, { passive: false });

  // one pointer drags the view; two pinch it
  const down = new Map();
  let moved = false; let pinch = null;
  svg.addEventListener('pointerdown', (ev) => {
    down.set(ev.pointerId, [ev.clientX, ev.clientY]);
    moved = false;
    if (down.size === 2) {
      const [a, b] = [...down.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), v };
    }
  });
  svg.addEventListener('pointermove', (ev) => {
    const last = down.get(ev.pointerId);
    if (!last) return;
    const r = svg.getBoundingClientRect();
    if (down.size === 1) {
      const dx = ev.clientX - last[0]; const dy = ev.clientY - last[1];
      if (!moved && Math.hypot(dx, dy) < 5) return;
      if (!moved) { svg.setPointerCapture(ev.pointerId); byHand(); }
      moved = true;
      down.set(ev.pointerId, [ev.clientX, ev.clientY]);
      set({ ...v, x: v.x - dx * (v.w / r.width), y: v.y - dy * (v.h / r.height) });
      return;
    }
    down.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (!pinch) return;
    moved = true;
    byHand();
    const [a, b] = [...down.values()];
    const f = Math.hypot(a[0] - b[0], a[1] - b[1]) / (pinch.d || 1);
    const w = pinch.v.w / f; const hh = w * (box.h / box.w);
    set({ x: pinch.v.x + (pinch.v.w - w) / 2, y: pinch.v.y + (pinch.v.h - hh) / 2, w, h: hh });
  });
  const up = (ev) => { down.delete(ev.pointerId); if (down.size < 2) pinch = null; };
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', up);
  // a drag is not a tap on the place it ends on
  svg.addEventListener('click', (ev) => { if (moved) { ev.stopPropagation(); ev.preventDefault(); moved = false; } }, true);
  set(v);
  return wrap;
}
