// Marco Polo at the table: the layout (setup), the contracts of a round, rolls, drawn contracts, and
// the objective cards shown at the end.
import { h, clear, errorBox } from '../dom.js';
import * as generic from './generic.js';
import { dicePad } from '../dicepad.js';

function select(id, label, values, { unknown = false, value = '' } = {}) {
  const sel = h('select', { id, 'data-setup': id }, unknown ? h('option', { value: '?' }, '? (not seen)') : h('option', { value: '' }, '–'), values.map((v) => h('option', { value: v }, v)));
  sel.value = unknown && !value ? '?' : value;
  return h('span', { class: 'field' }, h('label', { for: id }, label), sel);
}

function setupForm(box, ctx) {
  const { info, content } = ctx;
  const opts = info.options || {};
  const n = info.players.length;
  const ids = (list) => (list || []).map((x) => x.id);
  const chars = ids(content.characters);
  const cards = ids(content.city_cards);
  const outposts = ids(content.outpost_bonuses);
  const bonuses = ids(content.city_bonuses);
  const start = ids((content.contracts || []).filter((c) => c.starting));
  const objectives = ids(content.objectives);
  const large = (content.locations || []).filter((l) => l.kind === 'large').map((l) => l.id);
  const small = (content.locations || []).filter((l) => l.kind === 'small').map((l) => l.id);
  const per = opts.objectives_keep ? 4 : 2;
  const sets = [];
  const fieldset = (legend, items) => h('fieldset', { class: 'grid-fields' }, h('legend', {}, legend), items);
  const form = h('form', { class: 'fact setup-form', 'data-fact': 'setup' }, h('h3', {}, 'The layout on the table'));
  const mode = opts.characters || 'first-game';
  if (mode === 'chosen') { const f = info.players.map((p, i) => select(`chars-${i}`, p, chars)); sets.push(['chars', f, chars]); form.append(fieldset('Characters', f)); }
  if (mode === 'draft') { const f = Array.from({ length: n + 1 }, (_, i) => select(`draft-${i}`, `Tile ${i + 1}`, chars)); sets.push(['draft', f, chars]); form.append(fieldset('Characters on offer', f)); }
  const cc = (content.city_card_spaces || []).map((sp) => select(`cards-${sp}`, sp, cards)); sets.push(['cards', cc, cards]); form.append(fieldset('City cards', cc));
  const ob = large.map((c) => select(`outposts-${c}`, c, outposts)); sets.push(['outposts', ob, outposts]); form.append(fieldset('Outpost bonuses', ob));
  if (opts.random_city_bonuses) { const f = small.map((c) => select(`bonuses-${c}`, c, bonuses)); sets.push(['bonuses', f, bonuses]); form.append(fieldset('City bonuses', f)); }
  const st = info.players.map((p, i) => select(`start-${i}`, p, start)); sets.push(['start', st, start]); form.append(fieldset('Starting contracts', st));
  const objs = info.players.map((p, i) => Array.from({ length: per }, (_, j) => select(`objectives-${i}-${j}`, `${p} ${j + 1}`, objectives, { unknown: true })));
  form.append(fieldset('Objective cards (secret: leave "?" when not seen)', objs));
  const err = h('div', { class: 'fact-error', 'aria-live': 'assertive' });
  const value = (wrap) => wrap.querySelector('select').value;
  form.append(h('div', { class: 'row wrap' },
    h('button', { type: 'button', class: 'secondary', 'data-action': 'random-layout', onclick: () => {
      for (const [, fields, pool] of sets) { const pick = generic.shuffled(pool); fields.forEach((f, i) => { f.querySelector('select').value = pick[i]; }); }
    } }, 'Fill in at random'),
    h('button', { type: 'submit', class: 'primary' }, 'Record the layout')), err);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(err);
    const parts = ['setup'];
    if (mode === 'first-game') parts.push(`chars=${(content.first_game_characters || []).slice(0, n).join(',')}`);
    for (const [key, fields] of sets) parts.push(`${key}=${fields.map(value).join(',')}`);
    parts.push(`objectives=${objs.map((row) => row.map(value).join(',')).join(';')}`);
    try { await ctx.record(parts.join(' ')); } catch (e) { err.append(errorBox(e)); }
  });
  box.append(form);
  return true;
}

export async function render(box, ctx) {
  clear(box);
  const { chance, view } = ctx;
  if (view.phase === 'setup' && ctx.content) return setupForm(box, ctx);
  if (view.phase === 'contracts') return generic.shuffleForm(box, ctx, { title: `The six contracts of round ${view.round + (view.round ? 0 : 1)}`, need: Math.min(6, chance.items.length) });
  if (chance.kind === 'dice') return dicePad(box, ctx, { title: chance.count === 1 ? 'The die shows' : 'The roll', whiteAfter: 5 });
  if (chance.kind === 'shuffle') {
    generic.shuffleForm(box, ctx, { title: 'The contract drawn from the special pile', need: 1 });
    const err = h('div', { 'aria-live': 'assertive' });
    box.append(h('button', { type: 'button', class: 'secondary', onclick: async () => {
      try { await ctx.record('draw'); } catch (e) { err.append(errorBox(e)); }
    } }, 'Drawn face down (not seen)'), err);
    return true;
  }
  return false;
}

// the objective cards shown after round 5 (no chance: the recorder reports what each seat shows)
export async function always(box, ctx) {
  const { view, content } = ctx;
  if (view.phase !== 'reveal' || !content) return false;
  const objectives = (content.objectives || []).map((o) => o.id);
  const seats = (view.pending || []).filter((p) => p[0] === 'show').map((p) => p[1]);
  for (const seat of seats) {
    const a = select(`reveal-${seat}-0`, 'First', objectives);
    const b = select(`reveal-${seat}-1`, 'Second', objectives);
    const err = h('div', { 'aria-live': 'assertive' });
    const form = h('form', { class: 'fact', 'data-fact': 'reveal', onsubmit: async (ev) => {
      ev.preventDefault();
      clear(err);
      try { await ctx.record(`reveal ${seat} ${a.querySelector('select').value},${b.querySelector('select').value}`); } catch (e) { err.append(errorBox(e)); }
    } }, h('h3', {}, `${view.players[seat]} shows the objective cards`), h('div', { class: 'row wrap' }, a, b), h('button', { type: 'submit', class: 'primary' }, 'Record'), err);
    box.append(form);
  }
  return true;
}
