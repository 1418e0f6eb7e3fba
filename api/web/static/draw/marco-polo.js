// The Voyages of Marco Polo: the map (routes, cities, figures, trading posts, city cards and
// bonuses), the action board with the dice on it, the contract display, and each player's resources.
import { scoreSheet } from './mp-score.js';
import { h, s, clear, seatColour } from '../dom.js';
import { t, has, lang, term } from '../i18n.js';
import { faceOf, nameOf } from '../faces/mp-faces.js';
import { mapWrap, tagFaces, tappable, showFaces } from './mapfaces.js';
export { decorateOptions, timelineFace } from '../faces/mp-picker.js';

// where each location sits on the drawing (a 1000 x 560 sketch of the board, west to east)
export const MAP_XY = {
  VEN: [60, 200], O1: [150, 110], MOS: [250, 60], ANX: [420, 60], KAR: [580, 80], O2: [660, 160], O3: [780, 110],
  BEI: [930, 200], O4: [740, 230], LAN: [850, 300], O5: [170, 250], SAM: [310, 200], O6: [420, 170], KAS: [560, 240],
  O7: [270, 340], ALE: [80, 380], ORM: [410, 360], KCH: [540, 390], O8: [660, 380], XIA: [780, 400],
  O9: [120, 480], ADA: [270, 490], KOC: [460, 500], SUM: [680, 500], O10: [880, 450],
};
// Sumatra's three cards and its tile stand in a column to its right, where the sea is empty
const TAG_AT = { SUM: [26, -96, 300, 150, 'side'] };
// each resource and its short mark (the mark stays: it is the board's icon, the name is the reader's)
const RES = [['coins', 'coin'], ['camels', 'camel'], ['pepper', 'pepr'], ['silk', 'silk'], ['gold', 'gold'], ['vp', 'VP']];
// the action board's spaces, named as the rulebook names them
const SPACES = () => ['bazaar-camels', 'bazaar-pepper', 'bazaar-silk', 'bazaar-gold', 'khan', 'coins5', 'contracts', 'travel', 'bag'].map((id) => [id, t(`mp.space.${id}`)]);

function die(value, seat, kind) {
  const colour = kind === 'b' ? '#222' : kind === 'w' ? '#fff' : kind === 'n' ? '#6b6b6b' : seatColour(seat);
  const fg = kind === 'w' ? '#222' : '#fff';
  const title = kind === 'n' ? t('sweep.mp.blocked-n', { n: value }) : kind === 'b' ? t('dice.black-n', { n: value }) : kind === 'w' ? t('dice.white-n', { n: value }) : t('mp2.die-x', { die: value });
  return h('span', { class: 'die', style: `background:${colour};color:${fg}`, 'data-die': value, 'data-seat': seat, 'data-kind': kind, title }, value || '?');
}

// `3 pepper`, `2 camels`: a count of a resource as the reader's language writes it
const amount = (n, what) => (has(`mpfaces.long.${what}`) ? t('mp2.amount', { n, what: t(`mpfaces.long.${what}`, { one: n === 1 }) }) : `${n} ${String(what).replace('_', ' ')}`);
const short = (k) => (has(`mp2.res-short.${k}`) ? t(`mp2.res-short.${k}`) : k);

// what a card, tile or contract says, from the content pack (ids are stable)
export function describe(content, cid) {
  if (!content || !cid) return '';
  // the pack's own text is English: another reader gets what the card's face says, in their words
  const face = lang !== 'en' ? faceOf(content, cid) : null;
  if (face) return face.textContent.replace(/\s+/g, ' ').trim();
  for (const key of ['city_cards', 'city_bonuses', 'outpost_bonuses', 'objectives', 'characters']) {
    const item = (content[key] || []).find((x) => x.id === cid);
    if (item) return item.text || item.name || (item.cities ? `${item.cities.join(' + ')}: ${item.vp} VP` : '');
  }
  const contract = (content.contracts || []).find((x) => x.id === cid);
  if (contract) {
    const cost = Object.entries(contract.cost).map(([k, v]) => amount(v, k)).join(' + ');
    const reward = contract.reward.map(([k, v]) => amount(v, k)).join(' + ');
    return `${cost} → ${reward}`;
  }
  return '';
}

function map(view, content) {
  const locs = Object.fromEntries(((content && content.locations) || []).map((l) => [l.id, l]));
  const routes = (content && content.routes) || [];
  const svg = s('svg', { viewBox: '0 0 1000 560', class: 'mp-map', role: 'group', 'aria-labelledby': 'mp-map-t' },
    s('title', { id: 'mp-map-t' }, t('sweep.mp.map-title')));
  svg.append(s('rect', { x: 0, y: 0, width: 1000, height: 560, rx: 16, class: 'mp-sea' }));
  const costs = s('g', { class: 'mp-costs' }); // on top of all: a route's cost over the faces beside a city
  for (const r of routes) {
    const [a, b] = r.ends;
    if (!MAP_XY[a] || !MAP_XY[b]) continue;
    const [x1, y1] = MAP_XY[a]; const [x2, y2] = MAP_XY[b];
    svg.append(s('line', { x1, y1, x2, y2, class: 'mp-route', 'data-route': r.id }));
    const cost = Object.entries(r.cost || {}).map(([k, v]) => `${v} ${short(k)}`).join(' ');
    if (cost) costs.append(s('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, class: 'mp-cost', 'text-anchor': 'middle' }, cost));
  }
  const postsAt = {};
  const figuresAt = {};
  view.seats.forEach((p) => {
    p.posts.forEach((c) => { (postsAt[c] = postsAt[c] || []).push(p.seat); });
    p.figures.forEach((c) => { (figuresAt[c] = figuresAt[c] || []).push(p.seat); });
  });
  const tags = s('g', { class: 'mp-tags' });
  for (const [id, [x, y]] of Object.entries(MAP_XY)) {
    const loc = locs[id] || { id, name: id, kind: id.startsWith('O') ? 'oasis' : 'large' };
    const g = s('g', { class: `mp-loc mp-${loc.kind}`, 'data-loc': id, transform: `translate(${x},${y})` });
    g.append(s('title', {}, nameOf(content, id)));
    if (loc.kind === 'oasis') g.append(s('rect', { x: -8, y: -8, width: 16, height: 16, transform: 'rotate(45)', class: 'mp-oasis-shape' }));
    else if (loc.kind === 'beijing') g.append(s('rect', { x: -30, y: -22, width: 60, height: 44, rx: 6, class: 'mp-city-shape' }));
    else g.append(s('circle', { r: loc.kind === 'small' ? 15 : loc.kind === 'start' ? 20 : 22, class: 'mp-city-shape' }));
    const name = loc.kind === 'oasis' ? null : s('text', { y: loc.kind === 'small' ? 30 : 36, 'text-anchor': 'middle', class: 'mp-name' }, nameOf(content, id));
    if (name) g.append(name);
    const extra = view.city_cards[id] || view.city_bonuses[id] || null;
    const outpost = view.outposts[id];
    const sumatra = id === 'SUM' ? ['SUM-1', 'SUM-2', 'SUM-3'].map((k) => view.city_cards[k]) : []; // its three cards
    const lying = [extra, ...sumatra, outpost].filter(Boolean);
    if (lying.length) {
      const [tx, ty, tw, th, how] = TAG_AT[id] || (y <= 80 ? [-80, 40, 160, 40, 'below'] : [-80, -66, 160, 40, '']); // near the top edge: below the name
      tags.append(tagFaces(lying.map((c) => faceOf(content, c, { small: true }) || c), x + tx, y + ty, tw, th, how, id)); // beside the city, not in it: the city's name is its own text
      tappable(g, () => showFaces(g, nameOf(content, id), lying.map((c) => faceOf(content, c) || h('span', {}, c))));
    }
    (postsAt[id] || []).forEach((seat, i) => {
      g.append(s('rect', { x: -22 + i * 12, y: 40, width: 10, height: 10, fill: seatColour(seat), class: 'mp-post', 'data-post': id, 'data-seat': seat }, s('title', {}, t('mp2.map.post-of', { player: view.players[seat] }))));
    });
    (figuresAt[id] || []).forEach((seat, i) => {
      const fx = -18 + i * 12 + (loc.kind === 'oasis' ? 10 : 26);
      g.append(s('path', { d: `M${fx} -6 a5 5 0 1 1 0.1 0 M${fx - 6} 8 L${fx} -2 L${fx + 6} 8 Z`, fill: seatColour(seat), class: 'mp-figure', 'data-figure': id, 'data-seat': seat }, s('title', {}, t('mp2.map.here', { player: view.players[seat] }))));
    });
    svg.append(g);
  }
  svg.insertBefore(tags, svg.querySelector('.mp-loc')); // under the cities: their names stay on top, readable
  svg.append(costs);
  // Beijing's slots
  view.beijing.forEach((seat, i) => svg.append(s('rect', { x: 905 + i * 14, y: 230, width: 12, height: 12, fill: seatColour(seat), class: 'mp-post', 'data-beijing': i, 'data-seat': seat })));
  return svg;
}

function board(view, content) {
  const placed = {};
  for (const [space, value, seat, kind] of view.board) (placed[space] = placed[space] || []).push([value, seat, kind]);
  const spaces = [...SPACES(), ...Object.keys(view.city_cards).map((k) => [k, t('mp.city-card', { city: `${nameOf(content, k.split('-')[0])}${k.includes('-') ? ` ${k.split('-')[1]}` : ''}` }), describe(content, view.city_cards[k]), faceOf(content, view.city_cards[k], { small: true })])];
  return h('section', { class: 'mp-board', 'aria-label': t('mp.action-board') },
    h('h3', {}, t('mp.action-board')),
    h('ul', { class: 'mp-spaces' }, spaces.map(([id, name, text, face]) => h('li', { 'data-space': id, 'data-dice': (placed[id] || []).map((d) => d[0]).join(' '), title: text || null },
      h('span', { class: 'mp-space-name' }, name), face || null, h('span', { class: 'mp-dice' }, (placed[id] || []).map(([v, seat, kind]) => die(v, seat, kind)))))),
    h('div', { class: 'mp-display' }, h('h4', {}, t('mp.display')),
      h('ol', { class: 'mp-contracts' }, view.display.map((c, i) => h('li', { 'data-column': i + 1, 'data-contract': c, title: describe(content, c) || null }, faceOf(content, c, { small: true }) || c)))),
    h('p', { class: 'small muted' }, t('mp.special-black', { n: view.special_pile.size, black: view.black_dice_left }),
      view.beijing.length ? ` · ${t('mp.beijing', { names: view.beijing.map((x) => view.players[x]).join(', ') })}` : ''));
}

function seatCard(view, p, content) {
  const me = view.to_move === p.seat;
  return h('section', { class: `mp-seat${me ? ' to-move' : ''}`, 'data-seat': p.seat, style: `--seat:${seatColour(p.seat)}`, 'aria-label': t('mp.resources-of', { player: p.player }) },
    h('h3', {}, h('span', { class: 'player', style: `--seat:${seatColour(p.seat)}` }, p.player), p.character ? h('span', { class: 'muted small' }, ` · ${term('marco-polo', 'character', p.character)}`) : null, me ? h('span', { class: 'badge' }, t('mp.to-move')) : null),
    h('dl', { class: 'mp-res' }, RES.map(([k, icon]) => [k, t(`mp.res.${k}`), icon]).map(([k, name, icon]) => [h('dt', { title: name }, h('abbr', { title: name }, short(k))), h('dd', { 'data-res': k }, p[k])])),
    h('p', { class: 'small' }, `${t('mp.dice')} `, p.dice.length || p.black.length || p.white.length
      ? [p.dice.map((v) => die(v, p.seat, 'c')), p.black.map((v) => die(v, p.seat, 'b')), p.white.map((v) => die(v, p.seat, 'w'))]
      : h('span', { class: 'muted' }, t('mp.none'))),
    h('p', { class: 'small' }, `${t('mp.contracts')} `, p.contracts.length ? h('span', { class: 'mpf-inline', 'data-seat-contracts': p.seat }, p.contracts.map((c) => faceOf(content, c, { small: true }) || c)) : '—',
      ` · ${t('mp.seat-counts', { done: p.completed.length, posts: p.posts_left, objectives: p.objectives })}`),
    objectivesOf(view, p.seat, content));
}

// objective cards are secret: a seat's view shows its own, the end shows all
function objectivesOf(view, seat, content) {
  const cards = view.all_objectives ? view.all_objectives[seat] : view.seat === seat ? view.objectives : null;
  if (!cards || !cards.length) return null;
  return h('p', { class: 'small', 'data-objectives': seat }, `${t('mp.objectives')} `, h('span', { class: 'mpf-inline' }, cards.map((c) => (c && faceOf(content, c, { small: true })) || (c ?? '?'))));
}

// t('sweep.mp.phase.setup') t('sweep.mp.phase.draft') t('sweep.mp.phase.keep') t('sweep.mp.phase.contracts') t('sweep.mp.phase.roll') t('sweep.mp.phase.reveal') t('sweep.mp.phase.over')
const PHASES = new Set(['setup', 'draft', 'keep', 'contracts', 'roll', 'reveal', 'over']);

export function draw(container, view, ctx) {
  clear(container);
  container.dataset.drawing = 'marco-polo';
  container.append(h('div', { class: 'mp-table', 'data-round': view.round, 'data-phase': view.phase },
    h('p', { class: 'lc-round' }, view.round ? t('mp.round-of-5', { round: view.round }) : t('mp.setup'), view.phase !== 'play' && (view.round || view.phase !== 'setup') ? ` · ${PHASES.has(view.phase) ? t(`sweep.mp.phase.${view.phase}`) : view.phase}` : ''),
    mapWrap(map(view, ctx.content), 'marco-polo'),
    h('div', { class: 'mp-lower' }, board(view, ctx.content), h('div', { class: 'mp-seats' }, view.seats.map((p) => seatCard(view, p, ctx.content))))));
}

// each kind of move as the rulebook names it, in the reader's language
const GROUPS = new Set(['five-coins-taken', 'bazaar-used', 'khans-favor-taken', 'contracts-taken', 'travelled', 'city-card-used', 'contract-completed', 'money-bag-taken', 'die-rerolled', 'die-adjusted', 'black-die-bought', 'turn-ended', 'income-taken', 'contract-discarded', 'character-picked', 'objectives-kept']);
export function groupLabel(k) {
  const kind = String(k).startsWith('marco-polo.') ? k.slice('marco-polo.'.length) : null;
  return kind && GROUPS.has(kind) ? t(`mp.group.${kind}`) : null;
}

export function score(view) {
  return scoreSheet(view, { during: ['contracts', 'city_cards', 'post_bonuses', 'city_bonuses'], end: ['objectives', 'objective_cities', 'coins', 'beijing', 'goods', 'most_contracts'] });
}

// picker labels: what the move does, in words (the notation stays in the button's title)
const dieName = (d) => (String(d).startsWith('b') ? t('dice.black-n', { n: String(d).slice(1) }) : String(d).startsWith('w') ? t('dice.white-n', { n: String(d).slice(1) }) : `${d}`);
const dieWord = (d) => t('sweep.mp.die', { die: dieName(d) });
const dice = (list) => (list || []).map(dieName).join(' + ');
const extra = (choices) => (choices && choices.length ? ` (${choices.join(', ')})` : '');
export function moveLabel(m, view, content) {
  const v = m.move;
  const face = (id) => (content && id ? faceOf(content, id, { small: true }) : null);
  switch (v.type.split('.').pop()) {
    case 'five-coins-taken': return dieWord(v.die);
    case 'bazaar-used': return `${dice(v.dice)} → ${has(`mpfaces.good.${v.row}`) ? t(`mpfaces.good.${v.row}`) : v.row}, ${t('sweep.mp.column', { n: v.column })}${extra(v.choices)}`;
    case 'khans-favor-taken': return `${dieWord(v.die)} → ${has(`mpfaces.good.${v.good}`) ? t(`mpfaces.good.${v.good}`) : v.good}`;
    case 'contracts-taken': {
      const taken = view && view.display ? v.columns.map((c) => face(view.display[c - 1])) : [];
      const back = (v.discard || []).map(face).filter(Boolean).map((f) => { f.classList.add('mpf-returned'); return f; });
      return [`${dieWord(v.die)} → ${t('sweep.mp.columns', { n: v.columns.join(', '), many: v.columns.length > 1 })}${extra(v.choices)}`, ...taken, back.length ? ` ${t('sweep.mp.return')} ` : '', ...back];
    }
    case 'travelled': { // the places by the names on the board, not the pack's codes
      const route = (path) => path.map((id) => nameOf(content, id)).join(' – ');
      return `${dice(v.dice)} → ${route(v.path)}${v.path2 && v.path2.length ? ' | ' + route(v.path2) : ''}${extra(v.choices)}`;
    }
    case 'city-card-used': return [`${t('sweep.mp.card-with', { space: v.space, die: dieName(v.die) })}${v.times > 1 ? ` ×${v.times}` : ''}${extra(v.choices)}`, view && view.city_cards ? face(view.city_cards[v.space]) : null];
    case 'contract-completed': return [face(v.contract) || v.contract, extra(v.choices)];
    case 'money-bag-taken': return dieWord(v.die);
    case 'die-rerolled': return t('sweep.mp.reroll', { die: dieName(v.die) });
    case 'die-adjusted': { // a die turned one pip: "5 → 4", as the table sees it, not "5 -1"
      const [, colour, pips] = String(v.die).match(/^(\D*)(\d+)$/) || [null, '', v.die];
      return `${dieName(v.die)} → ${dieName(`${colour}${Number(pips) + v.delta}`)}`;
    }
    case 'income-taken': return `${amount(v.coins, 'coins')} + ${amount(v.camels, 'camels')}${extra(v.choices)}`;
    case 'contract-discarded': return [`${t('sweep.mp.return')} `, face(v.contract) || v.contract];
    case 'character-picked': return term('marco-polo', 'character', v.character);
    case 'objectives-kept': return (v.objectives || []).map((o) => (o && face(o)) || (o ?? '?'));
    case 'turn-ended': return t('mp.group.turn-ended');
    case 'black-die-bought': return t('mp.group.black-die-bought');
    default: return null;
  }
}


