// Tournament nights on the statistics page (?page=stats&view=nights[&night=ID]): the list of nights
// and the form that opens one; a night's standings and tables, which follow the tables' games as
// they end (GET /nights/{id}, asked again every few seconds). The device that opened a night, or
// one it handed a link to, holds its token (localStorage): only it draws rounds, seats late
// players and drops, and shows each table's QR code, which carries that table's write token
// (GET /nights/{id} with the night's token).
import { api, saveTokens } from '../api.js';
import { h, clear, errorBox } from '../dom.js';
import { lang, t as say, has } from '../i18n.js';
import { qrSvg, recordingLink } from '../handover.js';

const TITLES = ['lost-cities', 'marco-polo', 'marco-polo-2'];
const POLL_MS = 3000;
const INT = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
const HALF = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
const KEY = (id) => `tabletape.night.${id}`;
const tokenOf = (id) => { try { return localStorage.getItem(KEY(id)); } catch { return null; } };
// a refusal's field as the form labels it ("players.1: 'Ana' is named twice" names the names' box)
const FIELDS = { name: 'stats.night-name', title: 'stats.night-game', rounds: 'stats.night-rounds', players: 'stats.night-players', player: 'stats.night-player' };

function inWords(err) {
  const field = err && err.body && err.body.field;
  const label = field && FIELDS[String(field).split('.')[0]];
  if (!label || !String(err.message).startsWith(field)) return err;
  return { ...err, message: say(label) + err.message.slice(field.length) };
}

// ``table``, ``crumbs`` and ``href`` are the statistics page's own; the answer is the view's {leave()}
export async function nightsView(out, q, { table, crumbs, href, navigate }) {
  const wanted = q.get('night');
  if (!wanted) return listView(out, { crumbs, href, navigate });
  return nightView(out, wanted, { table, crumbs, href });
}

// -- the list and the form that opens a night ---------------------------------------------------

async function listView(out, { crumbs, href, navigate }) {
  const [{ nights }, details, { seasons }] = await Promise.all([api('/nights'), api('/titles/details'), api('/seasons')]);
  out.append(crumbs([[say('stats.group'), href('dashboard')], [say('stats.nights')]]), h('h1', {}, say('stats.nights')));
  if (nights.length) {
    out.append(h('ul', { class: 'st-players nt-list', 'data-list': 'nights' }, nights.map((n) => h('li', { 'data-night': n.name },
      h('a', { class: 'st-more', href: href('nights', { night: n.night_id }) }, n.name), ' ',
      h('span', { class: 'muted' }, say('stats.night-progress', { title: n.title_name, drawn: n.rounds_drawn, rounds: n.rounds }))))));
  } else {
    out.append(h('p', { class: 'notice', id: 'nights-none' }, say('stats.nights-none')));
  }
  out.append(openForm(details.filter((d) => TITLES.includes(d.id)), seasons, href, navigate));
  return {};
}

function openForm(titles, seasons, href, navigate) {
  const field = (id, label, input) => h('div', { class: 'field' }, h('label', { for: id }, label), input);
  const name = h('input', { id: 'nt-name', required: true, maxlength: 80, autocomplete: 'off' });
  const title = h('select', { id: 'nt-title' }, titles.map((d) => h('option', { value: d.id }, d.name)));
  const rounds = h('input', { id: 'nt-rounds', type: 'number', min: 1, max: 20, value: 3, inputmode: 'numeric' });
  const gameRounds = h('input', { id: 'nt-game-rounds', type: 'number', min: 1, max: 100, value: 3, inputmode: 'numeric' });
  const gameRoundsField = field('nt-game-rounds', say('stats.night-game-rounds'), gameRounds);
  const players = h('textarea', { id: 'nt-players', rows: 6, autocomplete: 'off' });
  const from = h('select', { id: 'nt-from' }, h('option', { value: '' }, say('stats.night-from-typed')),
    seasons.map((s) => h('option', { value: s.season_id }, say('stats.night-from-season', { name: s.name }))));
  // a season's members fill the names, which the organiser may still change
  from.addEventListener('change', async () => {
    if (!from.value) return;
    clear(said);
    try {
      players.value = (await api(`/seasons/${encodeURIComponent(from.value)}`)).members.join('\n');
    } catch (err) {
      said.append(errorBox(err, { lead: say('stats.night-not-opened') }));
    }
  });
  const gameRoundsShown = () => { gameRoundsField.hidden = title.value !== 'lost-cities'; };
  title.addEventListener('change', gameRoundsShown);
  gameRoundsShown();
  const said = h('div', { 'aria-live': 'polite', id: 'nt-open-said' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'nt-open' }, say('stats.night-open-button'));
  const form = h('form', { class: 'panel nt-open', 'aria-labelledby': 'nt-open-h', novalidate: true },
    h('h2', { id: 'nt-open-h' }, say('stats.night-open')),
    field('nt-name', say('stats.night-name'), name),
    field('nt-title', say('stats.night-game'), title),
    field('nt-rounds', say('stats.night-rounds'), rounds),
    gameRoundsField,
    field('nt-from', say('stats.night-from'), from),
    field('nt-players', say('stats.night-players'), players),
    submit, said);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    clear(said);
    const body = {
      name: name.value, title: title.value, rounds: Number(rounds.value),
      players: players.value.split('\n').map((p) => p.trim()).filter(Boolean),
      options: title.value === 'lost-cities' ? { rounds: Number(gameRounds.value) } : {},
    };
    try {
      const made = await api('/nights', { method: 'POST', body });
      try { localStorage.setItem(KEY(made.night_id), made.token); } catch { /* storage off: this visit cannot organise */ }
      navigate(href('nights', { night: made.night_id }));
    } catch (err) {
      submit.disabled = false;
      said.append(errorBox(inWords(err), { lead: say('stats.night-not-opened') }));
    }
  });
  return form;
}

// -- one night ------------------------------------------------------------------------------------

// A link that organises the night from another screen carries the night's token in its fragment
// (after '#'), which a browser never sends: kept here once the server says it opens the night,
// and taken out of the address bar. Answers a notice, or null.
async function takeNightToken(path, id) {
  const given = new URLSearchParams(location.hash.slice(1)).get('night-token');
  if (!given) return null;
  history.replaceState(history.state, '', location.pathname + location.search);
  try {
    await api(path, { token: given });
    try { localStorage.setItem(KEY(id), given); } catch { /* storage off: this visit cannot organise */ }
    return h('p', { class: 'notice', role: 'status', id: 'nt-taken' }, say('stats.night-taken'));
  } catch (err) {
    return h('p', { class: 'notice handover-notice bad', role: 'alert', id: 'nt-taken' }, say(err.status === 403 ? 'stats.night-stale' : 'stats.night-not-taken'));
  }
}

const nightLink = (id, token) => `${location.origin}/?page=stats&view=nights&night=${encodeURIComponent(id)}#night-token=${token}`;

async function nightView(out, id, { table, crumbs, href }) {
  const path = `/nights/${encodeURIComponent(id)}`;
  const taken = await takeNightToken(path, id);
  const token = tokenOf(id);
  let night = await api(path, { token });
  let shown = '';
  let drawButton = null;  // the organiser's controls, when this device holds the night's token
  let drawNote = null;
  let leaving = null;
  out.classList.add('nt-night');
  const head = h('div');
  const organise = h('div', { class: 'nt-organise-box' });
  const board = h('div', { class: 'nt-board', 'data-night-board': '' });
  const earlier = h('div');
  out.append(head, taken || '', organise, board, earlier);
  if (token) organise.append(organiser());

  function draw() {
    const now = JSON.stringify(night);
    if (now === shown) return;
    shown = now;
    clear(head).append(
      crumbs([[say('stats.group'), href('dashboard')], [say('stats.nights'), href('nights')], [night.name]]),
      h('h1', {}, night.name),
      h('p', { 'data-night-progress': '' }, say('stats.night-progress', { title: night.title_name, drawn: night.rounds_drawn, rounds: night.rounds })),
      h('p', { class: 'small muted' }, say('stats.night-live')));
    if (!token) head.append(h('p', { class: 'small muted', id: 'nt-no-token' }, say('stats.night-no-token')));
    const last = night.draws[night.draws.length - 1];
    clear(board).append(standings(), last ? roundPanel(last, true) : h('section', { class: 'panel st-section nt-tables' }, h('p', { class: 'muted', id: 'nt-none-drawn' }, say('stats.night-none-drawn'))));
    clear(earlier);
    if (night.draws.length > 1) {
      earlier.append(h('details', { class: 'nt-earlier' }, h('summary', {}, say('stats.night-earlier')),
        night.draws.slice(0, -1).reverse().map((d) => roundPanel(d, false))));
    }
    drawState();
  }

  function standings() {
    const tie = night.title !== 'lost-cities';
    const cols = [
      { key: 'player', label: say('stats.player'), fmt: 'text', show: (r) => `${INT.format(r.position)}.\u00a0${r.player}${r.dropped ? ` (${say('stats.night-left')})` : ''}` },
      { key: 'night_points', label: say('stats.night-points'), fmt: 'num1', show: (r) => HALF.format(r.night_points) },
      { key: 'wins', label: say('stats.wins'), fmt: 'int' },
      { key: 'points', label: say('stats.points'), fmt: 'int' },
    ];
    if (tie) cols.push({ key: 'tiebreak', label: has(`stats.tiebreak-${night.title}`) ? say(`stats.tiebreak-${night.title}`) : say('stats.tiebreak'), fmt: 'int' });
    cols.push({ key: 'games', label: say('stats.games'), fmt: 'int' }, { key: 'byes', label: say('stats.night-byes'), fmt: 'int' });
    return h('section', { class: 'panel st-section nt-standings', 'aria-labelledby': 'nt-standings-h', 'data-section': 'night-standings' },
      h('h2', { id: 'nt-standings-h' }, say('stats.night-standings')),
      table('night-standings', say('stats.night-standings-of', { name: night.name }), night.standings, cols, (r) => r.player),
      h('p', { class: 'small muted' }, say('stats.night-order')));
  }

  function roundPanel(d, current) {
    const hid = `nt-round-${d.round}-h`;
    return h('section', { class: `panel st-section nt-tables${current ? ' nt-current' : ''}`, 'aria-labelledby': hid, 'data-round': d.round },
      h(current ? 'h2' : 'h3', { id: hid }, say('stats.night-round', { round: d.round, rounds: night.rounds })),
      h('ol', { class: 'nt-table-list' }, d.tables.map((tb) => tableCard(tb, current))),
      d.byes.length ? h('p', { class: 'nt-byes' }, say('stats.night-bye', { players: d.byes.join(say('stats.comma')) })) : null);
  }

  function tableCard(tb, current) {
    const best = tb.scores ? Math.max(...tb.scores) : null;
    const game = `/?game=${encodeURIComponent(tb.game_id)}`;
    const write = tb.write_token && !tb.ended ? tb.write_token : null;
    // this device records the game too when the organiser opens it here
    const link = h('a', { class: 'st-replay', href: game, onclick: () => { if (write) saveTokens(tb.game_id, { write }); } },
      say(tb.ended ? 'stats.night-replay' : write ? 'stats.night-record' : 'stats.night-follow', { n: tb.table }));
    return h('li', { class: 'nt-table', 'data-table': tb.table, 'data-ended': String(tb.ended) },
      h('div', { class: 'nt-table-head' },
        h('strong', {}, say('stats.night-table', { n: tb.table })), ' ',
        h('span', { class: `badge ${tb.ended ? 'ended' : 'in-progress'}` }, say(tb.ended ? 'stats.night-finished' : 'stats.night-playing'))),
      h('ul', { class: 'nt-seats' }, tb.players.map((p, i) => h('li', { class: tb.scores && tb.scores[i] === best ? 'won' : null, 'data-player': p },
        h('span', {}, p), tb.scores ? h('span', { class: 'v', 'data-score': tb.scores[i] }, ` ${INT.format(tb.scores[i])}`) : null))),
      current && write ? h('figure', { class: 'nt-qr' }, qrSvg(recordingLink(tb.game_id, { write }), say('stats.night-qr', { n: tb.table })),
        h('figcaption', { class: 'small muted' }, say('stats.night-scan'))) : null,
      h('p', {}, link));
  }

  // -- the organiser's part: draw, late players, drops ----------------------------------------
  function organiser() {
    const said = h('div', { 'aria-live': 'polite', id: 'nt-said' });
    const act = async (button, lead, call, done) => {
      button.disabled = true;
      clear(said);
      try {
        const answer = await call();
        said.append(h('p', { class: 'notice', role: 'status' }, done(answer)));
        await refresh();
      } catch (err) {
        said.append(errorBox(inWords(err), { lead }));
      } finally {
        button.disabled = false;
        drawState();
      }
    };
    drawButton = h('button', { type: 'button', class: 'primary', id: 'nt-draw', onclick: () => act(drawButton, say('stats.night-not-drawn'),
      () => api(`${path}/rounds`, { method: 'POST', token }), (a) => say('stats.night-drawn', { round: a.rounds_drawn })) });
    drawNote = h('p', { class: 'small muted', id: 'nt-draw-note' });
    const late = h('input', { id: 'nt-late', maxlength: 80, autocomplete: 'off' });
    const lateButton = h('button', { type: 'submit', class: 'secondary', id: 'nt-late-go' }, say('stats.night-late-button'));
    const lateForm = h('form', { class: 'nt-inline', novalidate: true },
      h('div', { class: 'field' }, h('label', { for: 'nt-late' }, say('stats.night-late')), late), lateButton);
    lateForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const player = late.value.trim();
      act(lateButton, say('stats.night-not-changed'), () => api(`${path}/players`, { method: 'POST', token, body: { player } }),
        () => { late.value = ''; return say('stats.night-joined', { player }); });
    });
    leaving = h('select', { id: 'nt-leaves' });
    const leaveButton = h('button', { type: 'submit', class: 'secondary', id: 'nt-leaves-go' }, say('stats.night-leaves-button'));
    const leaveForm = h('form', { class: 'nt-inline', novalidate: true },
      h('div', { class: 'field' }, h('label', { for: 'nt-leaves' }, say('stats.night-leaves')), leaving), leaveButton);
    leaveForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const player = leaving.value;
      act(leaveButton, say('stats.night-not-changed'), () => api(`${path}/drops`, { method: 'POST', token, body: { player } }),
        () => say('stats.night-dropped', { player }));
    });
    return h('section', { class: 'panel st-section nt-organise', 'aria-labelledby': 'nt-organise-h' },
      h('h2', { id: 'nt-organise-h' }, say('stats.night-organise')),
      h('div', { class: 'row wrap' }, drawButton), drawNote, said,
      h('div', { class: 'nt-forms' }, lateForm, leaveForm),
      elsewhere());
  }

  // the same organising on a projector's computer or a second phone: a link and its QR code
  function elsewhere() {
    const link = nightLink(id, token);
    const field = h('input', { type: 'text', readonly: true, id: 'nt-elsewhere-link', value: link, 'aria-label': say('stats.night-elsewhere-link'), onfocus: (ev) => ev.target.select() });
    const copied = h('span', { class: 'small muted', role: 'status' });
    const copy = h('button', { type: 'button', class: 'secondary', id: 'nt-elsewhere-copy', onclick: async () => {
      try { await navigator.clipboard.writeText(link); copied.textContent = say('handover.copied'); } catch { field.select(); copied.textContent = say('handover.selected'); }
    } }, say('handover.copy'));
    return h('details', { class: 'nt-elsewhere' }, h('summary', {}, say('stats.night-elsewhere')),
      h('p', { class: 'small' }, say('stats.night-elsewhere-help')),
      h('figure', { class: 'nt-qr' }, qrSvg(link, say('stats.night-elsewhere-qr'))),
      h('div', { class: 'field' }, field), h('div', { class: 'row wrap' }, copy, copied));
  }

  // the draw button says what the next draw is, or in words why there is none yet
  function drawState() {
    if (!drawButton) return;
    const last = night.draws[night.draws.length - 1];
    const playing = last ? last.tables.filter((tb) => !tb.ended).length : 0;
    drawButton.textContent = say('stats.night-draw', { n: Math.min(night.rounds_drawn + 1, night.rounds) });
    const done = night.rounds_drawn >= night.rounds;
    drawButton.hidden = done;
    drawButton.disabled = playing > 0;
    drawNote.textContent = done ? say('stats.night-all-drawn') : playing ? say('stats.night-draw-wait', { n: playing, one: playing === 1 }) : '';
    drawNote.hidden = !drawNote.textContent;
    const chosen = leaving.value;
    clear(leaving).append(...night.present.map((p) => h('option', { value: p }, p)));
    if (night.present.includes(chosen)) leaving.value = chosen;
  }

  async function refresh() {
    night = await api(path, { token });
    draw();
  }

  draw();
  const timer = setInterval(() => {
    if (document.visibilityState === 'hidden') return;
    refresh().catch(() => { /* the next tick asks again */ });
  }, POLL_MS);
  return { leave: () => clearInterval(timer) };
}
