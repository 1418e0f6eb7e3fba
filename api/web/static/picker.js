// The move picker: the legal moves, grouped by kind, offered as buttons (never a free-text box).
import { h, clear, humanize } from './dom.js';
import { t } from './i18n.js';

export const stripSeat = (n) => String(n ?? '').replace(/^@\d+\s+/, '');
const SUBGROUP_OVER = 24;

// ``onShow(list)``: the moves now shown (a kind chosen, or narrowed), for the board to show their part
export function renderPicker(container, moves, { onPick, onShow = null, mod = {}, view = null, content = null, label = t('picker.legal-moves') } = {}) {
  clear(container);
  // a title may drop choices no table uses (Lost Cities: the named cards of an unseen draw)
  if (mod.choices) moves = mod.choices(moves, view, content);
  if (!moves.length) return false;
  const groupOf = (m) => (mod.groupOf ? mod.groupOf(m) : null) || m.move.type;
  const groupLabel = (k, list) => (mod.groupLabel ? mod.groupLabel(k, list, view) : null) || humanize(k);
  const moveLabel = (m) => (mod.moveLabel ? mod.moveLabel(m, view, content) : null) || stripSeat(m.notation) || humanize(m.move.type);
  const groups = new Map();
  for (const m of moves) {
    const k = groupOf(m);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(m);
  }
  const kinds = h('div', { class: 'kinds', role: 'group', 'aria-label': t('sweep.picker.kinds') });
  const options = h('div', { class: 'options-area' });
  container.append(h('h3', { class: 'picker-title' }, label, h('span', { class: 'muted small' }, ` (${moves.length})`)), kinds, options);
  let chosen = null;
  const buttons = [];
  for (const [k, list] of groups) {
    const b = h('button', { type: 'button', class: 'kind', 'aria-pressed': 'false', 'data-group': k, onclick: () => choose(k) },
      groupLabel(k, list), h('span', { class: 'count' }, list.length));
    buttons.push(b);
    kinds.append(b);
  }
  function choose(k) {
    chosen = k;
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.group === k));
    showOptions(groups.get(k));
  }
  function moveButton(m) {
    const text = moveLabel(m);
    const at = mod.place ? mod.place(m, view) : null; // a cell of a grid (Lost Cities: colour by value)
    return h('button', {
      type: 'button', class: 'move', 'data-notation': m.notation ?? '', 'data-type': m.move.type,
      title: m.notation ?? '', onclick: (ev) => pick(m, ev.currentTarget),
      style: at ? `grid-column:${at.column};grid-row:${at.row}` : undefined,
    }, text);
  }
  // a title may add to the shown moves (Marco Polo: chips to find a card by what it shows)
  function showOptions(list) {
    fillOptions(list);
    if (mod.decorateOptions) mod.decorateOptions(options, list, view, content);
    if (onShow) onShow(list);
  }
  function fillOptions(list) {
    clear(options);
    if (mod.place && list.every((m) => mod.place(m, view))) {
      options.append(h('div', { class: 'moves grid', role: 'group', 'aria-label': t('sweep.picker.moves'), style: `--cols:${mod.columns ? mod.columns(view) : 5}` }, list.map(moveButton)));
      return;
    }
    if (list.length <= SUBGROUP_OVER) {
      options.append(h('div', { class: 'moves', role: 'group', 'aria-label': t('sweep.picker.moves') }, list.map(moveButton)));
      return;
    }
    // many options (e.g. every bazaar column with every die): narrow by the notation's next word
    const sub = new Map();
    for (const m of list) {
      const words = stripSeat(m.notation).split(' ');
      const key = words[1] ?? '';
      if (!sub.has(key)) sub.set(key, []);
      sub.get(key).push(m);
    }
    if (sub.size <= 1) {
      options.append(h('div', { class: 'moves', role: 'group', 'aria-label': t('sweep.picker.moves') }, list.map(moveButton)));
      return;
    }
    const area = h('div', { class: 'moves', role: 'group', 'aria-label': t('sweep.picker.moves') });
    const subButtons = [];
    const bar = h('div', { class: 'kinds sub', role: 'group', 'aria-label': t('sweep.picker.narrow') });
    for (const [key, items] of sub) {
      const b = h('button', { type: 'button', class: 'kind', 'aria-pressed': 'false', 'data-subgroup': key, onclick: () => {
        for (const x of subButtons) x.setAttribute('aria-pressed', String(x === b));
        clear(area).append(...items.map(moveButton));
        if (mod.decorateOptions) mod.decorateOptions(area, items, view, content);
        if (onShow) onShow(items);
      } }, (mod.subgroupLabel && mod.subgroupLabel(chosen, key)) || key || '—', h('span', { class: 'count' }, items.length));
      subButtons.push(b);
      bar.append(b);
    }
    options.append(bar, area);
  }
  async function pick(m, button) {
    const all = container.querySelectorAll('button');
    all.forEach((b) => { b.disabled = true; });
    button.classList.add('busy');
    try { await onPick(m); } finally { all.forEach((b) => { b.disabled = false; }); button.classList.remove('busy'); }
  }
  if (groups.size === 1) choose(groups.keys().next().value);
  return true;
}
