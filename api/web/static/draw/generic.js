// The generic drawing: a readable rendering of any title's public view (nested lists and tables).
import { h, clear, humanize } from '../dom.js';
import { t } from '../i18n.js';

const isScalar = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const fmt = (v) => (v === null ? '—' : v === true ? t('generic.yes') : v === false ? t('generic.no') : typeof v === 'number' && !Number.isInteger(v) ? String(Math.round(v * 100) / 100) : String(v));
const label = (k) => humanize(String(k));

export function render(value, depth = 0) {
  if (isScalar(value)) return h('span', { class: 'val' }, fmt(value));
  if (Array.isArray(value)) {
    if (!value.length) return h('span', { class: 'muted' }, t('generic.none'));
    if (value.every(isScalar)) return h('span', { class: 'val list' }, value.map(fmt).join(', '));
    if (value.every((x) => Array.isArray(x) && x.every(isScalar))) {
      return h('ul', { class: 'plain' }, value.map((x) => h('li', {}, x.map(fmt).join(' · '))));
    }
    const objects = value.every((x) => x && typeof x === 'object' && !Array.isArray(x));
    if (objects) {
      const keys = [...new Set(value.flatMap((x) => Object.keys(x)))];
      if (keys.length <= 24 && keys.every((k) => value.every((x) => isScalar(x[k]) || Array.isArray(x[k]) && x[k].every(isScalar)))) {
        return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('sweep.table-scrolls') }, h('table', {},
          h('thead', {}, h('tr', {}, keys.map((k) => h('th', { scope: 'col' }, label(k))))),
          h('tbody', {}, value.map((x) => h('tr', {}, keys.map((k) => h('td', {}, Array.isArray(x[k]) ? x[k].map(fmt).join(', ') : fmt(x[k]))))))));
      }
    }
    return h('ol', { class: 'plain' }, value.map((x) => h('li', {}, render(x, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return h('span', { class: 'muted' }, t('generic.none'));
  return h('dl', { class: depth ? 'kv nested' : 'kv' }, entries.flatMap(([k, v]) => [h('dt', {}, label(k)), h('dd', { 'data-key': k }, render(v, depth + 1))]));
}

export function draw(container, view, ctx) {
  clear(container);
  container.dataset.drawing = 'generic';
  const skip = new Set(['title', 'status']);
  const shown = Object.fromEntries(Object.entries(view || {}).filter(([k]) => !skip.has(k)));
  container.append(h('div', { class: 'generic-view' },
    h('p', { class: 'muted small' }, t('generic.intro')),
    render(shown)));
}

export function score(view) {
  const s = view && (view.score || view.scores);
  if (!s) return null;
  return h('div', { class: 'breakdown' }, h('h3', {}, t('generic.breakdown')), render(s, 1));
}
