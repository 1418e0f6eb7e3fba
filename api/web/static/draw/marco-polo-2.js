// Marco Polo II: the map (laid out from the game's content: its pack plus what the log described),
// figures and trading posts, the tiles and cards on the cities, the action board with its dice,
// each player's resources and caravans, and the offers of the round.
import { scoreSheet } from './mp-score.js';
import { h, s, clear, seatColour, humanize } from '../dom.js';
import { mapWrap, tagFaces, tappable, showFaces } from './mapfaces.js';
import { amount, characterName, defaultSpot, faceFor, resWord, specOf } from '../faces/mp2-table.js';
import { dieWord } from '../faces/mp2-setup.js';
import { t, term } from '../i18n.js';

// each resource's name (the abbreviation's title) and its short form on the seat card
const RES = ['coins', 'camels', 'pepper', 'silk', 'gold', 'jade', 'vp'];
const W = 1000; const H = 560;
// what the table is doing, past the turns of a round
const PHASES = ['picks', 'round', 'roll', 'reveal', 'over'];
const phaseWord = (phase) => (PHASES.includes(phase) ? t(`mp2.phase.${phase}`) : null);
const GUILDS = ['farmer', 'spicer', 'tailor', 'jeweler'];
/** A guild by the name of its traders ("Farmers"), in the reader's language. */
const guildName = (g) => (GUILDS.includes(g) ? t(`mp2.guild.${g}`) : g);
// the special cities are printed on their cards: the names as the reader's edition prints them
const specialName = (name) => term('marco-polo-2', 'special', name);
const rowWord = (row) => ({ 1: t('mp2.row.lower'), 2: t('mp2.row.middle'), 3: t('mp2.row.upper') }[row] || String(row));

function die(value, seat, kind) {
  const colour = kind === 'b' ? '#222' : kind === 'w' ? '#fff' : kind === 'n' ? '#6b6b6b' : seatColour(seat);
  const fg = kind === 'w' ? '#222' : '#fff';
  return h('span', { class: 'die', style: `background:${colour};color:${fg}`, 'data-die': value, 'data-seat': seat, 'data-kind': kind }, value || '?');
}

// where each node sits: the pack's own x/y if it has them, else columns by distance from the start
export function layout(nodes, routes, start) {
  const pos = {};
  // places drawn at the table carry x/y, the pack's Beijing may not: it takes its spot beside them
  const has = (n) => typeof n.x === 'number' && typeof n.y === 'number';
  if (nodes.some(has) && !nodes.every(has)) nodes = nodes.map((n, i) => (has(n) ? n : { ...n, ...defaultSpot(n, i) }));
  if (nodes.length && nodes.every((n) => typeof n.x === 'number' && typeof n.y === 'number')) {
    const xs = nodes.map((n) => n.x); const ys = nodes.map((n) => n.y);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    for (const n of nodes) pos[n.id] = [60 + ((n.x - x0) / ((x1 - x0) || 1)) * (W - 120), 50 + ((n.y - y0) / ((y1 - y0) || 1)) * (H - 110)];
    return pos;
  }
  const adj = {};
  for (const n of nodes) adj[n.id] = [];
  for (const r of routes) { const [a, b] = r.ends; if (adj[a] && adj[b]) { adj[a].push(b); adj[b].push(a); } }
  const depth = {};
  const first = start && adj[start] ? start : nodes.length ? nodes[0].id : null;
  const queue = first ? [first] : [];
  if (first) depth[first] = 0;
  while (queue.length) {
    const x = queue.shift();
    for (const y of adj[x]) if (depth[y] === undefined) { depth[y] = depth[x] + 1; queue.push(y); }
  }
  const maxDepth = Math.max(0, ...Object.values(depth));
  for (const n of nodes) if (depth[n.id] === undefined) depth[n.id] = maxDepth + 1;
  const columns = {};
  for (const n of nodes) (columns[depth[n.id]] = columns[depth[n.id]] || []).push(n.id);
  const ncol = Math.max(...Object.keys(columns).map(Number), 0) + 1;
  for (const [d, ids] of Object.entries(columns)) {
    ids.forEach((id, i) => {
      const x = ncol === 1 ? W / 2 : 70 + (Number(d) / (ncol - 1)) * (W - 140);
      const y = 60 + ((i + 0.5) / ids.length) * (H - 120) + (Number(d) % 2 ? 18 : -18) * (ids.length > 1 ? 1 : 0);
      pos[id] = [x, y];
    });
  }
  return pos;
}

function byCity(pairs) {
  const out = {};
  for (const [city, item] of pairs || []) (out[city] = out[city] || []).push(item);
  return out;
}

function map(view, content) {
  const m = (content && content.map) || { nodes: [], routes: [] };
  const nodes = [...(m.nodes || [])];
  const known = new Set(nodes.map((n) => n.id));
  // a figure or post on a node the content does not list yet is still drawn
  for (const p of view.seats) for (const c of [...p.figures, ...p.posts]) if (!known.has(c)) { known.add(c); nodes.push({ id: c, name: c, kind: 'city' }); }
  const routes = m.routes || [];
  const start = (content && content.start_city) || (nodes.find((n) => n.kind === 'start') || {}).id;
  const pos = layout(nodes, routes, start);
  const tags = [['city_bonus', byCity(view.bonuses)], ['outpost', byCity(view.outposts)], ['city_card', byCity(view.cards)], ['contract', byCity(view.city_contracts)]];
  const facesOver = s('g', { class: 'mp-tags' });
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'mp-map mp2-map', role: 'group', 'aria-labelledby': 'mp2-map-t' },
    s('title', { id: 'mp2-map-t' }, t('mp2.map.title', { n: nodes.length })),
    s('rect', { x: 0, y: 0, width: W, height: H, rx: 16, class: 'mp-sea' }));
  const costs = s('g', { class: 'mp-costs' }); // on top of all: a route's cost over the faces beside a city
  for (const r of routes) {
    const [a, b] = r.ends;
    if (!pos[a] || !pos[b]) continue;
    const [x1, y1] = pos[a]; const [x2, y2] = pos[b];
    svg.append(s('line', { x1, y1, x2, y2, class: 'mp-route', 'data-route': r.id || `${a}-${b}` }));
    const cost = ['coins', 'camels', 'jade'].filter((k) => r[k]).map((k) => amount(r[k], t(`mp2.res-short.${k}`)))
      .concat(r.guild ? [guildName(r.guild)] : []).join(' ');
    if (cost) costs.append(s('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, class: 'mp-cost', 'text-anchor': 'middle' }, cost));
  }
  const postsAt = {}; const figuresAt = {};
  view.seats.forEach((p) => {
    p.posts.forEach((c) => { (postsAt[c] = postsAt[c] || []).push(p.seat); });
    p.figures.forEach((c) => { (figuresAt[c] = figuresAt[c] || []).push(p.seat); });
  });
  for (const n of nodes) {
    const [x, y] = pos[n.id] || [W / 2, H / 2];
    const kind = n.kind || 'city';
    const g = s('g', { class: `mp-loc mp-${kind === 'start' ? 'beijing' : kind === 'oasis' ? 'oasis' : 'large'}`, 'data-loc': n.id, transform: `translate(${x},${y})` },
      s('title', {}, `${n.name || n.id}${n.shield ? ` · ${t('mp2.map.shield', { shield: n.shield })}` : ''}${n.special ? ` · ${specialName(n.special)}` : ''}`));
    if (kind === 'oasis') g.append(s('rect', { x: -8, y: -8, width: 16, height: 16, transform: 'rotate(45)', class: 'mp-oasis-shape' }));
    else if (kind === 'start') g.append(s('rect', { x: -30, y: -20, width: 60, height: 40, rx: 6, class: 'mp-city-shape' }));
    else g.append(s('circle', { r: n.special ? 20 : 17, class: 'mp-city-shape' }));
    if (n.name && n.name !== n.id) g.append(s('text', { y: 32, 'text-anchor': 'middle', class: 'mp-name' }, n.name));
    const lying = tags.flatMap(([kind, at]) => (at[n.id] || []).map((id) => [kind, id]));
    if (lying.length) {
      // above the city (below it near the top edge), the city's name staying its own text
      const [ty, how] = y <= 110 ? [48, 'below'] : [-30 - 64, ''];
      facesOver.append(tagFaces(lying.map(([kind, id]) => faceFor(kind, id, specOf(content, kind, id))), Math.max(0, Math.min(W - 320, x - 160)), y + ty, 320, 64, how, n.id));
      tappable(g, () => showFaces(g, n.name || t('mp2.map.the-city'), lying.map(([kind, id]) => faceFor(kind, id, specOf(content, kind, id)))), n.name && n.name !== n.id ? null : n.name || n.id);
    }
    (postsAt[n.id] || []).forEach((seat, i) => g.append(s('rect', { x: -22 + i * 12, y: 36, width: 10, height: 10, fill: seatColour(seat), class: 'mp-post', 'data-post': n.id, 'data-seat': seat },
      s('title', {}, t('mp2.map.post-of', { player: view.players[seat] })))));
    (figuresAt[n.id] || []).forEach((seat, i) => {
      const fx = -18 + i * 12 + (kind === 'oasis' ? 10 : 28);
      g.append(s('path', { d: `M${fx} -6 a5 5 0 1 1 0.1 0 M${fx - 6} 8 L${fx} -2 L${fx + 6} 8 Z`, fill: seatColour(seat), class: 'mp-figure', 'data-figure': n.id, 'data-seat': seat },
        s('title', {}, t('mp2.map.here', { player: view.players[seat] }))));
    });
    svg.append(g);
  }
  svg.insertBefore(facesOver, svg.querySelector('.mp-loc')); // under the cities: their names stay on top, readable
  svg.append(costs);
  if (nodes.length <= 1) svg.append(s('text', { x: W / 2, y: H - 30, 'text-anchor': 'middle', class: 'mp-name' }, t('mp2.map.rest')));
  return svg;
}

function list(label, items, attrs = {}) {
  return h('p', { class: 'small', ...attrs }, h('strong', {}, t('mp2.label', { label })), items && items.length ? (items.some((x) => x instanceof Node) ? h('span', { class: 'mp2-move-faces' }, items) : items.join(', ')) : h('span', { class: 'muted' }, '—'));
}

// components as their faces, small (a code only while nothing is known of it)
function faceList(label, kind, ids, content, attrs = {}) {
  return list(label, (ids || []).map((id) => faceFor(kind, id, specOf(content, kind, id))), { class: 'small mp2-faces-line', ...attrs });
}

function board(view, content) {
  const placed = {};
  for (const [space, value, seat, kind] of view.board) (placed[space] = placed[space] || []).push([value, seat, kind]);
  const spaces = Object.keys(placed);
  return h('section', { class: 'mp-board', 'aria-label': t('mp2.board.heading') },
    h('h3', {}, t('mp2.board.heading')),
    spaces.length ? h('ul', { class: 'mp-spaces' }, spaces.map((id) => h('li', { 'data-space': id, 'data-dice': placed[id].map((d) => d[0]).join(' ') },
      h('span', { class: 'mp-space-name' }, spaceName(id, view, content)), h('span', { class: 'mp-dice' }, placed[id].map(([v, seat, kind]) => die(v, seat, kind))))))
      : h('p', { class: 'muted small' }, t('mp2.board.no-dice')),
    faceList(t('mp2.board.offers'), 'offer', view.offers, content), faceList(t('mp2.board.coming-up'), 'offer', view.upcoming, content),
    faceList(t('mp2.board.area-cards'), 'city_card', view.area_cards, content),
    list(t('mp2.board.characters-offered'), (view.offered || []).map(characterName)),
    faceList(t('mp2.board.route-tiles'), 'route_tile', view.route_tiles_up, content), list(t('mp2.board.black-pool'), view.black_pool),
    h('p', { class: 'small muted' }, t('mp2.board.black-left', { n: view.black_dice_left })));
}

/** An action space by its name on the board ("Middle row of travel", "Book 2", the city card of Xian). */
function spaceName(id, view, content) {
  const [what, rest] = String(id).split(':');
  if (/^travel-\d$/.test(what)) return t('mp2.space.travel', { row: rowWord(Number(what.slice(7))) });
  if (/^book-\d$/.test(what)) return t('mp2.book-n', { n: Number(what.slice(5)) });
  if (['khan', 'contracts', 'guild', 'bag'].includes(what)) return t(`mp2.space.${what}`);
  if (what === 'special' && rest) return specialName(rest);
  if (what === 'card' && rest) return /^area\d$/.test(rest) ? t('mp2.area-card-n', { n: Number(rest.slice(4)) }) : t('mp2.space.card', { city: placeName(content, rest) });
  if (/^area\d$/.test(what)) return t('mp2.area-card-n', { n: Number(what.slice(4)) });
  return humanize(id.replace(':', ' '));
}
// written out for the catalogue test: t('mp2.space.khan') t('mp2.space.contracts') t('mp2.space.guild') t('mp2.space.bag')

function seatCard(view, p, content) {
  const me = view.to_move === p.seat;
  return h('section', { class: `mp-seat${me ? ' to-move' : ''}`, 'data-seat': p.seat, style: `--seat:${seatColour(p.seat)}`, 'aria-label': t('mp.resources-of', { player: p.player }) },
    h('h3', {}, h('span', { class: 'player', style: `--seat:${seatColour(p.seat)}` }, p.player), p.character ? h('span', { class: 'muted small' }, ` · ${characterName(p.character)}`) : null, me ? h('span', { class: 'badge' }, t('mp.to-move')) : null),
    h('dl', { class: 'mp-res mp2-res' }, RES.map((k) => [h('dt', {}, h('abbr', { title: t(`mp2.res-name.${k}`) }, t(`mp2.res-short.${k}`))), h('dd', { 'data-res': k }, p[k])])),
    h('p', { class: 'small' }, `${t('mp.dice')} `, p.dice.length || p.black.length ? [p.dice.map((v) => die(v, p.seat, 'c')), p.black.map((v) => die(v, p.seat, 'b'))] : h('span', { class: 'muted' }, t('mp.none'))),
    faceList(t('mp2.seat.contracts'), 'contract', p.contracts, content), faceList(t('mp2.seat.completed'), 'contract', p.completed, content),
    list(t('mp2.seat.seals'), p.seals.map(guildName)),
    list(t('mp2.seat.caravans'), (p.caravans || []).map(([tile, at, goods]) => `[${[tile, at ? placeName(content, at) : t('sweep.mp2.caravan-waiting'), ...(goods || []).map(resWord)].join(' ')}]`), { 'data-caravans': (p.caravans || []).length }),
    faceList(t('mp2.seat.outposts'), 'outpost', p.outpost_tiles, content),
    h('p', { class: 'small' }, t('mp2.seat.posts-left', { n: p.posts_left }), p.improved && p.improved.length ? ` · ${t('mp2.seat.improved', { guilds: p.improved.map(guildName).join(', ') })}` : ''));
}
// written out for the catalogue test: t('mp2.res-name.coins') t('mp2.res-name.camels') t('mp2.res-name.pepper') t('mp2.res-name.silk') t('mp2.res-name.gold') t('mp2.res-name.jade') t('mp2.res-name.vp')
// t('mp2.res-short.coins') t('mp2.res-short.camels') t('mp2.res-short.pepper') t('mp2.res-short.silk') t('mp2.res-short.gold') t('mp2.res-short.jade') t('mp2.res-short.vp')
// t('mp2.phase.picks') t('mp2.phase.round') t('mp2.phase.roll') t('mp2.phase.reveal') t('mp2.phase.over') t('mp2.guild.farmer') t('mp2.guild.spicer') t('mp2.guild.tailor') t('mp2.guild.jeweler')

export function draw(container, view, ctx) {
  clear(container);
  container.dataset.drawing = 'marco-polo-2';
  container.append(h('div', { class: 'mp-table', 'data-round': view.round, 'data-phase': view.phase },
    h('p', { class: 'lc-round' }, view.round ? t('mp2.round-n', { round: view.round }) : t('mp.setup'), phaseWord(view.phase) ? ` · ${phaseWord(view.phase)}` : ''),
    mapWrap(map(view, ctx.content), 'marco-polo-2'),
    h('div', { class: 'mp-lower' }, board(view, ctx.content), h('div', { class: 'mp-seats' }, view.seats.map((p) => seatCard(view, p, ctx.content))))));
}

export function score(view) {
  return scoreSheet(view, { during: ['in_game'], end: ['goal_seals', 'shields', 'goods', 'coins', 'most_contracts', 'caravans'] }, { shields: 'shields_count' });
}


// ---- the picker: kinds and moves in the table's words, the components they name as pictures ------
const GROUPS = ['character-picked', 'goal-kept', 'income-taken', 'travelled', 'book-used', 'khans-favor-taken', 'contracts-taken',
  'guild-taken', 'special-city-used', 'city-card-used', 'contract-completed', 'seal-improved', 'money-bag-taken',
  'die-rerolled', 'die-adjusted', 'black-die-bought', 'goods-traded', 'outpost-tile-used', 'caravan-started', 'caravan-conquered', 'turn-ended'];
// written out for the catalogue test: t('mp2.group.character-picked') t('mp2.group.goal-kept') t('mp2.group.income-taken') t('mp2.group.travelled')
// t('mp2.group.book-used') t('mp2.group.khans-favor-taken') t('mp2.group.contracts-taken') t('mp2.group.guild-taken') t('mp2.group.special-city-used')
// t('mp2.group.city-card-used') t('mp2.group.contract-completed') t('mp2.group.seal-improved') t('mp2.group.money-bag-taken') t('mp2.group.die-rerolled')
// t('mp2.group.die-adjusted') t('mp2.group.black-die-bought') t('mp2.group.goods-traded') t('mp2.group.outpost-tile-used') t('mp2.group.caravan-started')
// t('mp2.group.caravan-conquered') t('mp2.group.turn-ended')
const kindOf = (m) => String(m.move.type).split('.').pop();
const dieText = (d) => dieWord(String(d));
const placeName = (content, id) => {
  const n = ((content && content.map && content.map.nodes) || []).find((x) => x.id === id);
  return (n && n.name) || id;
};

// the content the picker shows now: its narrowing chips name places by their names
let shownContent = null;

/** A chip narrowing a kind of move by the notation's next word, in words (never a code). */
export function subgroupLabel(group, key) {
  const k = String(group).split('.').pop();
  if (k === 'travelled') return ['1', '2', '3'].includes(String(key)) ? rowWord(Number(key)) : humanize(key);
  if (k === 'book-used') return t('mp2.book-n', { n: Number(key) });
  if (k === 'guild-taken' || k === 'seal-improved') return guildName(key);
  if (k === 'special-city-used') return specialName(key);
  if (k === 'city-card-used') return /^area\d$/.test(key) ? t('mp2.area-card-n', { n: Number(key.slice(4)) }) : placeName(shownContent, key);
  if (/^(b?\d|p[A-Z])$/.test(key)) return t('mp2.die-x', { die: dieText(key) });
  return null;
}

/** A sentence of the server's with each place's code said by its name ("refilled in XIA" -> "in Xian"). */
export function inWords(text, content) {
  const names = new Map(((content && content.map && content.map.nodes) || []).filter((n) => n.name).map((n) => [n.id, n.name]));
  return names.size ? String(text).replace(/\b[A-Z][A-Z0-9]{1,3}\b/g, (w) => names.get(w) || w) : text;
}

export function groupLabel(k) {
  const kind = String(k).split('.').pop();
  return GROUPS.includes(kind) ? t(`mp2.group.${kind}`) : null;

}

function faces(content, pairs) {
  const out = pairs.map(([kind, id]) => {
    const spec = specOf(content, kind, id);
    return spec ? faceFor(kind, id, spec) : null;
  }).filter(Boolean);
  return out.length ? h('span', { class: 'mp2-move-faces' }, out) : null;
}

/** A move as the table says it, with the cards and tiles it names drawn small. */
export function moveLabel(m, view, content) {
  const mv = m.move || {};
  const k = kindOf(m);
  const die = mv.die !== undefined ? t('mp2.move.dice', { one: true, dice: dieText(mv.die) }) : mv.dice ? dice(mv) : '';
  const gain = (bundle) => Object.entries(bundle).map(([r, n]) => amount(n, resWord(r))).join(' + ');
  let words = null;
  let shown = [];
  if (k === 'character-picked') words = characterName(mv.character);
  else if (k === 'goal-kept') { words = mv.goal ? t('mp2.move.keep') : t('mp2.move.goal-unseen'); shown = mv.goal ? [['goal', mv.goal]] : []; }
  else if (k === 'income-taken') {
    words = [gain({ coins: mv.coins, camels: mv.camels }), mv.double ? t('mp2.move.twice', { what: doubled(content, mv.double) }) : null,
      mv.pair ? t('mp2.move.pair', { n: mv.pair }) : null].filter(Boolean).join(t('mp2.comma'));
  } else if (k === 'travelled') {
    words = t('mp2.move.travel', { row: rowWord(mv.row), dice: die, path: (mv.path || []).map((x) => placeName(content, x)).join(' → ') });
    shown = (mv.take || []).map((x) => ['contract', x]);
  } else if (k === 'book-used') {
    words = t('mp2.move.book', { book: t('mp2.book-n', { n: mv.book }), dice: die, what: mv.option <= 2 ? t('mp2.move.free-option', { n: mv.option }) : t('mp2.move.offer-jade', { n: mv.option - 2 }) });
  } else if (k === 'khans-favor-taken') words = t('mp2.move.gain', { dice: die, gain: gain({ coins: 4, camels: 2 }) });
  else if (k === 'contracts-taken') {
    words = t('mp2.move.contracts', { dice: die, gain: gain({ coins: 4 }), take: !!(mv.contracts && mv.contracts.length) });
    shown = (mv.contracts || []).map((x) => ['contract', x]);
  } else if (k === 'guild-taken') words = t('mp2.move.gain', { dice: dice(mv), gain: t('mp2.move.seal-of', { guild: guildName(mv.guild) }) });
  else if (k === 'special-city-used') words = t('mp2.move.at', { where: specialName(mv.city), dice: die });
  else if (k === 'city-card-used') {
    const card = String(mv.city).startsWith('area') ? (view && view.area_cards || [])[Number(String(mv.city).slice(4)) - 1] : ((view && view.cards) || []).find((p) => p[0] === mv.city)?.[1];
    const where = String(mv.city).startsWith('area') ? t('mp2.area-card-n', { n: Number(String(mv.city).slice(4)) }) : placeName(content, mv.city);
    words = t('mp2.move.at', { where, dice: die }) + (mv.times > 1 ? t('mp2.move.times', { n: mv.times }) : '');
    if (card) shown = [['city_card', card]];
  } else if (k === 'contract-completed') { words = t('mp2.move.complete'); shown = [['contract', mv.contract]]; }
  else if (k === 'seal-improved') words = t('mp2.move.improve', { guild: guildName(mv.guild) });
  else if (k === 'money-bag-taken') words = t('mp2.move.gain', { dice: die, gain: { coins: gain({ coins: 3 }), camels: gain({ camels: 2 }), jade: gain({ jade: 1 }) }[mv.take] || mv.take });
  else if (k === 'die-rerolled') words = t('dice.reroll-the', { die: dieText(mv.die) });
  else if (k === 'die-adjusted') words = t('mp2.move.adjust', { die: dieText(mv.die), up: mv.delta > 0, to: Number(String(mv.die).replace(/\D/g, '')) + mv.delta });
  else if (k === 'black-die-bought') words = mv.value ? t('dice.take-black', { n: mv.value }) : t('dice.buy-black');
  else if (k === 'outpost-tile-used') { words = t('mp2.move.use'); shown = [['outpost', mv.tile]]; }
  else if (k === 'turn-ended') words = t('mp2.group.turn-ended');
  if (words === null) return null;
  const pics = faces(content, shown);
  if (!pics) return shown.length ? `${words} ${shown.map(([, x]) => x).join(', ')}` : words;
  return h('span', { class: 'mp2-move', 'aria-label': `${words} ${shown.map(([, x]) => x).join(' ')}`.trim() }, h('span', {}, words), pics);
}
// Mailin & Tian Chin's «!» bonus taken twice: a city's, a guild seal's or the character's own
const doubled = (content, what) => {
  const [kind, id] = String(what).split(':');
  if (kind === 'city' && id) return placeName(content, id);
  if (kind === 'seal' && id) return guildName(id);
  return kind === 'character' ? t('mp2.move.character-bonus') : what;
};
const dice = (mv) =>
 t('mp2.move.dice', { one: (mv.dice || []).length === 1, dice: (mv.dice || []).map(dieText).join(' + ') });


/**
 * The picker's moves, plus those the pack cannot list yet because no one has described what they
 * use: a book's free options, improving a guild seal. Picking one asks the table for the component
 * (its form), then the move goes again carrying it.
 */
export function choices(moves, view, content) {
  shownContent = content;
  if (!view || view.phase !== 'play' || !content || (view.pending || []).length) return moves;
  const seat = view.to_move;
  const p = (view.seats || [])[seat];
  if (!p || !moves.some((m) => m.move.seat === seat)) return moves;
  const extra = [];
  const mainOpen = moves.some((m) => ['khans-favor-taken', 'money-bag-taken', 'contracts-taken'].includes(kindOf(m)));
  (content.books || []).forEach((b, i) => {
    if (b.fixed || !mainOpen) return;
    for (const die of [...new Set([...p.dice.map(String), ...p.black.map((v) => `b${v}`)])]) {
      if (Number(die.replace(/\D/g, '')) < (b.min_die || 1)) continue; // a taken space costs coins: the rules say if it is affordable
      for (const option of [1, 2]) {
        extra.push({ notation: `@${seat} book ${i + 1} die=${die} option=${option}`, move: { type: 'marco-polo-2.book-used', describe: [], book: i + 1, die, option, caravans: [], seat } });
      }
    }
  });
  const seals = content.seals || {};
  for (const g of p.seals) {
    if (!seals[g] && !p.improved.includes(g)) extra.push({ notation: `@${seat} improve ${g}`, move: { type: 'marco-polo-2.seal-improved', describe: [], guild: g, seat } });
  }
  if (!extra.length) return moves;
  const out = [...moves];
  for (const m of extra) {
    const at = out.findIndex((x) => kindOf(x) === kindOf(m));
    out.splice(at < 0 ? out.length - (kindOf(out[out.length - 1] || { move: {} }) === 'turn-ended' ? 1 : 0) : at, 0, m);
  }
  return out;
}
