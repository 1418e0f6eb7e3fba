// One game: the drawing of the table at any step, the timeline, recording (with the write token),
// amendments, forks, the live stream and the score at the end.
import { api, tokensOf, saveTokens } from '../api.js';
import { h, clear, errorBox, humanize, seatColour } from '../dom.js';
import { drawerFor, factsFor } from '../draw/index.js';
import { renderPicker, stripSeat } from '../picker.js';
import * as generic from '../draw/generic.js';
import { sheetOf } from '../sheet.js';
import { dieStrip } from '../dicepad.js';
import { takeHandover, handoverButton, staleToken } from '../handover.js';
import { outbox as outboxOf, newKey, unanswered } from '../offline.js';
import { t, num, lang, languageSwitch } from '../i18n.js';
import { racePanel } from '../race.js';
import { thinkPanel } from '../think.js';
import { patch } from '../frames.js';
import { endPanels } from '../share.js';

export async function show(main, q, { navigate }) {
  const id = q.get('game');
  const handed = await takeHandover(id); // before the tokens are read: a hand-over link brings some
  const g = {
    id, info: null, frames: [], pos: 0, tokens: tokensOf(id), mod: null, facts: null, content: null,
    eyes: 'public', stream: null, reloadTimer: null, busy: false, left: false,
    names: new Map(), // seq -> {move, text} of a seat's own move, whole (from this device's seat tokens)
  };
  // ?at=N opens step N as the label and the timeline number it; ?seq=N (a fork's link to its parent)
  // the step whose event is the log's seq N. Either becomes ?at= once the game is open.
  const wantAt = q.get('at'), wantSeq = q.get('seq');
  if (handed.eyes) g.eyes = handed.eyes;
  const outbox = outboxOf(id, {
    token: () => g.tokens.write,
    landed: () => reload({ toEnd: true }).catch(console.error),
    // kept until the next write: a stream's frame or a reconnect redraws the recorder meanwhile
    refused: async (e) => { g.notSent = notSent(e); await reload({ toEnd: true }).catch(console.error); g.showError && g.showError(g.notSent); },
    changed: () => { if (g.info) { renderHistory(); markCurrent(); renderRecorder(); } },
  });

  // ---- the page's skeleton ---------------------------------------------------------------------
  const title = h('h1', { class: 'game-title' }, t('game.game'));
  const meta = h('p', { class: 'game-meta' });
  const status = h('p', { class: 'status-line', role: 'status', 'aria-live': 'polite', id: 'status-line' });
  const drawing = h('div', { class: 'drawing', id: 'drawing' });
  // a game imported by its result alone (BG Stats) has no moves: the board would be an empty setup
  const noMoves = h('p', { class: 'panel no-moves', id: 'no-moves', role: 'note', hidden: true },
    t('game.no-moves'));
  const stepLabel = h('p', { class: 'step-label', id: 'step-label', 'aria-live': 'polite' });
  const badStep = h('p', { class: 'notice bad-step', id: 'bad-step', role: 'alert', hidden: true });
  // the table's notes on the step shown, beside it in the replay
  const stepNotes = h('div', { class: 'step-notes', id: 'step-notes', hidden: true });
  const slider = h('input', { type: 'range', id: 'scrub', min: 0, max: 0, step: 1, value: 0, 'aria-describedby': 'step-label' });
  // the visible text is the accessible name; the title says which key does the same
  // the arrow keys as their keycaps print them, in every language (the key hint below does so too)
  const KEY_MARK = { ArrowLeft: '←', ArrowRight: '→' };
  const btn = (text, label, keys, on, extra = {}) => h('button', { type: 'button', class: 'icon', title: t('game.key-title', { label, keys: KEY_MARK[keys] || keys }), 'aria-keyshortcuts': keys, onclick: on, ...extra }, text);
  const first = btn(t('game.first'), t('game.first-title'), 'Home', () => go(0), { id: 'step-first' });
  const back = btn(t('game.back'), t('game.back-title'), 'ArrowLeft', () => go(g.pos - 1), { id: 'step-back' });
  const fwd = btn(t('game.next'), t('game.next-title'), 'ArrowRight', () => go(g.pos + 1), { id: 'step-forward' });
  const last = btn(t('game.last'), t('game.last-title'), 'End', () => go(g.frames.length - 1), { id: 'step-last' });
  const link = h('a', { class: 'permalink', id: 'permalink', href: '#' }, t('game.link'));
  const eyesSel = h('select', { id: 'eyes' });
  const recorder = h('section', { class: 'panel recorder', id: 'recorder', 'aria-labelledby': 'rec-h' });
  const scoreBox = h('section', { class: 'panel score', id: 'score', hidden: true, 'aria-labelledby': 'score-h' });
  const history = h('ol', { class: 'history', id: 'history' });
  const forks = h('div', { class: 'forks', id: 'forks' });
  const live = h('span', { class: 'live-badge', id: 'live', hidden: true }, t('game.live'));
  const dialog = h('dialog', { class: 'amend-dialog', id: 'amend-dialog', 'aria-labelledby': 'amend-h' });
  const sheet = sheetOf(recorder, drawing); // on a phone: a bottom sheet under the board
  const race = racePanel(id, { go: (step) => go(step) });
  const think = thinkPanel(id, { go: (step) => go(step) });
  const end = endPanels(id, { tokens: () => g.tokens, step: () => g.pos });

  main.append(
    handed.notice || '',
    // the footer's language switch lies under the recording sheet on a phone: the game's head has one too
    h('div', { class: 'game-head' }, title, meta, h('div', { class: 'status-row' }, status, live), outbox.status, gameLangSwitch()),
    h('div', { class: 'game-grid' },
      h('section', { class: 'board', 'aria-label': t('game.the-table') }, noMoves, drawing),
      race.panel,
      think.panel,
      h('div', { class: 'side' },
        h('section', { class: 'panel timeline', 'aria-labelledby': 'tl-h' },
          h('h2', { id: 'tl-h' }, t('game.replay')),
          h('label', { for: 'scrub', class: 'visually-hidden' }, t('game.step-of-game')),
          slider,
          h('div', { class: 'steps' }, first, back, fwd, last),
          stepLabel,
          stepNotes,
          badStep,
          h('p', { class: 'small muted keys-hint' }, t('game.keys-hint')),
          h('div', { class: 'row' }, link, h('span', { class: 'field inline' }, h('label', { for: 'eyes' }, t('game.seen-by')), eyesSel))),
        sheet, scoreBox, ...end.panels,
        h('section', { class: 'panel', 'aria-labelledby': 'hist-h' },
          h('h2', { id: 'hist-h' }, t('game.timeline')), history),
        h('section', { class: 'panel', 'aria-labelledby': 'forks-h' },
          h('h2', { id: 'forks-h' }, t('game.forks')), forks))),
    dialog);

  // ---- loading ---------------------------------------------------------------------------------
  function eyesParams() {
    if (g.eyes === 'full') return { params: { full: true } };
    if (g.eyes.startsWith('seat-')) {
      const seat = Number(g.eyes.slice(5));
      return { params: { seat }, token: g.info.status === 'ended' ? undefined : (g.tokens.seats || [])[seat] };
    }
    return { params: {} };
  }

  async function loadFrames(fromSeq = null) {
    const e = eyesParams();
    const params = { mode: 'diff', ...e.params };
    if (fromSeq !== null) params.from_seq = fromSeq;
    const data = await api(`/games/${id}/frames`, { params, token: e.token });
    let view = null;
    return data.frames.map((f) => {
      if (f.view) view = f.view;
      else if (f.diff) view = patch(view, f.diff);
      return { ...f, view };
    });
  }

  // appended: only new events were added since the last load (a move), so only they are fetched.
  // Reloads may overlap (a write's and the live stream's): only the latest one started is shown.
  async function reload({ toEnd = false, keepSeq = null, appended = false } = {}) {
    const gen = (g.reloadGen = (g.reloadGen || 0) + 1);
    const current = () => gen === g.reloadGen && !g.left;
    const wasAtEnd = g.frames.length === 0 || g.pos === g.frames.length - 1;
    const before = g.info;
    const incremental = appended && before && g.frames.length && g.mod;
    const [info, more] = await Promise.all([api(`/games/${id}`), incremental ? loadFrames(before.last_seq + 1) : null]);
    if (!current()) return;
    const ended = before && before.status !== info.status; // the end opens every move's name: all again
    if (incremental && !ended && info.last_seq >= before.last_seq) {
      g.info = info;
      g.frames = g.frames.concat(more.filter((f) => f.seq > before.last_seq));
      await refreshContent();
      if (!current()) return;
      finish(toEnd, keepSeq, wasAtEnd);
      fillNames(before.last_seq + 1);
      return;
    }
    g.info = info;
    if (!g.mod) {
      g.mod = await drawerFor(g.info.title);
      g.facts = await factsFor(g.info.title);
      const details = await api('/titles/details').catch(() => []);
      g.titleDetail = details.find((t) => t.id === g.info.title) || null;
      g.content = await api(`/games/${id}/content`).catch(() => null);
    }
    fillEyes();
    let frames;
    try {
      frames = await loadFrames();
    } catch (err) {
      if (g.eyes === 'public') throw err;
      g.eyes = 'public'; fillEyes();
      frames = await loadFrames();
    }
    if (!current()) return;
    g.frames = frames;
    g.names = new Map();
    await refreshContent();
    if (!current()) return;
    finish(toEnd, keepSeq, wasAtEnd);
    fillNames(1);
  }

  // Before the end, public frames name a move as the table saw it; a seat's frames name its own whole. The device
  // that started the game holds every seat's token, so its timeline names every move.
  function fillNames(fromSeq) {
    // after a quiet moment: entries made in quick succession ask once
    g.namesFrom = Math.min(g.namesFrom ?? Infinity, fromSeq);
    clearTimeout(g.namesTimer);
    g.namesTimer = setTimeout(() => { const from = g.namesFrom; g.namesFrom = null; fetchNames(from).catch(console.error); }, 400);
  }
  async function fetchNames(fromSeq) {
    if (g.left || g.info.status === 'ended' || g.eyes !== 'public') return;
    const seats = (g.tokens.seats || []).map((t, s) => [s, t]).filter(([, t]) => t);
    if (!seats.length) return;
    const lists = await Promise.all(seats.map(([seat, token]) =>
      api(`/games/${id}/frames`, { params: { seat, mode: 'diff', from_seq: fromSeq }, token }).catch(() => null)));
    let changed = false;
    seats.forEach(([seat], i) => {
      for (const f of (lists[i] && lists[i].frames) || []) {
        if (f.move && f.seat === seat && !g.names.has(f.seq)) { g.names.set(f.seq, { move: f.move, text: f.text }); changed = true; }
      }
    });
    if (changed && !g.left) { renderHistory(); markCurrent(); labelStep(); }
  }
  const moveOf = (f) => (g.names.get(f.seq) || {}).move || f.move || null;
  // a title may say the server's codes in words (Marco Polo II's places by their names)
  const inWords = (text) => (g.mod && g.mod.inWords && text ? g.mod.inWords(text, g.content) : text);
  const textOf = (f) => inWords((g.names.get(f.seq) || {}).text || f.text || humanize(f.type));
  // the log's seqs, as the timeline numbers its steps (null: not a step now)
  const stepOf = (seq) => { const i = g.frames.findIndex((f) => f.seq === seq); return i < 0 ? null : i; };
  const showError = (box, e) => box.append(errorBox(e, { stepOf, lead: e && e.lead }));

  function finish(toEnd, keepSeq, wasAtEnd) {
    let pos = g.frames.length - 1;
    if (!toEnd) {
      const seq = keepSeq ?? (wasAtEnd ? null : g.frames[g.pos] && g.frames[g.pos].seq);
      if (seq !== null && seq !== undefined) pos = indexForSeq(seq);
    }
    renderHead();
    renderHistory();
    setPos(pos, { replace: true });
    if (!g.forksShown) { g.forksShown = true; renderForks(); }
    race.load(g.info).then(() => race.place(g.pos)).catch(console.error);
    think.load(g.info).catch(console.error);
    end.load(g.info).catch(console.error);
    openStream();
  }

  // a title whose log describes components (Marco Polo II's map) gets its content again when it grows
  async function refreshContent() {
    const lastView = g.frames.length ? g.frames[g.frames.length - 1].view : null;
    const described = lastView && Array.isArray(lastView.described) ? lastView.described.length : null;
    if (described === null || described === g.described) return;
    g.described = described;
    g.content = await api(`/games/${id}/content`).catch(() => g.content);
  }

  function indexForSeq(seq) {
    let best = 0;
    g.frames.forEach((f, i) => { if (f.seq <= seq) best = i; });
    return best;
  }

  function fillEyes() {
    const ended = g.info.status === 'ended';
    const keep = g.eyes;
    const opts = [h('option', { value: 'public' }, t('game.eyes-public'))];
    g.info.players.forEach((p, s) => {
      if (ended || (g.tokens.seats || [])[s]) opts.push(h('option', { value: `seat-${s}` }, t('game.eyes-seat', { player: p })));
    });
    if (ended) opts.push(h('option', { value: 'full' }, t('game.eyes-full')));
    clear(eyesSel).append(...opts);
    eyesSel.value = [...eyesSel.options].some((o) => o.value === keep) ? keep : 'public';
    g.eyes = eyesSel.value;
  }
  eyesSel.addEventListener('change', async () => {
    g.eyes = eyesSel.value;
    await reload({ keepSeq: g.frames[g.pos] ? g.frames[g.pos].seq : null });
  });

  // ---- header ----------------------------------------------------------------------------------
  function renderHead() {
    const i = g.info;
    const name = g.titleDetail ? g.titleDetail.name : i.title;
    title.textContent = name;
    document.title = `${name}: ${i.players.join(', ')} · tabletape`;
    clear(meta).append(...[
      h('span', { class: 'players' }, i.players.map((p, s) => h('span', { class: 'player', style: `--seat:${seatColour(s)}`, 'data-seat': s }, p))),
      h('span', { class: `badge ${i.status}` }, i.status === 'ended' ? t('game.ended') : t('game.in-progress')),
      i.score_only ? h('span', { class: 'badge', id: 'score-only' }, t('game.score-only'))
        : i.digital ? h('span', { class: 'badge' }, t('game.digital')) : h('span', { class: 'badge' }, t('game.at-the-table')),
      i.parent_id ? h('a', { href: `/?game=${i.parent_id}&seq=${i.forked_at}` }, t('game.fork-of')) : null,
      i.result_differs ? h('span', { class: 'badge rules-flag', id: 'rules-flag', title: i.result_differs.message }, t('game.rules-differ')) : null].filter(Boolean));
    live.hidden = i.status === 'ended';
    noMoves.hidden = !i.score_only;
    drawing.hidden = !!i.score_only;
  }

  // ---- position ----------------------------------------------------------------------------------
  function setPos(pos, { replace = false } = {}) {
    pos = Math.max(0, Math.min(g.frames.length - 1, pos));
    g.pos = pos;
    const f = g.frames[pos];
    slider.max = String(g.frames.length - 1);
    slider.value = String(pos);
    labelStep();
    first.disabled = back.disabled = pos === 0;
    fwd.disabled = last.disabled = pos === g.frames.length - 1;
    status.textContent = inWords(f.status);
    drawing.dataset.seq = String(f.seq);
    drawing.dataset.index = String(pos);
    drawTable(f);
    markCurrent();
    const url = new URL(location.href);
    url.searchParams.delete('seq');
    if (pos === g.frames.length - 1) url.searchParams.delete('at'); else url.searchParams.set('at', String(pos));
    history_(url, replace);
    link.href = `/?game=${id}&at=${pos}`;
    renderScore(f);
    renderRecorder();
    race.place(pos);
    end.step();
  }
  // a link's ?at= (or ?seq=) that names no step here says so instead of quietly showing another
  function openAsked() {
    if (wantAt === null && (wantSeq === null || /^\d+$/.test(wantSeq))) return;
    const asked = wantAt !== null ? wantAt : wantSeq;
    const steps = g.frames.length - 1;
    if (wantAt !== null && /^\d+$/.test(wantAt) && Number(wantAt) <= steps) { setPos(Number(wantAt), { replace: true }); return; }
    badStep.textContent = t('game.no-such-step', { asked: asked.slice(0, 20), steps });
    badStep.hidden = false;
  }
  function labelStep() {
    const f = g.frames[g.pos];
    const text = t('game.step-of', { step: g.pos, steps: g.frames.length - 1, text: textOf(f) });
    stepLabel.textContent = text;
    slider.setAttribute('aria-valuetext', text);
    const notes = f.notes || [];
    stepNotes.hidden = !notes.length;
    clear(stepNotes).append(...(notes.length ? [h('p', { class: 'small muted' }, t('game.notes-here', { step: g.pos })), notesList(notes)] : []));
  }
  function notesList(notes, edit = null) {
    return h('ul', { class: 'notes' }, notes.map((n) => h('li', { class: 'note' },
      h('span', { class: 'note-text' }, n.text),
      n.amended_by ? h('span', { class: 'muted small' }, ' ', t('game.corrected')) : null,
      edit ? edit(n) : null)));
  }
  function markCurrent() {
    for (const li of history.children) {
      if (Number(li.dataset.index) === g.pos) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
    }
  }
  function history_(url, replace) {
    const s = url.pathname + url.search;
    if (s === location.pathname + location.search) return;
    window.history.replaceState(null, '', s); // scrubbing is not navigation: one history entry per game
  }
  function go(pos) { if (g.frames.length) { badStep.hidden = true; setPos(pos); } }
  slider.addEventListener('input', () => { badStep.hidden = true; setPos(Number(slider.value)); });

  function drawTable(f) {
    const ctx = { players: g.info.players, content: g.content, frame: f, info: g.info, eyes: g.eyes };
    try {
      g.mod.draw(drawing, f.view, ctx);
    } catch (err) {
      console.error('drawing failed, showing the generic view', err);
      generic.draw(drawing, f.view, ctx);
    }
  }

  function renderScore(f) {
    const ended = f.ended;
    scoreBox.hidden = !ended;
    clear(scoreBox);
    if (!ended) return;
    scoreBox.append(h('h2', { id: 'score-h' }, t('game.final-score')));
    const outcome = g.info.outcome;
    if (outcome) {
      scoreBox.append(h('ol', { class: 'ranking' }, g.info.players
        // a play recorded by its winners alone has no scores: the ranking shows who won
        .map((p, s) => ({ p, s, score: outcome.scores.length ? outcome.scores[s] : null, rank: outcome.ranks[s] }))
        .sort((a, b) => a.rank - b.rank)
        .map((r) => h('li', { 'data-seat': r.s, 'data-score': r.score, class: outcome.winners.includes(r.s) ? 'winner' : '' },
          h('span', { class: 'player', style: `--seat:${seatColour(r.s)}` }, r.p), r.score === null ? '' : ` ${num(r.score)}`, outcome.winners.includes(r.s) ? h('span', { class: 'badge' }, t('game.winner')) : ''))));
    }
    const differs = g.info.result_differs;
    if (differs) {
      scoreBox.append(h('p', { class: 'rules-flag', id: 'rules-differ', role: 'note' },
        h('strong', {}, t('game.rules-compute')), ' ', differs.message,
        t('game.result-stands')));
    }
    if (g.info.score_only) return; // no moves: nothing to break the score down by
    const breakdown = (g.mod.score || generic.score)(f.view, { players: g.info.players });
    if (breakdown) scoreBox.append(breakdown);
  }

  // ---- the timeline list -------------------------------------------------------------------------
  function renderHistory() {
    const canAmend = !!g.tokens.write;
    clear(history).append(...g.frames.map((f, i) => {
      const move = moveOf(f);
      const dot = f.seat !== null && f.seat !== undefined ? h('span', { class: 'seat-dot', style: `--seat:${seatColour(f.seat)}`, 'aria-hidden': 'true' }) : null;
      const li = h('li', { 'data-index': i, 'data-seq': f.seq, 'data-type': f.type },
        h('button', { type: 'button', class: 'link step-no', onclick: () => setPos(i), 'aria-label': t('game.go-to-step', { step: i }) }, num(i)),
        ' ', dot, h('span', { class: 'said' }, textOf(f)), g.mod.timelineFace ? g.mod.timelineFace(move, f, g.content, i ? g.frames[i - 1].view : null) : null,
        move ? [' ', h('code', { class: 'notation', 'data-move': move, title: shortMove(move) }, shortMove(move))] : null,
        f.amended_by ? h('span', { class: 'muted small' }, ' ', t('game.corrected')) : null,
        canAmend && i > 0 && !f.type.startsWith('game.')
          ? h('button', { type: 'button', class: 'small secondary amend', 'data-amend': f.seq, 'aria-label': t('game.correct-step', { step: i }), onclick: () => openAmend(i) }, t('game.correct'))
          : null,
        canAmend ? h('button', { type: 'button', class: 'small secondary add-note', 'data-note-step': i, 'aria-label': t('game.add-note-step', { step: i }), onclick: () => openNote(i) }, t('game.add-note')) : null,
        f.notes && f.notes.length
          ? notesList(f.notes, canAmend ? (n) => h('button', { type: 'button', class: 'small secondary edit-note', 'aria-label': t('game.edit-note-step', { step: i }), onclick: () => openNote(i, n) }, t('game.edit-note')) : null)
          : null);
      return li;
    }), ...outbox.timelineItems());
  }

  // ---- recording ---------------------------------------------------------------------------------
  let recToken = 0;
  async function renderRecorder() {
    const mine = ++recToken;
    recorder.dataset.ready = 'false';
    try { await fillRecorder(mine); } finally {
      if (mine === recToken) { recorder.dataset.ready = 'true'; recorder.dataset.lastSeq = String(g.info.last_seq); sheet.placeBoard(); }
    }
  }
  async function fillRecorder(mine) {
    clear(recorder);
    focusOnMoves([]); // a decision made (or left): the whole map again, unless the reader zoomed it
    const i = g.info;
    recorder.classList.toggle('recording', !!g.tokens.write && i.status !== 'ended');
    if (!g.tokens.write) {
      recorder.hidden = i.status === 'ended';
      recorder.append(h('h2', { id: 'rec-h' }, t('game.recording')),
        h('p', { class: 'muted' }, t('game.following')),
        h('details', {}, h('summary', {}, t('game.have-token')), tokenForm()));
      return;
    }
    recorder.hidden = false;
    const atEnd = g.pos === g.frames.length - 1;
    const toMove = i.to_move_player ? h('span', { class: 'player', style: `--seat:${seatColour(i.to_move)}` }, i.to_move_player) : null;
    const undoB = h('button', { type: 'button', id: 'undo', class: 'secondary', onclick: () => write('undo', {}), disabled: i.last_seq <= 1 }, t('game.undo'));
    const redoB = h('button', { type: 'button', id: 'redo', class: 'secondary', onclick: () => write('redo', {}), disabled: !i.can_redo }, t('game.redo'));
    // undo to a raw seq returns the log to how it stood then: amendments recorded later go too
    const here = g.frames[g.pos];
    const amendedLater = g.frames.some((f) => f.amended_by && f.amended_by > here.seq);
    const undoTo = h('button', {
      type: 'button', id: 'undo-to', class: 'secondary', disabled: atEnd,
      title: amendedLater ? t('game.undo-to-title-corrections', { step: g.pos }) : t('game.undo-to-title', { step: g.pos }),
      onclick: () => confirmUndoTo(g.pos),
    }, amendedLater ? t('game.undo-to-corrections') : t('game.undo-to'));
    const fork = h('button', { type: 'button', id: 'fork', class: 'secondary', onclick: forkHere }, t('game.fork'));
    const err = h('div', { id: 'rec-error', 'aria-live': 'assertive' });
    const pick = h('div', { class: 'picker', id: 'picker' });
    const facts = h('div', { class: 'facts', id: 'facts' });
    recorder.append(...[h('h2', { id: 'rec-h' }, t('game.record')),
      i.status === 'ended' ? h('p', {}, t('game.has-ended')) : h('p', { class: 'turn' }, toMove ? [t('game.to-move'), ' ', toMove] : t('game.table-reports')),
      err, atEnd || i.status === 'ended' ? null : h('p', { class: 'notice' }, t('game.earlier-step'), ' ',
        h('button', { type: 'button', class: 'link', onclick: () => go(g.frames.length - 1) }, t('game.go-latest')), ' ', t('game.to-record')),
      earlierMoves(),
      atEnd && i.status !== 'ended' ? [pick, facts] : null,
      h('div', { class: 'row wrap' }, undoB, redoB, undoTo, fork,
        i.status === 'ended' ? null : handoverButton({ id, players: i.players, tokens: () => g.tokens }, () => { g.tokens = tokensOf(id); fillEyes(); renderHistory(); renderRecorder(); }))].flat().filter(Boolean));
    g.showError = (e) => {
      clear(err);
      if (!e) return;
      showError(err, e);
      err.scrollIntoView({ block: 'nearest' });
    };
    if (g.notSent) showError(err, g.notSent);
    if (!atEnd || i.status === 'ended') return;
    if (outbox.pending().length) { pick.append(h('p', { class: 'muted', id: 'picker-waits' }, t('game.waits'))); return; }
    pick.append(h('p', { class: 'muted' }, t('game.loading-moves')));
    try {
      const [legal, chance] = await Promise.all([
        api(`/games/${id}/legal-moves`, { token: g.tokens.write }),
        api(`/games/${id}/chance`, { token: g.tokens.write }).catch(() => null),
      ]);
      if (mine !== recToken) return;
      const view = g.frames[g.pos].view;
      const shown = renderPicker(pick, legal.moves, { onPick: (m) => record(m.notation, m.move), onShow: focusOnMoves, mod: g.mod, view, content: g.content });
      const strip = dieStrip(legal.moves, { onPick: (m) => record(m.notation, m.move), view }); // a reroll: the die, then its value
      if (strip) pick.prepend(strip);
      const factsShown = chance && chance.kind ? await g.facts.render(facts, { chance, view, info: i, content: g.content, record, compose, frames: g.frames }) : false;
      if (!factsShown && g.facts.always) await g.facts.always(facts, { view, info: i, content: g.content, record, compose, legal, frames: g.frames });
      if (!shown && !facts.childNodes.length) {
        // nothing to pick and no form for this fact: the table's report in the title's notation
        pick.append(h('p', { class: 'muted' }, legal.status_line), notationForm());
      }
      if (g.refocus) { g.refocus = false; focusPicker(pick, facts); }
      nextInView(pick, facts);
    } catch (e) {
      showError(clear(pick), staleToken(e));
    }
  }

  function notationForm() {
    const input = h('input', { id: 'fact-notation', type: 'text', autocomplete: 'off', spellcheck: 'false', required: true });
    return h('form', { class: 'notation-form', 'data-fact': 'notation', onsubmit: async (ev) => { ev.preventDefault(); if (await record(input.value.trim())) input.value = ''; } },
      h('div', { class: 'field' }, h('label', { for: 'fact-notation' }, t('game.notation')), input),
      h('button', { type: 'submit', class: 'primary' }, t('game.record-it')));
  }

  function tokenForm() {
    const input = h('input', { id: 'write-token', type: 'password', autocomplete: 'off', required: true });
    return h('form', { onsubmit: (ev) => { ev.preventDefault(); saveTokens(id, { write: input.value.trim() }); g.tokens = tokensOf(id); renderHistory(); renderRecorder(); } },
      h('div', { class: 'field' }, h('label', { for: 'write-token' }, t('game.write-token')), input), h('button', { type: 'submit' }, t('game.use-it')));
  }

  async function compose(outcome) {
    return api(`/games/${id}/chance`, { method: 'POST', token: g.tokens.write, body: { outcome } });
  }

  async function record(notation, move) {
    const body = notation ? { notation } : { move };
    g.refocus = true; // after a move the keyboard stays in the picker, not on the page's body
    return write('moves', body, { move, label: moveText(notation, move) });
  }

  // a move as the picker names it, with who makes it: the timeline's line while it waits to be sent
  function moveText(notation, move) {
    let label = null;
    try { label = g.mod.moveLabel ? g.mod.moveLabel({ notation, move }, g.frames[g.pos].view, g.content) : null; } catch { label = null; }
    if (label instanceof Node) label = label.getAttribute && label.getAttribute('aria-label') || label.textContent;
    const named = (typeof label === 'string' && label.trim()) || stripSeat(notation);
    // the event's kind in words is English (its tag); another language shows the picker's label alone
    const kind = move && move.type && lang === 'en' ? humanize(move.type) : null;
    const text = [kind, named].filter(Boolean).join(': ') || t('game.a-move');
    return g.info.to_move_player ? `${g.info.to_move_player}: ${text}` : text;
  }

  // The part of the board the moves shown need: a travel's places (where it goes, and the figure
  // that goes) with the map zoomed to them (mapzoom.js); dice placed on the action board: that board
  // in view. None (a decision made): the whole map again, and the board back to its top.
  function focusOnMoves(list) {
    const wrap = drawing.querySelector('.mp-map-wrap.zoomable');
    const actions = drawing.querySelector('.mp-board');
    const ids = new Set();
    for (const m of list) for (const k of ['path', 'path2']) for (const id of (m.move && Array.isArray(m.move[k]) ? m.move[k] : [])) ids.add(id);
    const dice = list.length && list.every((m) => m.move && (m.move.die !== undefined || Array.isArray(m.move.dice)));
    if (wrap && wrap.focusOn && ids.size) {
      const view = g.frames[g.pos] && g.frames[g.pos].view;
      const seat = view && Array.isArray(view.seats) ? view.seats.find((p) => p.seat === view.to_move) : null;
      for (const id of (seat && seat.figures) || []) ids.add(id);
      wrap.focusOn([...wrap.querySelectorAll('.mp-loc[data-loc]')].filter((p) => ids.has(p.dataset.loc)));
      showOnBoard(wrap);
      return;
    }
    if (wrap && wrap.unfocus) wrap.unfocus();
    if (dice && actions) showOnBoard(actions, 200); // its top rows in view are enough: the map may stay
    else showOnBoard(null);
  }
  // on a phone the board scrolls inside itself above the sheet: ``el`` to its top unless ``enough``
  // px of it already show (null: the board's own top again, if the page had moved it)
  function showOnBoard(el, enough = Infinity) {
    const board = drawing.closest('.board');
    if (!board || board.scrollHeight <= board.clientHeight + 1 || !sheet.phone()) return;
    if (!el) { if (board.dataset.moved) { board.scrollTop = 0; delete board.dataset.moved; } return; }
    const r = el.getBoundingClientRect(); const b = board.getBoundingClientRect();
    if (Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top) >= Math.min(enough, r.height) - 1) return;
    board.scrollTop += r.top - b.top - 4;
    board.dataset.moved = 'true';
  }

  // Focus the next choice in the picker (the kind already chosen, else the first); on a wide
  // screen the choices scrolled into view (on a phone nextInView scrolls the sheet's list).
  function focusPicker(pick, facts) {
    const target = pick.querySelector('.options-area .move') || pick.querySelector('.kind')
      || facts.querySelector('button, select, input, summary');
    if (!target) return;
    target.focus({ preventScroll: true });
    if (sheet.phone()) return;
    const area = pick.querySelector('.options-area') || pick;
    (area.childNodes.length ? area : target).scrollIntoView({ block: 'nearest' });
  }

  // On a phone, the next choice scrolled into view inside the sheet's list (the page and the board stay put):
  // the form for what chance decided, else the moves on offer, else the kinds and the dice strip.
  function nextInView(pick, facts) {
    const form = facts.querySelector('form, .fact');
    if (form) { sheet.reveal(form); return; }
    const moves = pick.querySelector('.options-area .moves');
    sheet.reveal(moves && moves.childNodes.length ? moves : pick.querySelector('.kinds'));
    sheet.reveal(pick.querySelector('.die-strip'));
  }

  // Any earlier move, newest first, inside the sheet with the board above it: its correction or a
  // take-back to just before it is a tap on the list and (for several moves) a tap to confirm.
  function earlierMoves() {
    if (g.frames.length < 2) return null;
    const rows = [];
    for (let i = g.frames.length - 1; i > 0; i--) {
      const f = g.frames[i];
      const correct = !f.type.startsWith('game.')
        ? h('button', { type: 'button', class: 'small secondary', 'data-correct': i, 'aria-label': t('game.correct-step', { step: i }), onclick: () => openAmend(i) }, t('game.correct'))
        : null;
      const back = h('button', { type: 'button', class: 'small secondary', 'data-take-back': i, 'aria-label': t('game.take-back-from-step', { step: i }), onclick: () => confirmUndoTo(i - 1) }, t('game.take-back-from'));
      const noteB = h('button', { type: 'button', class: 'small secondary', 'data-note': i, 'aria-label': t('game.add-note-step', { step: i }), onclick: () => openNote(i) }, t('game.add-note'));
      rows.push(h('li', { 'data-index': i }, h('span', { class: 'em-step' }, num(i)), h('span', { class: 'said' }, textOf(f)), h('span', { class: 'em-do' }, correct, noteB, back),
        f.notes && f.notes.length ? notesList(f.notes) : null));
    }
    // opened: the list to the sheet's top, where it fits whole (it scrolls on its own)
    return h('details', { class: 'earlier-moves', id: 'earlier-moves', ontoggle: (ev) => { if (ev.currentTarget.open) sheet.reveal(ev.currentTarget, { start: true }); } },
      h('summary', {}, t('game.earlier-moves')), h('ol', { class: 'em-list' }, rows));
  }

  // Undo back to a step: more than one move goes only once the table says so.
  function confirmUndoTo(pos) {
    const here = g.frames[pos];
    const count = g.frames.length - 1 - pos;
    if (count <= 1) { write('undo', { to_seq: here.seq }); return; }
    clear(dialog);
    const yes = h('button', { type: 'button', class: 'primary danger', id: 'undo-to-confirm', onclick: () => { dialog.close(); write('undo', { to_seq: here.seq }); } }, t('game.take-back', { count }));
    const no = h('button', { type: 'button', class: 'secondary', id: 'undo-to-cancel', onclick: () => dialog.close() }, t('game.keep-them'));
    dialog.setAttribute('aria-labelledby', 'undo-h');
    dialog.append(h('h2', { id: 'undo-h' }, t('game.undo-to-heading', { step: pos })),
      h('p', {}, t('game.undo-to-text', { count, from: pos + 1, to: g.frames.length - 1, first: textOf(g.frames[pos + 1]), last: textOf(g.frames[g.frames.length - 1]) })),
      h('div', { class: 'row' }, no, yes));
    dialog.showModal();
    no.focus();
  }

  async function write(what, body, queued = {}) {
    if (g.busy) return false;
    if (outbox.pending().length) { g.showError && g.showError({ code: 'move-not-sent', message: t('game.wait-not-sent') }); return false; }
    g.busy = true;
    g.notSent = null;
    g.showError && g.showError(null);
    let sent = { ...body, expected_seq: g.info.last_seq, actor: 'web', ...(what === 'moves' ? { idempotency_key: newKey() } : {}) };
    try {
      if (what === 'moves') {
        const out = await postDescribing(what, sent, queued.move);
        sent = out.sent;
        queued = { ...queued, move: out.move };
      } else await api(`/games/${id}/${what}`, { method: 'POST', token: g.tokens.write, body: sent });
      await reload({ toEnd: true, appended: what === 'moves' });
      return true;
    } catch (e) {
      g.refocus = false;
      // sent again as the structured move: its notation may not parse once the move is in
      if (what === 'moves' && unanswered(e)) { outbox.hold(queued.move ? { ...sent, notation: undefined, move: queued.move } : sent, queued.label); return true; }
      if (e.code === 'stale-expected-seq') await reload({ toEnd: true });
      g.showError && g.showError(e);
      return false;
    } finally {
      g.busy = false;
    }
  }

  // A move (or a correction) posted; refused for a component the pack lacks, the component is asked
  // for and the move goes again carrying it. Resolves to what was sent last; throws the refusal.
  async function postDescribing(what, sent, move) {
    for (;;) {
      try {
        await api(`/games/${id}/${what}`, { method: 'POST', token: g.tokens.write, body: sent });
        return { sent, move };
      } catch (e) {
        const again = await describedAgain(e, sent, move);
        if (!again) throw e;
        sent = again;
        move = again.move;
      }
    }
  }

  // A move refused for a component the game's pack lacks: the title asks the table for it (its
  // form, never JSON) and the same move goes again carrying it; null when not asked or closed.
  async function describedAgain(e, sent, move) {
    const missing = e.body || {};
    // a correction's refusal names the rule it broke: the same question, the same form
    if (!/\.undescribed(-component)?$/.test(missing.rule || e.code || '') || !missing.kind || !missing.id || !g.facts.askComponent) return null;
    const base = sent.move || move;
    if (!base) return null;
    const got = await g.facts.askComponent({ kind: missing.kind, id: missing.id, why: t('game.move-needs-it'), content: g.content });
    if (!got) {
      const what = (g.facts.componentName && g.facts.componentName(missing.kind)) || missing.kind;
      throw Object.assign(new Error(t('game.needs-component', { what, id: missing.id })), { code: e.code, body: e.body });
    }
    const describe = [...(base.describe || []), { kind: missing.kind, id: missing.id, spec: got.spec }];
    return { ...sent, notation: undefined, move: { ...base, describe }, ...(sent.idempotency_key ? { idempotency_key: newKey() } : {}) };
  }

  async function forkHere() {
    const f = g.frames[g.pos];
    try {
      const out = await api(`/games/${id}/fork`, { method: 'POST', token: g.tokens.write, body: { at_seq: f.seq, actor: 'web' } });
      if (out.tokens) saveTokens(out.game_id, { write: out.tokens.write_token, seats: out.tokens.seat_tokens.map((t) => t.token) });
      else saveTokens(out.game_id, g.tokens);
      navigate(`/?game=${out.game_id}`);
    } catch (e) { g.showError && g.showError(e); }
  }

  // ---- amendments --------------------------------------------------------------------------------
  async function openAmend(i) {
    const f = g.frames[i];
    const before = g.frames[i - 1];
    clear(dialog);
    const err = h('div', { 'aria-live': 'assertive' });
    const pick = h('div', { class: 'picker' });
    const facts = h('div', { class: 'facts' });
    const close = h('button', { type: 'button', class: 'secondary', onclick: () => dialog.close() }, t('game.cancel'));
    dialog.setAttribute('aria-labelledby', 'amend-h');
    dialog.append(h('h2', { id: 'amend-h' }, t('game.correct-step', { step: i })),
      h('p', {}, t('game.recorded'), ' ', h('strong', {}, textOf(f)), t('game.amend-help')),
      err, pick, facts, h('div', { class: 'row' }, close));
    dialog.showModal();
    const amend = async (notation, move) => {
      clear(err);
      try {
        await postDescribing('amend', { seq: f.seq, ...(notation ? { notation } : { move }), expected_seq: g.info.last_seq, actor: 'web' }, move);
        dialog.close();
        await reload({ toEnd: true }); // back to the latest step, where recording goes on
        return true;
      } catch (e) { err.append(errorBox(e, { stepOf, lead: t('game.not-corrected') })); return false; }
    };
    try {
      const [legal, chance] = await Promise.all([
        api(`/games/${id}/legal-moves`, { token: g.tokens.write, params: { at: before.seq } }),
        api(`/games/${id}/chance`, { token: g.tokens.write, params: { at: before.seq } }).catch(() => null),
      ]);
      renderPicker(pick, legal.moves, { onPick: (m) => amend(m.notation, m.move), mod: g.mod, view: before.view, content: g.content, label: t('game.replace-with') });
      if (chance && chance.kind) {
        await g.facts.render(facts, { chance, view: before.view, info: g.info, content: g.content, record: amend, frames: g.frames.slice(0, i),
          compose: (outcome) => api(`/games/${id}/chance`, { method: 'POST', token: g.tokens.write, body: { outcome, at: before.seq } }) });
      }
    } catch (e) { showError(err, e); }
  }

  // A note on a step: written (or corrected) in a dialog; it changes nothing in the game.
  function openNote(i, note = null) {
    const f = g.frames[i];
    clear(dialog);
    const err = h('div', { 'aria-live': 'assertive' });
    const box = h('textarea', { id: 'note-text', rows: 4, maxlength: 500 });
    box.value = note ? note.text : '';
    const save = h('button', { type: 'submit', class: 'primary', id: 'note-save' }, t('game.save-note'));
    const close = h('button', { type: 'button', class: 'secondary', id: 'note-cancel', onclick: () => dialog.close() }, t('game.cancel'));
    const form = h('form', { method: 'dialog' },
      h('p', {}, t('game.note-on'), ' ', h('strong', {}, textOf(f))),
      h('p', { class: 'small muted' }, t('game.note-help')),
      h('label', { for: 'note-text' }, t('game.note-label')), box, err, h('div', { class: 'row' }, close, save));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      clear(err);
      save.disabled = true;
      try {
        const body = note
          ? { seq: note.seq, move: { type: 'game.annotated', seq: f.seq, text: box.value }, expected_seq: g.info.last_seq, actor: 'web' }
          : { step: i, text: box.value, expected_seq: g.info.last_seq, actor: 'web', idempotency_key: newKey() };
        await api(`/games/${id}/${note ? 'amend' : 'notes'}`, { method: 'POST', token: g.tokens.write, body });
        dialog.close();
        await reload({ keepSeq: f.seq });
      } catch (e) {
        if (e.code === 'stale-expected-seq') await reload({ keepSeq: f.seq }).catch(console.error);
        err.append(errorBox(e, { stepOf, lead: t('game.note-not-saved') }));
      } finally { save.disabled = false; }
    });
    dialog.setAttribute('aria-labelledby', 'note-h');
    dialog.append(h('h2', { id: 'note-h' }, note ? t('game.edit-note-step', { step: i }) : t('game.add-note-step', { step: i })), form);
    dialog.showModal();
    box.focus();
  }

  // ---- forks -------------------------------------------------------------------------------------
  async function renderForks() {
    try {
      const all = await api('/games', { params: { limit: 500, title: g.info.title } });
      const mine = all.games.filter((x) => x.parent_id === id);
      clear(forks).append(mine.length
        ? h('ul', {}, mine.map((x) => h('li', { 'data-fork': x.game_id }, h('a', { href: `/?game=${x.game_id}` }, t('game.fork-at', { step: indexForSeq(x.forked_at) })), ` · ${x.status === 'ended' ? t('game.ended') : t('game.in-progress')}`)))
        : h('p', { class: 'muted' }, t('game.no-forks')));
    } catch { clear(forks); }
  }

  // ---- live --------------------------------------------------------------------------------------
  function openStream() {
    if (g.left) return;
    if (g.info.status === 'ended') { if (g.stream) { g.stream.close(); g.stream = null; } return; }
    if (g.stream) return;
    const es = new EventSource(`/games/${id}/stream?since=${g.info.last_seq}&lang=${lang}`);
    es.onopen = () => { live.textContent = t('game.live'); live.classList.remove('off'); };
    es.onerror = () => { live.textContent = t('game.reconnecting'); live.classList.add('off'); };
    es.onmessage = (ev) => {
      g.streamSeq = Math.max(g.streamSeq || 0, Number(ev.lastEventId) || 0);
      try { if (JSON.parse(ev.data).edit) g.streamEdit = true; } catch { g.streamEdit = true; }
      syncSoon();
    };
    g.stream = es;
  }
  // the device knows it lost its network before the stream does (a phone out of range): the badge
  // says so at once, and "live" again only once the stream is open
  function onNetwork() {
    // a stream the browser gave up on while offline is opened again once the network is back
    if (navigator.onLine && g.stream && g.stream.readyState === EventSource.CLOSED) { g.stream = null; openStream(); }
    const open = navigator.onLine && g.stream && g.stream.readyState === EventSource.OPEN;
    live.textContent = t(open ? 'game.live' : 'game.reconnecting');
    live.classList.toggle('off', !open);
  }
  window.addEventListener('offline', onNetwork);
  window.addEventListener('online', onNetwork);
  // a new event on the stream: reload once this page's own write (if any) has settled
  function syncSoon() {
    clearTimeout(g.reloadTimer);
    g.reloadTimer = setTimeout(async () => {
      if (g.left) return;
      if (g.busy) { syncSoon(); return; }
      if ((g.streamSeq || 0) > g.info.last_seq) {
        const appended = !g.streamEdit;
        g.streamEdit = false;
        await reload({ appended }).catch(console.error);
      }
    }, 150);
  }

  // ---- keys --------------------------------------------------------------------------------------
  function onKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t === slider || (t.closest && t.closest('input, select, textarea, dialog[open]'))) return;
    const to = { ArrowLeft: g.pos - 1, ArrowRight: g.pos + 1, Home: 0, End: g.frames.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    go(to);
  }
  document.addEventListener('keydown', onKey);

  const seq = wantSeq !== null && /^\d+$/.test(wantSeq) ? Number(wantSeq) : null;
  await reload({ keepSeq: seq, toEnd: seq === null });
  openAsked();
  return {
    leave() {
      g.left = true;
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('offline', onNetwork);
      window.removeEventListener('online', onNetwork);
      if (g.stream) g.stream.close();
      outbox.stop();
      clearTimeout(g.reloadTimer);
      clearTimeout(g.namesTimer);
    },
  };
}

// the language switch in the game's head (reachable above the recording sheet on a phone)
function gameLangSwitch() {
  const nav = languageSwitch();
  nav.classList.add('game-lang');
  return nav;
}

// a move as the timeline writes it: what was described is shown by the step, not as its data
function shortMove(move) {
  const text = stripSeat(move);
  const at = text.indexOf(' describe=');
  return at < 0 ? text : t('game.with-described', { move: text.slice(0, at) });
}

// a queued move the server turned down, in the table's words
// a queued move the server turned down, in words about the offline move rather than the request
function notSent(e) {
  if (e.code === 'move-taken-back') return { code: e.code, body: e.body, lead: t('game.taken-back'), message: t('game.taken-back-offline') };
  if (e.code !== 'stale-expected-seq') return e;
  return { code: e.code, body: e.body, message: t('game.not-sent') };
}
