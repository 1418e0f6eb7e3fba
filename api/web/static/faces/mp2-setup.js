// Marco Polo II's facts at a table, entered on the board: the layout (tap a place, pick what lies
// there), a round's offer tiles and city cards, a refilled contract, and a travel along a route the
// map does not show yet (tap its two ends). A component the pack lacks is described with its form.
import { h, clear, errorBox } from '../dom.js';
import { t } from '../i18n.js';
import {
  askComponent, characterName, componentsOf, faceFor, nextId, pickGrid, placeId, rememberId, rememberSecrets, secretIds, specOf, tapBoard,
} from './mp2-table.js';

const SETUP_DEALT = 'marco-polo-2.setup-dealt';
// what may lie at a city, in the order the layout names it
const SLOTS = [
  ['bonus', 'city_bonus', 'mp2.slot.bonus', 'bonuses'],
  ['outpost', 'outpost', 'mp2.slot.outpost', 'outposts'],
  ['card', 'city_card', 'mp2.slot.card', 'cards'],
  ['contracts', 'contract', 'mp2.slot.contracts', 'contracts'],
];
// the keys written out, so that the catalogue test finds them: t('mp2.slot.bonus') t('mp2.slot.outpost') t('mp2.slot.card') t('mp2.slot.contracts')

function errorArea() { return h('div', { class: 'fact-error', 'aria-live': 'assertive' }); }

/**
 * What the table entered on a screen so far, kept in the browser until its move is recorded: a
 * reload or a phone that sleeps loses no form filled in. ``key`` names the game and the screen.
 */
function draftOf(info, screen) {
  const key = `tabletape.mp2-draft.${info.game_id}.${screen}`;
  return {
    load() { try { return JSON.parse(localStorage.getItem(key)) || null; } catch { return null; } },
    save(value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* full or private: the draft is only a help */ } },
    clear() { try { localStorage.removeItem(key); } catch { /* as above */ } },
  };
}

/** A component the table describes on this screen: kept until the move that brings it is sent. */
function freshStore(saved = [], game = null) {
  const fresh = new Map((saved || []).map((c) => [`${c.kind}:${c.id}`, c]));
  return {
    fresh, game,
    add(kind, id, spec) { fresh.set(`${kind}:${id}`, { kind, id, spec }); },
    list(used) { return [...fresh.values()].filter((c) => !used || used.has(`${c.kind}:${c.id}`)); },
  };
}

async function describeNew(store, kind, content, { initial = {}, why = '' } = {}) {
  const got = await askComponent({ kind, id: nextId(kind, content, store.fresh, store.game), initial, why, content });
  if (!got) return null;
  store.add(kind, got.id, got.spec);
  rememberId(store.game, kind, got.id);
  return got.id;
}

// a place tapped on the board: its form asks the name, the code follows it
async function describePlace(store, content, xy, why) {
  const fresh = store.list().filter((c) => c.kind === 'node').map((c) => ({ id: c.id, ...c.spec }));
  const got = await askComponent({
    kind: 'node', id: null, initial: { kind: 'city', ...xy }, why, content, nodes: fresh,
    suggestId: (spec) => placeId(spec.name, content, store.fresh),
  });
  if (!got) return null;
  store.add('node', got.id, { ...xy, ...got.spec });
  return got.id;
}

async function send(ctx, err, move) {
  clear(err);
  try { return await ctx.record(null, move); } catch (e) { err.append(errorBox(e)); return false; }
}

// ---- the layout -------------------------------------------------------------------------------
export function setupOnBoard(box, ctx) {
  const { info, content } = ctx;
  const n = info.players.length;
  const mode = (info.options || {}).characters || 'offer';
  const all = [...(content.characters || []), ...((info.options || {}).caravans ? content.caravan_characters || [] : [])];
  const draft = draftOf(info, 'setup');
  const saved = draft.load() || {};
  const store = freshStore(saved.fresh, info.game_id);
  const want = mode === 'offer' ? n + 1 : mode === 'chosen' ? n : 0;
  const chars = saved.chars || [];
  const start = saved.start || Array(n).fill(null);
  const at = new Map(saved.at || []); // city -> {bonus, outpost, card, contracts: [a, b]}
  const goals = saved.goals || info.players.map(() => [null, null, null]);
  let city = null;
  const keep = () => draft.save({ chars, start, at: [...at.entries()], goals, fresh: store.list() });
  const err = errorArea();

  const nodes = () => [...componentsOf(content, 'node'), ...store.list().filter((c) => c.kind === 'node').map((c) => ({ id: c.id, ...c.spec }))];
  const slotsOf = (id) => {
    const node = nodes().find((x) => x.id === id);
    if (!node || node.kind !== 'city') return [];
    return node.slots && node.slots.length ? SLOTS.filter(([slot]) => node.slots.includes(slot)) : SLOTS; // none said: any may lie there
  };
  const usedIds = (kind) => {
    const out = new Set();
    for (const v of at.values()) {
      for (const [slot, k] of SLOTS) if (k === kind) [].concat(v[slot] || []).forEach((x) => x && out.add(x));
    }
    if (kind === 'contract') start.forEach((x) => x && out.add(x));
    return out;
  };

  const charBox = h('div', { class: 'mp2-chars' });
  function renderChars() {
    keep();
    clear(charBox).append(h('p', { class: 'small' }, mode === 'offer' ? t('mp2.setup.tap-offered', { n: want }) : t('mp2.setup.tap-each', { players: info.players.join(', ') })),
      h('div', { class: 'mp2-char-grid', role: 'group', 'aria-label': t('mp2.setup.characters') }, all.map((c) => h('button', {
        type: 'button', class: 'mp2-char', 'data-character': c, 'aria-pressed': String(chars.includes(c)),
        onclick: () => { const i = chars.indexOf(c); if (i >= 0) chars.splice(i, 1); else if (chars.length < want) chars.push(c); renderChars(); },
      }, characterName(c), mode === 'chosen' && chars.includes(c) ? h('span', { class: 'small' }, ` · ${info.players[chars.indexOf(c)]}`) : null))));
  }
  if (want) renderChars();

  const boardBox = h('div', { class: 'mp2-board-box' });
  const panel = h('div', { class: 'mpf-slot-panel mp2-slot-panel', id: 'mp2-slot-panel' });
  function renderBoard() {
    keep();
    const marks = {};
    for (const node of nodes()) {
      if (node.kind === 'start') marks[node.id] = t('mp2.mark.start');
      else if (at.has(node.id)) marks[node.id] = 'done';
    }
    clear(boardBox).append(tapBoard({
      nodes: nodes(), routes: componentsOf(content, 'route'), marks, pressed: city ? [city] : [], label: t('mp2.setup.board-label'),
      onAdd: (xy) => addPlace(xy), onPlace: (id) => openCity(id),
    }), h('button', { type: 'button', class: 'secondary', 'data-action': 'add-place', onclick: () => addPlace({ x: 300 + (nodes().length * 97) % 400, y: 300 + (nodes().length * 61) % 400 }) }, t('mp2.setup.add-place')));
  }
  async function addPlace(xy) {
    const id = await describePlace(store, content, xy, t('mp2.setup.a-place'));
    if (id) openCity(id);
  }
  function openCity(id) {
    city = id;
    const node = nodes().find((x) => x.id === id) || { id };
    clear(panel).append(h('h4', { id: 'mp2-city-h' }, node.name || id));
    const slots = slotsOf(id);
    if (!slots.length) panel.append(h('p', { class: 'small muted' }, node.kind === 'start' ? t('mp2.setup.nothing-start') : t('mp2.setup.nothing-oasis')));
    const here = at.get(id) || {};
    for (const [slot, kind, label] of slots) {
      const count = slot === 'contracts' ? 2 : 1;
      for (let k = 0; k < count; k++) {
        const current = slot === 'contracts' ? (here.contracts || [])[k] : here[slot];
        const used = usedIds(kind);
        const pool = componentsOf(content, kind).map((x) => x.id).concat(store.list().filter((c) => c.kind === kind).map((c) => c.id))
          .filter((x) => (x === current || !used.has(x)) && (kind !== 'contract' || !specOf(content, kind, x, store.fresh).starting));
        const put = (x) => {
          const v = at.get(id) || {};
          if (slot === 'contracts') { v.contracts = v.contracts || [null, null]; v.contracts[k] = v.contracts[k] === x ? null : x; } else v[slot] = v[slot] === x ? null : x;
          at.set(id, v);
          openCity(id);
          renderBoard();
        };
        const title = count > 1 ? t('mp2.setup.space-k', { what: t(label), k: k + 1 }) : t(label);
        panel.append(h('section', { class: 'mpf-slot', 'data-slot': `${slot}:${id}:${k}`, 'data-chosen': current || '', 'aria-label': t('mp2.setup.at-city', { city: node.name || id, what: title }) },
          h('h5', {}, title, current ? h('span', { class: 'muted small' }, t('mp2.chosen')) : null),
          pickGrid({
            kind, ids: pool, content, fresh: store.fresh, selected: current ? [current] : [], label: title, onPick: put,
            onNew: async () => { const x = await describeNew(store, kind, content, { why: t('mp2.setup.what-at', { what: title, city: node.name || id }) }); if (x) put(x); },
          })));
      }
    }
    renderBoard();
  }
  renderBoard();

  const startBox = h('div', { class: 'mpf-start' });
  function renderStart() {
    keep();
    const known = () => componentsOf(content, 'contract').filter((c) => c.starting).map((c) => c.id)
      .concat(store.list().filter((c) => c.kind === 'contract' && c.spec.starting).map((c) => c.id));
    clear(startBox).append(...info.players.map((p, i) => h('div', { class: 'mpf-seat-row', 'data-start-seat': i, 'data-chosen': start[i] || '' },
      h('h5', {}, t('mp2.setup.starting-of', { player: p })),
      pickGrid({
        kind: 'contract', ids: known().filter((x) => x === start[i] || !start.includes(x)), content, fresh: store.fresh, selected: start[i] ? [start[i]] : [],
        label: t('mp2.setup.starting-of', { player: p }), onPick: (x) => { start[i] = start[i] === x ? null : x; renderStart(); },
        onNew: async () => { const x = await describeNew(store, 'contract', content, { initial: { starting: true }, why: t('mp2.setup.starting-of', { player: p }) }); if (x) { start[i] = x; renderStart(); } },
      }))));
  }
  renderStart();

  // goal cards are secret: "not seen" unless the recorder saw a seat's three
  const goalBox = h('div', { class: 'mpf-objectives' });
  function renderGoals() {
    keep();
    const known = componentsOf(content, 'goal').map((x) => x.id).concat(store.list().filter((c) => c.kind === 'goal').map((c) => c.id));
    clear(goalBox).append(...info.players.map((p, i) => {
      const seen = goals[i].filter(Boolean);
      const others = new Set(goals.filter((_, j) => j !== i).flat().filter(Boolean));
      const toggle = (x) => {
        const k = goals[i].indexOf(x);
        if (k >= 0) goals[i][k] = null; else if (goals[i].includes(null)) goals[i][goals[i].indexOf(null)] = x;
        renderGoals();
      };
      return h('details', { 'data-goals-seat': i, open: seen.length ? true : null },
        h('summary', {}, t('mp2.setup.goals-seen', { player: p, seen: seen.length ? t('mp2.setup.k-of-3', { k: seen.length }) : t('mp2.setup.not-seen') })),
        pickGrid({
          kind: 'goal', ids: known.filter((x) => !others.has(x)), content, fresh: store.fresh, selected: seen, label: t('mp2.setup.goals-of', { player: p }), onPick: toggle,
          onNew: goals[i].includes(null) ? async () => { const x = await describeNew(store, 'goal', content, { why: t('mp2.setup.one-goal-of', { player: p }) }); if (x) toggle(x); } : null,
        }));
    }));
  }
  renderGoals();

  const form = h('form', { class: 'fact setup-form mp2-setup', 'data-fact': 'setup' },
    h('h3', {}, t('mp2.setup.heading')),
    want ? h('fieldset', {}, h('legend', {}, mode === 'offer' ? t('mp2.setup.characters-laid') : t('mp2.setup.characters')), charBox) : null,
    h('fieldset', {}, h('legend', {}, t('mp2.the-board')),
      h('p', { class: 'small' }, t('mp2.setup.board-help')), boardBox, panel),
    h('fieldset', {}, h('legend', {}, t('mp2.setup.starting')), startBox),
    h('fieldset', {}, h('legend', {}, t('mp2.setup.goals')), goalBox),
    h('div', { class: 'row wrap' }, h('button', { type: 'submit', class: 'primary' }, t('mp2.setup.record'))), err);

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const pairs = (slot) => [...at.entries()].flatMap(([c, v]) => [].concat(v[slot] || []).filter(Boolean).map((x) => [c, x]));
    const move = {
      type: SETUP_DEALT,
      characters: mode === 'chosen' ? chars : [],
      offered: mode === 'offer' ? chars : [],
      starting_contracts: start,
      goals: goals.some((row) => row.some(Boolean)) ? goals : [],
      bonuses: pairs('bonus'), outposts: pairs('outpost'), cards: pairs('card'), contracts: pairs('contracts'),
      describe: [],
    };
    const used = new Set([
      ...nodes().map((x) => `node:${x.id}`), ...start.filter(Boolean).map((x) => `contract:${x}`), ...goals.flat().filter(Boolean).map((x) => `goal:${x}`),
      ...SLOTS.flatMap(([slot, kind]) => pairs(slot).map(([, x]) => `${kind}:${x}`)),
    ]);
    move.describe = store.list(used).map((c) => ({ kind: c.kind, id: c.id, spec: c.spec }));
    if (await send(ctx, err, move)) { rememberSecrets(info.game_id, move.describe); draft.clear(); }
  });
  box.append(form);
  return true;
}

// ---- a round's reveals ---------------------------------------------------------------------------
/** The offer tiles and action-area city cards of the rounds so far, from the public frames (the rules refuse them again). */
export function usedSoFar(frames, view) {
  const offers = new Set(); const cards = new Set();
  for (const v of [...frames.map((f) => f.view), view]) {
    if (!v) continue;
    for (const x of [...(v.offers || []), ...(v.upcoming || [])]) offers.add(x);
    for (const x of v.area_cards || []) cards.add(x);
  }
  return { offers, cards };
}

export function roundOnBoard(box, ctx) {
  const { view, content } = ctx;
  const round = view.round + 1;
  const last = round >= (content.rounds || 5);
  const draft = draftOf(ctx.info, `round-${round}`);
  const saved = draft.load() || {};
  const store = freshStore(saved.fresh, ctx.info.game_id);
  const fixed = !!(view.upcoming && view.upcoming.length === 3);
  const offers = fixed ? [...view.upcoming] : saved.offers || [null, null, null];
  const upcoming = last ? [] : saved.upcoming || [null, null, null];
  const area = saved.area || [null, null];
  const err = errorArea();
  const body = h('div', {});
  const { offers: usedOffers, cards: usedCards } = usedSoFar(ctx.frames || [], view);

  function slot(list, i, kind, title, initial, exclude) {
    const current = list[i];
    const taken = new Set([...offers, ...upcoming, ...area].filter((x) => x && x !== current));
    const ids = componentsOf(content, kind).map((x) => x.id).concat(store.list().filter((c) => c.kind === kind).map((c) => c.id))
      .filter((x) => !taken.has(x) && !exclude.has(x) && (kind !== 'offer' || specOf(content, kind, x, store.fresh).book === initial.book));
    const put = (x) => { list[i] = list[i] === x ? null : x; render(); };
    return h('section', { class: 'mpf-slot', 'data-slot': `${title}`, 'data-chosen': current || '', 'aria-label': title },
      h('h5', {}, title, current ? h('span', { class: 'muted small' }, t('mp2.chosen')) : null),
      pickGrid({
        kind, ids, content, fresh: store.fresh, selected: current ? [current] : [], label: title, onPick: put,
        onNew: async () => { const x = await describeNew(store, kind, content, { initial, why: title }); if (x) put(x); },
      }));
  }
  function render() {
    draft.save({ offers, upcoming, area, fresh: store.list() });
    const used = new Set([...usedCards, ...(view.cards || []).map((p) => p[1])]);
    clear(body).append(
      h('fieldset', {}, h('legend', {}, t('mp2.round.offers', { round })),
        fixed ? h('div', { class: 'small mp2-shown' }, t('mp2.round.shown-last'), h('span', { class: 'mp2-move-faces' }, offers.map((x) => faceFor('offer', x, specOf(content, 'offer', x, store.fresh)))))
          : [1, 2, 3].map((b) => slot(offers, b - 1, 'offer', t('mp2.book-n', { n: b }), { book: b }, usedOffers))),
      last ? null : h('fieldset', {}, h('legend', {}, t('mp2.round.next-offers', { round: round + 1 })),
        [1, 2, 3].map((b) => slot(upcoming, b - 1, 'offer', t('mp2.round.book-next', { n: b }), { book: b }, usedOffers))),
      h('fieldset', {}, h('legend', {}, t('mp2.round.area-cards')),
        [0, 1].map((i) => slot(area, i, 'city_card', t('mp2.round.city-card-n', { n: i + 1 }), {}, used))));
  }
  render();
  const form = h('form', { class: 'fact mp2-round', 'data-fact': 'round', onsubmit: async (ev) => {
    ev.preventDefault();
    const all = [...offers, ...upcoming, ...area];
    if (all.some((x) => !x)) { clear(err).append(errorBox({ code: 'incomplete', message: t('mp2.round.incomplete') })); return; }
    const used = new Set([...offers, ...upcoming].map((x) => `offer:${x}`).concat(area.map((x) => `city_card:${x}`)));
    const sent = await send(ctx, err, {
      type: 'marco-polo-2.round-revealed', round, offers, upcoming, area_cards: area,
      describe: store.list(used).map((c) => ({ kind: c.kind, id: c.id, spec: c.spec })),
    });
    if (sent) draft.clear();
  } }, h('h3', {}, t('mp2.round.begins', { round })), h('p', { class: 'small' }, t('mp2.round.tap')), body,
  h('div', { class: 'row wrap' }, h('button', { type: 'submit', class: 'primary' }, t('mp2.round.record'))), err);
  box.append(form);
  return true;
}

// ---- a refilled contract space -------------------------------------------------------------------
export function refillOnBoard(box, ctx) {
  const { view, content } = ctx;
  const cityId = view.pending[0][2];
  const store = freshStore([], ctx.info.game_id);
  const err = errorArea();
  const node = componentsOf(content, 'node').find((x) => x.id === cityId);
  const where = cityId === 'hand' ? t('mp2.refill.the-hand') : (node && node.name) || cityId;
  const seen = new Set([...(view.city_contracts || []).map((p) => p[1]), ...view.seats.flatMap((p) => [...p.contracts, ...p.completed])]);
  const ids = componentsOf(content, 'contract').filter((c) => !c.starting && !seen.has(c.id)).map((c) => c.id);
  const pick = (id) => send(ctx, err, {
    type: 'marco-polo-2.contract-revealed', city: cityId, contract: id,
    describe: store.list(new Set([`contract:${id}`])).map((c) => ({ kind: c.kind, id: c.id, spec: c.spec })),
  });
  box.append(h('div', { class: 'fact mp2-refill', 'data-fact': 'refill' },
    h('h3', {}, t('mp2.refill.laid-in', { where })), h('p', { class: 'small' }, t('mp2.refill.tap')),
    pickGrid({
      kind: 'contract', ids, content, fresh: store.fresh, label: t('mp2.refill.turned-up'), onPick: pick,
      onNew: async () => { const x = await describeNew(store, 'contract', content, { why: t('mp2.refill.laid-in', { where }) }); if (x) pick(x); },
    }), err));
  return true;
}

// ---- a travel along a route the map does not show yet ---------------------------------------------
const ROWS = () => [[1, t('mp2.row.lower')], [2, t('mp2.row.middle')], [3, t('mp2.row.upper')]];

function diceSets(p, k) {
  const tokens = [...p.dice.map(String), ...p.black.map((v) => `b${v}`), ...(p.pieces || []).map((c) => `p${c[0].toUpperCase()}`)];
  const out = new Map();
  const walk = (from, picked) => {
    if (picked.length === k) { const key = [...picked].sort().join(','); out.set(key, [...picked].sort()); return; }
    for (let i = from; i < tokens.length; i++) walk(i + 1, [...picked, tokens[i]]);
  };
  walk(0, []);
  return [...out.values()];
}
/** A die of a travel as the table says it: "3", "black 5", "a piece" (Donata Badoer's). */
export const dieWord = (d) => (d[0] === 'b' ? t('dice.black-n', { n: Number(d.slice(1)) }) : d[0] === 'p' ? t('mp2.a-piece') : d);

export function newRouteTravel(box, ctx) {
  const { view, content } = ctx;
  const seat = view.to_move;
  const p = view.seats[seat];
  if (!p || view.main_done || !(p.dice.length || p.black.length) || !p.figures.length) return false;
  const store = freshStore([], ctx.info.game_id);
  const err = errorArea();
  const picked = []; // the figure's place, then each place stepped onto
  const drawn = []; // per leg: the route described on this screen for it, or null (the map has it)
  const body = h('div', {});
  const nodes = () => [...componentsOf(content, 'node'), ...store.list().filter((c) => c.kind === 'node').map((c) => ({ id: c.id, ...c.spec }))];
  const routes = () => [...componentsOf(content, 'route'), ...store.list().filter((c) => c.kind === 'route').map((c) => ({ id: c.id, ...c.spec }))];
  const joined = (a, b) => routes().some((r) => r.ends && r.ends.includes(a) && r.ends.includes(b));
  const nameOf = (id) => (nodes().find((x) => x.id === id) || {}).name || t('mp2.travel.new-place');
  const refuse = (code, message) => clear(err).append(errorBox({ code, message }));

  async function tapped(id) {
    clear(err);
    if (!picked.length) {
      if (!p.figures.includes(id)) { refuse('not-here', t('mp2.travel.not-here', { player: p.player })); return; }
      picked.push(id);
    } else if (id === picked[picked.length - 1]) { // the last place tapped again: that step taken back
      picked.pop();
      const rid = drawn.pop();
      if (rid) store.fresh.delete(`route:${rid}`);
    } else { // any other place, one already passed included (ruling MP2-5)
      const a = picked[picked.length - 1];
      let rid = null;
      if (!joined(a, id)) { // a leg the map lacks: drawn now, with the route's form
        rid = a <= id ? `${a}-${id}` : `${id}-${a}`;
        const got = await askComponent({ kind: 'route', id: rid, initial: { ends: [a, id] }, why: t('mp2.travel.route-from', { a: nameOf(a), b: nameOf(id) }), content, nodes: nodes() });
        if (!got) { render(); return; }
        store.add('route', rid, { ends: [a, id], ...got.spec });
      }
      picked.push(id);
      drawn.push(rid);
    }
    render();
  }
  async function addPlace(xy) {
    if (!picked.length) { refuse('start-first', t('mp2.travel.start-first')); return; }
    const id = await describePlace(store, content, xy, t('mp2.travel.leads'));
    if (id) await tapped(id);
  }
  function render() {
    const marks = Object.fromEntries(p.figures.map((f) => [f, t('mp2.travel.figure-of', { player: p.player })]));
    const stepsAt = {};
    picked.slice(1).forEach((x, i) => { (stepsAt[x] = stepsAt[x] || []).push(i + 1); });
    Object.entries(stepsAt).forEach(([x, n]) => { marks[x] = t('mp2.travel.step', { n: n.join(', ') }); });
    const said = !picked.length ? t('mp2.travel.tap-figure', { player: p.player })
      : t('mp2.travel.next', { path: picked.map(nameOf).join(' → '), dice: picked.length > 1 });
    clear(body).append(
      h('p', { class: 'small', 'aria-live': 'polite', 'data-path': picked.slice(1).join(',') }, said),
      tapBoard({ nodes: nodes(), routes: routes(), marks, pressed: picked, label: t('mp2.travel.path-label'), onPlace: tapped, onAdd: addPlace }),
      picked.length ? h('button', { type: 'button', class: 'secondary', 'data-action': 'new-place', onclick: () => addPlace({ x: 500, y: 500 }) }, t('mp2.travel.new-place-button')) : null);
    if (picked.length > 1) {
      const used = new Set(drawn.filter(Boolean).map((rid) => `route:${rid}`).concat(store.list().filter((c) => c.kind === 'node' && picked.includes(c.id)).map((c) => `node:${c.id}`)));
      const steps = picked.length - 1;
      // a row whose dice cannot go that far is left out (Möngke Khan's skipped oases: the rules say)
      const reaches = (row, dice) => p.character === 'mongke' || (steps <= (((content.travel || {})[row] || {}).max || 6)
        && dice.every((x) => x[0] === 'p' || Number(x.replace(/\D/g, '')) >= steps));
      body.append(h('div', { class: 'mp2-travel-dice', role: 'group', 'aria-label': t('mp2.travel.dice-placed') }, ROWS().flatMap(([row, label]) =>
        diceSets(p, row).filter((dice) => reaches(row, dice)).map((dice) => h('button', {
          type: 'button', class: 'move', 'data-row': row, 'data-dice': dice.join(','),
          onclick: () => send(ctx, err, {
            type: 'marco-polo-2.travelled', row, dice, path: picked.slice(1), figure: p.figures.indexOf(picked[0]), seat,
            describe: store.list(used).map((c) => ({ kind: c.kind, id: c.id, spec: c.spec })),
          }),
        }, t('mp2.travel.row-dice', { row: label, dice: dice.map(dieWord).join(' + ') }))))));
    }
  }
  render();
  box.append(h('details', { class: 'fact mp2-new-route', 'data-fact': 'new-route' },
    h('summary', {}, t('mp2.travel.summary')), body, err));
  return true;
}

// ---- the goal cards shown at the end ---------------------------------------------------------------
export function goalsShown(box, ctx) {
  const { view, content } = ctx;
  const seats = (view.pending || []).filter((p) => p[0] === 'show').map((p) => p[1]);
  if (!seats.length) return false;
  const store = freshStore([], ctx.info.game_id);
  for (const seat of seats) {
    const err = errorArea();
    const who = view.players[seat];
    const others = new Set((view.all_goals || []).filter((g, s) => g && s !== seat));
    // with those this device described while they were secret (the server knows them: no form)
    const ids = [...new Set([...componentsOf(content, 'goal').map((x) => x.id), ...secretIds(ctx.info.game_id, 'goal')])].filter((x) => !others.has(x));
    const show = (id) => send(ctx, err, {
      type: 'marco-polo-2.goal-revealed', seat, goal: id,
      describe: store.list(new Set([`goal:${id}`])).map((c) => ({ kind: c.kind, id: c.id, spec: c.spec })),
    });
    box.append(h('div', { class: 'fact mp2-goal-shown', 'data-fact': 'reveal', 'data-seat': seat },
      h('h3', {}, t('mp2.reveal.shows', { player: who })), h('p', { class: 'small' }, t('mp2.reveal.tap')),
      pickGrid({
        kind: 'goal', ids, content, fresh: store.fresh, label: t('mp2.reveal.goal-of', { player: who }), onPick: show,
        onNew: async () => { const x = await describeNew(store, 'goal', content, { why: t('mp2.reveal.goal-of', { player: who }) }); if (x) show(x); },

      }), err));
  }
  return true;
}
