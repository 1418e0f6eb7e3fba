// A tiny element builder: h('p', {class: 'x', onclick: f}, 'text', child...).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVGNS = 'http://www.w3.org/2000/svg';
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) { while (el.firstChild) el.firstChild.remove(); return el; }

export const SEAT_COLOURS = ['#0b6bcb', '#c75a00', '#1b8a4b', '#b0307a', '#6d4fc2', '#7a6a00'];
export const seatColour = (seat) => SEAT_COLOURS[((seat ?? 0) % SEAT_COLOURS.length + SEAT_COLOURS.length) % SEAT_COLOURS.length];

export function humanize(tag) {
  const last = String(tag).split('.').pop().replace(/[-_]/g, ' ');
  return last.charAt(0).toUpperCase() + last.slice(1);
}

export function errorBox(err) {
  const code = err && err.code ? err.code : 'error';
  const rule = err && err.body && err.body.rule ? err.body.rule : null;
  const seq = err && err.body && err.body.breaking_seq ? err.body.breaking_seq : null;
  return h('div', { class: 'error', role: 'alert', 'data-code': code },
    h('strong', {}, 'Not recorded: '), h('code', { class: 'code' }, code),
    rule ? [' (rule ', h('code', {}, rule), ')'] : null,
    seq ? ` — breaks at seq ${seq}` : null,
    h('p', {}, err.message || String(err)));
}
