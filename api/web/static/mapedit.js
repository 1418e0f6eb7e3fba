// A Marco Polo II map to draw: places (cities, oases) put down and moved by dragging, routes drawn by
// dragging (or tapping) from one place to another. Pointer events, so a finger works as a mouse does;
// the map zooms and pans as the game's map does (mapzoom.js). Coordinates are the pack's: x and y
// 0..1000 (where the page draws a node; the rules never read them).
import { h, s, clear } from './dom.js';
import { layout } from './draw/marco-polo-2.js';
import { zoomable } from './mapzoom.js';
import { t } from './i18n.js';

const SIZE = 1000;
const HIT = 72; // a place's touch radius in map units: >= 44 px across on a 375-px phone (the map ~330 px wide)
const TOOLS = ['city', 'oasis', 'move', 'route'].map((m) => [m, t(`me.tool.${m}.label`), t(`me.tool.${m}.hint`)]);
const guildName = (g) => (['farmer', 'spicer', 'tailor', 'jeweler'].includes(g) ? t(`pf.guilds.${g}.label`) : g);
const clamp = (v) => Math.max(0, Math.min(SIZE, Math.round(v)));

/** Where each node is drawn: its own x/y, else the game map's layout stretched to the square. */
export function positions(nodes, routes) {
  const placed = (n) => typeof n.x === 'number' && typeof n.y === 'number';
  const pos = {};
  if (!nodes.some(placed)) {
    const start = (nodes.find((n) => n.kind === 'start') || {}).id;
    const auto = layout(nodes, routes || [], start);
    for (const n of nodes) { const [x, y] = auto[n.id] || [SIZE / 2, SIZE / 2]; pos[n.id] = [clamp(x), clamp((y * SIZE) / 560)]; }
    return pos;
  }
  // beside places already put down, the others wait in a row along the top, to be dragged
  let i = 0;
  for (const n of nodes) pos[n.id] = placed(n) ? [n.x, n.y] : [clamp(90 + (i++ % 6) * 160), clamp(90 + Math.floor((i - 1) / 6) * 150)];
  return pos;
}

function costText(r) {
  const parts = [];
  for (const k of ['coins', 'camels', 'jade']) if (r[k]) parts.push(t(`me.cost.${k}`, { n: r[k], one: r[k] === 1 }));
  if (r.guild) parts.push(t('me.guild-only', { guild: guildName(r.guild) }));
  return parts.join(' · ');
}

function svgPoint(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, p.y];
}

/**
 * Draws the map into ``container`` and, when ``editable``, takes drags and taps:
 * ``onAddNode({x, y, kind})`` a new place, ``onMoveNode(id, {x, y})`` a place dragged,
 * ``onPickNodes([a])`` a place tapped, ``onPickNodes([a, b])`` a route drawn from a to b,
 * ``onPickRoute(id)`` a route tapped. ``tools`` limits what is offered (e.g. ``['route']`` to
 * draw one route at a table). Returns ``{svg, setMode(mode), positions}``; call again to redraw.
 */
export function mapEditor(container, { nodes = [], routes = [], editable = true, onAddNode, onMoveNode, onPickNodes, onPickRoute, mode = null, tools: only = null, key = 'pack-map', label = t('me.the-map') } = {}) {
  // a place moved with the keys is drawn again: the keyboard stays on it
  const focused = document.activeElement && container.contains(document.activeElement) && document.activeElement.dataset ? document.activeElement.dataset.node : null;
  clear(container);
  const offered = TOOLS.filter(([m]) => !only || only.includes(m));
  let current = mode || container.dataset.mode || 'move';
  if (!offered.some(([m]) => m === current)) current = offered.length ? offered[0][0] : 'move';
  container.dataset.mode = current;
  const pos = positions(nodes, routes);
  const byId = Object.fromEntries(nodes.map((n) => [n.id, n]));
  let picked = null; // a place tapped in route mode, waiting for the other end

  const svg = s('svg', { viewBox: `0 0 ${SIZE} ${SIZE}`, class: 'me-map', role: 'group', 'aria-label': t('me.map-aria', { label, places: nodes.length, routes: routes.length }) },
    s('rect', { x: 0, y: 0, width: SIZE, height: SIZE, rx: 20, class: 'mp-sea me-sea' }));
  const routeLayer = s('g', { class: 'me-routes' });
  const nodeLayer = s('g', { class: 'me-nodes' });
  const rubber = s('line', { class: 'me-rubber', visibility: 'hidden' });
  svg.append(routeLayer, rubber, nodeLayer);
  const hint = h('p', { class: 'me-hint', 'aria-live': 'polite' });

  const lines = []; // [line, label, hit, a, b]
  for (const r of routes) {
    const [a, b] = r.ends || [];
    if (!pos[a] || !pos[b]) continue;
    const rid = r.id || (a <= b ? `${a}-${b}` : `${b}-${a}`);
    const [x1, y1] = pos[a]; const [x2, y2] = pos[b];
    const ln = s('line', { x1, y1, x2, y2, class: 'mp-route', 'data-route': rid });
    const cost = costText(r);
    const tx = s('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 10, class: 'mp-cost', 'text-anchor': 'middle' }, cost);
    const hit = s('line', { x1, y1, x2, y2, class: 'me-route-hit', 'data-route-hit': rid },
      s('title', {}, t('me.route-title', { a: byId[a] ? byId[a].name || a : a, b: byId[b] ? byId[b].name || b : b }) + (cost ? `: ${cost}` : '')));
    if (editable && onPickRoute) hit.addEventListener('click', (ev) => { ev.stopPropagation(); onPickRoute(rid); });
    routeLayer.append(ln, hit, tx);
    lines.push([ln, tx, hit, a, b]);
  }
  const follow = (id) => {
    for (const [ln, tx, hit, a, b] of lines) {
      if (a !== id && b !== id) continue;
      const [x1, y1] = pos[a]; const [x2, y2] = pos[b];
      for (const el of [ln, hit]) { el.setAttribute('x1', x1); el.setAttribute('y1', y1); el.setAttribute('x2', x2); el.setAttribute('y2', y2); }
      tx.setAttribute('x', (x1 + x2) / 2); tx.setAttribute('y', (y1 + y2) / 2 - 10);
    }
  };

  const groups = {};
  for (const n of nodes) {
    const [x, y] = pos[n.id];
    const kind = n.kind || 'city';
    const name = n.name || n.id;
    const shownName = kind === 'oasis' || name !== n.id ? name : null; // the code is on the city itself
    const visible = [kind === 'oasis' ? null : n.id, shownName].filter(Boolean).join(' ');
    const g = s('g', {
      class: `me-node mp-loc mp-${kind === 'start' ? 'beijing' : kind === 'oasis' ? 'oasis' : 'large'}`, 'data-node': n.id, 'data-x': x, 'data-y': y,
      transform: `translate(${x},${y})`, ...(editable ? { tabindex: 0, role: 'button', 'aria-label': `${visible}, ${t(kind === 'oasis' ? 'me.oasis' : kind === 'start' ? 'me.start' : 'me.city')}` } : {}),
    }, s('circle', { r: HIT, class: 'me-hit' }));
    if (kind === 'oasis') g.append(s('rect', { x: -18, y: -18, width: 36, height: 36, transform: 'rotate(45)', class: 'mp-oasis-shape' }));
    else if (kind === 'start') g.append(s('rect', { x: -52, y: -32, width: 104, height: 64, rx: 10, class: 'mp-city-shape' }));
    else g.append(s('circle', { r: n.special ? 40 : 34, class: 'mp-city-shape' }));
    if (kind !== 'oasis') g.append(s('text', { y: 9, 'text-anchor': 'middle', class: 'mp-code' }, n.id));
    // a leading space the drawing does not show, so the text reads "BEI Beijing" as the label does
    if (shownName) g.append(s('text', { y: kind === 'oasis' ? 50 : 62, 'text-anchor': 'middle', class: 'mp-name' }, kind === 'oasis' ? shownName : ` ${shownName}`));
    groups[n.id] = g;
    nodeLayer.append(g);
  }

  const setPicked = (id) => {
    if (picked && groups[picked]) groups[picked].classList.remove('me-picked');
    picked = id;
    if (id && groups[id]) groups[id].classList.add('me-picked');
    hint.textContent = id ? t('me.from', { name: (byId[id] || {}).name || id }) : (TOOLS.find((tool) => tool[0] === current) || [])[2] || '';
  };
  // the place under a point, by distance (whatever the page lays over the map there)
  const nodeAt = ([px, py]) => {
    let best = null; let bestD = HIT;
    for (const [id, [x, y]] of Object.entries(pos)) { const d = Math.hypot(px - x, py - y); if (d <= bestD) { best = id; bestD = d; } }
    return best;
  };

  if (editable) {
    for (const n of nodes) {
      const g = groups[n.id];
      let drag = null; // {id: pointer, node, start, from, moved, last}
      g.addEventListener('pointerdown', (ev) => {
        if (ev.button !== 0 && ev.pointerType === 'mouse') return;
        ev.stopPropagation(); // the map does not pan under a place
        ev.preventDefault();
        g.setPointerCapture(ev.pointerId);
        const start = svgPoint(svg, ev);
        // touch areas overlap where places are close: the finger takes the nearest place
        const node = nodeAt(start) || n.id;
        drag = { id: ev.pointerId, node, start, from: [...pos[node]], moved: false };
        if (current === 'move') groups[node].classList.add('me-dragging');
      });
      g.addEventListener('pointermove', (ev) => {
        if (!drag || drag.id !== ev.pointerId) return;
        const [px, py] = svgPoint(svg, ev);
        const id = drag.node;
        drag.last = [px, py];
        if (!drag.moved && Math.hypot(px - drag.start[0], py - drag.start[1]) < 12) return;
        drag.moved = true;
        if (current === 'route') {
          const [x, y] = pos[id];
          rubber.setAttribute('x1', x); rubber.setAttribute('y1', y); rubber.setAttribute('x2', px); rubber.setAttribute('y2', py);
          rubber.setAttribute('visibility', 'visible');
          return;
        }
        if (current !== 'move') return;
        pos[id] = [clamp(drag.from[0] + px - drag.start[0]), clamp(drag.from[1] + py - drag.start[1])];
        groups[id].setAttribute('transform', `translate(${pos[id][0]},${pos[id][1]})`);
        follow(id);
      });
      const end = (ev, cancelled) => {
        if (!drag || drag.id !== ev.pointerId) return;
        const d = drag; drag = null;
        const id = d.node;
        groups[id].classList.remove('me-dragging');
        rubber.setAttribute('visibility', 'hidden');
        if (cancelled) {
          if (d.moved && current === 'move') { pos[id] = d.from; groups[id].setAttribute('transform', `translate(${d.from[0]},${d.from[1]})`); follow(id); }
          return;
        }
        if (current === 'route') {
          // where the finger last was (a touch's pointerup may carry no position of its own)
          const other = d.moved ? nodeAt(d.last || svgPoint(svg, ev)) : null;
          if (other && other !== id) { setPicked(null); if (onPickNodes) onPickNodes([id, other]); return; }
          if (d.moved) return;
          if (picked && picked !== id) { const a = picked; setPicked(null); if (onPickNodes) onPickNodes([a, id]); return; }
          setPicked(picked === id ? null : id);
          return;
        }
        if (current === 'move' && d.moved) {
          groups[id].dataset.x = pos[id][0]; groups[id].dataset.y = pos[id][1];
          if (onMoveNode) onMoveNode(id, { x: pos[id][0], y: pos[id][1] });
          return;
        }
        if (!d.moved && onPickNodes) onPickNodes([id]);
      };
      g.addEventListener('pointerup', (ev) => end(ev, false));
      g.addEventListener('pointercancel', (ev) => end(ev, true));
      g.addEventListener('click', (ev) => ev.stopPropagation());
      g.addEventListener('keydown', (ev) => {
        const step = { ArrowLeft: [-10, 0], ArrowRight: [10, 0], ArrowUp: [0, -10], ArrowDown: [0, 10] }[ev.key];
        if (step && current === 'move') {
          ev.preventDefault();
          pos[n.id] = [clamp(pos[n.id][0] + step[0]), clamp(pos[n.id][1] + step[1])];
          g.setAttribute('transform', `translate(${pos[n.id][0]},${pos[n.id][1]})`);
          follow(n.id);
          if (onMoveNode) onMoveNode(n.id, { x: pos[n.id][0], y: pos[n.id][1] });
        } else if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          if (current === 'route') {
            if (picked && picked !== n.id) { const a = picked; setPicked(null); if (onPickNodes) onPickNodes([a, n.id]); } else setPicked(picked === n.id ? null : n.id);
          } else if (onPickNodes) onPickNodes([n.id]);
        }
      });
    }
    // a tap on the open map puts down a place (mapzoom swallows the click that ends a pan)
    svg.addEventListener('click', (ev) => {
      if ((current === 'city' || current === 'oasis') && onAddNode && !ev.target.closest('.me-node')) {
        const [x, y] = svgPoint(svg, ev);
        onAddNode({ x: clamp(x), y: clamp(y), kind: current });
      } else if (current === 'route') setPicked(null);
    });
  }

  const wrap = h('div', { class: 'mp-map-wrap me-map-wrap', role: 'region', 'aria-label': t('me.region', { label }) }, svg);
  const tools = editable ? h('div', { class: 'me-tools', role: 'group', 'aria-label': t('me.tools') },
    offered.map(([m, text]) => {
      const b = h('button', { type: 'button', class: 'me-tool', 'data-tool': m, 'aria-pressed': String(m === current) }, text);
      // a tap picks the tool on the finger's lift: a click may come late, or not at all, right after a drag
      let down = null;
      b.addEventListener('pointerdown', (ev) => { down = [ev.pointerId, ev.clientX, ev.clientY]; });
      b.addEventListener('pointerup', (ev) => {
        if (!down || down[0] !== ev.pointerId) return;
        const tap = Math.hypot(ev.clientX - down[1], ev.clientY - down[2]) < 10 && !b.dataset.dragged;
        down = null;
        if (tap) { setMode(m); b.dataset.tapped = '1'; setTimeout(() => delete b.dataset.tapped, 800); }
      });
      b.addEventListener('click', (ev) => {
        if (b.dataset.dragged || b.dataset.tapped) { delete b.dataset.dragged; delete b.dataset.tapped; return; }
        setMode(m);
        // from the keyboard (no pointer): the place is put in the middle, to be moved with the arrows
        if (ev.detail === 0 && (m === 'city' || m === 'oasis') && onAddNode) onAddNode({ x: SIZE / 2, y: SIZE / 2, kind: m });
      });
      if (m === 'city' || m === 'oasis') dragToMap(b, m);
      return b;
    })) : null;

  function setMode(m) {
    current = m; container.dataset.mode = m;
    if (tools) for (const b of tools.children) b.setAttribute('aria-pressed', String(b.dataset.tool === m));
    setPicked(null);
  }

  // a place dragged from its tool button onto the map
  function dragToMap(button, kind) {
    let d = null;
    button.addEventListener('pointerdown', (ev) => { delete button.dataset.dragged; d = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, ghost: null }; button.setPointerCapture(ev.pointerId); });
    button.addEventListener('pointermove', (ev) => {
      if (!d || d.id !== ev.pointerId) return;
      d.last = { clientX: ev.clientX, clientY: ev.clientY };
      if (!d.ghost && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < 10) return;
      if (!d.ghost) { d.ghost = h('div', { class: `me-ghost me-ghost-${kind}`, 'aria-hidden': 'true' }); document.body.append(d.ghost); }
      d.ghost.style.cssText = `position:fixed;left:${ev.clientX - 18}px;top:${ev.clientY - 18}px;width:36px;height:36px;border-radius:${kind === 'oasis' ? '4px' : '50%'};background:${kind === 'oasis' ? '#7fb069' : '#fffaf0'};border:3px solid #5a3e12;pointer-events:none;z-index:50;${kind === 'oasis' ? 'transform:rotate(45deg);' : ''}`;
    });
    const done = (ev, cancelled) => {
      if (!d || d.id !== ev.pointerId) return;
      const was = d; d = null;
      if (!was.ghost) return; // a tap: the click picks the tool
      was.ghost.remove();
      button.dataset.dragged = '1'; // the click that may end the drag is not a tap on the tool
      if (cancelled) return;
      const at = was.last || ev;
      const r = svg.getBoundingClientRect();
      if (at.clientX < r.left || at.clientX > r.right || at.clientY < r.top || at.clientY > r.bottom) return;
      const [x, y] = svgPoint(svg, at);
      // after the pointer's events are done: the caller may redraw this button away
      if (onAddNode) setTimeout(() => onAddNode({ x: clamp(x), y: clamp(y), kind }), 0);
    };
    button.addEventListener('pointerup', (ev) => done(ev, false));
    button.addEventListener('pointercancel', (ev) => done(ev, true));
  }

  container.append(h('div', { class: 'me-wrap', 'data-editable': String(!!editable) }, tools, editable ? hint : null, wrap));
  zoomable(wrap, svg, key);
  setPicked(null);
  if (focused && groups[focused]) groups[focused].focus();
  return { svg, setMode, positions: pos };
}
