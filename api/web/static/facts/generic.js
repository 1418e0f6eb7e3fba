// Facts the table reports (chance): dice values and cards in order, for any title. The title
// builds the move from the outcome (POST /games/{id}/chance); the page then records it.
import { h, clear, errorBox } from '../dom.js';
import { t } from '../i18n.js';

export function randomInt(n) {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return a[0] % n;
}
export function shuffled(list) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) { const j = randomInt(i + 1); [out[i], out[j]] = [out[j], out[i]]; }
  return out;
}

async function submitOutcome(box, ctx, outcome) {
  const err = box.querySelector('.fact-error');
  clear(err);
  try {
    const made = await ctx.compose(outcome);
    const ok = await ctx.record(made.notation, made.move);
    return ok;
  } catch (e) { err.append(errorBox(e)); return false; }
}

export function diceForm(box, ctx, { title = t('facts.dice-title') } = {}) {
  const { chance, info } = ctx;
  const groups = chance.groups && chance.groups.reduce((a, b) => a + b, 0) === chance.count ? chance.groups : [chance.count];
  const selects = [];
  const form = h('form', { class: 'fact dice-form', 'data-fact': 'dice', onsubmit: async (ev) => {
    ev.preventDefault();
    await submitOutcome(form, ctx, selects.map((x) => Number(x.value)));
  } }, h('h3', {}, title));
  groups.forEach((n, gi) => {
    if (!n) return;
    const who = groups.length > 1 ? (info.players[gi] || t('facts.seat-n', { n: gi })) : (chance.count === 1 ? t('facts.value') : chance.count > 6 ? t('facts.values-in-order') : t('facts.values'));
    const fs = h('fieldset', { class: 'dice-group' }, h('legend', {}, who));
    for (let i = 0; i < n; i++) {
      const id = `die-${gi}-${i}-${Math.random().toString(36).slice(2, 7)}`;
      const sel = h('select', { id, 'data-die-index': selects.length, required: true },
        h('option', { value: '' }, '–'), Array.from({ length: chance.sides }, (_, v) => h('option', { value: v + 1 }, v + 1)));
      selects.push(sel);
      fs.append(h('span', { class: 'die-field' }, h('label', { for: id, class: 'visually-hidden' }, t('facts.die-n', { who, n: i + 1 })), sel));
    }
    form.append(fs);
  });
  form.append(h('div', { class: 'row wrap' },
    h('button', { type: 'button', class: 'secondary', 'data-action': 'roll-for-me', onclick: () => selects.forEach((x) => { x.value = String(1 + randomInt(chance.sides)); }) }, t('dice.roll-for-me')),
    h('button', { type: 'submit', class: 'primary' }, t('facts.record-roll'))), h('div', { class: 'fact-error', 'aria-live': 'assertive' }));
  box.append(form);
  return true;
}

export function shuffleForm(box, ctx, { title = t('facts.revealed'), need = null } = {}) {
  const { chance } = ctx;
  const picked = [];
  const order = h('ol', { class: 'picked' });
  const submit = h('button', { type: 'submit', class: 'primary', disabled: true }, t('facts.record'));
  const form = h('form', { class: 'fact shuffle-form', 'data-fact': 'shuffle', 'data-need': need ?? '', onsubmit: async (ev) => {
    ev.preventDefault();
    const rest = shuffled(chance.items.filter((x) => !picked.includes(x)));
    await submitOutcome(form, ctx, [...picked, ...rest]);
  } }, h('h3', {}, title), h('p', { class: 'small muted' }, need ? t('facts.pick-n', { need }) : t('facts.pick')));
  const buttons = chance.items.map((item) => h('button', { type: 'button', class: 'move', 'data-item': item, 'aria-pressed': 'false', onclick: (ev) => {
    const b = ev.currentTarget;
    const i = picked.indexOf(item);
    if (i >= 0) picked.splice(i, 1); else if (!need || picked.length < need) picked.push(item);
    b.setAttribute('aria-pressed', String(picked.includes(item)));
    clear(order).append(...picked.map((x) => h('li', {}, x)));
    submit.disabled = need ? picked.length !== need : picked.length === 0;
  } }, item));
  form.append(h('div', { class: 'moves' }, buttons), order, h('div', { class: 'row wrap' },
    // a table reports what it saw: inventing a draw is for digital play only
    ctx.info && ctx.info.digital ? h('button', { type: 'button', class: 'secondary', 'data-action': 'draw-at-random', onclick: async () => { await submitOutcome(form, ctx, shuffled(chance.items)); } }, t('facts.draw-random')) : null,
    submit), h('div', { class: 'fact-error', 'aria-live': 'assertive' }));
  box.append(form);
  return true;
}

export async function render(box, ctx) {
  clear(box);
  if (ctx.chance.kind === 'dice') return diceForm(box, ctx);
  // at a table the page only takes what the table saw: its draws tapped in order, however many items
  const digital = !!(ctx.info && ctx.info.digital);
  if (ctx.chance.kind === 'shuffle' && (ctx.chance.items.length <= 80 || !digital)) return shuffleForm(box, ctx);
  if (!digital) return false;
  box.append(h('p', { class: 'muted' }, ctx.chance.kind === 'shuffle' ? t('facts.table-shuffles', { n: ctx.chance.items.length }) : ''));
  box.append(h('button', { type: 'button', class: 'secondary', 'data-action': 'shuffle-at-random', onclick: async () => {
    try { const made = await ctx.compose(shuffled(ctx.chance.items)); await ctx.record(made.notation, made.move); } catch (e) { box.append(errorBox(e)); }
  } }, t('facts.shuffle-random')));
  return true;
}
