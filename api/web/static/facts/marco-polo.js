// Marco Polo at the table: the layout (setup), the contracts of a round, rolls, drawn contracts, and
// the objective cards shown at the end.
import { h, clear, errorBox } from '../dom.js';
import { t } from '../i18n.js';
import { dicePad } from '../dicepad.js';
import { setupOnMap, contractsByFace } from '../faces/mp-setup.js';
import { facePicker } from '../faces/mp-faces.js';

export async function render(box, ctx) {
  clear(box);
  const { chance, view } = ctx;
  const digital = !!(ctx.info && ctx.info.digital);
  if (view.phase === 'setup' && ctx.content) return setupOnMap(box, ctx);
  if (view.phase === 'contracts' && ctx.content) return contractsByFace(box, ctx, { title: t('mpfacts.six-contracts', { round: view.round + (view.round ? 0 : 1) }), need: Math.min(6, chance.items.length), digital });
  if (chance.kind === 'dice') return dicePad(box, ctx, { title: chance.count === 1 ? t('mpfacts.die-shows') : t('dice.the-roll'), whiteAfter: 5 });
  // a drawn contract is laid face up (the rules refuse an unnamed one): the table names it by its
  // picture; a top already known (a card returned under the pile) is the only picture, one tap
  if (chance.kind === 'shuffle' && ctx.content) {
    const known = chance.items.length === 1;
    return contractsByFace(box, ctx, { title: known ? t('mpfacts.special-known') : t('mpfacts.special'), need: 1, digital });
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
    const shown = [];
    const err = h('div', { 'aria-live': 'assertive' });
    const submit = h('button', { type: 'submit', class: 'primary', disabled: true }, t('facts.record'));
    const form = h('form', { class: 'fact', 'data-fact': 'reveal', 'data-seat': seat, onsubmit: async (ev) => {
      ev.preventDefault();
      clear(err);
      try { await ctx.record(`reveal ${seat} ${shown.join(',')}`); } catch (e) { err.append(errorBox(e)); }
    } }, h('h3', {}, t('mpfacts.shows-objectives', { player: view.players[seat] })), h('p', { class: 'small' }, t('mpfacts.tap-two')),
    facePicker(content, objectives, { label: t('mpfacts.objectives-of', { player: view.players[seat] }), onPick: (id) => {
      const i = shown.indexOf(id);
      if (i >= 0) shown.splice(i, 1); else if (shown.length < 2) shown.push(id);
      for (const x of form.querySelectorAll('.mpf-pick')) x.setAttribute('aria-pressed', String(shown.includes(x.dataset.id)));
      submit.disabled = shown.length !== 2;
    } }), submit, err);
    box.append(form);
  }
  return true;
}
