// Statistics: whatever /stats endpoints this server has (found in its OpenAPI schema), as tables,
// and its charts (/stats/charts/...) as images, filtered by title, player and dates. A server
// without them says so; an endpoint that fails says why and the rest still show.
import { api } from '../api.js';
import { h, clear, humanize } from '../dom.js';
import { render } from '../draw/generic.js';

const isImage = (op) => Object.keys(((op.responses || {})['200'] || {}).content || {}).some((t) => t.startsWith('image/'));
const enumOf = (schema) => (schema ? schema.enum || (schema.anyOf || []).flatMap((x) => x.enum || []) : []);
const queryNames = (op) => new Set((op.parameters || []).filter((p) => p.in === 'query').map((p) => p.name));

export async function show(main, q) {
  main.append(h('h1', {}, 'Statistics'));
  let spec;
  try { spec = await api('/openapi.json'); } catch { spec = { paths: {} }; }
  const titles = await api('/titles').catch(() => []);
  const titleIds = titles.map((t) => t.id);
  const found = Object.entries(spec.paths || {})
    .filter(([p, item]) => p.startsWith('/stats') && item.get)
    .map(([path, item]) => ({ path, op: item.get }))
    .filter(({ op }) => !(op.parameters || []).some((p) => p.in === 'query' && p.required));
  if (!found.length) {
    main.append(h('p', { class: 'notice', id: 'stats-none' }, 'This server has no statistics yet. Finished games will be summarized here once it does.'));
    return {};
  }

  const title = h('select', { id: 's-title' }, h('option', { value: '' }, 'All titles'), titles.map((t) => h('option', { value: t.id }, t.name)));
  title.value = q.get('title') ?? (titleIds[0] || '');
  const player = h('input', { id: 's-player', type: 'search', autocomplete: 'off', value: q.get('player') || '' });
  const from = h('input', { id: 's-from', type: 'date', value: q.get('date_from') || '' });
  const to = h('input', { id: 's-to', type: 'date', value: q.get('date_to') || '' });
  const form = h('form', { class: 'filters', role: 'search', onsubmit: (ev) => { ev.preventDefault(); load(); } },
    h('div', { class: 'field' }, h('label', { for: 's-title' }, 'Title'), title),
    h('div', { class: 'field' }, h('label', { for: 's-player' }, 'Player'), player),
    h('div', { class: 'field' }, h('label', { for: 's-from' }, 'From'), from),
    h('div', { class: 'field' }, h('label', { for: 's-to' }, 'Before'), to),
    h('button', { type: 'submit' }, 'Show'));
  title.addEventListener('change', load);
  const out = h('div', { id: 'stats-out', 'aria-live': 'polite' });
  main.append(form, out);

  function urlFor({ path, op }) {
    const chosen = title.value;
    // a title's own endpoints (/stats/<title>/...) show only for that title
    const literal = titleIds.find((t) => path.startsWith(`/stats/${t}/`));
    if (literal && literal !== chosen) return null;
    let url = path;
    for (const p of (op.parameters || []).filter((x) => x.in === 'path')) {
      const values = enumOf(p.schema);
      if (p.name === 'title' && chosen && (!values.length || values.includes(chosen))) url = url.replace('{title}', encodeURIComponent(chosen));
      else return null;
    }
    const names = queryNames(op);
    const params = new URLSearchParams();
    if (chosen && names.has('title')) params.set('title', chosen);
    if (player.value.trim() && names.has('player')) params.set('player', player.value.trim());
    if (from.value && names.has('date_from')) params.set('date_from', from.value);
    if (to.value && names.has('date_to')) params.set('date_to', to.value);
    const qs = params.toString();
    return qs ? `${url}?${qs}` : url;
  }
  const nameOf = (x) => x.op.summary || humanize(x.path.replace(/^\/stats\/?/, '').replace(/\{title\}\/?/, '').replace(/[/]+/g, ' ') || 'overview');

  function load() {
    const keep = new URL(location.href);
    for (const [k, v] of [['title', title.value], ['player', player.value.trim()], ['date_from', from.value], ['date_to', to.value]]) {
      if (v) keep.searchParams.set(k, v); else keep.searchParams.delete(k);
    }
    if (!title.value) keep.searchParams.set('title', '');
    history.replaceState(null, '', keep.pathname + keep.search);
    clear(out);
    const charts = []; const tables = [];
    for (const x of found) {
      const url = urlFor(x);
      if (url) (isImage(x.op) || x.path.startsWith('/stats/charts') ? charts : tables).push({ ...x, url });
    }
    if (charts.length) {
      out.append(h('section', { 'aria-labelledby': 'charts-h' }, h('h2', { id: 'charts-h' }, 'Charts'),
        h('div', { class: 'charts' }, charts.map((c) => {
          const fig = h('figure', { class: 'chart', 'data-chart': c.path });
          const caption = h('figcaption', {}, nameOf(c));
          if (isImage(c.op)) {
            const img = h('img', { src: c.url, alt: `${nameOf(c)} chart${c.op.description ? ': ' + c.op.description.split('\n')[0] : ''}`, loading: 'lazy', width: 640, height: 400 });
            img.addEventListener('error', () => {
              api(c.url).catch((e) => e).then((e) => fig.replaceChildren(caption, h('p', { class: 'muted' }, `Not available${e && e.message ? ': ' + e.message : ''}`)));
            });
            fig.append(img, caption);
          } else {
            fig.append(caption, h('p', { class: 'muted' }, 'Loading…'));
            api(c.url).then((data) => fig.replaceChildren(caption, render(data, 1)))
              .catch((e) => fig.replaceChildren(caption, h('p', { class: 'muted' }, `Not available: ${e.message}`)));
          }
          return fig;
        }))));
    }
    for (const t of tables) {
      const body = h('div', { class: 'stat-body' }, h('p', { class: 'muted' }, 'Loading…'));
      out.append(h('section', { class: 'panel stat', 'data-stat': t.path }, h('h2', {}, nameOf(t)), body));
      api(t.url).then((data) => clear(body).append(render(data, 1)))
        .catch((e) => clear(body).append(h('p', { class: 'muted' }, e.code === 'stats-title-needed' ? 'Choose a title to see this.' : `Not available: ${e.message}`)));
    }
  }
  load();
  return {};
}
