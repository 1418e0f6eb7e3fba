// A tiny element builder: h('p', {class: 'x', onclick: f}, 'text', child...).
import { lang, t } from './i18n.js';

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVGNS = 'http://www.w3.org/2000/svg';
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) { while (el.firstChild) el.firstChild.remove(); return el; }

// each at least 4.5:1 against white, the text on a die of that seat
export const SEAT_COLOURS = ['#0b6bcb', '#a84c00', '#17723e', '#b0307a', '#6d4fc2', '#7a6a00'];
export const seatColour = (seat) => SEAT_COLOURS[((seat ?? 0) % SEAT_COLOURS.length + SEAT_COLOURS.length) % SEAT_COLOURS.length];

export function humanize(tag) {
  const last = String(tag).split('.').pop().replace(/[-_]/g, ' ');
  return last.charAt(0).toUpperCase() + last.slice(1);
}

// The rulebook's own words end a rule's message as a quotation: `...: "En su turno, ..."`.
const QUOTE = /:?\s*("[^"]*"|“[^”]*”|「[^」]*」)(\s*\([^)]*\))?\s*$/;

// An error as the table reads it: a sentence naming the rule; the code, the rulebook's words and
// the raw message behind "Details". ``stepOf(seq)`` turns the log's seqs into the timeline's steps.
export function plainError(err, { stepOf = null } = {}) {
  const body = (err && err.body) || {};
  const code = (err && err.code) || 'error';
  // the log's own words (expected_seq, the game's id) mean nothing at the table
  let text = code === 'stale-expected-seq' ? t('error.recorded-first') : String((err && err.message) || err || '');
  const quotes = [];
  for (let m = text.match(QUOTE); m; m = text.match(QUOTE)) {
    quotes.unshift(m[1] + (m[2] || ''));
    text = text.slice(0, m.index);
  }
  if (stepOf) text = text.replace(/\bseq (\d+)/g, (_, n) => { const st = stepOf(Number(n)); return st === null ? t('error.a-later-step') : t('error.step', { step: st }); });
  text = text.replace(/\bseat (\d+) \(([^)]+)\)/g, '$2').replace(/^body\.players\.\d+: .*$/, t('error.every-player-named'));
  text = text.charAt(0).toUpperCase() + text.slice(1);
  if (text && !/[.!?。！？]$/.test(text)) text += lang === 'ja' ? '。' : '.';
  const rule = body.rule || (code.includes('.') ? code : null);
  // the code's words are English: another language's message names its rule in its own words
  const ruleName = rule && lang === 'en' ? humanize(rule) : null;
  if (body.rulebook && body.rulebook.text && !quotes.some((q) => q.includes(body.rulebook.text))) quotes.push(body.rulebook.text);
  // a message that starts by naming its rule ("bad content pack: ...") is not told it twice
  if (ruleName && text.toLowerCase().startsWith(`${ruleName.toLowerCase()}: `)) text = text.slice(ruleName.length + 2);
  return { text, code, rule, ruleName, quotes };
}

export function errorBox(err, opts = {}) {
  const e = plainError(err, opts);
  const seq = err && err.body && err.body.breaking_seq ? err.body.breaking_seq : null;
  const where = seq && opts.stepOf && opts.stepOf(seq) !== null ? t('error.step', { step: opts.stepOf(seq) }) : seq ? t('error.log-entry', { seq }) : null;
  return h('div', { class: 'error', role: 'alert', 'data-code': e.code, ...(e.rule ? { 'data-rule': e.rule } : {}) },
    h('p', {}, h('strong', {}, `${opts.lead || t('error.not-recorded')} `), e.ruleName ? h('span', { class: 'rule-name' }, `${e.ruleName}: `) : null, e.text),
    h('details', { class: 'error-details' }, h('summary', {}, t('error.details')),
      h('p', {}, t('error.code'), ' ', h('code', { class: 'code' }, e.code), e.rule && e.rule !== e.code ? [` · ${t('error.rule')} `, h('code', {}, e.rule)] : null,
        where ? ` · ${t('error.breaks-at', { where })}` : null),
      e.quotes.length ? h('blockquote', { class: 'rulebook' }, h('p', { class: 'small muted' }, t('error.rulebook-says')), e.quotes.map((q) => h('p', { lang: q === (err.body && err.body.rulebook && err.body.rulebook.text) ? err.body.rulebook.lang : guessLang(q) }, q))) : null));
}

// the seeds' languages: Spanish (Lost Cities, Marco Polo) and Japanese (Marco Polo II)
function guessLang(text) { return /[\u3040-\u30ff\u4e00-\u9fff]/.test(text) ? 'ja' : /[áéíóúñ¿¡]|\b(el|la|los|las|una?|de|en|su)\b/i.test(text) ? 'es' : 'en'; }
