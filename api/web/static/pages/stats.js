// Statistics: the group's dashboard, a page per player and per title, drawn from the answers the
// server lists in its statistics index (GET /stats). The filters (title, player, dates, options,
// forks) live in the address, so a view can be shared; every number is formatted in the reader's
// language, percentages with one decimal.
import { api } from '../api.js';
import { h, clear, humanize } from '../dom.js';
import { bars, stacked, columns, heatmap, PALETTE } from '../charts.js';
import { lang, t as say, has, term, scoreLabel, date as dayOf } from '../i18n.js';
import { playerRatings, ratingBoard, favourite } from './ratings.js';
import { seasonsView } from './seasons.js';
import { nightsView } from './nights.js';

const FILTERS = ['title', 'player', 'date_from', 'date_to', 'option', 'include_forks'];
const FEW = 10;

// -- words and numbers --------------------------------------------------------------------------

const nf = (opts) => new Intl.NumberFormat(lang, { signDisplay: 'negative', ...opts });
const INT = nf({ maximumFractionDigits: 0 });
const NUM1 = nf({ minimumFractionDigits: 1, maximumFractionDigits: 1 });
const PCT = nf({ style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const DATE = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });
const MONTH = new Intl.DateTimeFormat(lang, { month: 'short', year: 'numeric', timeZone: 'UTC' });
const MONTH_NAME = new Intl.DateTimeFormat(lang, { month: 'short', timeZone: 'UTC' });

export const FORMATS = {
  int: (v) => INT.format(v),
  num1: (v) => NUM1.format(v),
  pct: (v) => PCT.format(v),
  text: (v) => String(v),
  date: (v) => DATE.format(new Date(v)),
  month: (v) => MONTH.format(new Date(`${v}-01T00:00:00Z`)),
};
const fmt = (v, kind) => (v === null || v === undefined ? '–' : FORMATS[kind](v));
const interval = (r) => (r.low === null || r.low === undefined ? '–' : `${PCT.format(r.low)} – ${PCT.format(r.high)}`);

// a source of points as the statistics name it, else as the title's score sheet does
const sourceName = (k, title) => (has(`stats.src.${k}`) ? say(`stats.src.${k}`) : scoreLabel(title, k) || humanize(k));
const capital = (w) => String(w).charAt(0).toUpperCase() + String(w).slice(1);
// a character by the full name its rulebook prints, in the reader's language where it has one
// (its hyphen one that does not break: "ad-Din" stays on one line of a narrow table)
const characterName = (c, title) => (c ? term(title, 'character', c).replace(/-/g, '\u2011') : say('stats.no-character'));
const COLOURS = { yellow: '#b38a00', blue: '#1d5bb0', white: '#6b6b6b', green: '#1e6b2c', red: '#b3261e', purple: '#6a32a0' };
const colourName = (c) => capital(term('lost-cities', 'colour', c));
// an option's value as the start form says it: seats from 1, yes / no, words capitalised
const optionWords = (key, v) => (typeof v === 'boolean' ? (v ? say('stats.yes') : say('stats.no')) : /seat/.test(key) && typeof v === 'number' ? say('stats.seat', { n: v + 1 })
  : has(`new.value.${key}.${v}`) ? say(`new.value.${key}.${v}`) : typeof v === 'string' ? humanize(v) : String(v));
const optionName = (key) => (has(`new.label.${key}`) ? say(`new.label.${key}`) : humanize(key));
const gamesWord = (n) => say('stats.n-games', { n: INT.format(n), one: n === 1 });

// -- the address ---------------------------------------------------------------------------------

// A filter the API could not read (an address typed by hand) is left out, and said so, rather than
// refusing the whole view.
const FILTER_WORDS = { date_from: say('stats.from'), date_to: say('stats.before'), option: say('stats.option') };
const ISO = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const readable = (k, v) => ((k !== 'date_from' && k !== 'date_to') || (ISO.test(v) && !Number.isNaN(Date.parse(v)))) && (k !== 'option' || /^[^=]+=./.test(v));

function filtersOf(q, left = []) {
  const out = new URLSearchParams();
  for (const k of FILTERS) {
    for (const v of q.getAll(k)) {
      if (v === '') continue;
      if (readable(k, v)) out.append(k, v); else left.push(say('stats.filter-value', { what: FILTER_WORDS[k], value: v }));
    }
  }
  return out;
}

function href(view, extra = {}, filters = null, drop = []) {
  const q = new URLSearchParams({ page: 'stats' });
  if (view !== 'dashboard') q.set('view', view);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null) q.set(k, v);
  if (filters) for (const [k, v] of filters) if (!drop.includes(k) && !q.has(k)) q.append(k, v);
  return `/?${q}`;
}

// what the API is asked: the filters, a date as the start of that day in the reader's time zone
function apiParams(filters, drop = []) {
  const out = new URLSearchParams();
  for (const [k, v] of filters) {
    if (drop.includes(k)) continue;
    if (k === 'date_from' || k === 'date_to') out.append(k, /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00`).toISOString() : v);
    else out.append(k, v);
  }
  const s = out.toString();
  return s ? `?${s}` : '';
}

// -- building blocks ----------------------------------------------------------------------------

const section = (id, title, ...body) => h('section', { class: 'panel st-section', 'aria-labelledby': `${id}-h`, 'data-section': id }, h('h2', { id: `${id}-h` }, title), ...body);

// headline figures: [{key, label, value, fmt}]
function figures(id, items) {
  return h('dl', { class: 'st-figures', 'data-figures': id }, items.map((f) => h('div', { class: 'st-figure' },
    h('dt', {}, f.label), h('dd', { 'data-figure': f.key, 'data-fmt': f.fmt }, h('span', { class: 'v' }, fmt(f.value, f.fmt)), f.after || null))));
}

// A table: cols [{key, label, fmt, link?, few?}] over rows; each row named by ``key(row)``.
function table(id, caption, rows, cols, key) {
  const head = h('tr', {}, cols.map((c) => h('th', { scope: 'col', class: c.fmt && c.fmt !== 'text' ? 'num' : null }, c.label.replace(/ %/g, '\u00a0%'))));
  const body = rows.map((r) => h('tr', { 'data-row': key(r) }, cols.map((c, i) => {
    const value = c.value ? c.value(r) : r[c.key];
    const shown = c.fmt === 'interval' ? interval(r) : c.show ? c.show(r) : fmt(value, c.fmt);
    const inner = c.link ? h('a', { href: c.link(r) }, h('span', { class: 'v' }, shown)) : h('span', { class: 'v' }, shown);
    const few = c.few && c.few(r) ? h('span', { class: 'st-few', title: say('stats.fewer-than', { n: FEW }) }, say('stats.few-games')) : null;
    const cell = i === 0 ? 'th' : 'td';
    const kind = c.fmt && c.fmt !== 'text' ? 'num' : String(shown).length > 14 ? 'st-long' : null;
    return h(cell, { ...(i === 0 ? { scope: 'row' } : {}), 'data-col': c.key, 'data-fmt': c.fmt, class: kind }, inner, few);
  })));
  const grid = h('table', { 'data-table': id }, h('caption', { class: 'visually-hidden' }, caption), h('thead', {}, head), h('tbody', {}, body));
  const wrap = h('div', { class: 'table-wrap st-table', tabindex: 0, role: 'region', 'aria-label': caption }, grid);
  const hint = h('p', { class: 'st-scroll-hint small muted', 'data-hint-for': id, hidden: true }, say('stats.scrolls-sideways'));
  scrollHint(wrap, grid, hint);
  return h('div', { class: 'st-table-box' }, wrap, hint);
}

// a table wider than the phone says so (a cut last column looks like the whole table otherwise)
function scrollHint(wrap, grid, hint) {
  const measure = () => {
    const wide = grid.scrollWidth > wrap.clientWidth + 1;
    const atEnd = wrap.scrollLeft + wrap.clientWidth >= grid.scrollWidth - 2;
    hint.hidden = !wide;
    wrap.classList.toggle('st-scrolls', wide && !atEnd);
  };
  wrap.addEventListener('scroll', measure, { passive: true });
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(measure).observe(wrap);
  else requestAnimationFrame(measure);
}

// the columns of a win-rate table by something of a seat (a character, an arrival order)
const seatWins = () => [
  { key: 'seats', label: say('stats.games'), fmt: 'int' },
  { key: 'wins', label: say('stats.wins'), fmt: 'int' },
  { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.few },
  { key: 'interval', label: say('stats.range-95'), fmt: 'interval' },
  { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
];

const playerLink = (filters) => (name) => href('player', { name }, filters, ['player']);
const titleLink = (filters) => (title) => href('title', { title }, filters, ['title']);

function latestList(games, filters) {
  if (!games.length) return h('p', { class: 'muted' }, say('stats.none-yet'));
  return h('ol', { class: 'st-latest', 'data-list': 'latest' }, games.map((g) => h('li', { 'data-game-id': g.game_id },
    h('div', { class: 'st-latest-head' },
      h('strong', {}, h('a', { href: titleLink(filters)(g.title) }, g.name)), ' ',
      h('span', { class: 'muted' }, fmt(g.created_at, 'date'))),
    g.score_only ? h('span', { class: 'badge st-replay-slot', title: say('stats.scores-only-title') }, say('stats.scores-only'))
      : h('a', { class: 'st-replay st-replay-slot', href: `/?game=${encodeURIComponent(g.game_id)}`, 'aria-label': say('stats.replay-aria', { title: g.name, date: fmt(g.created_at, 'date') }) }, say('stats.replay')),
    h('ul', { class: 'st-seats' }, [...g.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat).map((seat) => h('li', { class: seat.won ? 'won' : null, 'data-player': seat.player },
      h('a', { href: playerLink(filters)(seat.player) }, seat.player), ' ',
      h('span', { class: 'v', 'data-score': seat.score }, fmt(seat.score, 'int')),
      seat.won ? h('span', { class: 'st-winner' }, ` ${say('stats.won')}`) : null))))));
}

function boardTable(id, rows, filters, { scores = true } = {}) {
  const cols = [
    { key: 'player', label: say('stats.player'), fmt: 'text', link: (r) => playerLink(filters)(r.player) },
    { key: 'games', label: say('stats.games'), fmt: 'int' },
    { key: 'wins', label: say('stats.wins'), fmt: 'int' },
    { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.games < FEW },
  ];
  if (scores) cols.push({ key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' }, { key: 'best_score', label: say('stats.best-score'), fmt: 'int' });
  return table(id, say('stats.leaderboard'), rows, cols, (r) => r.player);
}

const rateBars = (label, rows, name, n = 'games') => bars(label, rows.map((r) => ({
  label: name(r), value: r.win_rate, low: r.low, high: r.high, note: r[n] < FEW ? say('stats.few-games') : null,
  display: `${PCT.format(r.win_rate)} · ${INT.format(r[n])}`,
  aria: say('stats.rate-aria', { name: name(r), rate: PCT.format(r.win_rate), games: gamesWord(r[n]) })
    + (r.low !== undefined ? say('stats.rate-aria-interval', { interval: interval(r) }) : '') + (r[n] < FEW ? say('stats.rate-aria-few') : ''),
})), { domain: [0, 1], caption: say('stats.rate-caption') + (rows.some((r) => r.low !== undefined) ? say('stats.rate-caption-range') : '')
  + (rows.some((r) => r[n] < FEW) ? say('stats.rate-caption-few', { n: FEW }) : '') });

// -- the filters --------------------------------------------------------------------------------

function filterForm(index, filters, view, extra, navigate) {
  const titleSel = h('select', { id: 's-title', name: 'title' }, h('option', { value: '' }, say('stats.all-titles')),
    index.titles.map((t) => h('option', { value: t.title }, t.name)));
  titleSel.value = filters.get('title') || '';
  const players = h('datalist', { id: 's-players' }, index.players.map((p) => h('option', { value: p.name })));
  const player = h('input', { id: 's-player', name: 'player', type: 'search', list: 's-players', autocomplete: 'off', value: filters.get('player') || '' });
  const from = h('input', { id: 's-from', name: 'date_from', type: 'date', value: filters.get('date_from') || '' });
  const to = h('input', { id: 's-to', name: 'date_to', type: 'date', value: filters.get('date_to') || '' });
  const forks = h('input', { id: 's-forks', type: 'checkbox', checked: filters.get('include_forks') === 'true' });
  const options = h('div', { class: 'st-options' });
  const chosen = Object.fromEntries(filters.getAll('option').map((o) => [o.split('=')[0], o.slice(o.indexOf('=') + 1)]));
  const showOptions = () => {
    clear(options);
    const t = index.titles.find((x) => x.title === titleSel.value);
    for (const [key, values] of Object.entries((t && t.options) || {})) {
      const id = `s-opt-${key}`;
      const sel = h('select', { id, 'data-option': key }, h('option', { value: '' }, say('stats.any')), values.map((v) => h('option', { value: JSON.stringify(v) }, optionWords(key, v))));
      sel.value = chosen[key] !== undefined && values.map((v) => JSON.stringify(v)).includes(chosen[key]) ? chosen[key] : '';
      options.append(h('div', { class: 'field' }, h('label', { for: id }, optionName(key)), sel));
    }
  };
  titleSel.addEventListener('change', showOptions);
  showOptions();
  const form = h('form', { class: 'filters st-filters', role: 'search', 'aria-label': say('stats.filters') },
    view === 'title' ? null : h('div', { class: 'field' }, h('label', { for: 's-title' }, say('stats.title')), titleSel),
    view === 'player' ? null : h('div', { class: 'field' }, h('label', { for: 's-player' }, say('stats.player')), player, players),
    h('div', { class: 'field' }, h('label', { for: 's-from' }, say('stats.from')), from),
    h('div', { class: 'field' }, h('label', { for: 's-to' }, say('stats.before')), to),
    options,
    h('label', { class: 'check', for: 's-forks' }, forks, say('stats.count-forks')),
    h('button', { type: 'submit', class: 'primary' }, say('stats.show')));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const next = new URLSearchParams();
    const title = view === 'title' ? filters.get('title') : titleSel.value;
    if (title) next.set('title', title);
    if (view !== 'player' && player.value.trim()) next.set('player', player.value.trim());
    if (from.value) next.set('date_from', from.value);
    if (to.value) next.set('date_to', to.value);
    for (const sel of options.querySelectorAll('select[data-option]')) if (sel.value) next.append('option', `${sel.dataset.option}=${sel.value}`);
    if (forks.checked) next.set('include_forks', 'true');
    navigate(href(view, extra, next));
  });
  // open when a filter narrows this view (a title page's own title is no filter the reader chose)
  const narrowed = [...filters.keys()].some((k) => !(view === 'title' && k === 'title'));
  return h('details', { class: 'st-filter-box', open: narrowed ? true : null }, h('summary', {}, say('stats.filters')), form);
}

function crumbs(items) {
  return h('nav', { 'aria-label': say('stats.statistics'), class: 'st-crumbs' }, h('ol', {}, items.map(([label, url]) => h('li', {}, url ? h('a', { href: url }, label) : h('span', { 'aria-current': 'page' }, label)))));
}

// -- the page -----------------------------------------------------------------------------------

export async function show(main, q, { navigate } = {}) {
  const go = navigate || ((url) => { location.href = url; });
  ensureStyles();
  let index;
  try {
    index = await api('/stats');
  } catch (err) {
    main.append(h('h1', {}, say('stats.statistics')), h('p', { class: 'notice', id: 'stats-none' }, say('stats.no-server', { why: err.message })));
    return {};
  }
  const view = ['player', 'title', 'seasons', 'nights'].includes(q.get('view')) ? q.get('view') : 'dashboard';
  const unread = [];
  const filters = filtersOf(q, unread);
  const out = h('div', { id: 'stats-out' });
  const root = h('div', { class: 'stats-page', 'data-view': view }, out);
  main.append(root);
  if (view === 'seasons') {  // a season with no finished game yet still shows its members
    try {
      await seasonsView(out, q, { table, crumbs, href });
    } catch (err) {
      out.append(h('p', { class: 'error', role: 'alert' }, say('stats.failed', { why: err.message })));
    }
    root.dataset.ready = 'true';
    return {};
  }
  if (view === 'nights') {  // a night is opened and followed before any game has ended
    let shown = {};
    try {
      shown = await nightsView(out, q, { table, crumbs, href, navigate: go });
    } catch (err) {
      out.append(h('p', { class: 'error', role: 'alert' }, say('stats.failed', { why: err.message })));
    }
    root.dataset.ready = 'true';
    return shown;
  }
  if (!index.games) {
    out.append(h('h1', {}, say('stats.statistics')), h('p', { class: 'notice', id: 'stats-none' }, say('stats.none-yet-long')));
    return {};
  }
  try {
    if (view === 'player') {
      const name = (q.get('name') || '').trim();
      out.append(crumbs([[say('stats.group'), href('dashboard', {}, filters, ['player'])], [name || say('stats.players')]]));
      if (name) {
        out.append(filterForm(index, filters, view, { name }, go));
        await playerPage(out, index, name, filters);
      } else {
        out.prepend(h('h1', {}, say('stats.players')));
        out.append(h('ul', { class: 'st-players', 'data-list': 'players' }, index.players.map((p) => h('li', {},
          h('a', { class: 'st-more', href: playerLink(filters)(p.name) }, p.name), ' ', h('span', { class: 'muted' }, gamesWord(p.games))))));
      }
    } else if (view === 'title') {
      const title = filters.get('title') || '';
      const known = index.titles.find((t) => t.title === title);
      out.append(crumbs([[say('stats.group'), href('dashboard', {}, filters, ['title', 'option'])], [known ? known.name : title]]));
      if (known) {
        out.append(filterForm(index, filters, view, {}, go));
        await titlePage(out, index, title, filters);
      } else {
        out.prepend(h('h1', {}, say('stats.statistics')));
        out.append(h('p', { class: 'notice', id: 'stats-empty' }, `${say('stats.unknown-title', { title })} `,
          index.titles.map((t, i) => [i ? say('stats.comma') : '', h('a', { href: titleLink(filters)(t.title) }, t.name)])));
      }
    } else {
      out.append(filterForm(index, filters, view, {}, go));
      await dashboard(out, index, filters);
    }
  } catch (err) {
    out.append(h('p', { class: 'error', role: 'alert' }, say('stats.failed', { why: err.message })));
  }
  if (unread.length) {
    const said = h('p', { class: 'notice', id: 'stats-unread' }, say('stats.unread', { list: unread.join(say('stats.comma')) }));
    const box = out.querySelector('.st-filter-box');
    if (box) box.after(said); else out.append(said);
  }
  if (index.left_out && index.left_out.length) {  // games this server cannot read, in its words
    out.append(h('p', { class: 'notice', id: 'stats-left-out' }, index.left_out.map((g) => g.message).join(' ')));
  }
  root.dataset.ready = 'true';
  return {};
}

function ensureStyles() {
  if (document.querySelector('link[data-stats-css]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: '/static/stats.css', 'data-stats-css': '' }));
}

// -- the group's dashboard ----------------------------------------------------------------------

async function dashboard(out, index, filters) {
  const d = await api(index.endpoints.dashboard + apiParams(filters));
  const singleTitle = d.titles.length === 1;
  out.prepend(h('h1', {}, say('stats.of-the-group')));
  out.append(figures('dashboard', [
    { key: 'games', label: say('stats.games'), value: d.games, fmt: 'int' },
    { key: 'players', label: say('stats.players'), value: d.players, fmt: 'int' },
    { key: 'titles', label: say('stats.titles'), value: d.titles.length, fmt: 'int' },
  ]));
  out.append(h('p', { class: 'row wrap' }, h('a', { class: 'st-more', href: href('seasons'), 'data-link': 'seasons' }, say('stats.seasons')),
    h('a', { class: 'st-more', href: href('nights'), 'data-link': 'nights' }, say('stats.nights'))));
  if (!d.games) {
    out.append(h('p', { class: 'notice', id: 'stats-empty' }, say('stats.no-match')));
    return;
  }
  out.append(section('leaderboard', say('stats.leaderboard'),
    // the picture of win rates reads down from the best rate (the table keeps the ranking by wins)
    rateBars(say('stats.win-rate-by-player'), d.leaderboard.slice(0, 12).sort((a, b) => b.win_rate - a.win_rate || b.games - a.games), (r) => r.player),
    singleTitle ? null : h('p', { class: 'small muted' }, say('stats.scores-within')),
    boardTable('leaderboard', d.leaderboard, filters, { scores: singleTitle })));
  out.append(section('months', say('stats.per-month'),
    heatmap(say('stats.per-month'), d.months, {
      monthName: (m) => MONTH_NAME.format(new Date(Date.UTC(2020, m, 1))),
      describe: (key, n) => `${FORMATS.month(key)}: ${gamesWord(n)}`,
    })));
  out.append(section('latest', say('stats.latest'), latestList(d.latest, filters)));
  for (const t of d.titles) {
    const id = `title-${t.title}`;
    out.append(section(id, t.name,
      figures(id, [
        { key: 'games', label: say('stats.games'), value: t.games, fmt: 'int' },
        { key: 'players', label: say('stats.players'), value: t.players, fmt: 'int' },
        { key: 'avg_score', label: say('stats.avg-score'), value: t.avg_score, fmt: 'num1' },
        { key: 'best_score', label: say('stats.best-score'), value: t.best_score, fmt: 'int', after: t.best_player ? h('span', { class: 'muted small' }, ` ${say('stats.by-player', { player: t.best_player })}`) : null },
        { key: 'last_played', label: say('stats.last-played'), value: t.last_played, fmt: 'date' },
      ]),
      bars(say('stats.wins-by-player-in', { title: t.name }), t.leaderboard.map((r) => ({ label: r.player, value: r.wins, display: say('stats.n-of-m', { n: INT.format(r.wins), m: INT.format(r.games) }),
        aria: say('stats.wins-aria', { player: r.player, wins: INT.format(r.wins), games: gamesWord(r.games), title: t.name }) }))),
      boardTable(id, t.leaderboard, filters),
      h('p', {}, h('a', { class: 'st-more', href: titleLink(filters)(t.title) }, say('stats.more-about', { title: t.name })))));
  }
  if (index.endpoints.bgstats) {
    out.append(h('p', { class: 'small st-bgstats' }, `${say('stats.bgstats-lead')} `,
      h('a', { href: index.endpoints.bgstats, download: 'BGStatsExport.json' }, say('stats.bgstats-link')),
      ` ${say('stats.bgstats-after')}`));
  }
}

// -- a player's page ----------------------------------------------------------------------------

async function playerPage(out, index, name, filters) {
  const url = index.endpoints.player.replace('{name}', encodeURIComponent(name)) + apiParams(filters, ['player']).replace(/^\?/, '&');
  const p = await api(url);
  out.prepend(h('h1', {}, p.player));
  const current = p.streaks.current;
  out.append(figures('player', [
    { key: 'games', label: say('stats.games'), value: p.games, fmt: 'int' },
    { key: 'wins', label: say('stats.wins'), value: p.wins, fmt: 'int' },
    { key: 'win_rate', label: say('stats.win-rate'), value: p.win_rate, fmt: 'pct', after: p.games && p.games < FEW ? h('span', { class: 'st-few' }, say('stats.few-games')) : null },
    { key: 'titles_played', label: say('stats.titles-played'), value: p.titles_played, fmt: 'int' },
    { key: 'h_index', label: say('stats.h-index'), value: p.h_index, fmt: 'int',
      after: p.h_index ? h('span', { class: 'st-figure-note' }, say(p.h_index === 1 ? 'stats.h-index-one' : 'stats.h-index-many', { n: INT.format(p.h_index) })) : null },
    { key: 'longest_wins', label: say('stats.longest-wins'), value: p.streaks.longest_wins, fmt: 'int' },
    { key: 'longest_losses', label: say('stats.longest-losses'), value: p.streaks.longest_losses, fmt: 'int' },
    { key: 'current', label: say('stats.now'), value: current ? say(current.won ? 'stats.streak-wins' : 'stats.streak-losses', { n: INT.format(current.length), one: current.length === 1 }) : null, fmt: 'text' },
  ]));
  if (!p.games) {
    out.append(h('p', { class: 'notice', id: 'stats-empty' }, say('stats.player-no-match', { player: p.player })));
    return;
  }
  out.append(section('by-title', say('stats.per-title'),
    stacked(say('stats.wins-others-of', { player: p.player }), p.by_title.map((t) => ({ label: t.name, parts: [{ key: 'wins', value: t.wins }, { key: 'others', value: t.games - t.wins }] })),
      [{ key: 'wins', name: say('stats.wins'), colour: PALETTE[2] }, { key: 'others', name: say('stats.other-games'), colour: '#b9b1a2' }], { format: (v) => gamesWord(v) }),
    table('by-title', say('stats.per-title'), p.by_title, [
      { key: 'name', label: say('stats.title'), fmt: 'text', link: (r) => titleLink(filters)(r.title) },
      { key: 'games', label: say('stats.games'), fmt: 'int' },
      { key: 'wins', label: say('stats.wins'), fmt: 'int' },
      { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.games < FEW },
      { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      { key: 'best_score', label: say('stats.best-score'), fmt: 'int' },
    ], (r) => r.title)));
  const ratings = await playerRatings(p.player, p.by_title);
  if (ratings) out.append(ratings);
  out.append(section('over-time', say('stats.over-time'),
    columns(say('stats.games-wins-month-of', { player: p.player }), p.by_month.map((m) => ({ label: FORMATS.month(m.month), value: m.games, part: m.wins,
      display: say('stats.games-won', { games: gamesWord(m.games), wins: INT.format(m.wins) }) })), { partName: say('stats.wins'), valueName: say('stats.games') }),
    table('by-month', say('stats.per-month'), p.by_month, [
      { key: 'month', label: say('stats.month'), fmt: 'month' }, { key: 'games', label: say('stats.games'), fmt: 'int' }, { key: 'wins', label: say('stats.wins'), fmt: 'int' },
    ], (r) => r.month)));
  if (p.rivals.length) {
    out.append(section('rivals', say('stats.rivals'),
      bars(say('stats.rival-share', { player: p.player }), p.rivals.map((r) => ({ label: r.opponent, value: r.wins / Math.max(1, r.wins + r.losses + r.ties),
        display: `${INT.format(r.wins)}–${INT.format(r.losses)}${r.ties ? `–${INT.format(r.ties)}` : ''}`,
        aria: say('stats.rival-aria', { player: p.player, rival: r.opponent, won: INT.format(r.wins), lost: INT.format(r.losses), tied: INT.format(r.ties) }) })),
      { domain: [0, 1], caption: say('stats.rival-caption', { player: p.player, level: p.rivals.some((r) => r.ties) }) }),
      table('rivals', say('stats.head-to-head'), p.rivals, [
        { key: 'opponent', label: say('stats.rival'), fmt: 'text', link: (r) => playerLink(filters)(r.opponent) },
        { key: 'games', label: say('stats.games'), fmt: 'int' },
        { key: 'wins', label: say('stats.ahead'), fmt: 'int' },
        { key: 'losses', label: say('stats.behind'), fmt: 'int' },
        { key: 'ties', label: say('stats.level'), fmt: 'int' },
      ], (r) => r.opponent)));
  }
  if (p.characters.length) {
    out.append(section('characters', say('stats.fav-characters'),
      table('characters', say('stats.characters-played'), p.characters, [
        { key: 'character', label: say('stats.character'), fmt: 'text', show: (r) => characterName(r.character, r.title) },
        { key: 'name', label: say('stats.title'), fmt: 'text' },
        { key: 'seats', label: say('stats.games'), fmt: 'int' },
        { key: 'wins', label: say('stats.wins'), fmt: 'int' },
        { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.seats < FEW },
        { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      ], (r) => `${r.title}:${r.character}`)));
  }
  if (p.expeditions.length) {
    out.append(colourSection('expeditions', say('stats.expeditions-lc'), p.expeditions, [
      { key: 'bonus_rate', label: say('stats.with-bonus'), fmt: 'pct' },
    ]));
  }
  if (p.sources.length) {
    const titlesWith = [...new Set(p.sources.map((s) => s.title))];
    out.append(section('sources', say('stats.sources-vs-group'),
      h('p', { class: 'small muted' }, say('stats.sources-note', { player: p.player })),
      titlesWith.map((t) => {
        const rows = p.sources.filter((s) => s.title === t);
        return h('div', { class: 'st-sub' }, h('h3', {}, rows[0].name),
          bars(say('stats.points-by-source-of', { player: p.player, title: rows[0].name }), rows.map((s) => ({ label: sourceName(s.source, t), value: s.avg_points, compare: s.group_avg_points,
            display: `${NUM1.format(s.avg_points)} / ${NUM1.format(s.group_avg_points)}`,
            aria: say('stats.source-aria', { source: sourceName(s.source, t), player: p.player, mine: NUM1.format(s.avg_points), group: NUM1.format(s.group_avg_points) }) }))),
          table(`sources-${t}`, say('stats.points-by-source-in', { title: rows[0].name }), rows, [
            { key: 'source', label: say('stats.source'), fmt: 'text', show: (r) => sourceName(r.source, t) },
            { key: 'avg_points', label: p.player, fmt: 'num1' },
            { key: 'group_avg_points', label: say('stats.the-group'), fmt: 'num1' },
          ], (r) => r.source));
      })));
  }
  out.append(section('latest', say('stats.latest'), latestList(p.latest, filters)));
}

// -- a title's page -----------------------------------------------------------------------------

async function titlePage(out, index, title, filters) {
  // the title's own leaderboard is the dashboard's answer for this title alone
  const [t, d] = await Promise.all([api(index.endpoints.title.replace('{title}', encodeURIComponent(title)) + apiParams(filters, ['title'])),
    api(index.endpoints.dashboard + apiParams(filters))]);
  out.prepend(h('h1', {}, t.name));
  out.append(figures('title', [
    { key: 'games', label: say('stats.games'), value: t.games, fmt: 'int' },
    { key: 'players', label: say('stats.players'), value: t.players, fmt: 'int' },
    { key: 'avg_score', label: say('stats.avg-score'), value: t.avg_score, fmt: 'num1' },
    { key: 'best_score', label: say('stats.best-score'), value: t.best_score, fmt: 'int' },
  ]));
  if (!t.games) {
    out.append(h('p', { class: 'notice', id: 'stats-empty' }, say('stats.title-no-match', { title: t.name })));
    return;
  }
  out.append(h('p', { class: 'small muted st-note' }, say('stats.rate-note', { n: FEW })));
  const board = (d.titles.find((x) => x.title === title) || { leaderboard: [] }).leaderboard;
  if (board.length) out.append(section('players', say('stats.who-wins-at', { title: t.name }), boardTable('title-players', board, filters)));
  const byRating = await ratingBoard(title, apiParams(filters, ['title']), playerLink(filters), table);
  if (byRating) out.append(byRating, favourite(title, board.map((r) => r.player)));
  const seatLabel = (r) => say('stats.players-seat', { players: r.players, seat: r.seat + 1 });
  out.append(section('seats', say('stats.win-rate-by-seat'),
    rateBars(say('stats.win-rate-by-seat'), t.seats, seatLabel),
    table('seats', say('stats.win-rate-by-seat'), t.seats, [
      { key: 'seat', label: say('stats.seat-col'), fmt: 'text', show: seatLabel },
      { key: 'games', label: say('stats.games'), fmt: 'int' },
      { key: 'wins', label: say('stats.wins'), fmt: 'int' },
      { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.few },
      { key: 'interval', label: say('stats.range-95'), fmt: 'interval' },
    ], (r) => `${r.players}:${r.seat}`),
    (t.first_player || []).length ? table('first-player', say('stats.who-started'), t.first_player, [
      { key: 'players', label: say('stats.table'), fmt: 'text', show: (r) => say('stats.n-players', { n: r.players }) },
      { key: 'games', label: say('stats.games'), fmt: 'int' },
      { key: 'win_rate', label: say('stats.win-rate-starter'), fmt: 'pct', few: (r) => r.games < FEW },
      { key: 'others_win_rate', label: say('stats.win-rate-others'), fmt: 'pct' },
    ], (r) => String(r.players)) : null));
  out.append(section('scores', say('stats.final-scores'),
    figures('scores', [
      { key: 'median', label: say('stats.median'), value: t.scores.summary.median, fmt: 'num1' },
      { key: 'p10', label: say('stats.p10'), value: t.scores.summary.p10, fmt: 'num1' },
      { key: 'p90', label: say('stats.p90'), value: t.scores.summary.p90, fmt: 'num1' },
      // plays recorded by their winners alone: counted as results, left out of the scores
      ...(t.scores.games_without_scores ? [{ key: 'unscored', label: say('stats.games-without-scores'), value: t.scores.games_without_scores, fmt: 'int' }] : []),
    ]),
    columns(say('stats.score-histogram', { title: t.name }), bins(t.scores).map((b) => ({ label: INT.format(b.low), value: b.count,
      display: say('stats.bin-display', { count: INT.format(b.count), one: b.count === 1, low: INT.format(b.low), high: INT.format(b.high - 1) }) })), { tick: (v) => INT.format(Math.round(v)) })));
  if (t.characters) {
    out.append(section('characters', say('stats.win-rate-by-character'),
      rateBars(say('stats.win-rate-by-character'), t.characters, (r) => characterName(r.character, title), 'seats'),
      table('characters', say('stats.win-rate-by-character'), t.characters, [
        { key: 'character', label: say('stats.character'), fmt: 'text', show: (r) => characterName(r.character, title) },
        ...seatWins(),
      ], (r) => String(r.character))));
  }
  if (t.sources.length) {
    const keys = t.sources.map((s, i) => ({ key: s.source, name: sourceName(s.source, title), colour: PALETTE[i % PALETTE.length] }));
    const rows = [
      { label: say('stats.every-seat'), parts: t.sources.map((s) => ({ key: s.source, value: s.avg_points })) },
      { label: say('stats.winners'), parts: t.sources.map((s) => ({ key: s.source, value: s.winners_avg_points || 0 })) },
    ];
    for (const c of t.characters || []) {
      const mine = Object.fromEntries((t.character_sources || []).filter((x) => x.character === c.character).map((x) => [x.source, x.avg_points]));
      // in the legend's order, so a source sits at the same place in every bar
      rows.push({ label: characterName(c.character, title), parts: t.sources.map((x) => ({ key: x.source, value: mine[x.source] || 0 })) });
    }
    out.append(section('sources', say('stats.points-by-source'),
      stacked(say('stats.avg-points-by-source-in', { title: t.name }), rows, keys, { format: (v) => say('stats.n-points', { n: NUM1.format(v) }) }),
      table('sources', say('stats.points-by-source'), t.sources, [
        { key: 'source', label: say('stats.source'), fmt: 'text', show: (r) => sourceName(r.source, title) },
        { key: 'avg_points', label: say('stats.avg-a-seat'), fmt: 'num1' },
        { key: 'share', label: say('stats.share-of-points'), fmt: 'pct' },
        { key: 'winners_avg_points', label: say('stats.winners-avg'), fmt: 'num1' },
      ], (r) => r.source)));
  }
  out.append(await thinkSection(title));
  if (t.wagers) lostCities(out, t);
  if (t.beijing) {
    const slotName = (r) => (r.slot === null ? say('stats.never-arrived') : say(r.slot <= 3 ? `stats.arrived-${r.slot}` : 'stats.arrived-n', { n: r.slot }));
    out.append(section('beijing', say('stats.arrival-beijing'),
      rateBars(say('stats.win-rate-by-arrival-order'), t.beijing.by_slot, slotName, 'seats'),
      table('beijing', say('stats.win-rate-by-arrival'), t.beijing.by_slot, [
        { key: 'slot', label: say('stats.arrival'), fmt: 'text', show: slotName },
        ...seatWins(),
      ], (r) => String(r.slot))));
  }
  if (t.contracts) {
    const c = t.contracts;
    out.append(section('contracts', say('stats.contracts-rank'),
      bars(say('stats.avg-rank-by-contracts'), c.by_count.map((r) => ({ label: say('stats.n-contracts', { n: INT.format(r.contracts) }), value: r.avg_rank,
        display: `${NUM1.format(r.avg_rank)} · ${INT.format(r.seats)}`, aria: say('stats.contracts-aria', { n: INT.format(r.contracts), rank: NUM1.format(r.avg_rank), games: gamesWord(r.seats) }) })),
      { caption: say('stats.avg-rank-caption') }),
      c.correlation === null ? null : h('p', { class: 'small' }, say(c.correlation < 0 ? 'stats.corr-better' : 'stats.corr-not', { c: NUM1.format(c.correlation) })),
      table('contracts', say('stats.contracts-and-rank'), c.by_count, [
        { key: 'contracts', label: say('stats.contracts'), fmt: 'int' },
        { key: 'seats', label: say('stats.games'), fmt: 'int' },
        { key: 'avg_rank', label: say('stats.avg-rank'), fmt: 'num1' },
        { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.seats < FEW },
        { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      ], (r) => String(r.contracts))));
  }
}

// each player's think time over the title's games recorded at the table; the slowest decision
// links to its game at that step
async function thinkSection(title) {
  let got;
  try { got = await api('/stats/think-time', { params: { title, lang } }); } catch { return ''; }
  if (!got.players.length) return section('think', say('think.heading'), h('p', { class: 'muted', id: 'think-none' }, say('think.stats-none')));
  return section('think', say('think.heading'),
    h('p', { class: 'small muted st-note' }, say('think.stats-note', { timed: got.timed_games, games: got.games })),
    table('think', say('think.heading'), got.players, [
      { key: 'player', label: say('think.player'), fmt: 'text' },
      { key: 'games', label: say('think.games'), fmt: 'int' },
      { key: 'median_decision_s', label: say('think.median-decision'), fmt: 'text', show: (r) => r.said.median_decision },
      { key: 'median_turn_s', label: say('think.median-turn'), fmt: 'text', show: (r) => r.said.median_turn },
      { key: 'slowest', label: say('think.slowest-label'), fmt: 'text',
        show: (r) => say('think.slowest-in', { took: r.slowest.took, on: r.slowest.on ? dayOf(`${r.slowest.on}T12:00:00Z`) : '', words: r.slowest.words, step: r.slowest.step }),
        link: (r) => `/?game=${encodeURIComponent(r.slowest.game_id)}&at=${r.slowest.step}` },
    ], (r) => r.player));
}

// the histogram with its empty bins too: a gap in the scores shows as one
function bins(scores) {
  const have = Object.fromEntries(scores.histogram.map((b) => [b.low, b.count]));
  const out = [];
  if (!scores.histogram.length) return out;
  const first = scores.histogram[0].low; const last = scores.histogram[scores.histogram.length - 1].low;
  for (let low = first; low <= last && out.length < 200; low += scores.bin_width) out.push({ low, high: low + scores.bin_width, count: have[low] || 0 });
  return out;
}


function lostCities(out, t) {
  const wagerName = (r) => (r.wagers === 0 ? say('stats.no-wager') : say('stats.n-wagers', { n: INT.format(r.wagers), one: r.wagers === 1 }));
  out.append(section('wagers', say('stats.wagering-pays'),
    bars(say('stats.score-by-wagers'), t.wagers.map((r) => ({ label: wagerName(r), value: r.avg_score,
      display: `${NUM1.format(r.avg_score)} · ${INT.format(r.expeditions)}`, note: r.expeditions < FEW ? say('stats.few-expeditions') : null,
      aria: say('stats.avg-over-expeditions', { what: wagerName(r), avg: NUM1.format(r.avg_score), n: INT.format(r.expeditions) }) }))),
    table('wagers', say('stats.expeditions-by-wagers'), t.wagers, [
      { key: 'wagers', label: say('stats.wagers'), fmt: 'int' },
      { key: 'expeditions', label: say('stats.expeditions'), fmt: 'int' },
      { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      { key: 'avg_cards', label: say('stats.avg-cards'), fmt: 'num1' },
      { key: 'negative_rate', label: say('stats.lost-points'), fmt: 'pct' },
      { key: 'bonus_rate', label: say('stats.with-bonus'), fmt: 'pct' },
    ], (r) => String(r.wagers))));
  out.append(section('bonus', say('stats.bonus-8'),
    figures('bonus', [
      { key: 'per_expedition', label: say('stats.of-expeditions'), value: t.bonus.per_expedition, fmt: 'pct' },
      { key: 'per_side_round', label: say('stats.of-rounds'), value: t.bonus.per_side_round, fmt: 'pct' },
      { key: 'per_match', label: say('stats.of-games'), value: t.bonus.per_match, fmt: 'pct' },
      { key: 'bonuses', label: say('stats.bonuses-earned'), value: t.bonus.bonuses, fmt: 'int' },
    ])));
  out.append(colourSection('colours', say('stats.per-colour'), t.colours, [
    { key: 'avg_wagers', label: say('stats.avg-wagers'), fmt: 'num1' },
    { key: 'negative_rate', label: say('stats.lost-points'), fmt: 'pct' },
    { key: 'bonus_rate', label: say('stats.with-bonus'), fmt: 'pct' },
  ]));
  const rounds = t.rounds.filter((r) => r.round !== null);
  out.append(section('rounds', say('stats.round-by-round'),
    columns(say('stats.avg-score-per-round'), rounds.map((r) => ({ label: say('stats.round-n', { n: r.round }), value: r.avg_score,
      display: say('stats.avg-points', { avg: NUM1.format(r.avg_score) }) })), { tick: (v) => NUM1.format(v) }),
    table('rounds', say('stats.round-by-round'), t.rounds, [
      { key: 'round', label: say('stats.round'), fmt: 'text', show: (r) => (r.round === null ? say('stats.all-rounds') : say('stats.round-n', { n: r.round })) },
      { key: 'avg_opened', label: say('stats.expeditions-opened'), fmt: 'num1' },
      { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      { key: 'starter_avg_score', label: say('stats.starter-score'), fmt: 'num1' },
    ], (r) => String(r.round))));
}

// a player's or the title's Lost Cities expeditions by colour: the bars, then the table (``more``: its
// columns after colour, expeditions and average score)
function colourSection(id, title, rows, more) {
  return section(id, title,
    colourBars(rows),
    table(id, say('stats.expeditions-by-colour'), rows, [
      { key: 'colour', label: say('stats.colour'), fmt: 'text', show: (r) => colourName(r.colour) },
      { key: 'expeditions', label: say('stats.opened'), fmt: 'int' },
      { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      ...more,
    ], (r) => r.colour));
}

// a bar per Lost Cities colour: its expeditions' average score
function colourBars(rows) {
  return bars(say('stats.avg-expedition'), rows.map((r) => ({ label: colourName(r.colour), value: r.avg_score, colour: COLOURS[r.colour],
    display: NUM1.format(r.avg_score), aria: say('stats.avg-over-expeditions', { what: colourName(r.colour), avg: NUM1.format(r.avg_score), n: INT.format(r.expeditions) }) })));
}
