// The score sheet both Marco Polo titles show: points by source, during the game and at the end,
// adding up to the total; camels apart, as the tie-break (they are not points).
import { h } from '../dom.js';

const LABEL = {
  contracts: 'Contracts', city_cards: 'City cards', post_bonuses: 'Trading posts (8th, 9th, 11th)', city_bonuses: 'Small-city bonuses',
  in_game: 'Points during the game', objectives: 'Objective cards', objective_cities: 'Objective cities', coins: 'Coins left (1 per 10)',
  beijing: 'Arrival in Beijing', goods: 'Goods left', most_contracts: 'Most contracts', goal_seals: 'Goal card: guild seals',
  shields: 'Shields', caravans: 'Caravans',
};

// sources: {during: [keys], end: [keys]}; counts: {key: count key} shown beside a source's points
export function scoreSheet(view, sources, counts = {}) {
  const sc = view.score;
  if (!sc || !sc.seats) return null;
  const seats = sc.seats;
  const sum = (r, keys) => keys.reduce((t, k) => t + (r[k] || 0), 0);
  const cell = (r, k) => (r[k] === null
    ? h('td', { 'data-k': k, 'data-points': 0 }, h('span', { title: 'hidden until the end: it would show the objective cards' }, '—'))
    : h('td', { 'data-k': k, 'data-points': r[k] ?? 0 }, `${r[k] ?? 0}`, counts[k] && r[counts[k]] ? h('span', { class: 'muted small' }, ` (${r[counts[k]]} shields)`) : null));
  const section = (title, keys) => [
    h('tr', { class: 'subtotal' }, h('th', { scope: 'row' }, title), seats.map((r) => h('td', { 'data-subtotal': sum(r, keys) }, sum(r, keys)))),
    ...keys.map((k) => h('tr', { 'data-source': k }, h('th', { scope: 'row', class: 'source' }, LABEL[k] || k), seats.map((r) => cell(r, k)))),
  ];
  return h('div', { class: 'breakdown mp-sheet' }, h('h3', {}, 'Score sheet'), h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Score table (scrolls sideways)' }, h('table', { class: 'score-table' },
    h('caption', { class: 'visually-hidden' }, 'Points by source; the rows under each heading add up to it, and the headings to the total'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Points'), seats.map((r) => h('th', { scope: 'col' }, r.player)))),
    h('tbody', {}, section('During the game', sources.during), section(sc.final ? 'At the end' : 'At the end (so far)', sources.end)),
    h('tfoot', {}, h('tr', { class: 'total' }, h('th', { scope: 'row' }, 'Total'), seats.map((r) => h('td', { 'data-total': r.total }, r.total)))))),
  h('p', { class: 'tiebreak', 'data-tiebreak': 'camels' }, h('strong', {}, 'Tie-break, not points — camels: '),
    seats.map((r, i) => h('span', { 'data-seat': r.seat, 'data-camels': r.camels }, `${i ? ', ' : ''}${r.player} ${r.camels}`))));
}
