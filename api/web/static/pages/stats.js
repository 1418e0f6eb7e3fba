// Statistics: the group's dashboard, a page per player and per title, drawn from the answers the
// server lists in its statistics index (GET /stats). The filters (title, player, dates, options,
// forks) live in the address, so a view can be shared; every number is formatted in the reader's
// language, percentages with one decimal.
import { api } from '../api.js';
import { h, clear, humanize } from '../dom.js';
import { bars, stacked, columns, heatmap, PALETTE } from '../charts.js';
import { lang, t as say } from '../i18n.js';

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

const SOURCES = {
  contracts: 'Contracts', city_cards: 'City cards', post_bonuses: 'Trading post bonuses', city_bonuses: 'City bonuses',
  objectives: 'Goal cards', objective_cities: 'Goal cities', coins: 'Coins', beijing: 'Beijing', goods: 'Goods',
  most_contracts: 'Most contracts', in_game: 'During the game', goal_seals: 'Goal seals', shields: 'Shields',
  caravans: 'Caravans', expeditions: 'Expedition cards', wagers: 'Wagers (what they added)', bonus: '8-card bonus', total: 'Score',
};
const sourceName = (k) => SOURCES[k] || humanize(k);
const characterName = (c) => (c ? humanize(c) : say('stats.no-character'));
const COLOURS = { yellow: '#b38a00', blue: '#1d5bb0', white: '#6b6b6b', green: '#1e6b2c', red: '#b3261e', purple: '#6a32a0' };
const colourName = (c) => humanize(c);
// an option's value as the start form says it: seats from 1, yes / no, words capitalised
const optionWords = (key, v) => (typeof v === 'boolean' ? (v ? say('stats.yes') : say('stats.no')) : /seat/.test(key) && typeof v === 'number' ? say('stats.seat', { n: v + 1 }) : typeof v === 'string' ? humanize(v) : String(v));
const seatName = (seat) => say('stats.seat', { n: seat + 1 });
const gamesWord = (n) => say('stats.n-games', { n: INT.format(n), one: n === 1 });

// -- the address ---------------------------------------------------------------------------------

// A filter the API could not read (an address typed by hand) is left out, and said so, rather than
// refusing the whole view.
const FILTER_WORDS = { date_from: say('stats.from'), date_to: say('stats.before'), option: 'Option' };
const ISO = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const readable = (k, v) => ((k !== 'date_from' && k !== 'date_to') || (ISO.test(v) && !Number.isNaN(Date.parse(v)))) && (k !== 'option' || /^[^=]+=./.test(v));

function filtersOf(q, left = []) {
  const out = new URLSearchParams();
  for (const k of FILTERS) {
    for (const v of q.getAll(k)) {
      if (v === '') continue;
      if (readable(k, v)) out.append(k, v); else left.push(`${FILTER_WORDS[k]} “${v}”`);
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
    const few = c.few && c.few(r) ? h('span', { class: 'st-few', title: `fewer than ${FEW} games` }, say('stats.few-games')) : null;
    const cell = i === 0 ? 'th' : 'td';
    const kind = c.fmt && c.fmt !== 'text' ? 'num' : String(shown).length > 14 ? 'st-long' : null;
    return h(cell, { ...(i === 0 ? { scope: 'row' } : {}), 'data-col': c.key, 'data-fmt': c.fmt, class: kind }, inner, few);
  })));
  return h('div', { class: 'table-wrap st-table', tabindex: 0, role: 'region', 'aria-label': caption },
    h('table', { 'data-table': id }, h('caption', { class: 'visually-hidden' }, caption), h('thead', {}, head), h('tbody', {}, body)));
}

const playerLink = (filters) => (name) => href('player', { name }, filters, ['player']);
const titleLink = (filters) => (title) => href('title', { title }, filters, ['title']);

function latestList(games, filters) {
  if (!games.length) return h('p', { class: 'muted' }, say('stats.none-yet'));
  return h('ol', { class: 'st-latest', 'data-list': 'latest' }, games.map((g) => h('li', { 'data-game-id': g.game_id },
    h('div', { class: 'st-latest-head' },
      h('strong', {}, h('a', { href: titleLink(filters)(g.title) }, g.name)), ' ',
      h('span', { class: 'muted' }, fmt(g.created_at, 'date'))),
    g.score_only ? h('span', { class: 'badge st-replay-slot', title: 'recorded as scores only: no moves to replay' }, 'scores only')
      : h('a', { class: 'st-replay st-replay-slot', href: `/?game=${encodeURIComponent(g.game_id)}`, 'aria-label': `Replay this ${g.name} game of ${fmt(g.created_at, 'date')}` }, say('stats.replay')),
    h('ul', { class: 'st-seats' }, [...g.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat).map((seat) => h('li', { class: seat.won ? 'won' : null, 'data-player': seat.player },
      h('a', { href: playerLink(filters)(seat.player) }, seat.player), ' ',
      h('span', { class: 'v', 'data-score': seat.score }, fmt(seat.score, 'int')),
      seat.won ? h('span', { class: 'st-winner' }, ' won') : null))))));
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
  aria: `${name(r)}: ${PCT.format(r.win_rate)} wins of ${gamesWord(r[n])}${r.low !== undefined ? `, 95% interval ${interval(r)}` : ''}${r[n] < FEW ? ' (few games)' : ''}`,
})), { domain: [0, 1], caption: `Win % · games${rows.some((r) => r.low !== undefined) ? '; the thin line: its 95% range' : ''}${rows.some((r) => r[n] < FEW) ? '; paler: fewer than 10 games' : ''}` });

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
      options.append(h('div', { class: 'field' }, h('label', { for: id }, humanize(key)), sel));
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
    main.append(h('h1', {}, say('stats.statistics')), h('p', { class: 'notice', id: 'stats-none' }, `This server has no statistics to show (${err.message}).`));
    return {};
  }
  const view = ['player', 'title'].includes(q.get('view')) ? q.get('view') : 'dashboard';
  const unread = [];
  const filters = filtersOf(q, unread);
  const out = h('div', { id: 'stats-out' });
  const root = h('div', { class: 'stats-page', 'data-view': view }, out);
  main.append(root);
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
        out.append(h('p', { class: 'notice', id: 'stats-empty' }, `No finished game of “${title}” is recorded here. Titles with games: `,
          index.titles.map((t, i) => [i ? ', ' : '', h('a', { href: titleLink(filters)(t.title) }, t.name)]), '.'));
      }
    } else {
      out.append(filterForm(index, filters, view, {}, go));
      await dashboard(out, index, filters);
    }
  } catch (err) {
    out.append(h('p', { class: 'error', role: 'alert' }, `These statistics could not be shown: ${err.message}`));
  }
  if (unread.length) {
    const said = h('p', { class: 'notice', id: 'stats-unread' }, `Left out of this view, as the address does not say it in a way it can be read: ${unread.join(', ')}.`);
    const box = out.querySelector('.st-filter-box');
    if (box) box.after(said); else out.append(said);
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
  if (!d.games) {
    out.append(h('p', { class: 'notice', id: 'stats-empty' }, say('stats.no-match')));
    return;
  }
  out.append(section('leaderboard', say('stats.leaderboard'),
    rateBars(say('stats.win-rate-by-player'), d.leaderboard.slice(0, 12), (r) => r.player),
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
        { key: 'best_score', label: say('stats.best-score'), value: t.best_score, fmt: 'int', after: t.best_player ? h('span', { class: 'muted small' }, ` by ${t.best_player}`) : null },
        { key: 'last_played', label: say('stats.last-played'), value: t.last_played, fmt: 'date' },
      ]),
      bars(`Wins by player in ${t.name}`, t.leaderboard.map((r) => ({ label: r.player, value: r.wins, display: `${INT.format(r.wins)} of ${INT.format(r.games)}`,
        aria: `${r.player}: ${INT.format(r.wins)} wins of ${gamesWord(r.games)} in ${t.name}` }))),
      boardTable(id, t.leaderboard, filters),
      h('p', {}, h('a', { class: 'st-more', href: titleLink(filters)(t.title) }, `More about ${t.name}`))));
  }
  if (index.endpoints.bgstats) {
    out.append(h('p', { class: 'small st-bgstats' }, 'Keep these games in BG Stats too: ',
      h('a', { href: index.endpoints.bgstats, download: 'BGStatsExport.json' }, 'download every finished game as a BG Stats file'),
      ' (its import reads it; the filters above do not narrow it).'));
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
      after: p.h_index ? h('span', { class: 'st-figure-note' }, `${INT.format(p.h_index)} ${p.h_index === 1 ? 'title' : 'titles'} played ${p.h_index === 1 ? 'once or more' : `${INT.format(p.h_index)} times or more`}`) : null },
    { key: 'longest_wins', label: say('stats.longest-wins'), value: p.streaks.longest_wins, fmt: 'int' },
    { key: 'longest_losses', label: say('stats.longest-losses'), value: p.streaks.longest_losses, fmt: 'int' },
    { key: 'current', label: say('stats.now'), value: current ? `${current.length} ${current.won ? (current.length === 1 ? 'win' : 'wins') : (current.length === 1 ? 'game' : 'games')} ${current.won ? 'in a row' : 'without a win'}` : null, fmt: 'text' },
  ]));
  if (!p.games) {
    out.append(h('p', { class: 'notice', id: 'stats-empty' }, `No finished game of ${p.player} matches these filters.`));
    return;
  }
  out.append(section('by-title', say('stats.per-title'),
    stacked(`Wins and other games per title of ${p.player}`, p.by_title.map((t) => ({ label: t.name, parts: [{ key: 'wins', value: t.wins }, { key: 'others', value: t.games - t.wins }] })),
      [{ key: 'wins', name: say('stats.wins'), colour: PALETTE[2] }, { key: 'others', name: 'Other games', colour: '#b9b1a2' }], { format: (v) => gamesWord(v) }),
    table('by-title', say('stats.per-title'), p.by_title, [
      { key: 'name', label: say('stats.title'), fmt: 'text', link: (r) => titleLink(filters)(r.title) },
      { key: 'games', label: say('stats.games'), fmt: 'int' },
      { key: 'wins', label: say('stats.wins'), fmt: 'int' },
      { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.games < FEW },
      { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      { key: 'best_score', label: say('stats.best-score'), fmt: 'int' },
    ], (r) => r.title)));
  out.append(section('over-time', say('stats.over-time'),
    columns(`Games and wins per month of ${p.player}`, p.by_month.map((m) => ({ label: FORMATS.month(m.month), value: m.games, part: m.wins,
      display: `${gamesWord(m.games)}, ${INT.format(m.wins)} won` })), { partName: say('stats.wins'), valueName: say('stats.games') }),
    table('by-month', say('stats.per-month'), p.by_month, [
      { key: 'month', label: say('stats.month'), fmt: 'month' }, { key: 'games', label: say('stats.games'), fmt: 'int' }, { key: 'wins', label: say('stats.wins'), fmt: 'int' },
    ], (r) => r.month)));
  if (p.rivals.length) {
    out.append(section('rivals', say('stats.rivals'),
      bars(`Share of games ${p.player} ranked above each rival`, p.rivals.map((r) => ({ label: r.opponent, value: r.wins / Math.max(1, r.wins + r.losses + r.ties),
        display: `${INT.format(r.wins)}–${INT.format(r.losses)}${r.ties ? `–${INT.format(r.ties)}` : ''}`,
        aria: `${p.player} against ${r.opponent}: ${INT.format(r.wins)} won, ${INT.format(r.losses)} lost, ${INT.format(r.ties)} tied` })),
      { domain: [0, 1], caption: `Games ${p.player} finished ahead – behind${p.rivals.some((r) => r.ties) ? ' – level' : ''}` }),
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
        { key: 'character', label: say('stats.character'), fmt: 'text', show: (r) => characterName(r.character) },
        { key: 'name', label: say('stats.title'), fmt: 'text' },
        { key: 'seats', label: say('stats.games'), fmt: 'int' },
        { key: 'wins', label: say('stats.wins'), fmt: 'int' },
        { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.seats < FEW },
        { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      ], (r) => `${r.title}:${r.character}`)));
  }
  if (p.expeditions.length) {
    out.append(section('expeditions', say('stats.expeditions-lc'),
      bars(say('stats.avg-expedition'), p.expeditions.map((e) => ({ label: colourName(e.colour), value: e.avg_score, colour: COLOURS[e.colour],
        display: NUM1.format(e.avg_score), aria: `${colourName(e.colour)}: ${NUM1.format(e.avg_score)} points on average over ${INT.format(e.expeditions)} expeditions` }))),
      table('expeditions', say('stats.expeditions-by-colour'), p.expeditions, [
        { key: 'colour', label: say('stats.colour'), fmt: 'text', show: (r) => colourName(r.colour) },
        { key: 'expeditions', label: say('stats.opened'), fmt: 'int' },
        { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
        { key: 'bonus_rate', label: say('stats.with-bonus'), fmt: 'pct' },
      ], (r) => r.colour)));
  }
  if (p.sources.length) {
    const titlesWith = [...new Set(p.sources.map((s) => s.title))];
    out.append(section('sources', say('stats.sources-vs-group'),
      h('p', { class: 'small muted' }, `Bars: ${p.player}’s average a game; the black line: everyone’s.`),
      titlesWith.map((t) => {
        const rows = p.sources.filter((s) => s.title === t);
        return h('div', { class: 'st-sub' }, h('h3', {}, rows[0].name),
          bars(`${p.player}’s points by source in ${rows[0].name}`, rows.map((s) => ({ label: sourceName(s.source), value: s.avg_points, compare: s.group_avg_points,
            display: `${NUM1.format(s.avg_points)} / ${NUM1.format(s.group_avg_points)}`,
            aria: `${sourceName(s.source)}: ${p.player} ${NUM1.format(s.avg_points)}, the group ${NUM1.format(s.group_avg_points)} points a game` }))),
          table(`sources-${t}`, `Points by source in ${rows[0].name}`, rows, [
            { key: 'source', label: say('stats.source'), fmt: 'text', show: (r) => sourceName(r.source) },
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
    out.append(h('p', { class: 'notice', id: 'stats-empty' }, `No finished ${t.name} game matches these filters.`));
    return;
  }
  out.append(h('p', { class: 'small muted st-note' }, `Each rate shows how many games it rests on and its 95% range (Wilson); “few games” marks a rate on fewer than ${FEW}.`));
  const board = (d.titles.find((x) => x.title === title) || { leaderboard: [] }).leaderboard;
  if (board.length) out.append(section('players', `Who wins at ${t.name}`, boardTable('title-players', board, filters)));
  const seatLabel = (r) => `${r.players}\u00a0players, ${seatName(r.seat).toLowerCase().replace(' ', '\u00a0')}`;
  out.append(section('seats', say('stats.win-rate-by-seat'),
    rateBars(say('stats.win-rate-by-seat'), t.seats, seatLabel),
    table('seats', say('stats.win-rate-by-seat'), t.seats, [
      { key: 'seat', label: 'Seat', fmt: 'text', show: seatLabel },
      { key: 'games', label: say('stats.games'), fmt: 'int' },
      { key: 'wins', label: say('stats.wins'), fmt: 'int' },
      { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.few },
      { key: 'interval', label: '95% range', fmt: 'interval' },
    ], (r) => `${r.players}:${r.seat}`),
    (t.first_player || []).length ? table('first-player', 'Who started', t.first_player, [
      { key: 'players', label: 'Table', fmt: 'text', show: (r) => `${r.players}\u00a0players` },
      { key: 'games', label: say('stats.games'), fmt: 'int' },
      { key: 'win_rate', label: 'Win % of who started', fmt: 'pct', few: (r) => r.games < FEW },
      { key: 'others_win_rate', label: 'Win % of each other seat', fmt: 'pct' },
    ], (r) => String(r.players)) : null));
  out.append(section('scores', 'Final scores',
    figures('scores', [
      { key: 'median', label: 'Median', value: t.scores.summary.median, fmt: 'num1' },
      { key: 'p10', label: '1 in 10 scores below', value: t.scores.summary.p10, fmt: 'num1' },
      { key: 'p90', label: '1 in 10 scores above', value: t.scores.summary.p90, fmt: 'num1' },
    ]),
    columns(`How often each final score was reached in ${t.name}`, bins(t.scores).map((b) => ({ label: INT.format(b.low), value: b.count,
      display: `${INT.format(b.count)} ${b.count === 1 ? 'player' : 'players'} scored ${INT.format(b.low)} to ${INT.format(b.high - 1)}` })))));
  if (t.characters) {
    out.append(section('characters', 'Win % by character',
      rateBars('Win % by character', t.characters, (r) => characterName(r.character), 'seats'),
      table('characters', 'Win % by character', t.characters, [
        { key: 'character', label: say('stats.character'), fmt: 'text', show: (r) => characterName(r.character) },
        { key: 'seats', label: say('stats.games'), fmt: 'int' },
        { key: 'wins', label: say('stats.wins'), fmt: 'int' },
        { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.few },
        { key: 'interval', label: '95% range', fmt: 'interval' },
        { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      ], (r) => String(r.character))));
  }
  if (t.sources.length) {
    const keys = t.sources.map((s, i) => ({ key: s.source, name: sourceName(s.source), colour: PALETTE[i % PALETTE.length] }));
    const rows = [
      { label: 'Every seat', parts: t.sources.map((s) => ({ key: s.source, value: s.avg_points })) },
      { label: 'Winners', parts: t.sources.map((s) => ({ key: s.source, value: s.winners_avg_points || 0 })) },
    ];
    for (const c of t.characters || []) {
      const mine = Object.fromEntries((t.character_sources || []).filter((x) => x.character === c.character).map((x) => [x.source, x.avg_points]));
      // in the legend's order, so a source sits at the same place in every bar
      rows.push({ label: characterName(c.character), parts: t.sources.map((x) => ({ key: x.source, value: mine[x.source] || 0 })) });
    }
    out.append(section('sources', 'Points by source',
      stacked(`Average points by source in ${t.name}`, rows, keys, { format: (v) => `${NUM1.format(v)} points` }),
      table('sources', 'Points by source', t.sources, [
        { key: 'source', label: say('stats.source'), fmt: 'text', show: (r) => sourceName(r.source) },
        { key: 'avg_points', label: 'Average a seat', fmt: 'num1' },
        { key: 'share', label: 'Share of points', fmt: 'pct' },
        { key: 'winners_avg_points', label: 'Winners’ average', fmt: 'num1' },
      ], (r) => r.source)));
  }
  if (t.wagers) lostCities(out, t);
  if (t.beijing) {
    const slotName = (r) => (r.slot === null ? 'Never arrived' : `${ordinal(r.slot)} to arrive`);
    out.append(section('beijing', 'Arrival in Beijing',
      rateBars('Win % by arrival order in Beijing', t.beijing.by_slot, slotName, 'seats'),
      table('beijing', 'Win % by arrival in Beijing', t.beijing.by_slot, [
        { key: 'slot', label: 'Arrival', fmt: 'text', show: slotName },
        { key: 'seats', label: say('stats.games'), fmt: 'int' },
        { key: 'wins', label: say('stats.wins'), fmt: 'int' },
        { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.few },
        { key: 'interval', label: '95% range', fmt: 'interval' },
        { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      ], (r) => String(r.slot))));
  }
  if (t.contracts) {
    const c = t.contracts;
    out.append(section('contracts', 'Contracts completed and final rank',
      bars('Average rank by contracts completed (1 is first)', c.by_count.map((r) => ({ label: `${INT.format(r.contracts)} contracts`, value: r.avg_rank,
        display: `${NUM1.format(r.avg_rank)} · ${INT.format(r.seats)}`, aria: `${INT.format(r.contracts)} contracts: average rank ${NUM1.format(r.avg_rank)} over ${gamesWord(r.seats)}` })),
      { caption: 'Average final rank (1 is first; a shorter bar is better) · games' }),
      c.correlation === null ? null : h('p', { class: 'small' }, c.correlation < 0 ? 'The more contracts completed, the better the rank' : 'More contracts did not bring a better rank',
        ` (correlation ${NUM1.format(c.correlation)}).`),
      table('contracts', 'Contracts and rank', c.by_count, [
        { key: 'contracts', label: 'Contracts', fmt: 'int' },
        { key: 'seats', label: say('stats.games'), fmt: 'int' },
        { key: 'avg_rank', label: 'Average rank', fmt: 'num1' },
        { key: 'win_rate', label: say('stats.win-rate'), fmt: 'pct', few: (r) => r.seats < FEW },
        { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      ], (r) => String(r.contracts))));
  }
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

const ordinal = (n) => (n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`);

function lostCities(out, t) {
  const wagerName = (r) => (r.wagers === 0 ? 'No wager' : r.wagers === 1 ? '1 wager' : `${r.wagers} wagers`);
  out.append(section('wagers', 'Does wagering pay?',
    bars('Expected expedition score by wager cards', t.wagers.map((r) => ({ label: wagerName(r), value: r.avg_score,
      display: `${NUM1.format(r.avg_score)} · ${INT.format(r.expeditions)}`, note: r.expeditions < FEW ? 'few expeditions' : null,
      aria: `${wagerName(r)}: ${NUM1.format(r.avg_score)} points on average over ${INT.format(r.expeditions)} expeditions` }))),
    table('wagers', 'Expeditions by wager cards', t.wagers, [
      { key: 'wagers', label: 'Wagers', fmt: 'int' },
      { key: 'expeditions', label: 'Expeditions', fmt: 'int' },
      { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      { key: 'avg_cards', label: 'Average cards', fmt: 'num1' },
      { key: 'negative_rate', label: 'Lost points', fmt: 'pct' },
      { key: 'bonus_rate', label: say('stats.with-bonus'), fmt: 'pct' },
    ], (r) => String(r.wagers))));
  out.append(section('bonus', 'The 8-card bonus',
    figures('bonus', [
      { key: 'per_expedition', label: 'Of expeditions', value: t.bonus.per_expedition, fmt: 'pct' },
      { key: 'per_side_round', label: 'Of rounds (per player or side)', value: t.bonus.per_side_round, fmt: 'pct' },
      { key: 'per_match', label: 'Of games', value: t.bonus.per_match, fmt: 'pct' },
      { key: 'bonuses', label: 'Bonuses earned', value: t.bonus.bonuses, fmt: 'int' },
    ])));
  out.append(section('colours', 'Per colour',
    bars(say('stats.avg-expedition'), t.colours.map((r) => ({ label: colourName(r.colour), value: r.avg_score, colour: COLOURS[r.colour],
      display: NUM1.format(r.avg_score), aria: `${colourName(r.colour)}: ${NUM1.format(r.avg_score)} points on average over ${INT.format(r.expeditions)} expeditions` }))),
    table('colours', say('stats.expeditions-by-colour'), t.colours, [
      { key: 'colour', label: say('stats.colour'), fmt: 'text', show: (r) => colourName(r.colour) },
      { key: 'expeditions', label: say('stats.opened'), fmt: 'int' },
      { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      { key: 'avg_wagers', label: 'Average wagers', fmt: 'num1' },
      { key: 'negative_rate', label: 'Lost points', fmt: 'pct' },
      { key: 'bonus_rate', label: say('stats.with-bonus'), fmt: 'pct' },
    ], (r) => r.colour)));
  const rounds = t.rounds.filter((r) => r.round !== null);
  out.append(section('rounds', 'Round by round',
    columns('Average score per round', rounds.map((r) => ({ label: `Round ${r.round}`, value: r.avg_score,
      display: `${NUM1.format(r.avg_score)} points on average` })), { tick: (v) => NUM1.format(v) }),
    table('rounds', 'Round by round', t.rounds, [
      { key: 'round', label: 'Round', fmt: 'text', show: (r) => (r.round === null ? 'All rounds' : `Round ${r.round}`) },
      { key: 'avg_opened', label: 'Expeditions opened', fmt: 'num1' },
      { key: 'avg_score', label: say('stats.avg-score'), fmt: 'num1' },
      { key: 'starter_avg_score', label: 'Score of who started', fmt: 'num1' },
    ], (r) => String(r.round))));
}
