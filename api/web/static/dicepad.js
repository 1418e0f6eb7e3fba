// The dice pad: what the table rolled, one tap per die value (or the digits typed), seat after seat;
// the round's roll is recorded as one move the moment the last die is in. Also the dice strip: a
// reroll or a black die is one tap on the die, then one on the value it shows.
import { h, clear, errorBox, seatColour } from './dom.js';
import { t } from './i18n.js';
import { randomInt } from './facts/generic.js';

const BLACK = '#222';

// a die drawn in its seat's colour (white digits on every seat colour are >= 4.5:1)
export function dieFace(value, colour, attrs = {}) {
  return h('span', { class: `pad-die${value ? '' : ' empty'}`, style: `--die:${colour}`, ...attrs }, value ? String(value) : '');
}

// the groups of a roll: who rolls how many, in the order the outcome lists them
function groupsOf(chance, info, view) {
  const count = chance.count;
  if (count === 1) {
    const p = (view && view.pending && view.pending[0]) || [];
    const seat = p[0] === 'roll' ? p[1] : view ? view.to_move : null;
    const black = p[0] === 'roll' && (p[2] === 'b' || p[2] === 'rb');
    const who = seat !== null && seat !== undefined && info.players[seat] ? info.players[seat] : t('dice.the-die');
    return [{ n: 1, label: black ? t('dice.black-die-of', { who }) : who, colour: black ? BLACK : seatColour(seat) }];
  }
  const groups = chance.groups && chance.groups.reduce((a, b) => a + b, 0) === count ? chance.groups : [count];
  return groups.map((n, i) => (i < info.players.length && groups.length > 1
    ? { n, label: info.players[i], colour: seatColour(i), seat: i }
    : { n, label: groups.length > 1 ? t('dice.black-dice') : t('dice.the-dice'), colour: groups.length > 1 ? BLACK : seatColour(null) }))
    .filter((g) => g.n > 0);
}

// The pad for a chance of kind dice. ``ctx`` as the facts modules get it (chance, info, view,
// compose, record). Keys 1-6 add the next die; the typed field holds the same digits.
// ``whiteAfter``: a seat's dice past that many are its white die (Marco Polo's Matteo rolls five, then the white).
export function dicePad(box, ctx, { title = t('dice.the-roll'), whiteAfter = null } = {}) {
  const { chance, info, view } = ctx;
  const groups = groupsOf(chance, info, view);
  const count = groups.reduce((a, g) => a + g.n, 0);
  const values = [];
  let sending = false;
  const err = h('div', { class: 'fact-error', 'aria-live': 'assertive' });
  const said = h('p', { class: 'pad-now', 'aria-live': 'polite' });
  const rows = groups.map((g) => ({ ...g, slots: h('span', { class: 'pad-slots' }) }));
  const typedId = `pad-typed-${Math.random().toString(36).slice(2, 7)}`;
  const typed = h('input', { id: typedId, type: 'text', inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false', 'data-pad-typed': '', maxlength: count + 8 });
  const keys = Array.from({ length: chance.sides || 6 }, (_, v) => h('button', {
    type: 'button', class: 'pad-key', 'data-pad-value': v + 1, 'aria-label': t('dice.shows', { n: v + 1 }), onclick: () => add(v + 1),
  }, String(v + 1)));
  const undo = h('button', { type: 'button', class: 'pad-undo secondary', 'data-pad-undo': '', 'aria-label': t('dice.undo'), title: t('dice.undo'), onclick: () => { values.pop(); show(); } }, '⌫');
  const form = h('form', { class: 'fact dice-pad', 'data-fact': 'dice', 'data-count': count, onsubmit: (ev) => { ev.preventDefault(); send(); } },
    h('h3', {}, title),
    h('div', { class: 'pad-seats' }, rows.map((r, i) => h('div', { class: 'pad-seat', 'data-pad-group': i, style: `--die:${r.colour}` },
      h('span', { class: 'pad-who' }, r.label), r.slots))),
    said,
    h('div', { class: 'pad-keys', role: 'group', 'aria-label': t('dice.values') }, keys, undo),
    h('div', { class: 'pad-tools' },
      h('span', { class: 'field pad-typed' }, h('label', { for: typedId }, t('dice.or-type')), typed),
      info.digital ? h('button', { type: 'button', class: 'secondary', 'data-action': 'roll-for-me', onclick: () => {
        while (values.length < count) values.push(1 + randomInt(chance.sides || 6));
        settle();
      } }, t('dice.roll-for-me')) : null),
    err);

  function current() {
    let i = values.length;
    for (const [k, r] of rows.entries()) { if (i < r.n) return k; i -= r.n; }
    return rows.length - 1;
  }
  function add(v) {
    if (sending || values.length >= count) return;
    values.push(v);
    settle();
  }
  function show({ fromTyping = false } = {}) {
    let i = 0;
    rows.forEach((r) => {
      clear(r.slots).append(...Array.from({ length: r.n }, (_, k) => {
        const white = whiteAfter !== null && r.seat !== undefined && k >= whiteAfter;
        const face = dieFace(values[i + k], r.colour, { 'data-slot': i + k, 'data-kind': white ? 'w' : 'c' });
        if (white) face.classList.add('white');
        return face;
      }));
      i += r.n;
    });
    const at = current();
    rows.forEach((r, k) => r.slots.parentElement && r.slots.parentElement.classList.toggle('now', k === at && values.length < count));
    // in a short sheet the seat whose dice come next is scrolled into view (sheet.js)
    if (values.length < count) rows[at].slots.parentElement.dispatchEvent(new CustomEvent('sheet-reveal', { bubbles: true }));
    form.style.setProperty('--now', rows[at].colour);
    form.dataset.entered = String(values.length);
    said.textContent = values.length < count ? t('dice.now', { who: rows[at].label, k: values.length - rows.slice(0, at).reduce((a, r) => a + r.n, 0) + 1, n: rows[at].n }) : t('dice.recording');
    if (!fromTyping) typed.value = values.join('');
    undo.disabled = !values.length || sending;
    keys.forEach((b) => { b.disabled = sending || values.length >= count; });
  }
  const settle = (opts) => { show(opts); if (values.length === count) send(); };
  typed.addEventListener('input', () => {
    const digits = [...typed.value].filter((c) => c >= '1' && c <= String(chance.sides || 6)).map(Number).slice(0, count);
    values.splice(0, values.length, ...digits);
    settle({ fromTyping: true });
  });
  async function send() {
    if (sending || values.length !== count) return;
    sending = true;
    clear(err);
    keys.forEach((b) => { b.disabled = true; });
    try {
      const made = await ctx.compose([...values]);
      if (await ctx.record(made.notation, made.move)) return;
    } catch (e) { err.append(errorBox(e)); }
    sending = false; // refused: the dice stay, the last one can be taken back
    show({ fromTyping: true });
  }
  box.append(form);
  show();
  return true;
}

const REROLL = /\.die-rerolled$/;
const BLACK_BOUGHT = /\.black-die-bought$/;

// The dice strip: one button per die the seat to move can reroll, and the black die it can buy.
// Null when none is on offer. A tap records that move; the pad then asks the value.
export function dieStrip(moves, { onPick, view }) {
  const rerolls = moves.filter((m) => REROLL.test(m.move.type));
  const blacks = moves.filter((m) => BLACK_BOUGHT.test(m.move.type));
  if (!rerolls.length && !blacks.length) return null;
  const seat = view ? view.to_move : null;
  const colourOf = (die) => (String(die).startsWith('b') ? BLACK : String(die).startsWith('w') ? '#fff' : seatColour(seat));
  const face = (die) => String(die).replace(/^[bw]/, '');
  const nameOf = (die) => (String(die).startsWith('b') ? t('dice.black-n', { n: face(die) }) : String(die).startsWith('w') ? t('dice.white-n', { n: face(die) }) : face(die));
  const buttons = [];
  const tap = async (m) => {
    buttons.forEach((x) => { x.disabled = true; });
    try { await onPick(m); } finally { buttons.forEach((x) => { x.disabled = false; }); }
  };
  for (const m of rerolls) {
    const b = h('button', { type: 'button', class: 'strip-die', 'data-notation': m.notation ?? '', 'data-reroll': m.move.die, 'aria-label': t('dice.reroll-the', { die: nameOf(m.move.die) }), onclick: () => tap(m) },
      dieFace(face(m.move.die), colourOf(m.move.die), { 'aria-hidden': 'true', class: `pad-die${String(m.move.die).startsWith('w') ? ' white' : ''}` }));
    buttons.push(b);
  }
  for (const m of blacks) {
    const label = m.move.value ? t('dice.take-black', { n: m.move.value }) : t('dice.buy-black');
    const b = h('button', { type: 'button', class: 'strip-die strip-black', 'data-notation': m.notation ?? '', 'data-black': m.move.value ?? '', 'aria-label': label, onclick: () => tap(m) },
      dieFace(m.move.value || '+', BLACK, { 'aria-hidden': 'true' }));
    buttons.push(b);
  }
  return h('div', { class: 'die-strip', role: 'group', 'aria-label': t('dice.reroll-or-buy') },
    rerolls.length ? h('span', { class: 'strip-label' }, t('dice.reroll')) : null, buttons.slice(0, rerolls.length),
    blacks.length ? h('span', { class: 'strip-label' }, t('dice.black-die')) : null, buttons.slice(rerolls.length));
}
