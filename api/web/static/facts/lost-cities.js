// Lost Cities at the table: the deal (hands not seen by the recorder), or a shuffle for digital play.
import { h, clear, errorBox } from '../dom.js';
import { t } from '../i18n.js';
import * as generic from './generic.js';

export async function render(box, ctx) {
  clear(box);
  const err = h('div', { class: 'fact-error', 'aria-live': 'assertive' });
  const deal = h('button', { type: 'button', class: 'primary', 'data-fact': 'deal', onclick: async () => {
    deal.disabled = true;
    clear(err);
    try { await ctx.record('deal'); } catch (e) { err.append(errorBox(e)); } finally { deal.disabled = false; }
  } }, t('lc.dealt'));
  // inventing a shuffle is for digital play: a table deals its own cards
  const shuffle = ctx.info && ctx.info.digital ? h('button', { type: 'button', class: 'secondary', 'data-action': 'page-shuffle', onclick: async () => {
    try { const made = await ctx.compose(generic.shuffled(ctx.chance.items)); await ctx.record(made.notation, made.move); } catch (e) { err.append(errorBox(e)); }
  } }, t('lc.page-shuffle')) : null;
  box.append(h('div', { class: 'fact' }, h('h3', {}, t('lc.the-deal')), h('p', { class: 'small muted' }, t('lc.deal-help')),
    h('div', { class: 'row wrap' }, deal, shuffle), err));
  return true;
}

const LETTERS = { yellow: 'Y', blue: 'B', white: 'W', green: 'G', red: 'R', purple: 'P' };
const VALUES = ['x', '2', '3', '4', '5', '6', '7', '8', '9', '10'];

// during a round at the table: a seat shows its whole hand (the recorder learns its cards)
export async function always(box, ctx) {
  const { view, info } = ctx;
  if (info.digital || !['play', 'draw'].includes(view.phase)) return false;
  const seat = h('select', { id: 'reveal-seat' }, info.players.map((p, i) => h('option', { value: i }, p)));
  const picked = [];
  const list = h('ol', { class: 'picked', 'aria-label': t('lc.cards-shown') });
  const err = h('div', { 'aria-live': 'assertive' });
  const size = () => view.hand_sizes[Number(seat.value)];
  const submit = h('button', { type: 'submit', class: 'primary', disabled: true }, t('lc.record-hand'));
  const sync = () => {
    clear(list).append(...picked.map((c, i) => h('li', {}, h('button', { type: 'button', class: 'small secondary', 'aria-label': t('lc.remove-card', { card: c }), onclick: () => { picked.splice(i, 1); sync(); } }, c))));
    submit.disabled = picked.length !== size();
    submit.textContent = t('lc.record-hand-of', { n: picked.length, size: size() });
  };
  seat.addEventListener('change', () => { picked.length = 0; sync(); });
  const chips = view.expedition_order.map((colour) => h('div', { class: 'moves' }, VALUES.map((v) => {
    const card = `${LETTERS[colour]}${v}`;
    return h('button', { type: 'button', class: 'move', 'data-card': card, onclick: () => { if (picked.length < size()) { picked.push(card); sync(); } } }, card);
  })));
  const form = h('form', { class: 'fact', 'data-fact': 'reveal', onsubmit: async (ev) => {
    ev.preventDefault();
    clear(err);
    try { await ctx.record(`reveal ${seat.value}:${picked.join(',')}`); } catch (e) { err.append(errorBox(e)); }
  } }, h('div', { class: 'field inline' }, h('label', { for: 'reveal-seat' }, t('lc.who')), seat), chips, list, submit, err);
  box.append(h('details', { class: 'fact' }, h('summary', {}, t('lc.shows-hand')), form));
  sync();
  return true;
}
