// The score sheet both Marco Polo titles show: points by source, during the game and at the end,
// adding up to the total; camels apart, as the tie-break (they are not points).
import { h } from '../dom.js';
import { t } from '../i18n.js';

// a source's label on the sheet, in the reader's language (the rulebooks' words)
const LABEL = (k) => (SOURCES.includes(k) ? t(`mpscore.source.${k}`) : k);
const SOURCES = ['contracts', 'city_cards', 'post_bonuses', 'city_bonuses', 'in_game', 'objectives', 'objective_cities', 'coins', 'beijing', 'goods', 'most_contracts', 'goal_seals', 'shields', 'caravans'];

// sources: {during: [keys], end: [keys]}; counts: {key: count key} shown beside a source's points
export function scoreSheet(view, sources, counts = {}) {
  const sc = view.score;
  if (!sc || !sc.seats) return null;
  const seats = sc.seats;
  const sum = (r, keys) => keys.reduce((t, k) => t + (r[k] || 0), 0);
  const cell = (r, k) => (r[k] === null
    ? h('td', { 'data-k': k, 'data-points': 0 }, h('span', { title: t('mpscore.hidden') }, '—'))
    : h('td', { 'data-k': k, 'data-points': r[k] ?? 0 }, `${r[k] ?? 0}`, counts[k] && r[counts[k]] ? h('span', { class: 'muted small' }, ` (${t('mpscore.shields', { n: r[counts[k]] })})`) : null));
  const section = (title, keys) => [
    h('tr', { class: 'subtotal' }, h('th', { scope: 'row' }, title), seats.map((r) => h('td', { 'data-subtotal': sum(r, keys) }, sum(r, keys)))),
    ...keys.map((k) => h('tr', { 'data-source': k }, h('th', { scope: 'row', class: 'source' }, LABEL(k)), seats.map((r) => cell(r, k)))),
  ];
  return h('div', { class: 'breakdown mp-sheet' }, h('h3', {}, t('mpscore.heading')), h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('lc.sheet.scrolls') }, h('table', { class: 'score-table' },
    h('caption', { class: 'visually-hidden' }, t('mpscore.caption')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('mpscore.points')), seats.map((r) => h('th', { scope: 'col' }, r.player)))),
    h('tbody', {}, section(t('mpscore.during'), sources.during), section(sc.final ? t('mpscore.end') : t('mpscore.end-so-far'), sources.end)),
    h('tfoot', {}, h('tr', { class: 'total' }, h('th', { scope: 'row' }, t('mpscore.total')), seats.map((r) => h('td', { 'data-total': r.total }, r.total)))))),
  h('p', { class: 'tiebreak', 'data-tiebreak': 'camels' }, h('strong', {}, t('mpscore.tiebreak')),
    seats.map((r, i) => h('span', { 'data-seat': r.seat, 'data-camels': r.camels }, `${i ? ', ' : ''}${r.player} ${r.camels}`))));
}
