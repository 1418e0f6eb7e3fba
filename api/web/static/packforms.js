// Marco Polo II components entered through forms generated from the title's form schema
// (GET /titles/{title}/pack-forms, rules/marco_polo_2/content/forms.py) and drawn like the card or
// tile they describe. Numbers by steppers, bundles by tapping resource pictures, choices by buttons:
// nothing is typed as JSON. ``componentForm`` builds a form; ``cardFace`` draws one component.
import { h, s, clear } from './dom.js';
import { t, has } from './i18n.js';

// ---- pictures ---------------------------------------------------------------------------------
// each a small drawing plus its word (the word carries the meaning; colours and shapes help)
const PICS = {
  coins: { draw: () => [s('circle', { cx: 10, cy: 10, r: 8.5, fill: '#d9a400', stroke: '#6b4f00', 'stroke-width': 1.5 }), s('circle', { cx: 10, cy: 10, r: 4.5, fill: 'none', stroke: '#6b4f00', 'stroke-width': 1.2 })] },
  camels: { draw: () => [s('path', { d: 'M2 14 Q4 7 7 10 Q9 3 12 9 Q14 5 17 9 L18 7 L19 9 L17 12 L17 17 M5 13 L5 17 M14 13 L14 17', fill: '#e2c48f', stroke: '#6b4a1a', 'stroke-width': 1.6, 'stroke-linejoin': 'round' })] },
  pepper: { draw: () => [s('path', { d: 'M5 4 Q9 2 11 5 Q17 9 15 16 Q13 19 10 16 Q5 11 5 4 Z', fill: '#b3261e', stroke: '#5c120e', 'stroke-width': 1.3 }), s('path', { d: 'M5 4 L3 2', stroke: '#1d5f2c', 'stroke-width': 2 })] },
  silk: { draw: () => [s('rect', { x: 3, y: 4, width: 14, height: 12, rx: 2, fill: '#2f7a44', stroke: '#123d1f', 'stroke-width': 1.3 }), s('path', { d: 'M3 8 Q10 11 17 8 M3 12 Q10 15 17 12', stroke: '#bfe3c8', 'stroke-width': 1.2, fill: 'none' })] },
  gold: { draw: () => [s('path', { d: 'M2 15 L5 6 L15 6 L18 15 Z', fill: '#f2c230', stroke: '#6b4f00', 'stroke-width': 1.4 }), s('path', { d: 'M6 8 L9 8', stroke: '#fff6', 'stroke-width': 1.5 })] },
  jade: { draw: () => [s('path', { d: 'M10 2 L17 6 L17 14 L10 18 L3 14 L3 6 Z', fill: '#3aa57a', stroke: '#0f4d33', 'stroke-width': 1.4 })] },
  vp: { draw: () => [s('path', { d: 'M10 2 L12.4 7.4 L18 7.8 L13.7 11.5 L15 17 L10 14 L5 17 L6.3 11.5 L2 7.8 L7.6 7.4 Z', fill: '#1f3f7a', stroke: '#0c1c3a', 'stroke-width': 1 })] },
  contract: { draw: () => [s('rect', { x: 4, y: 2, width: 12, height: 16, rx: 1.5, fill: '#f6ead0', stroke: '#7a3f00', 'stroke-width': 1.5 }), s('path', { d: 'M7 7 H13 M7 10 H13 M7 13 H11', stroke: '#7a3f00', 'stroke-width': 1.2 })] },
  contract_pile: { draw: () => [s('rect', { x: 6, y: 1, width: 11, height: 14, rx: 1.5, fill: '#e9d3a8', stroke: '#7a3f00', 'stroke-width': 1.2 }), s('rect', { x: 3, y: 4, width: 11, height: 14, rx: 1.5, fill: '#f6ead0', stroke: '#7a3f00', 'stroke-width': 1.5 })] },
  black_die: { draw: () => [s('rect', { x: 2.5, y: 2.5, width: 15, height: 15, rx: 3, fill: '#1f1d1a' }), ...[[6.5, 6.5], [13.5, 13.5], [10, 10]].map(([cx, cy]) => s('circle', { cx, cy, r: 1.6, fill: '#fff' }))] },
};
const GUILD_COLOUR = { farmer: '#3f7a2c', spicer: '#a84c00', tailor: '#6a32a0', jeweler: '#0b6bcb' };

function svgIcon(key, cls, body) {
  return s('svg', { viewBox: '0 0 20 20', width: 20, height: 20, class: `pf-icon ${cls}`, 'aria-hidden': 'true', focusable: 'false', 'data-icon': key }, body);
}

/** A resource (or contract icon) as a picture with its count and word: "2 [coin] coins". */
export function resIcon(key, n = null) {
  const pic = PICS[key];
  const word = pic ? resWord(key, n === null ? 2 : n) : key.replace(/_/g, ' ');
  return h('span', { class: `pf-res pf-res-${key}`, 'data-res': key, ...(n === null ? {} : { 'data-n': n }) },
    n === null ? null : h('span', { class: 'pf-n' }, String(n)), ' ', svgIcon(key, '', pic ? pic.draw() : []), h('span', { class: 'pf-word' }, word));
}

/** A guild's seal: a coloured seal with its initial, and its name. */
export function guildIcon(guild, label = null) {
  return h('span', { class: 'pf-guild', 'data-guild': guild, style: `--guild:${GUILD_COLOUR[guild] || '#5f5a52'}` },
    svgIcon(guild, 'pf-seal', [s('circle', { cx: 10, cy: 10, r: 8.5, fill: GUILD_COLOUR[guild] || '#5f5a52', stroke: '#1f1d1a', 'stroke-width': 1 }),
      s('text', { x: 10, y: 14, 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 700, fill: '#fff' }, (guild || '?')[0].toUpperCase())]),
    h('span', { class: 'pf-word' }, label || guildName(guild)));
}

/** A city's coat of arms: a shield with its name. */
export function shieldIcon(name) {
  return h('span', { class: 'pf-shield', 'data-shield': name },
    svgIcon('shield', 'pf-shield-pic', [s('path', { d: 'M3 3 H17 V9 Q17 16 10 19 Q3 16 3 9 Z', fill: '#f3d9a4', stroke: '#5a3e12', 'stroke-width': 1.5 })]),
    h('span', { class: 'pf-word' }, name || '?'));
}

const GUILDS = ['farmer', 'spicer', 'tailor', 'jeweler'];
const guildName = (g) => (GUILDS.includes(g) ? t(`pf.guilds.${g}.label`) : g);
const cityName = (c) => (['baghdad', 'balkh', 'hormuz'].includes(c) ? t(`pf.specials.${c}.label`) : null);
const entries = (b) => Object.entries(b || {}).filter(([, n]) => n);
const bundlePics = (b) => {
  const items = entries(b);
  return items.length ? items.map(([k, n]) => resIcon(k, n)) : [h('span', { class: 'pf-nothing' }, t('pf.nothing'))];
};
const arrow = () => h('span', { class: 'pf-arrow', 'aria-label': t('pf.gives') }, '→');
const line = (...c) => h('span', { class: 'pf-line' }, ...c);
const note = (text) => h('span', { class: 'pf-note' }, text);
const exchange = (pay, gain) => line(entries(pay).length ? [bundlePics(pay), arrow()] : null, bundlePics(gain));

const KINDS = ['node', 'route', 'contract', 'city_card', 'city_bonus', 'outpost', 'goal', 'offer', 'book', 'seal', 'special', 'route_tile'];
const kindName = (kind) => (KINDS.includes(kind) ? t(`pf.kind.${kind}`) : kind);
const bookName = (n) => ([1, 2, 3].includes(Number(n)) ? t(`pf.book-${Number(n)}`) : null);

function cardBody(kind, id, spec) {
  const sp = spec || {};
  switch (kind) {
    case 'contract':
      return [sp.starting ? h('span', { class: 'pf-badge pf-starting' }, t('pf.starting')) : null,
        h('span', { class: 'pf-part', 'data-part': 'cost' }, bundlePics(sp.cost)), arrow(),
        h('span', { class: 'pf-part', 'data-part': 'reward' }, bundlePics(sp.reward))];
    case 'city_card':
      return cityCardBody(sp);
    case 'city_bonus': case 'outpost':
      return sp.any_bonus ? [note(t('pf.any-bonus'))] : [line(bundlePics(sp.gain))];
    case 'goal':
      return [h('span', { class: 'pf-part', 'data-part': 'guilds' }, entries(sp.guilds).map(([g, vp]) => line(guildIcon(g), resIcon('vp', vp))), entries(sp.guilds).length ? null : note(t('pf.no-guilds'))),
        h('span', { class: 'pf-part', 'data-part': 'shields' }, (sp.shields || []).map((x) => shieldIcon(x)), (sp.shields || []).length ? note(t('pf.plus-one-each')) : null)];
    case 'offer':
      return [note(bookName(sp.book) || t('pf.book-unknown')),
        line(resIcon('jade', 1), arrow(), bundlePics(sp.jade1)), line(resIcon('jade', 2), arrow(), bundlePics(sp.jade2))];
    case 'book':
      return [note(bookName(id) || t('pf.kind.book')), ...(sp.fixed || []).map((b) => line(note(t('pf.free-colon')), bundlePics(b)))];
    case 'seal':
      return [guildIcon(id), line(note(t('pf.improve-colon')), bundlePics(sp.improve)), line(h('span', { class: 'pf-bang', 'aria-label': t('pf.bonus') }, '!'), bundlePics(sp.bonus)),
        sp.plus_one ? h('span', { class: 'pf-badge' }, t('pf.plus-one-shield')) : null];
    case 'special':
      return [h('strong', { class: 'pf-title' }, cityName(id) || id || t('pf.kind.special')), line(bundlePics(sp.reward)),
        line(sp.guild ? guildIcon(sp.guild) : note(t('pf.guild-unknown')), note(t('pf.twice', { n: sp.twice_at ?? '?' })))];
    case 'route_tile':
      return [line(shieldIcon((sp.shields || [])[0]), h('span', { class: 'pf-arrow', 'aria-label': t('pf.to') }, '↔'), shieldIcon((sp.shields || [])[1]))];
    case 'node': {
      const what = sp.kind === 'oasis' ? t('pf.node-oasis') : sp.kind === 'start' ? t('pf.node-start') : sp.special ? cityName(sp.special) || t('pf.kind.special') : t('pf.node-city');
      return [h('strong', { class: 'pf-title' }, sp.name || id || '?'), note(what), sp.kind === 'city' || !sp.kind ? shieldIcon(sp.shield) : null,
        (sp.slots || []).length ? note(t('pf.lies-here', { list: (sp.slots || []).map((x) => (SLOTS.includes(x) ? t(`pf.slot.${x}`) : x)).join(t('pf.sep')) })) : null];
    }
    case 'route': {
      const [a, b] = sp.ends || [];
      const cost = ['coins', 'camels', 'jade'].filter((k) => sp[k]).map((k) => resIcon(k, sp[k]));
      return [line(h('strong', {}, a || '?'), h('span', { class: 'pf-arrow', 'aria-label': t('pf.to') }, '—'), h('strong', {}, b || '?')),
        line(cost.length ? cost : note(t('pf.free')), sp.guild ? guildIcon(sp.guild) : null)];
    }
    default:
      return [note(JSON.stringify(sp))];
  }
}
const SLOTS = ['bonus', 'outpost', 'contracts', 'card'];

function cityCardBody(c) {
  const die = note(t('pf.times-die'));
  switch (c.kind) {
    case 'exchange': return [die, exchange(c.pay, c.gain)];
    case 'per_contract': return [line(bundlePics(c.gain), note(t('pf.per-contract'))), note(t('pf.at-most-die'))];
    case 'per_post': return [line(bundlePics(c.gain), note(t('pf.per-post'))), note(t('pf.at-most-die'))];
    case 'choice':
      return [note(t('pf.times-die-same')), ...(c.options || []).map((o, i) => [i ? h('span', { class: 'pf-or' }, t('pf.or')) : null, h('span', { class: 'pf-option', 'data-option': i + 1 }, exchange(o.pay, o.gain))]),
        c.vp_below_zero ? note(t('pf.vp-below-zero')) : null];
    case 'bonuses': return [die, note(t('pf.bonuses-note'))];
    case 'guild': return [line(entries(c.pay).length ? [bundlePics(c.pay), arrow()] : null, note(t('pf.guild-note')))];
    case 'move': return [note(c.max ? t('pf.move-max', { n: c.max }) : t('pf.move-die'))];
    default: return [note(c.text || t('pf.kind.city_card'))];
  }
}

/** The component drawn as printed: a contract as cost → reward, a city card by its kind, a goal with its guilds and shields... */
export function cardFace(kind, id, spec) {
  const sp = spec || {};
  const sub = kind === 'city_card' ? ` pf-card-${sp.kind || 'exchange'}` : kind === 'node' ? ` pf-node-${sp.kind || 'city'}` : '';
  return h('div', { class: `pf-face pf-${kind}${sub}`, 'data-face': kind, 'data-id': id || '', role: 'group', 'aria-label': `${kindName(kind)} ${id || ''}`.trim() },
    h('span', { class: 'pf-kind' }, kindName(kind)),
    h('div', { class: 'pf-body' }, cardBody(kind, id, sp)),
    sp.text ? h('span', { class: 'pf-text' }, `“${sp.text}”`) : null,
    id ? h('span', { class: 'pf-id' }, id) : null);
}

// ---- the form ---------------------------------------------------------------------------------
let uid = 0;
const nextId = (p) => `pf-${p}-${++uid}`;

function shown(field, value) {
  const w = field.when;
  if (!w) return true;
  const v = value[w.field];
  return w.in.includes(v === undefined ? (typeof w.in[0] === 'boolean' ? false : null) : v);
}

function initialOf(field, init) {
  if (init !== undefined) return structuredClone(init);
  if (field.type === 'bundle') return {};
  if (field.type === 'list') return Array.from({ length: field.min || 0 }, () => initialOf(field.item));
  if (field.type === 'object') return Object.fromEntries(field.fields.map((f) => [f.name, initialOf(f)]));
  if (field.type === 'boolean') return field.default || false;
  if (field.type === 'text' || field.type === 'ref') return '';
  return field.default === undefined ? null : field.default;
}

// the spec as the validator wants it: unset fields, false flags and empty optional bundles left
// out, unless the spec being changed (``init``) had them: a component opened and saved unchanged
// stays the same data (and the same hash)
function clean(fields, value, init = {}) {
  const out = {};
  for (const f of fields) {
    if (!shown(f, value)) continue;
    const had = init && typeof init === 'object' ? init[f.name] : undefined;
    const v = cleanValue(f, value[f.name], had);
    if (v === undefined) continue;
    out[f.name] = v;
  }
  return out;
}
function cleanValue(f, v, had) {
  if (v === undefined || v === null || v === '') return undefined;
  if (f.type === 'boolean') return v ? true : had === false ? false : undefined;
  if (f.type === 'bundle') {
    const b = Object.fromEntries(Object.entries(v).filter(([, n]) => n > 0));
    return Object.keys(b).length || f.required || (had && typeof had === 'object') ? b : undefined;
  }
  if (f.type === 'list') {
    return v.map((x, i) => cleanValue(f.item, x, Array.isArray(had) ? had[i] : undefined)).map((x) => (x === undefined ? (f.item.type === 'bundle' ? {} : '') : x));
  }
  if (f.type === 'object') return clean(f.fields, v, had);
  if (f.type === 'text') return String(v).trim() || undefined;
  return v;
}

// what is missing or wrong, in words (the first problem, with the field's label), or null
function problem(fields, value, where = '') {
  for (const f of fields) {
    if (!shown(f, value) || f.hidden) continue;
    const v = value[f.name];
    const label = `${where}${f.label}`;
    const p = fieldProblem(f, v, label);
    if (p) return { field: f.name, text: p };
  }
  return null;
}
function fieldProblem(f, v, label) {
  if (f.type === 'bundle') {
    const total = Object.values(v || {}).reduce((a, n) => a + (n || 0), 0);
    if (f.nonempty && !total) return t('pf.p-tap', { label });
    return null;
  }
  if (f.type === 'text' || f.type === 'ref') return f.required && !String(v || '').trim() ? t('pf.p-fill', { label }) : null;
  if (f.type === 'choice') return f.required && (v === null || v === undefined) ? t('pf.p-choose', { label }) : null;
  if (f.type === 'list') {
    const items = v || [];
    if (items.length < (f.min || 0)) return t('pf.p-min', { label, n: f.min });
    if (f.distinct && new Set(items.map(String)).size < items.length) return t('pf.p-distinct', { label });
    for (const [i, item] of items.entries()) {
      const p = f.item.type === 'object' ? problem(f.item.fields, item || {}, `${label} ${i + 1}: `) : fieldProblem({ ...f.item, required: true }, item, `${label} ${i + 1}`);
      if (p) return typeof p === 'string' ? p : p.text;
    }
  }
  return null;
}

function stepper({ label, value, min = 0, max = null, optional = false, onChange, help }) {
  const id = nextId('n');
  const out = h('output', { id, class: 'pf-count', 'aria-live': 'polite' });
  const show = () => { out.textContent = value === null || value === undefined ? t('pf.any') : String(value); minus.disabled = value === null || (!optional && value <= min); plus.disabled = max !== null && value !== null && value >= max; };
  const set = (v) => { value = v; show(); onChange(v); };
  const minus = h('button', { type: 'button', class: 'pf-step', 'aria-label': t('pf.one-less', { label }), onclick: () => set(value === null ? null : value <= min ? null : value - 1) }, '−');
  const plus = h('button', { type: 'button', class: 'pf-step', 'aria-label': t('pf.one-more', { label }), onclick: () => set(value === null ? min : value + 1) }, '+');
  show();
  return h('div', { class: 'pf-stepper', role: 'group', 'aria-label': label }, minus, out, plus, help ? h('span', { class: 'visually-hidden' }, help) : null);
}

function bundleInput(f, value, onChange, labelText) {
  const cells = (f.keys || []).map((k) => {
    const cap = (f.limits || {})[k] ?? null;
    const cell = h('div', { class: 'pf-cell', 'data-key': k });
    const draw = () => {
      const n = value[k] || 0;
      clear(cell).append(
        h('button', { type: 'button', class: `pf-add${n ? ' has' : ''}`, 'data-add': k, disabled: cap !== null && n >= cap, onclick: () => { value[k] = n + 1; draw(); onChange(value); } },
          h('span', { class: 'visually-hidden' }, `${t('pf.add-one', { label: labelText, what: resWord(k, 1) })} `), resIcon(k, n)),
        h('button', { type: 'button', class: 'pf-sub', 'data-sub': k, 'aria-label': t('pf.take-away', { label: labelText, what: resWord(k, 1) }), disabled: !n, onclick: () => { value[k] = Math.max(0, n - 1); if (!value[k]) delete value[k]; draw(); onChange(value); } }, '−'));
    };
    draw();
    return cell;
  });
  return h('div', { class: 'pf-bundle', role: 'group', 'aria-label': labelText }, cells);
}
const resWord = (k, n) => (PICS[k] ? t(`pf.word.${k}.${n === 1 ? 'one' : 'other'}`) : guildName(k));

function choiceInput(f, value, onChange, labelText, { allowNone = !f.required } = {}) {
  const name = nextId('c');
  const opts = [...(allowNone ? [{ value: null, label: t('pf.none') }] : []), ...f.choices];
  const wrap = h('div', { class: 'pf-choices', role: 'radiogroup', 'aria-label': labelText });
  for (const c of opts) {
    const id = nextId('r');
    const input = h('input', { type: 'radio', id, name, class: 'pf-radio', 'data-value': c.value === null ? '' : String(c.value), checked: value === c.value || (value === undefined && c.value === null) });
    input.addEventListener('change', () => { if (input.checked) onChange(c.value); });
    wrap.append(h('label', { for: id, class: 'pf-choice' }, input,
      h('span', { class: 'pf-choice-text' }, f.name === 'guild' && c.value ? guildIcon(c.value, c.label) : c.label, c.help ? h('span', { class: 'pf-choice-help' }, c.help) : null)));
  }
  return wrap;
}

function textInput(f, value, onChange, labelText, ctx, id) {
  const input = h('input', { type: 'text', id, class: 'pf-text-input', value: value || '', autocomplete: 'off', 'aria-label': id ? null : labelText });
  input.addEventListener('input', () => onChange(input.value));
  const suggestions = f.suggest === 'shields' ? ctx.shields || [] : [];
  if (!suggestions.length) return input;
  return h('div', { class: 'pf-suggest' }, input,
    h('div', { class: 'pf-chips', role: 'group', 'aria-label': t('pf.known-shields', { label: labelText }) },
      suggestions.map((x) => h('button', { type: 'button', class: 'pf-chip', 'data-suggest': x, 'aria-pressed': String(x === value), onclick: (ev) => {
        input.value = x; onChange(x);
        for (const b of ev.currentTarget.parentElement.children) b.setAttribute('aria-pressed', String(b.dataset.suggest === x));
      } }, shieldIcon(x)))));
}

function refInput(f, value, onChange, labelText, ctx, id) {
  const nodes = (f.ref === 'node' && ctx.nodes) || [];
  if (!nodes.length) return textInput(f, value, onChange, labelText, ctx, id);
  return choiceInput({ ...f, choices: nodes.map((n) => ({ value: n.id, label: n.name && n.name !== n.id ? `${n.name} (${n.id})` : n.id, help: '' })) }, value, onChange, labelText, { allowNone: false });
}

function listInput(f, value, onChange, labelText, ctx) {
  const item = f.item;
  // several different choices: toggle buttons, one per choice
  if (item.type === 'choice' && f.distinct) {
    return h('div', { class: 'pf-toggles', role: 'group', 'aria-label': labelText }, item.choices.map((c) => h('button', {
      type: 'button', class: 'pf-toggle', 'data-value': c.value, 'aria-pressed': String(value.includes(c.value)),
      onclick: (ev) => {
        const i = value.indexOf(c.value);
        if (i >= 0) value.splice(i, 1); else if (f.max === null || f.max === undefined || value.length < f.max) value.push(c.value);
        ev.currentTarget.setAttribute('aria-pressed', String(value.includes(c.value)));
        onChange(value);
      },
    }, c.label)));
  }
  const box = h('div', { class: 'pf-list', role: 'group', 'aria-label': labelText });
  const fixed = f.min !== undefined && f.min === f.max;
  const draw = () => {
    clear(box);
    value.forEach((v, i) => {
      const itemLabel = `${labelText} ${i + 1}`;
      const set = (x) => { value[i] = x; onChange(value); };
      const id = nextId('i');
      let input;
      if (item.type === 'object') input = objectInput(item.fields, v, () => onChange(value), ctx, `${itemLabel}: `);
      else input = control({ ...item, name: f.name, label: itemLabel, required: true }, v, set, itemLabel, ctx, id);
      box.append(h('div', { class: 'pf-item', 'data-item': i },
        h('div', { class: 'pf-item-head' }, h(item.type === 'text' ? 'label' : 'span', item.type === 'text' ? { for: id, class: 'pf-item-label' } : { class: 'pf-item-label' },
          h('span', { class: 'visually-hidden' }, `${labelText} `), `${i + 1}.`),
          fixed || value.length <= (f.min || 0) ? null : h('button', { type: 'button', class: 'pf-remove', 'aria-label': t('pf.remove-item', { label: itemLabel }), onclick: () => { value.splice(i, 1); draw(); onChange(value); } }, t('pf.remove'))),
        input));
    });
    if (!fixed && (f.max === null || f.max === undefined || value.length < f.max)) {
      box.append(h('button', { type: 'button', class: 'pf-more', 'data-more': f.name, onclick: () => { value.push(initialOf(item)); draw(); onChange(value); } }, t(item.type === 'object' ? 'pf.add-option' : 'pf.add-another')));
    }
  };
  draw();
  return box;
}

function control(f, value, onChange, labelText, ctx, id) {
  switch (f.type) {
    case 'integer': case 'number':
      return stepper({ label: labelText, value, min: f.min ?? 0, max: f.max ?? null, optional: !f.required && (f.default === null || f.default === undefined), onChange, help: f.help });
    case 'bundle': return bundleInput(f, value, onChange, labelText);
    case 'choice': return choiceInput(f, value, onChange, labelText);
    case 'boolean': {
      const input = h('input', { type: 'checkbox', id, class: 'pf-check', checked: !!value });
      input.addEventListener('change', () => onChange(input.checked));
      return input;
    }
    case 'text': return textInput(f, value, onChange, labelText, ctx, id);
    case 'ref': return refInput(f, value, onChange, labelText, ctx, id);
    case 'list': return listInput(f, value, onChange, labelText, ctx);
    case 'object': return objectInput(f.fields, value, () => onChange(value), ctx, `${labelText}: `);
    default: return h('span', {}, `(${f.type})`);
  }
}

// ``value`` is changed in place; ``changed()`` after each change
function objectInput(fields, value, changed, ctx, prefix = '') {
  const box = h('div', { class: 'pf-fields' });
  const rows = [];
  const relayout = () => { for (const [f, row] of rows) row.hidden = !shown(f, value); };
  for (const f of fields) {
    if (f.hidden) continue;
    if (!(f.name in value)) value[f.name] = initialOf(f);
    const id = nextId('f');
    const labelText = `${prefix}${f.label}`;
    const labelled = ['boolean', 'text', 'ref'].includes(f.type) && !(f.type === 'ref' && (ctx.nodes || []).length);
    const onChange = (v) => { value[f.name] = v; relayout(); changed(); };
    const input = control(f, value[f.name], onChange, labelText, ctx, id);
    const helpId = f.help ? nextId('h') : null;
    if (helpId && input.setAttribute) input.setAttribute('aria-describedby', helpId);
    const head = f.type === 'boolean'
      ? h('label', { for: id, class: 'pf-check-label' }, input, h('span', {}, f.label))
      : labelled ? h('label', { for: id, class: 'pf-label' }, f.label) : h('span', { class: 'pf-label', 'aria-hidden': 'true' }, f.label);
    const row = h('div', { class: `pf-field pf-type-${f.type}`, 'data-field': f.name },
      head, helpId ? h('p', { id: helpId, class: 'pf-help' }, f.help) : null, f.type === 'boolean' ? null : input);
    rows.push([f, row]);
    box.append(row);
  }
  relayout();
  return box;
}

// a seal's guild, a book's place, a special city by name; other ids as they are
function idWords(schema, id) {
  const c = schema.id && schema.id.type === 'choice' ? schema.id.choices.find((x) => String(x.value) === String(id)) : null;
  return c ? c.label : id;
}

function routeId(ends) { const [a, b] = ends || []; return a && b ? (a <= b ? `${a}-${b}` : `${b}-${a}`) : ''; }

/**
 * A form for one component, generated from the form schema (``forms`` = GET /titles/{t}/pack-forms),
 * with a live picture of the card above it. ``id`` null asks for the code (or the guild, the book...);
 * ``initial`` fills it in (editing). ``onSubmit(spec, id)`` gets the spec as the pack keeps it.
 * ``context``: ``{nodes: [{id, name}], shields: [...], taken: [ids]}`` for the route's ends, the
 * shields offered, and codes already used in the pack. ``suggestId(spec)`` fills the code in from
 * what is entered (until someone types one); ``extra`` is an element shown above the buttons.
 */
export function componentForm(container, { kind, id = null, forms, initial = null, onSubmit, onCancel, context = {}, submitLabel = t('pf.save'), suggestId = null, extra = null, codes = true }) {
  localiseForms(forms);
  const schema = forms && forms.kinds && forms.kinds[kind];
  clear(container);
  if (!schema) {
    container.append(h('p', { class: 'error', role: 'alert' }, t('pf.no-form', { kind })));
    return;
  }
  const value = structuredClone(initial || {});
  delete value.id;
  let cid = id;
  const preview = h('div', { class: 'pf-preview', 'aria-live': 'polite', 'aria-label': t('pf.preview') });
  const message = h('p', { class: 'pf-problem', role: 'alert', hidden: true });
  const spec = () => clean(schema.fields, value, initial || {});
  const currentId = () => (schema.id && schema.id.derived ? routeId(value.ends) : cid);
  let idInput = null; let idTyped = false;
  const redraw = () => {
    // the code follows what is entered (a place's name...) until someone types one
    if (idInput && suggestId && !idTyped) { const sug = suggestId(spec()) || ''; idInput.value = sug; cid = sug; }
    clear(preview).append(cardFace(kind, currentId(), spec())); message.hidden = true;
  };

  let idRow = null;
  if (!id && schema.id && !schema.id.derived) {
    const fid = nextId('id');
    const taken = new Set(context.taken || []);
    const onChange = (v) => { cid = v === null ? null : String(v).trim(); idTyped = schema.id.type !== 'choice'; redraw(); };
    const f = schema.id.type === 'choice'
      ? { name: 'id', type: 'choice', required: true, choices: schema.id.choices.filter((c) => !taken.has(c.value)) }
      : { name: 'id', type: 'text', required: true };
    idRow = h('div', { class: 'pf-field pf-id-field', 'data-field': 'id' },
      f.type === 'choice' ? h('span', { class: 'pf-label', 'aria-hidden': 'true' }, schema.id.label) : h('label', { for: fid, class: 'pf-label' }, schema.id.label),
      schema.id.help ? h('p', { class: 'pf-help' }, schema.id.help) : null,
      control(f, null, onChange, schema.id.label, context, fid));
    idInput = f.type === 'text' ? idRow.querySelector('input') : null;
  }
  const fields = objectInput(schema.fields, value, redraw, context);
  const form = h('form', { class: 'pf-form', 'data-kind': kind, novalidate: true },
    // at the table (codes false) a component is named by what is printed on it: a guild's name, not a pack's code
    h('h3', { class: 'pf-heading' }, id ? (codes || idWords(schema, id) !== id ? `${schema.label}: ${idWords(schema, id)}` : schema.label) : t('pf.new', { what: schema.label.toLowerCase() })),
    h('p', { class: 'pf-help' }, schema.help),
    preview, suggestId ? null : idRow, fields, suggestId ? idRow : null, message, extra,
    h('div', { class: 'pf-actions' },
      h('button', { type: 'submit', class: 'primary pf-submit' }, submitLabel),
      onCancel ? h('button', { type: 'button', class: 'pf-cancel', onclick: () => onCancel() }, t('pf.cancel')) : null));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const taken = new Set(context.taken || []);
    const theId = currentId();
    const p = !theId ? { field: 'id', text: t('pf.p-fill', { label: schema.id && schema.id.derived ? schema.fields[0].label : (schema.id || {}).label || t('pf.code') }) }
      : !id && taken.has(theId) ? { field: 'id', text: t('pf.p-taken', { label: (schema.id || {}).label || t('pf.code'), id: theId }) }
        : problem(schema.fields, value);
    if (p) {
      message.textContent = p.text; message.hidden = false; message.dataset.field = p.field;
      const row = form.querySelector(`[data-field="${p.field}"]`);
      if (row) { const target = row.querySelector('button, input'); if (target) target.focus(); }
      return;
    }
    const out = spec();
    for (const f of schema.fields) if (f.hidden && value[f.name] !== undefined && value[f.name] !== null) out[f.name] = value[f.name];
    onSubmit(out, theId);
  });
  redraw();
  container.append(form);
}

// ---- the form schema in the reader's language -------------------------------------------------
// The schema's labels and help are the title's English (rules/marco_polo_2/content/forms.py); the
// page's catalogue has each under its place in the schema (``pf.kinds.<kind>.fields.<name>.label``).
function localiseField(f, key) {
  for (const a of ['label', 'help']) if (f[a]) f[a] = t(`${key}.${a}`);
  for (const c of f.choices || []) for (const a of ['label', 'help']) if (c[a]) c[a] = t(`${key}.choices.${c.value}.${a}`);
  if (f.item) localiseField(f.item, `${key}.item`);
  for (const sub of f.fields || []) localiseField(sub, `${key}.fields.${sub.name}`);
}

/** The form schema with its words in the reader's language (in place, once; a kind or group the
 * catalogue does not know keeps the schema's words). */
export function localiseForms(forms) {
  if (!forms || forms.localised) return forms;
  for (const [kind, k] of Object.entries(forms.kinds || {})) {
    const key = `pf.kinds.${kind}`;
    if (!has(`${key}.label`)) continue; // a kind added to the schema after this catalogue
    for (const a of ['label', 'help']) if (k[a]) k[a] = t(`${key}.${a}`);
    if (k.id) localiseField(k.id, `${key}.id`);
    for (const f of k.fields || []) localiseField(f, `${key}.fields.${f.name}`);
  }
  for (const group of ['resources', 'icons', 'guilds', 'specials']) {
    for (const r of forms[group] || []) for (const a of ['label', 'short']) if (r[a] && has(`pf.${group}.${r.id}.${a}`)) r[a] = t(`pf.${group}.${r.id}.${a}`);
  }
  forms.localised = true;
  return forms;
}
