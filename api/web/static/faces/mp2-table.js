// Marco Polo II at a table: the components the table brings out, picked by their pictures or, when
// the game's pack lacks one, described once with the pack's own form (never JSON); a small board to
// tap places on and to draw a route between two of them.
import { h, s, clear } from '../dom.js';
import { api } from '../api.js';
import { t, term } from '../i18n.js';

// a character's name as its tile prints it in the reader's edition (the Japanese seed's katakana)
export const characterName = (id) => term('marco-polo-2', 'character', id);

const KINDS = ['node', 'route', 'contract', 'city_card', 'city_bonus', 'outpost', 'goal', 'offer', 'book', 'seal', 'special', 'route_tile'];
/** What a kind of component is called at the table, as a phrase ("a contract"), or null. */
export const kindName = (kind) => (KINDS.includes(kind) ? t(`mp2.kind.${kind}`) : null);
// the same, bare ("contract"), for "contract not described yet"
const kindNoun = (kind) => (KINDS.includes(kind) ? t(`mp2.noun.${kind}`) : kind);
/** A count of a resource as the rulebook writes it ("2 coins", 「2コイン」). */
export const amount = (n, what) => t('mp2.amount', { n, what });
const SECTION = {
  contract: 'contracts', city_card: 'city_cards', city_bonus: 'city_bonuses', outpost: 'outposts', goal: 'goals', offer: 'offers',
  route_tile: 'route_tiles',
};
// a new component's id: the kind's letters and the next free number (a label on the picture)
const PREFIX = { contract: 'K', city_card: 'CC', city_bonus: 'CB', outpost: 'OT', goal: 'G', offer: 'OF', route_tile: 'RT' };

let formsData = null;
let formsModule = null;
const loading = Promise.all([
  api('/titles/marco-polo-2/pack-forms').then((f) => { formsData = f; }).catch(() => null),
  import('../packforms.js').then((m) => { formsModule = m; }).catch(() => null),
]);
/** Resolves once the pack forms (and their drawing of a card) are loaded, or known to be missing. */
export const formsReady = () => loading;

/** The components of one kind the game's content lists (the pack plus what the log described). */
export function componentsOf(content, kind) {
  if (!content) return [];
  if (kind === 'node') return (content.map && content.map.nodes) || [];
  if (kind === 'route') return (content.map && content.map.routes) || [];
  if (kind === 'book') return (content.books || []).map((b, i) => (b.fixed ? { id: String(i + 1), ...b } : null)).filter(Boolean);
  if (kind === 'seal' || kind === 'special') return Object.entries(content[`${kind}s`] || {}).map(([id, v]) => ({ id, ...v }));
  return content[SECTION[kind]] || [];
}

/** A component's spec: from the descriptions made on this screen, else the content, else what this device entered while it is secret; null if unknown. */
export function specOf(content, kind, id, fresh = null) {
  const mine = fresh && fresh.get(`${kind}:${id}`);
  if (mine) return mine.spec;
  const found = componentsOf(content, kind).find((x) => x.id === id);
  if (!found) return secretOf(shownGame(), kind, id);
  const { id: _, ...spec } = found;
  return spec;
}

// the game the page shows (a picker's label has no other way to know it)
const shownGame = () => { try { return new URLSearchParams(location.search).get('game'); } catch { return null; } };

// a goal card the recorder saw and described while it is secret: the server keeps it out of every
// public read until the end, so the device that entered it keeps its face, for that game only
const secretKey = (game) => `tabletape.mp2-secret.${game}`;
function secrets(game) {
  if (!game) return {};
  try { return JSON.parse(localStorage.getItem(secretKey(game))) || {}; } catch { return {}; }
}
/** Keeps the secret components (goal cards) of ``describe`` that this device entered in ``game``. */
export function rememberSecrets(game, describe) {
  const mine = (describe || []).filter((c) => c.kind === 'goal');
  if (!game || !mine.length) return;
  const all = secrets(game);
  for (const c of mine) all[`${c.kind}:${c.id}`] = c.spec;
  try { localStorage.setItem(secretKey(game), JSON.stringify(all)); } catch { /* a help only */ }
}
/** The ids of the secret components of a kind this device entered in ``game``. */
export function secretIds(game, kind) {
  return Object.keys(secrets(game)).filter((k) => k.startsWith(`${kind}:`)).map((k) => k.slice(kind.length + 1));
}
function secretOf(game, kind, id) {
  return kind === 'goal' ? secrets(game)[`${kind}:${id}`] || null : null;
}

// the ids this device gave components in a game: a goal card described while it is secret is not
// in the game's content, so the next one must not take its id again
const givenKey = (game) => `tabletape.mp2-ids.${game}`;
function given(game) {
  if (!game) return [];
  try { return JSON.parse(localStorage.getItem(givenKey(game))) || []; } catch { return []; }
}
/** Remembers that this device gave ``kind:id`` to a component of ``game``. */
export function rememberId(game, kind, id) {
  if (!game) return;
  try { localStorage.setItem(givenKey(game), JSON.stringify([...new Set([...given(game), `${kind}:${id}`])])); } catch { /* a help only */ }
}

/** The next free id of a kind, past the content's, those described on this screen and those this device gave in the game. */
export function nextId(kind, content, fresh = null, game = null) {
  const taken = new Set(componentsOf(content, kind).map((x) => x.id));
  for (const key of [...(fresh ? fresh.keys() : []), ...given(game)]) { const [k, id] = key.split(':'); if (k === kind) taken.add(id); }
  const p = PREFIX[kind] || 'X';
  let n = 1;
  while (taken.has(`${p}${String(n).padStart(2, '0')}`)) n++;
  return `${p}${String(n).padStart(2, '0')}`;
}

/** A place's id from its name: three letters, made unique ("Kashgar" -> KAS, then KA2). */
export function placeId(name, content, fresh) {
  const taken = new Set(componentsOf(content, 'node').map((x) => x.id));
  for (const key of (fresh ? fresh.keys() : [])) { const [k, id] = key.split(':'); if (k === 'node') taken.add(id); }
  const letters = String(name || '').normalize('NFD').replace(/[^A-Za-z]/g, '').toUpperCase();
  const base = (letters + 'XXX').slice(0, 3);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) { const id = base.slice(0, 2) + n; if (!taken.has(id)) return id; }
}

// ---- pictures --------------------------------------------------------------------------------
const GOODS = ['coins', 'camels', 'pepper', 'silk', 'gold', 'jade'];
const PIECES = ['vp', 'contract', 'contract_pile', 'black_die'];
/** A resource's word: the rulebook's (terms), VP and the like from the page's strings. */
export const resWord = (k) => (GOODS.includes(k) ? term('marco-polo-2', 'res', k) : PIECES.includes(k) ? t(`mp2.res.${k}`) : k);
const bundleText = (b) => Object.entries(b || {}).map(([k, n]) => amount(n, resWord(k))).join(' + ');

// a face in words, while the pack forms' drawing of a card is not there
function wordsOf(kind, spec) {
  if (!spec) return '';
  if (kind === 'contract') return `${bundleText(spec.cost)} → ${bundleText(spec.reward)}`;
  if (kind === 'city_bonus' || kind === 'outpost') return spec.any_bonus ? t('mp2.face.any-bonus') : bundleText(spec.gain);
  if (kind === 'offer') return t('mp2.face.offer', { one: bundleText(spec.jade1), two: bundleText(spec.jade2) });
  if (kind === 'city_card') return spec.text || [spec.kind, bundleText(spec.pay), bundleText(spec.gain)].filter(Boolean).join(' ');
  if (kind === 'route') return ['coins', 'camels', 'jade'].filter((k) => spec[k]).map((k) => amount(spec[k], resWord(k))).join(' + ') || t('mp2.face.free');
  return spec.name || '';
}

/** A component drawn as printed (the pack forms' card face). */
export function faceFor(kind, id, spec) {
  if (formsModule && formsModule.cardFace && spec) {
    try { const el = formsModule.cardFace(kind, id, spec); if (el) return el; } catch (err) { console.error(err); }
  }
  // not described yet (a secret goal card...): what it is, never its code as if it were printed
  const words = wordsOf(kind, spec) || (spec ? '' : t('mp2.not-described', { what: kindNoun(kind) }));
  return h('span', { class: 'mp2-face', 'data-face': kind, 'data-id': id }, h('span', { class: 'mp2-face-words' }, words));
}

// ---- asking for a component --------------------------------------------------------------------
let asking = 0;
/** What the form offers beside the fields: the places a route may join, the shields known, the codes taken. */
function formContext(kind, content, extraNodes = []) {
  const nodes = [...componentsOf(content, 'node'), ...extraNodes];
  const shields = [...new Set(nodes.map((n) => n.shield).filter(Boolean))];
  return { nodes: nodes.map((n) => ({ id: n.id, name: n.name })), shields, taken: componentsOf(content, kind).map((x) => x.id) };
}

/**
 * Opens the pack form for one component in a dialog; resolves to ``{id, spec}``, or null when the
 * table closes it. ``id`` null: the form asks for the code (a place's follows its name). ``why``
 * says in plain words where the component lies; ``nodes``: places described on this screen.
 */
export async function askComponent({ kind, id, initial = {}, why = '', content = null, nodes = [], suggestId = null }) {
  await loading;
  const hid = `mp2-ask-h-${++asking}`;
  return new Promise((resolve) => {
    const body = h('div', { class: 'mp2-ask-body' });
    const dialog = h('dialog', { class: 'mp2-ask', 'data-ask-kind': kind, 'data-ask-id': id || '', 'aria-labelledby': hid },
      h('h2', { id: hid }, t('mp2.describe', { what: kindName(kind) || kind })),
      h('p', { class: 'small' }, why ? t('mp2.why', { why }) : '', t('mp2.not-in-pack')),
      body);
    let settled = false;
    const done = (out) => {
      if (settled) return;
      settled = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(out);
    };
    dialog.addEventListener('cancel', (ev) => { ev.preventDefault(); done(null); });
    document.body.append(dialog);
    let shown = false;
    if (formsModule && formsModule.componentForm) {
      try {
        formsModule.componentForm(body, {
          kind, id, forms: formsData, initial, context: formContext(kind, content, nodes), suggestId, submitLabel: t('mp2.save-it'), codes: false,
          onSubmit: (spec, theId) => done({ id: theId || id, spec }), onCancel: () => done(null),
        });
        shown = !!body.querySelector('form');
      } catch (err) { console.error('the pack form failed', err); }
    }
    if (!shown) {
      clear(body).append(h('p', {}, t('mp2.no-forms')),
        h('button', { type: 'button', class: 'secondary', onclick: () => done(null) }, t('mp2.close')));
    }
    dialog.showModal();
    const first = body.querySelector('input, button');
    if (first) first.focus();
  });
}

/**
 * A choice among components of one kind by their pictures, and a button to describe one the pack
 * lacks. ``onPick(id)``; ``onNew()`` when the table has one not shown.
 */
export function pickGrid({ kind, ids, content, fresh, selected = [], label, onPick, onNew, newLabel }) {
  const buttons = ids.map((id) => h('button', {
    type: 'button', class: 'mpf-pick mp2-pick', 'data-kind': kind, 'data-id': id, 'aria-pressed': String(selected.includes(id)),
    onclick: () => onPick(id),
  }, faceFor(kind, id, specOf(content, kind, id, fresh))));
  const more = onNew ? h('button', { type: 'button', class: 'secondary mp2-new', 'data-new': kind, onclick: onNew },
    newLabel || (ids.length ? t('mp2.another') : t('mp2.describe-it'))) : null;
  return h('div', { class: 'mpf-picker mp2-grid', role: 'group', 'aria-label': label },
    buttons.length ? h('div', { class: 'mpf-grid' }, buttons) : null, more);
}

// ---- the board to tap ------------------------------------------------------------------------
const BW = 1000;
const BH = 700;
const YS = BH / 1000; // pack y (0..1000) to the board's height

/** Where a place without its own x/y is put (pack units): Beijing to the east, others round the middle. */
export function defaultSpot(node, i) {
  if (node.kind === 'start') return { x: 850, y: 450 };
  const a = (i * 2.4) % (2 * Math.PI);
  return { x: Math.round(500 + Math.cos(a) * 300), y: Math.round(500 + Math.sin(a) * 320) };
}

// where a place sits on the board: its own x/y, else its default spot
function spotOf(node, i) {
  const { x, y } = typeof node.x === 'number' && typeof node.y === 'number' ? node : defaultSpot(node, i);
  return [x, y * YS];
}

const placeWord = (n) => t(n.kind === 'oasis' ? 'mp2.place.oasis' : n.kind === 'start' ? 'mp2.place.start' : 'mp2.place.city');

/**
 * The board as a table sees it: places as buttons, routes as lines. ``onAdd({x, y})`` for a tap on
 * an empty spot (pack units 0..1000); ``onPlace(id)`` for a tap on a place. ``marks``: id -> a word
 * shown on the place (done, start, ...); ``pressed``: the places picked.
 */
export function tapBoard({ nodes, routes = [], onAdd, onPlace, marks = {}, pressed = [], label }) {
  const pos = new Map(nodes.map((n, i) => [n.id, spotOf(n, i)]));
  const svg = s('svg', { viewBox: `0 0 ${BW} ${BH}`, class: 'mp2-board-svg', 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 0, y: 0, width: BW, height: BH, rx: 16, class: 'mp-sea' }));
  for (const r of routes) {
    const [a, b] = r.ends || [];
    if (pos.has(a) && pos.has(b)) svg.append(s('line', { x1: pos.get(a)[0], y1: pos.get(a)[1], x2: pos.get(b)[0], y2: pos.get(b)[1], class: 'mp-route', 'data-route': r.id || `${a}-${b}` }));
  }
  const box = h('div', { class: 'mp2-board', role: 'group', 'aria-label': label || t('mp2.the-board') }, svg);

  if (onAdd) {
    box.addEventListener('click', (ev) => {
      if (ev.target.closest('button')) return;
      const r = box.getBoundingClientRect();
      const x = Math.round(((ev.clientX - r.left) / r.width) * 1000);
      const y = Math.round(((ev.clientY - r.top) / r.height) * 1000);
      onAdd({ x: Math.max(0, Math.min(1000, x)), y: Math.max(0, Math.min(1000, y)) });
    });
  }
  for (const n of nodes) {
    const [x, y] = pos.get(n.id);
    const mark = marks[n.id];
    const b = h('button', {
      type: 'button', class: `mpf-city-btn mp2-place${n.kind === 'oasis' ? ' oasis' : ''}${mark === 'done' ? ' done' : ''}`,
      'data-place': n.id, 'aria-pressed': String(pressed.includes(n.id)),
      'aria-label': `${n.name || placeWord(n)}${mark ? `: ${mark === 'done' ? t('mp2.mark.done') : mark}` : ''}`,

      style: `left:${(x / BW) * 100}%;top:${(y / BH) * 100}%;transform:translate(-50%,-50%)`,
      onclick: onPlace ? () => onPlace(n.id) : undefined, disabled: onPlace ? null : true,
    }, n.name || placeWord(n));
    box.append(b);
  }
  return box;
}
