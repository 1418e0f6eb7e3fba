// The Voyages of Marco Polo's cards and tiles drawn as what is printed on them: costs → rewards as
// coloured tokens, a city card's action, the two cities of an objective. The id is a small label.
import { h, clear } from '../dom.js';
import { t, lang, term } from '../i18n.js';

// each token's colours (each pair ≥ 4.5:1); goods in their colours on the board. Its words are the
// page's `mpfaces.tok.*` (on the token) and `mpfaces.long.*` (its title), in the rulebook's words
const TOKENS = {
  coins: 'mpf-coins', camels: 'mpf-camels', pepper: 'mpf-pepper', silk: 'mpf-silk', gold: 'mpf-gold', vp: 'mpf-vp', good: 'mpf-good',
  goods2: 'mpf-good', any_goods: 'mpf-good', diff_goods: 'mpf-good', move: 'mpf-move', contract: 'mpf-contract', black_die: 'mpf-black',
  coin_or_camel: 'mpf-coins', any_bonus: 'mpf-contract', own_bonus: 'mpf-contract',
};
// written out for the catalogue test: t('mpfaces.tok.coins') t('mpfaces.tok.camels') t('mpfaces.tok.pepper') t('mpfaces.tok.silk') t('mpfaces.tok.gold')
// t('mpfaces.tok.vp') t('mpfaces.tok.good') t('mpfaces.tok.goods2') t('mpfaces.tok.any_goods') t('mpfaces.tok.diff_goods') t('mpfaces.tok.move')
// t('mpfaces.tok.contract') t('mpfaces.tok.black_die') t('mpfaces.tok.coin_or_camel') t('mpfaces.tok.any_bonus') t('mpfaces.tok.own_bonus')
// t('mpfaces.long.coins') t('mpfaces.long.camels') t('mpfaces.long.pepper') t('mpfaces.long.silk') t('mpfaces.long.gold')
// t('mpfaces.long.vp') t('mpfaces.long.good') t('mpfaces.long.goods2') t('mpfaces.long.any_goods') t('mpfaces.long.diff_goods') t('mpfaces.long.move')
// t('mpfaces.long.contract') t('mpfaces.long.black_die') t('mpfaces.long.coin_or_camel') t('mpfaces.long.any_bonus') t('mpfaces.long.own_bonus')
const ONE = new Set(['goods2', 'contract', 'black_die', 'any_bonus', 'own_bonus']);

/** One token: "2 silk" in silk's colour; its data says what it is. */
export function token(kind, n) {
  const known = kind in TOKENS;
  const word = known ? t(`mpfaces.tok.${kind}`, { one: n === 1 }) : kind;
  const long = known ? t(`mpfaces.long.${kind}`, { one: n === 1 }) : kind;
  const shown = ONE.has(kind) && n === 1 ? word : t('mp2.amount', { n, what: word });
  return h('span', { class: `mpf-tok ${TOKENS[kind] || 'mpf-good'}`, 'data-kind': kind, 'data-n': n, title: t('mp2.amount', { n, what: long }) }, shown);
}
const tokens = (items) => items.map(([k, n]) => token(k, n));
const costItems = (cost) => Object.entries(cost || {});
const arrow = () => h('span', { class: 'mpf-arrow', 'aria-hidden': 'true' }, '→');
// a face shows what the printed card shows: its id (K07) is the page's, kept in data-id, never read
function card(kind, id, small, ...body) {
  return h('span', { class: `mpf-face mpf-${kind}${small ? ' mpf-small' : ''}`, 'data-face': kind, 'data-id': id }, ...body);
}

export function contractFace(c, { small = false } = {}) {
  return card('contract', c.id, small,
    h('span', { class: 'mpf-row', 'data-part': 'cost' }, tokens(costItems(c.cost))), arrow(),
    h('span', { class: 'mpf-row', 'data-part': 'reward' }, tokens(c.reward)));
}

function exchange(pay, gain) {
  return h('span', { class: 'mpf-line' }, tokens(costItems(pay)), costItems(pay).length ? arrow() : null, tokens(gain));
}
const range = (lo, hi) => (lo === hi ? `${lo}` : `${lo}–${hi}`);

/** A city card's action, as the card shows it: "× die: cost → reward", die ranges, "per post". */
export function cityCardFace(c, { small = false } = {}) {
  let body;
  if (c.kind === 'exchange') body = [h('span', { class: 'mpf-times' }, t('mpfaces.times-die')), exchange(c.pay, c.gain)];
  else if (c.kind === 'two_way') body = [h('span', { class: 'mpf-times' }, t('mpfaces.times-die-one-way')), ...c.ways.map((w, i) => [i ? h('span', { class: 'mpf-or' }, t('mpfaces.or')) : null, exchange(w.pay, w.gain)])];
  else if (c.kind === 'threshold') {
    body = c.steps.map(([from, gain], i) => {
      const to = i + 1 < c.steps.length ? c.steps[i + 1][0] - 1 : 6;
      return h('span', { class: 'mpf-line' }, h('span', { class: 'mpf-times' }, t('mpfaces.die-range', { range: range(from, to) })), tokens(gain));
    });
  } else if (c.kind === 'count') body = [h('span', { class: 'mpf-line' }, tokens(c.gain), h('span', { class: 'mpf-times' }, c.of === 'posts' ? t('mpfaces.per-post') : t('mpfaces.per-contract'))), h('span', { class: 'mpf-times' }, t('mpfaces.at-most-die'))];
  else if (c.kind === 'own_bonus') body = c.steps.map(([from, times], i) => h('span', { class: 'mpf-line' }, h('span', { class: 'mpf-times' }, t('mpfaces.die-range', { range: range(from, i + 1 < c.steps.length ? c.steps[i + 1][0] - 1 : 6) })), token('own_bonus', 1), times > 1 ? h('span', { class: 'mpf-times' }, `×${times}`) : null));
  else body = [h('span', { class: 'mpf-times' }, c.text)];
  return card('city-card', c.id, small, h('span', { class: 'mpf-col', title: lang === 'en' ? c.text : null }, body));
}

export function bonusFace(b, content, { small = false } = {}) {
  return card('city-bonus', b.id, small, h('span', { class: 'mpf-row' }, tokens(b.effect)),
    b.home ? h('span', { class: 'mpf-times' }, t('mpfaces.letter-of', { city: nameOf(content, b.home) })) : null);
}

export function outpostFace(o, { small = false } = {}) {
  return card('outpost', o.id, small, h('span', { class: 'mpf-row' }, tokens(o.effect)));
}

export function objectiveFace(o, content, { small = false } = {}) {
  return card('objective', o.id, small,
    h('span', { class: 'mpf-cities' }, o.cities.map((c, i) => [i ? h('span', { 'aria-hidden': 'true' }, ' + ') : null, h('span', { class: 'mpf-city', 'data-city': c }, nameOf(content, c))])),
    h('span', { class: 'mpf-tok mpf-vp', 'data-kind': 'vp', 'data-n': o.vp }, t('mp2.amount', { n: o.vp, what: t('mpfaces.tok.vp', { one: o.vp === 1 }) })));
}

export function characterFace(c, { small = false } = {}) {
  return card('character', c.id, small, h('strong', { class: 'mpf-name' }, c.name), small ? null : h('span', { class: 'mpf-times' }, c.text));
}

export function nameOf(content, loc) {
  const place = ((content && content.locations) || []).find((l) => l.id === loc) || {};
  // the pack numbers its oases in English: the number is the board's, the word the reader's
  if (place.kind === 'oasis' && /^O\d+$/.test(loc)) return t('sweep.mp.oasis', { n: Number(loc.slice(1)) });
  return place.name ? term('marco-polo', 'city', loc).replace(new RegExp(`^${loc}$`), place.name) : loc;
}

const LISTS = [['contracts', 'contract'], ['city_cards', 'city-card'], ['city_bonuses', 'city-bonus'], ['outpost_bonuses', 'outpost'], ['objectives', 'objective'], ['characters', 'character']];

/** The pack's item with this id and what kind of component it is, or null. */
export function find(content, id) {
  for (const [key, kind] of LISTS) {
    const item = ((content && content[key]) || []).find((x) => x.id === id);
    if (item) return { item, kind };
  }
  return null;
}

/** The face of any component by its id (null when the pack has no such id). */
export function faceOf(content, id, opts = {}) {
  const found = find(content, id);
  if (!found) return null;
  const { item, kind } = found;
  if (kind === 'contract') return contractFace(item, opts);
  if (kind === 'city-card') return cityCardFace(item, opts);
  if (kind === 'city-bonus') return bonusFace(item, content, opts);
  if (kind === 'outpost') return outpostFace(item, opts);
  if (kind === 'objective') return objectiveFace(item, content, opts);
  return characterFace(item, opts);
}

/** A face as one short line of text ("2 silk → 3 VP"), for the map's tags where a picture won't fit. */
export function shortText(content, id) {
  const face = faceOf(content, id, { small: true });
  if (!face) return id || '';
  if (face.dataset.face === 'city-bonus') face.querySelectorAll('.mpf-times').forEach((x) => x.remove()); // its city is where it lies
  const out = [];
  const walk = (el) => {
    for (const n of el.childNodes) {
      if (n.nodeType === 3) { if (n.textContent.trim()) out.push(n.textContent.trim()); } else if (n.classList.contains('mpf-tok') || n.classList.contains('mpf-arrow')) out.push(n.textContent.trim()); else walk(n);
    }
  };
  walk(face);
  const short = [[t('mpfaces.times-die-one-way'), '×d'], [t('mpfaces.times-die'), '×d'], [t('mpfaces.per-post'), '/post'], [t('mpfaces.per-contract'), '/contract'], [t('mpfaces.at-most-die'), '≤d']];
  return short.reduce((text, [long, abbr]) => text.split(long).join(abbr), out.join(' '));

}

// ---- finding a card by what it shows -----------------------------------------------------------
const GOODS = ['pepper', 'silk', 'gold', 'camels'];
const REWARDS = ['coins', 'camels', 'vp', 'good', 'move', 'contract', 'black_die'];
// t('mpfaces.reward.coins') t('mpfaces.reward.camels') t('mpfaces.reward.vp') t('mpfaces.reward.good') t('mpfaces.reward.move') t('mpfaces.reward.contract') t('mpfaces.reward.black_die')
// t('mpfaces.good.pepper') t('mpfaces.good.silk') t('mpfaces.good.gold') t('mpfaces.good.camels')
const rewardKind = (k) => (['good', 'goods2', 'any_goods', 'diff_goods', 'pepper', 'silk', 'gold'].includes(k) ? 'good' : k === 'coin_or_camel' ? 'coins' : k);

function itemsOf(item, kind) {
  if (kind === 'contract') return { cost: costItems(item.cost).map(([k]) => k), gain: item.reward.map(([k]) => k) };
  if (kind === 'city-card') {
    const ways = item.ways || (item.pay || item.gain ? [{ pay: item.pay, gain: item.gain }] : []);
    const steps = (item.steps || []).flatMap(([, g]) => (Array.isArray(g) ? g : [['own_bonus', g]]));
    return { cost: ways.flatMap((w) => costItems(w.pay).map(([k]) => k)), gain: [...ways.flatMap((w) => w.gain || []), ...steps, ...(item.kind === 'count' ? item.gain : [])].map(([k]) => k) };
  }
  if (kind === 'objective') return { cost: [], gain: ['vp'], cities: item.cities };
  return { cost: [], gain: (item.effect || []).map(([k]) => k) };
}

/** What a component can be found by: {goods, rewards, cities} (goods in its cost or reward). */
export function facets(content, id) {
  const found = find(content, id);
  if (!found) return { goods: [], rewards: [], cities: [] };
  const { cost, gain, cities = [] } = itemsOf(found.item, found.kind);
  return {
    goods: GOODS.filter((g) => cost.includes(g) || gain.includes(g)),
    rewards: [...new Set(gain.map(rewardKind))],
    cities,
  };
}

/**
 * Filter chips over ``buttons`` (elements with data-id): by a good, a reward, a city; a chip
 * shown only where it narrows the choice. Pressing chips keeps the buttons that have them all.
 */
export function filterChips(content, buttons, idsOf = (b) => [b.dataset.id]) {
  const union = (list) => list.reduce((a, f) => ({ goods: [...a.goods, ...f.goods], rewards: [...a.rewards, ...f.rewards], cities: [...a.cities, ...f.cities] }), { goods: [], rewards: [], cities: [] });
  const of = new Map(buttons.map((b) => [b, union(idsOf(b).map((id) => facets(content, id)))]));
  const all = [...of.values()];
  const chips = [];
  const has = (f, kind, v) => f[kind].includes(v);
  const offer = (kind, v, label) => {
    const n = all.filter((f) => has(f, kind, v)).length;
    if (n && n < all.length) chips.push([kind, v, label]);
  };
  GOODS.forEach((g) => offer('goods', g, t(`mpfaces.good.${g}`)));
  REWARDS.forEach((r) => offer('rewards', r, `→ ${t(`mpfaces.reward.${r}`)}`));
  [...new Set(all.flatMap((f) => f.cities))].sort().forEach((c) => offer('cities', c, nameOf(content, c)));
  if (!chips.length) return null;
  const on = new Set();
  const apply = () => {
    for (const [b, f] of of) b.hidden = ![...on].every((key) => { const [kind, v] = key.split(':'); return has(f, kind, v); });
  };
  return h('div', { class: 'mpf-chips', role: 'group', 'aria-label': t('mpfaces.find') },
    chips.map(([kind, v, label]) => h('button', {
      type: 'button', class: `mpf-chip mpf-chip-${kind}`, 'data-filter': `${kind}:${v}`, 'aria-pressed': 'false',
      onclick: (ev) => { const key = `${kind}:${v}`; if (on.has(key)) on.delete(key); else on.add(key); ev.currentTarget.setAttribute('aria-pressed', String(on.has(key))); apply(); },
    }, label)));
}

/**
 * A choice among components by their pictures: one button per id (its face), filter chips above.
 * ``onPick(id, button)``; ``selected`` ids are shown pressed.
 */
export function facePicker(content, ids, { onPick, selected = [], label = t('mpfaces.cards'), small = false } = {}) {

  const buttons = ids.map((id) => h('button', {
    type: 'button', class: 'mpf-pick', 'data-id': id, 'aria-pressed': String(selected.includes(id)),
    onclick: (ev) => onPick(id, ev.currentTarget),
  }, faceOf(content, id, { small }) || id));
  const chips = ids.length > 6 ? filterChips(content, buttons) : null;
  return h('div', { class: 'mpf-picker', role: 'group', 'aria-label': label }, chips, h('div', { class: 'mpf-grid' }, buttons));
}

/** Small faces of the component ids named in a move's notation (a few at most), for a sentence. */
export function facesInNotation(content, notation, { max = 3 } = {}) {
  const ids = [...new Set(String(notation || '').match(/\b(S\d|K\d\d|CC\d\d|CB\d|OB\d\d|G\d\d)\b/g) || [])];
  if (!ids.length || ids.length > max) return null;
  const faces = ids.map((id) => faceOf(content, id, { small: true })).filter(Boolean);
  return faces.length ? h('span', { class: 'mpf-inline' }, faces) : null;
}

export { clear };
