// The words on a zoomable map stay readable at any scale: each label is sized in screen pixels
// (--u, map units per CSS px, set by mapzoom.js; layout.css: at least 11 px), kept inside the map,
// and where two would overlap the less important one goes to the other side of its place, or is
// hidden (a city's name before a route's cost; the places in use before all).

const GAP = 1; // px between two labels' boxes
const EDGE = 4; // map units a label keeps from the map's edge

// lower first: the start and Beijing, the cities, the small cities and the rest, the routes' costs
function rank(el) {
  if (el.classList.contains('mp-cost')) return 5;
  const loc = el.closest('.mp-loc');
  if (!loc) return 0; // the map's own note (Marco Polo II's "the rest of the map ...")
  if (loc.classList.contains('mp-beijing') || loc.classList.contains('mp-start')) return 1;
  if (loc.classList.contains('mp-small') || loc.classList.contains('mp-oasis')) return 3;
  return 2;
}

const meets = (a, b) => a.left < b.right + GAP && b.left < a.right + GAP && a.top < b.bottom + GAP && b.top < a.bottom + GAP;

// a label back where its drawer put it (its x and y kept the first time)
function reset(el) {
  if (el.dataset.x0 === undefined) { el.dataset.x0 = el.getAttribute('x') || '0'; el.dataset.y0 = el.getAttribute('y') || '0'; }
  el.classList.remove('label-off', 'label-alt');
  el.setAttribute('x', el.dataset.x0);
  el.setAttribute('y', el.dataset.y0);
}

// how far a label must move (map units, [dx, dy]) to lie inside the map ``box``
function inside(el, box) {
  const g = el.parentNode.transform && el.parentNode.transform.baseVal.consolidate();
  const b = el.getBBox();
  const into = (start, size, from, span) => (size > span - 2 * EDGE ? 0 : start < from + EDGE ? from + EDGE - start
    : start + size > from + span - EDGE ? from + span - EDGE - start - size : 0);
  return [into((g ? g.matrix.e : 0) + b.x, b.width, box.x, box.w), into((g ? g.matrix.f : 0) + b.y, b.height, box.y, box.h)];
}

// a label to the other side of its place (or back): a name above its city (it hangs under it), a
// cost under its route (it stands over it)
function flip(el, other) {
  const y0 = Number(el.dataset.y0);
  el.classList.toggle('label-alt', other);
  el.setAttribute('y', String(!other ? Number(el.dataset.y) : el.classList.contains('mp-cost') ? y0 + 8 : -(y0 - 10)));
}

/** Shows the labels of ``svg`` (the whole map ``box``: {x, y, w, h} in map units) by rank,
 *  each on the first side of its place where it overlaps no label shown before it, else hidden.
 *  ``first``: elements whose labels go before all others (the places in use). Returns how many
 *  are shown. */
export function placeLabels(svg, box, first = null) {
  const labels = [...svg.querySelectorAll('text.mp-name, text.mp-cost')];
  const ahead = (el) => !!first && first.some((f) => f.contains(el));
  labels.forEach(reset);
  const moves = labels.map((el) => inside(el, box)); // all read, then all written: one layout
  labels.forEach((el, i) => {
    el.setAttribute('x', String(Number(el.dataset.x0) + moves[i][0]));
    el.dataset.y = String(Number(el.dataset.y0) + moves[i][1]);
    el.setAttribute('y', el.dataset.y);
  });
  const order = labels.map((el, i) => ({ el, i, r: (ahead(el) ? 0 : 10) + rank(el) })).sort((a, b) => a.r - b.r || a.i - b.i);
  const shown = [];
  const free = (r) => !shown.some((o) => meets(o, r));
  for (const { el } of order) {
    let r = el.getBoundingClientRect();
    if (!r.width) continue;
    if (!free(r)) {
      flip(el, true);
      r = el.getBoundingClientRect();
      if (!free(r)) { flip(el, false); el.classList.add('label-off'); continue; }
    }
    shown.push(r);
  }
  labels.forEach(reach);
  return shown.length;
}

// a city's tap target (mapfaces.js' hit square) grown to take in its name, halo and all (a hidden
// one too: it is still the city's accessible name): the name is part of what a finger taps, and
// the city's box holds its words
function reach(el) {
  const hit = el.parentNode.querySelector && el.parentNode.querySelector(':scope > .mp-hit');
  if (!hit) return;
  if (hit.dataset.box === undefined) hit.dataset.box = ['x', 'y', 'width', 'height'].map((k) => hit.getAttribute(k)).join(' ');
  let [x, y, w, hh] = hit.dataset.box.split(' ').map(Number);
  const b = el.getBBox();
  const m = 2 * (parseFloat(getComputedStyle(el).strokeWidth) || 0);
  const [x0, y0] = [Math.min(x, b.x - m), Math.min(y, b.y - m)];
  [w, hh] = [Math.max(x + w, b.x + b.width + m) - x0, Math.max(y + hh, b.y + b.height + m) - y0];
  [x, y] = [x0, y0];
  hit.setAttribute('x', String(x)); hit.setAttribute('y', String(y));
  hit.setAttribute('width', String(w)); hit.setAttribute('height', String(hh));
}
