// Lost Cities: each side's expeditions (one column per colour), the discard piles and the draw pile.
import { h, clear, seatColour } from '../dom.js';
import { t, term } from '../i18n.js';

const colourWord = (c) => term('lost-cities', 'colour', c);

const LETTER = { yellow: 'Y', blue: 'B', white: 'W', green: 'G', red: 'R', purple: 'P' };
const COLOUR_OF = Object.fromEntries(Object.entries(LETTER).map(([k, v]) => [v, k]));
const cardText = (c) => (c.slice(1) === 'x' ? '◆' : c.slice(1));

function card(c, extra = {}) {
  const colour = COLOUR_OF[c[0]] || 'unknown';
  return h('span', { class: `lc-card lc-${colour}`, 'data-card': c, title: c, ...extra },
    h('span', { class: 'lc-letter', 'aria-hidden': 'true' }, c[0]), h('span', { class: 'lc-value' }, cardText(c)),
    h('span', { class: 'visually-hidden' }, ` ${colourWord(colour)} ${c.slice(1) === 'x' ? t('lc.wager') : c.slice(1)}`));
}

function side(view, s, players) {
  const seats = view.sides[s] || [];
  const exp = view.expeditions[s];
  const names = seats.map((seat) => players[seat]).join(' & ');
  const inRound = view.scores.round_in_progress ? view.scores.round_in_progress[s] : null;
  return h('section', { class: 'lc-side', 'data-side': s, style: `--seat:${seatColour(seats[0])}`, 'aria-label': t('lc.expeditions-of', { names }) },
    h('h3', {}, h('span', { class: 'player', style: `--seat:${seatColour(seats[0])}` }, names),
      h('span', { class: 'muted small' }, ` · ${t('lc.hand-total', { hand: seats.map((x) => view.hand_sizes[x]).join('+'), total: view.scores.totals[s] })}`,
        inRound !== null ? ` · ${t('lc.this-round-n', { n: inRound })}` : '')),
    h('div', { class: 'lc-row' }, view.expedition_order.map((colour) => {
      const cards = exp[colour] || [];
      return h('ol', { class: `lc-exp lc-col-${colour}`, 'data-colour': colour, 'data-cards': cards.join(' '), 'aria-label': t('lc.expedition-aria', { colour: colourWord(colour), cards: cards.length ? cards.join(', ') : t('lc.not-started') }) },
        cards.length ? cards.map((c) => h('li', {}, card(c))) : h('li', { class: 'lc-empty', 'aria-hidden': 'true' }, ''));
    })));
}

export function draw(container, view, ctx) {
  clear(container);
  container.dataset.drawing = 'lost-cities';
  const players = view.players || ctx.players;
  const pilesRow = h('section', { class: 'lc-middle', 'aria-label': t('lc.piles') },
    h('div', { class: 'lc-row' }, view.expedition_order.map((colour) => {
      const pile = view.discard_piles[colour] || [];
      const top = pile[pile.length - 1];
      return h('div', { class: `lc-pile lc-col-${colour}`, 'data-pile': colour, 'data-cards': pile.join(' '), 'aria-label': t('lc.pile-aria', { colour: term('lost-cities', 'source', colour), what: pile.length ? t('lc.pile-cards', { n: pile.length, top }) : t('lc.empty') }) },
        top ? card(top) : h('span', { class: `lc-card lc-slot lc-${colour}` }, h('span', { class: 'lc-letter' }, LETTER[colour])),
        h('span', { class: 'lc-count' }, pile.length ? `${pile.length}` : ''));
    }), h('div', { class: 'lc-drawpile', 'data-draw-pile': view.draw_pile, 'aria-label': t('lc.draw-pile-aria', { n: view.draw_pile }) },
      h('span', { class: 'lc-back' }, view.draw_pile), h('span', { class: 'small muted' }, t('lc.draw-pile')))));
  const top = view.sides.length > 1 ? side(view, 1, players) : null;
  const hand = view.hand ? h('section', { class: 'lc-hand', 'aria-label': t('lc.hand') }, h('h3', {}, t('lc.hand-of', { name: players[view.seat] })),
    h('div', { class: 'lc-row wrap' }, view.hand.cards.map((c) => card(c)), view.hand.unknown ? h('span', { class: 'muted' }, ` + ${t('lc.unseen', { n: view.hand.unknown })}`) : null)) : null;
  const hands = view.hands ? h('section', { class: 'lc-hand', 'aria-label': t('lc.hands') }, view.hands.map((x) => h('div', {}, h('strong', {}, players[x.seat] + ': '), x.cards.map((c) => card(c)), x.unknown ? ` + ${t('lc.unseen', { n: x.unknown })}` : ''))) : null;
  container.append(h('div', { class: 'lc-table', 'data-round': view.round, 'data-phase': view.phase },
    h('p', { class: 'lc-round' }, t('lc.round-of', { round: view.round || 1, rounds: view.rounds }), view.partnership ? ` · ${t('lc.partnership')}` : ''),
    ...[top, pilesRow, side(view, 0, players), hand, hands].filter(Boolean)));
}

const MOVE = { 'lost-cities.card-played': 'play', 'lost-cities.card-discarded': 'discard', 'lost-cities.card-drawn': 'draw', 'lost-cities.cards-passed': 'pass' };
const VALUE_ROW = { x: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10 };
export function groupLabel(k) { return MOVE[k] ? t(`lc.move.${MOVE[k]}`) : null; }

// At a table with unseen hands nobody sees what is drawn from the draw pile: one "draw pile"
// choice, then the discard piles' tops (the rules also list each card the draw might have been).
export function choices(moves, view) {
  const unseen = moves.some((m) => m.move.type === 'lost-cities.card-drawn' && m.move.source === 'deck' && !m.move.card);
  if (!unseen || (view && view.digital)) return moves;
  return moves.filter((m) => !(m.move.type === 'lost-cities.card-drawn' && m.move.source === 'deck' && m.move.card));
}

// plays and discards as a grid: a column per colour, a row per value, so every card is one tap
export function place(m, view) {
  const mv = m.move;
  if (mv.type !== 'lost-cities.card-played' && mv.type !== 'lost-cities.card-discarded') return null;
  const order = view ? view.expedition_order : Object.keys(LETTER);
  const column = order.indexOf(COLOUR_OF[mv.card[0]]) + 1;
  const row = VALUE_ROW[mv.card.slice(1)];
  return column > 0 && row ? { column, row } : null;
}
export function columns(view) { return view ? view.expedition_order.length : 5; }

export function moveLabel(m) {
  const mv = m.move;
  if (mv.type === 'lost-cities.card-played' || mv.type === 'lost-cities.card-discarded') return card(mv.card);
  if (mv.type === 'lost-cities.card-drawn') {
    if (mv.source && mv.source !== 'deck' && mv.source !== 'draw-pile') return h('span', { class: 'lc-take' }, mv.card ? card(mv.card) : null, ` ${t('lc.from-pile', { colour: term('lost-cities', 'source', mv.source) })}`);
    return mv.card ? h('span', { class: 'lc-take' }, card(mv.card), ` ${t('lc.from-draw-pile')}`) : t('lc.draw-pile-choice');
  }
  return null;
}

const HEADS = () => [[t('lc.sheet.colour')], [t('lc.sheet.cards')], [t('lc.sheet.sum')], ['−20', t('lc.sheet.minus-20')], [t('lc.sheet.wagers')], ['×', t('lc.sheet.multiplier')], [t('lc.sheet.bonus'), t('lc.sheet.bonus-long')], [t('lc.sheet.score')]];

// the score sheet: per round, each side's expeditions (sum of the cards, minus 20, times the
// wagers' multiplier, plus the 8-card bonus), then the totals
export function score(view, { players }) {
  const sheet = view.scores.sheet || [];
  if (!sheet.length) return null;
  const names = view.sides.map((seats) => seats.map((x) => players[x]).join(' & '));
  const out = h('div', { class: 'breakdown lc-sheet' }, h('h3', {}, t('lc.sheet.heading')));
  for (const r of sheet) {
    out.append(h('h4', {}, r.complete ? t('lc.sheet.round', { round: r.round }) : t('lc.sheet.round-in-progress', { round: r.round })));
    for (const side of r.sides) {
      const shown = side.expeditions.filter((e) => e.cards);
      out.append(h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('lc.sheet.scrolls') }, h('table', { class: 'score-table', 'data-round': r.round, 'data-side': side.side },
        h('caption', {}, `${names[side.side]}: ${side.score}`),
        h('thead', {}, h('tr', {}, HEADS().map(([short, long]) => h('th', { scope: 'col' }, long ? [h('span', { 'aria-hidden': 'true', title: long }, short), h('span', { class: 'visually-hidden' }, long)] : short)))),
        h('tbody', {}, shown.length ? shown.map((e) => h('tr', { 'data-colour': e.colour },
          h('th', { scope: 'row' }, colourWord(e.colour)), h('td', { 'data-k': 'cards' }, e.cards), h('td', { 'data-k': 'sum' }, e.sum), h('td', { 'data-k': 'value' }, e.value),
          h('td', { 'data-k': 'wagers' }, e.wagers), h('td', { 'data-k': 'multiplier' }, `×${e.multiplier}`), h('td', { 'data-k': 'bonus' }, e.bonus ? `+${e.bonus}` : '—'),
          h('td', { 'data-k': 'score' }, e.score)))
          : h('tr', {}, h('td', { colspan: 8, class: 'muted' }, t('lc.sheet.none-started')))),
        h('tfoot', {}, h('tr', {}, h('th', { scope: 'row', colspan: 7 }, t('lc.sheet.this-round')), h('td', { 'data-k': 'side-score' }, side.score))))));
    }
  }
  out.append(h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('lc.sheet.scrolls') }, h('table', { class: 'score-table lc-totals' },
    h('caption', {}, t('lc.sheet.by-round')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('lc.sheet.round-col')), names.map((n) => h('th', { scope: 'col' }, n)))),
    h('tbody', {}, (view.scores.rounds || []).map((x, i) => h('tr', {}, h('th', { scope: 'row' }, i + 1), x.map((v) => h('td', {}, v))))),
    h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, t('lc.sheet.total')), view.scores.totals.map((x) => h('td', { 'data-total': x }, x)))))));
  return out;
}
