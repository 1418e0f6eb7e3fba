// The Voyages of Marco Polo's layout, entered on the map: tap a city, then the picture of the card
// or tile lying there; starting contracts and objective cards by their pictures too. Nothing is
// typed or chosen by id; "Fill in at random" only for a digital game.
import { h, s, clear, errorBox } from '../dom.js';
import { MAP_XY } from '../draw/marco-polo.js';
import { shuffled } from '../facts/generic.js';
import { facePicker, faceOf, nameOf } from './mp-faces.js';
import { t } from '../i18n.js';

// the board's sketch, stretched up and down (and Ormuz nudged west) so that 44-px city pins do
// not overlap on a phone; each pin shows the city's code as the board drawing does, its name below
const W = 1000;
const YS = 1.6;
const H = 560 * YS;
const NUDGE = { ORM: [-20, 0] };
const NAME_ABOVE = new Set(['LAN']);
const XY = Object.fromEntries(Object.entries(MAP_XY).map(([k, [x, y]]) => [k, [x + (NUDGE[k] || [0])[0], y * YS]]));
const anchor = () => 50;

function mapSketch(content) {
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'mpf-setup-svg', 'aria-hidden': 'true', focusable: 'false' });
  svg.append(s('rect', { x: 0, y: 0, width: W, height: H, rx: 16, class: 'mp-sea' }));
  for (const r of content.routes || []) {
    const [a, b] = r.ends;
    if (XY[a] && XY[b]) svg.append(s('line', { x1: XY[a][0], y1: XY[a][1], x2: XY[b][0], y2: XY[b][1], class: 'mp-route' }));
  }
  for (const l of content.locations || []) {
    const xy = XY[l.id];
    if (xy && l.kind === 'oasis') svg.append(s('rect', { x: xy[0] - 7, y: xy[1] - 7, width: 14, height: 14, transform: `rotate(45 ${xy[0]} ${xy[1]})`, class: 'mp-oasis-shape' }));
    else if (xy) svg.append(s('circle', { cx: xy[0], cy: xy[1], r: 14, class: 'mp-city-shape' }));
    if (xy && l.kind !== 'oasis') {
      const edge = xy[0] < 150 ? 'start' : xy[0] > 850 ? 'end' : 'middle';
      const x = edge === 'start' ? 8 : edge === 'end' ? W - 8 : xy[0];
      const dy = NAME_ABOVE.has(l.id) ? -85 : l.kind === 'beijing' || l.kind === 'start' ? 50 : 100;
      svg.append(s('text', { x, y: xy[1] + dy, 'text-anchor': edge, class: 'mpf-setup-name' }, nameOf(content, l.id)));
    }
  }
  return svg;
}

/** The slots a layout fills, per city: [{key, city, kind, label, pool}] in the notation's order. */
function slotsOf(info, content) {
  const ids = (list) => (list || []).map((x) => x.id);
  const large = (content.locations || []).filter((l) => l.kind === 'large').map((l) => l.id);
  const small = (content.locations || []).filter((l) => l.kind === 'small').map((l) => l.id);
  const spaces = content.city_card_spaces || [];
  const perCity = (city) => spaces.filter((sp) => sp.split('-')[0] === city);
  const slots = [];
  for (const sp of spaces) {
    const city = sp.split('-')[0];
    const n = perCity(city).length;
    slots.push({ key: `cards:${sp}`, group: 'cards', city, label: n > 1 ? t('mpsetup.card-k-of-n', { k: perCity(city).indexOf(sp) + 1, n }) : t('mpsetup.card'), pool: ids(content.city_cards) });
  }
  for (const c of large) slots.push({ key: `outposts:${c}`, group: 'outposts', city: c, label: t('mpsetup.outpost'), pool: ids(content.outpost_bonuses) });
  if ((info.options || {}).random_city_bonuses) {
    for (const c of small) slots.push({ key: `bonuses:${c}`, group: 'bonuses', city: c, label: t('mpsetup.bonus'), pool: ids(content.city_bonuses) });
  }
  return slots;
}

export function setupOnMap(box, ctx) {
  const { info, content } = ctx;
  const opts = info.options || {};
  const n = info.players.length;
  const mode = opts.characters || 'first-game';
  const per = opts.objectives_keep ? 4 : 2;
  const slots = slotsOf(info, content);
  const chosen = new Map(); // slot key -> id
  const start = Array(n).fill('');
  const objectives = info.players.map(() => Array(per).fill('?'));
  const chars = Array(mode === 'draft' ? n + 1 : n).fill('');
  let city = null;

  const cities = [...new Set(slots.map((x) => x.city))];
  const cityDone = (c) => slots.filter((x) => x.city === c).every((x) => chosen.get(x.key));
  const used = (group, except) => new Set(slots.filter((x) => x.group === group && x.key !== except).map((x) => chosen.get(x.key)).filter(Boolean));

  const mapBox = h('div', { class: 'mpf-setup-map' }, mapSketch(content));
  const cityButtons = new Map();
  for (const c of cities) {
    const [x, y] = XY[c] || [0, 0];
    const b = h('button', {
      type: 'button', class: 'mpf-city-btn', 'data-city': c, 'aria-pressed': 'false',
      style: `left:${(x / W) * 100}%;top:${(y / H) * 100}%;transform:translate(-${anchor(x)}%,-50%)`, onclick: () => openCity(c),
    });
    cityButtons.set(c, b);
    mapBox.append(b);
  }
  const panel = h('div', { class: 'mpf-slot-panel', id: 'mpf-slot-panel' });
  const progress = h('p', { class: 'small muted', 'aria-live': 'polite' });

  function labelCities() {
    for (const [c, b] of cityButtons) {
      const done = cityDone(c);
      b.classList.toggle('done', done);
      b.setAttribute('aria-pressed', String(c === city));
      // the map names the city beside its button: the button says how many of its items are left
      const left = slots.filter((x) => x.city === c && !chosen.get(x.key)).length;
      clear(b).append(done ? '' : String(left));
      b.setAttribute('aria-label', t(done ? 'mpsetup.city-done' : 'mpsetup.city-to-set', { name: nameOf(content, c), left })); // holds the visible count
    }
    const left = cities.filter((c) => !cityDone(c)).length;
    progress.textContent = left ? t('mpsetup.left', { left, n: cities.length }) : t('mpsetup.all-set');
  }

  function openCity(c) {
    city = c;
    clear(panel);
    panel.append(h('h4', { id: 'mpf-city-h' }, nameOf(content, c)));
    for (const slot of slots.filter((x) => x.city === c)) {
      const taken = used(slot.group, slot.key);
      const current = chosen.get(slot.key);
      const pool = slot.pool.filter((id) => !taken.has(id));
      const section = h('section', { class: 'mpf-slot', 'data-slot': slot.key, 'data-chosen': current || '', 'aria-label': t('mp2.setup.at-city', { city: nameOf(content, c), what: slot.label }) },
        h('h5', {}, slot.label, current ? h('span', { class: 'muted small' }, t('mp2.chosen')) : null),
        facePicker(content, pool, { selected: current ? [current] : [], label: slot.label, onPick: (id) => { chosen.set(slot.key, id); afterPick(c); } }));
      panel.append(section);
    }
    labelCities();
  }

  // the next tap is the next empty slot: in this city, else the next city still to set
  function afterPick(c) {
    if (!cityDone(c)) { openCity(c); focusFirstEmpty(); return; }
    const next = cities.find((x) => !cityDone(x));
    if (next) { openCity(next); focusFirstEmpty(); } else { openCity(c); labelCities(); }
  }
  function focusFirstEmpty() {
    const empty = slots.find((x) => x.city === city && !chosen.get(x.key));
    const sec = empty && panel.querySelector(`[data-slot="${empty.key}"]`);
    if (sec) sec.scrollIntoView({ block: 'nearest' });
    const first = sec && sec.querySelector('.mpf-pick:not([hidden])');
    if (first) first.focus({ preventScroll: true });
  }

  // starting contracts: one picture row per player
  const startIds = (content.contracts || []).filter((c) => c.starting).map((c) => c.id);
  const startBox = h('div', { class: 'mpf-start' });
  function renderStart() {
    clear(startBox).append(...info.players.map((p, i) => h('div', { class: 'mpf-seat-row', 'data-start-seat': i },
      h('h5', {}, t('mpsetup.starting-of', { player: p })),
      facePicker(content, startIds.filter((id) => id === start[i] || !start.includes(id)), {
        selected: start[i] ? [start[i]] : [], label: t('mpsetup.starting-of', { player: p }), small: true,
        onPick: (id) => { start[i] = start[i] === id ? '' : id; renderStart(); const next = startBox.querySelector(`[data-start-seat="${i + 1}"] .mpf-pick`); (next || form.querySelector('button[type=submit]')).focus(); },
      }))));
  }
  renderStart();

  // objective cards are secret: "not seen" unless the recorder saw them
  const objBox = h('div', { class: 'mpf-objectives' });
  function renderObjectives() {
    clear(objBox).append(...info.players.map((p, i) => {
      const seen = objectives[i].filter((x) => x !== '?');
      const all = (content.objectives || []).map((o) => o.id);
      const summary = h('summary', {});
      const say = () => {
        const k = objectives[i].filter((x) => x !== '?').length;
        summary.textContent = t('mp2.setup.goals-seen', { player: p, seen: k ? t('mpsetup.k-of-n', { k, n: per }) : t('mpsetup.not-seen') });
      };
      say();
      // picked in place: the chips a person pressed stay pressed while picking the next card
      const picker = facePicker(content, all, {
        selected: seen, label: t('mpfacts.objectives-of', { player: p }),
        onPick: (id, b) => {
          const k = objectives[i].indexOf(id);
          if (k >= 0) objectives[i][k] = '?';
          else { const free = objectives[i].indexOf('?'); if (free >= 0) objectives[i][free] = id; }
          b.setAttribute('aria-pressed', String(objectives[i].includes(id)));
          say();
        },
      });
      return h('details', { 'data-objectives-seat': i, open: seen.length ? true : null }, summary, picker);
    }));
  }
  renderObjectives();

  // characters, when the table chooses or drafts them
  const charIds = (content.characters || []).map((c) => c.id);
  const charBox = h('div', { class: 'mpf-chars' });
  function renderChars() {
    const rows = mode === 'draft' ? chars.map((_, i) => t('mpsetup.tile-on-offer', { n: i + 1 })) : info.players.map((p) => t('mpsetup.character-of', { player: p }));
    clear(charBox).append(...rows.map((label, i) => h('div', { class: 'mpf-seat-row', 'data-char-slot': i }, h('h5', {}, label),
      facePicker(content, charIds.filter((id) => id === chars[i] || !chars.includes(id)), {
        selected: chars[i] ? [chars[i]] : [], label, small: true, onPick: (id) => { chars[i] = chars[i] === id ? '' : id; renderChars(); },
      }))));
  }
  if (mode === 'chosen' || mode === 'draft') renderChars();

  const err = h('div', { class: 'fact-error', 'aria-live': 'assertive' });
  const form = h('form', { class: 'fact setup-form mpf-setup', 'data-fact': 'setup' },
    h('h3', {}, t('mpsetup.heading')),
    h('p', { class: 'small' }, t('mpsetup.help')),
    mode === 'chosen' || mode === 'draft' ? h('fieldset', {}, h('legend', {}, mode === 'draft' ? t('mpsetup.characters-offered') : t('mpsetup.characters')), charBox) : null,
    mapBox, progress, panel,
    h('fieldset', {}, h('legend', {}, t('mpsetup.starting')), startBox),
    h('fieldset', {}, h('legend', {}, t('mpsetup.objectives')), objBox),
    h('div', { class: 'row wrap' },
      info.digital ? h('button', { type: 'button', class: 'secondary', 'data-action': 'random-layout', onclick: fillAtRandom }, t('mpsetup.fill-random')) : null,
      h('button', { type: 'submit', class: 'primary' }, t('mpsetup.record'))), err);

  function fillAtRandom() {
    for (const group of ['cards', 'outposts', 'bonuses']) {
      const mine = slots.filter((x) => x.group === group);
      if (!mine.length) continue;
      const pick = shuffled(mine[0].pool);
      mine.forEach((x, i) => chosen.set(x.key, pick[i]));
    }
    shuffled(startIds).slice(0, n).forEach((id, i) => { start[i] = id; });
    if (mode === 'chosen' || mode === 'draft') shuffled(charIds).slice(0, chars.length).forEach((id, i) => { chars[i] = id; });
    renderStart(); if (mode === 'chosen' || mode === 'draft') renderChars(); openCity(cities[0]);
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(err);
    const parts = ['setup'];
    if (mode === 'first-game') parts.push(`chars=${(content.first_game_characters || []).slice(0, n).join(',')}`);
    if (mode === 'chosen') parts.push(`chars=${chars.join(',')}`);
    if (mode === 'draft') parts.push(`draft=${chars.join(',')}`);
    for (const group of ['cards', 'outposts', 'bonuses']) {
      const mine = slots.filter((x) => x.group === group);
      if (mine.length) parts.push(`${group}=${mine.map((x) => chosen.get(x.key) || '').join(',')}`);
    }
    parts.push(`start=${start.join(',')}`);
    parts.push(`objectives=${objectives.map((row) => row.join(',')).join(';')}`);
    try { await ctx.record(parts.join(' ')); } catch (e) { err.append(errorBox(e)); }
  });
  labelCities();
  box.append(form);
  return true;
}

/** The contracts a table lays out or draws, picked by their pictures in the order they came out. */
export function contractsByFace(box, ctx, { title, need, digital }) {
  const { chance, content } = ctx;
  const picked = [];
  const order = h('ol', { class: 'mpf-picked', 'aria-label': t('mpsetup.picked') });
  const submit = h('button', { type: 'submit', class: 'primary', disabled: true }, t('facts.record'));
  const err = h('div', { class: 'fact-error', 'aria-live': 'assertive' });
  const send = async (outcome) => {
    clear(err);
    try { const made = await ctx.compose(outcome); return await ctx.record(made.notation, made.move); } catch (e) { err.append(errorBox(e)); return false; }
  };
  const form = h('form', { class: 'fact shuffle-form', 'data-fact': 'shuffle', 'data-need': need, onsubmit: async (ev) => {
    ev.preventDefault();
    // the cards not seen stay unnamed in the log: only the picked ones are facts
    await send([...picked, ...chance.items.filter((x) => !picked.includes(x))]);
  } }, h('h3', {}, title), h('p', { class: 'small' }, need === 1 ? t('mpsetup.tap-drawn') : t('mpsetup.tap-n', { n: need })));
  const picker = facePicker(content, chance.items, {
    label: title,
    onPick: (id, b) => {
      const i = picked.indexOf(id);
      if (i >= 0) picked.splice(i, 1); else if (picked.length < need) picked.push(id);
      for (const x of form.querySelectorAll('.mpf-pick')) x.setAttribute('aria-pressed', String(picked.includes(x.dataset.id)));
      clear(order).append(...picked.map((x) => h('li', {}, faceOf(content, x, { small: true }))));
      submit.disabled = picked.length !== need;
      if (need === 1 && picked.length === 1) form.requestSubmit();
      else if (picked.length === need) submit.focus();
      else b.focus();
    },
  });
  form.append(picker, order, h('div', { class: 'row wrap' },
    digital ? h('button', { type: 'button', class: 'secondary', 'data-action': 'draw-at-random', onclick: () => send(shuffled(chance.items)) }, t('facts.draw-random')) : null,

    submit), err);
  box.append(form);
  return true;
}
