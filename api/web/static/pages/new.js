// Start a game: the form is built from /titles/details (players range, options as a JSON schema).
import { api, saveTokens } from '../api.js';
import { h, clear, errorBox } from '../dom.js';
import { t } from '../i18n.js';

// an option's label, its values and a line of help under it, in the table's words and the reader's
// language (the titles document them for developers)
const LABELLED = ['rounds', 'expeditions', 'first_seat', 'characters', 'random_city_bonuses', 'objectives_keep', 'caravans', 'black_dice_variant', 'grow_pack'];
const HELPED = ['rounds', 'expeditions', 'first_seat', 'random_city_bonuses', 'objectives_keep', 'caravans', 'grow_pack'];
const VALUED = { characters: ['first-game', 'draft', 'chosen', 'offer', 'all'] };
const HELP = (k) => (HELPED.includes(k) ? t(`new.help.${k}`) : null);
const valueLabel = (k, v) => ((VALUED[k] || []).includes(v) ? t(`new.value.${k}.${v}`) : String(v));
const label = (k) => (LABELLED.includes(k) ? t(`new.label.${k}`) : k.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()));

function enumOf(prop) {
  if (Array.isArray(prop.enum)) return prop.enum;
  for (const alt of prop.anyOf || prop.oneOf || []) if (Array.isArray(alt.enum)) return alt.enum;
  return null;
}

export async function show(main, q, { navigate }) {
  const details = await api('/titles/details');
  const byId = Object.fromEntries(details.map((d) => [d.id, d]));
  const titleSel = h('select', { id: 'n-title', name: 'title', required: true }, details.map((d) => h('option', { value: d.id }, d.name)));
  if (q.get('title') && byId[q.get('title')]) titleSel.value = q.get('title');
  const players = h('ol', { class: 'players-list' });
  const addBtn = h('button', { type: 'button', class: 'secondary', onclick: () => { addPlayer(''); sync(); } }, t('new.add-player'));
  const options = h('fieldset', { class: 'options' });
  const digital = h('input', { id: 'n-digital', type: 'checkbox', name: 'digital' });
  const seed = h('input', { id: 'n-seed', type: 'number', name: 'seed', min: 0, inputmode: 'numeric', disabled: true });
  digital.addEventListener('change', () => {
    seed.disabled = !digital.checked;
    if (digital.checked && !seed.value) seed.value = String(Math.floor(Math.random() * 2 ** 31));
  });
  const out = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'new-game', onsubmit: submit, novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'n-title' }, t('new.game')), titleSel),
    h('fieldset', {}, h('legend', {}, t('new.players')), h('p', { class: 'small muted', id: 'n-players-help' }, t('new.players-help')), players, addBtn),
    options,
    h('fieldset', {}, h('legend', {}, t('new.chance')),
      h('div', { class: 'check' }, digital, h('label', { for: 'n-digital' }, t('new.digital'))),
      h('div', { class: 'field' }, h('label', { for: 'n-seed' }, t('new.seed')), seed)),
    h('button', { type: 'submit', class: 'primary' }, t('new.start')), out);
  main.append(h('h1', {}, t('new.heading')), form);

  function addPlayer(name) {
    const i = players.children.length;
    const input = h('input', { id: `n-player-${i}`, name: 'player', required: true, 'aria-required': 'true', maxlength: 64, value: name, autocomplete: 'off', placeholder: t('new.name-of', { n: i + 1 }), 'aria-describedby': 'n-players-help' });
    const remove = h('button', { type: 'button', class: 'icon secondary', 'data-remove': true, 'aria-label': t('new.remove', { n: i + 1 }), onclick: () => { li.remove(); renumber(); sync(); } }, '×');
    const up = h('button', { type: 'button', class: 'icon secondary', 'data-up': true, 'aria-label': t('new.up', { n: i + 1 }), onclick: () => {
      if (li.previousElementSibling) { players.insertBefore(li, li.previousElementSibling); renumber(); sync(); up.focus(); }
    } }, '↑');
    const li = h('li', {}, h('label', { for: `n-player-${i}` }, t('new.seat', { n: i + 1 })), input, up, remove);
    players.append(li);
  }
  function renumber() {
    [...players.children].forEach((li, i) => {
      li.querySelector('label').textContent = t('new.seat', { n: i + 1 });
      li.querySelector('input').placeholder = t('new.name-of', { n: i + 1 });
      li.querySelector('label').setAttribute('for', `n-player-${i}`);
      li.querySelector('input').id = `n-player-${i}`;
      li.querySelector('[data-remove]').setAttribute('aria-label', t('new.remove', { n: i + 1 }));
      li.querySelector('[data-up]').setAttribute('aria-label', t('new.up', { n: i + 1 }));
      li.querySelector('[data-up]').disabled = i === 0;
    });
  }
  function names() { return [...players.querySelectorAll('input')].map((i) => i.value.trim()); }

  function sync() {
    const chosen = byId[titleSel.value];
    const n = players.children.length;
    addBtn.disabled = n >= chosen.players.max;
    for (const b of players.querySelectorAll('[data-remove]')) b.disabled = n <= chosen.players.min;
    players.querySelectorAll('[data-up]').forEach((b, i) => { b.disabled = i === 0; });
    // seat selects follow the names
    for (const sel of options.querySelectorAll('select[data-seat-option]')) {
      const keep = sel.value;
      clear(sel).append(...names().map((p, i) => h('option', { value: i }, p || t('new.player', { n: i + 1 }))));
      sel.value = keep !== '' && Number(keep) < n ? keep : (sel.dataset.default || '0');
    }
  }

  function buildOptions() {
    const chosen = byId[titleSel.value];
    clear(options).append(h('legend', {}, t('new.options')));
    const props = chosen.options.properties || {};
    for (const [key, prop] of Object.entries(props)) {
      const id = `n-opt-${key}`;
      const values = enumOf(prop);
      let input;
      if (values) {
        input = h('select', { id, 'data-option': key }, values.map((v) => h('option', { value: v }, valueLabel(key, v))));
        if (prop.default !== undefined && prop.default !== null) input.value = prop.default;
      } else if (prop.type === 'boolean') {
        input = h('input', { id, type: 'checkbox', 'data-option': key, 'data-kind': 'bool' });
        input.checked = !!prop.default;
        options.append(h('div', { class: 'check' }, input, h('label', { for: id }, label(key)), helpOf(key, id, input)));
        continue;
      } else if (prop.type === 'integer' && /(^|_)seat$/.test(key)) {
        input = h('select', { id, 'data-option': key, 'data-seat-option': true, 'data-kind': 'int', 'data-default': prop.default ?? 0 });
      } else if (prop.type === 'integer' || prop.type === 'number') {
        input = h('input', { id, type: 'number', 'data-option': key, 'data-kind': 'int', min: prop.minimum, max: prop.maximum, value: prop.default ?? '', inputmode: 'numeric' });
      } else if (prop.type === 'string') {
        input = h('input', { id, type: 'text', 'data-option': key, value: prop.default ?? '' });
      } else continue; // structured options (e.g. a content pin) keep their defaults
      options.append(h('div', { class: 'field' }, h('label', { for: id }, label(key)), input, helpOf(key, id, input)));
    }
    const t2 = byId[titleSel.value];
    while (players.children.length < t2.players.min) addPlayer('');
    while (players.children.length > t2.players.max) players.lastChild.remove();
    sync();
  }

  function helpOf(key, id, input) {
    const help = HELP(key);
    if (!help) return null;
    input.setAttribute('aria-describedby', `${id}-help`);
    return h('p', { class: 'small muted help', id: `${id}-help` }, help);
  }

  // the names as the table must give them: every seat named, no two alike (case and spaces aside)
  function namesProblem() {
    const inputs = [...players.querySelectorAll('input')];
    inputs.forEach((i) => i.removeAttribute('aria-invalid'));
    const blank = inputs.findIndex((i) => !i.value.trim());
    if (blank >= 0) return { input: inputs[blank], text: t('new.blank', { n: blank + 1 }) };
    const seen = new Map();
    for (const [i, input] of inputs.entries()) {
      const key = input.value.trim().toLowerCase().replace(/\s+/g, ' ');
      if (seen.has(key)) return { input, text: t('new.same', { a: seen.get(key) + 1, b: i + 1, name: input.value.trim() }) };
      seen.set(key, i);
    }
    return null;
  }

  async function submit(ev) {
    ev.preventDefault();
    clear(out);
    const problem = namesProblem();
    if (problem) {
      problem.input.setAttribute('aria-invalid', 'true');
      out.append(h('div', { class: 'error', role: 'alert', 'data-code': 'names' }, h('p', {}, problem.text)));
      problem.input.focus();
      return;
    }
    const opts = {};
    for (const el of options.querySelectorAll('[data-option]')) {
      const key = el.dataset.option;
      if (el.dataset.kind === 'bool') { if (el.checked) opts[key] = true; continue; }
      if (el.value === '') continue;
      opts[key] = el.dataset.kind === 'int' ? Number(el.value) : el.value;
    }
    const body = { title: titleSel.value, players: names(), options: opts, actor: 'web' };
    if (digital.checked && seed.value !== '') body.seed = Number(seed.value);
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      const made = await api('/games', { method: 'POST', body });
      saveTokens(made.game_id, { write: made.tokens.write_token, seats: made.tokens.seat_tokens.map((s) => s.token) });
      navigate(`/?game=${made.game_id}`);
    } catch (err) {
      out.append(errorBox(err, { lead: t('new.not-started') }));
      button.disabled = false;
    }
  }

  titleSel.addEventListener('change', buildOptions);
  players.addEventListener('input', sync);
  buildOptions();
  return {};
}
