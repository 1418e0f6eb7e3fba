// The page's language: English, Spanish or Japanese, from the browser unless the reader chose one
// (remembered in localStorage). Its strings are the `page` section of the served catalogue
// (/i18n/{lang}.json), filled as the server fills its templates (events/messages.py):
// `{name}` and `{flag:?one|other}`. A key the catalogue lacks is reported, never silently shown.

export const LANGS = { en: 'English', es: 'Español', ja: '日本語' };
const KEY = 'tabletape.lang';

function chosen() {
  try { const stored = localStorage.getItem(KEY); if (stored && LANGS[stored]) return stored; } catch { /* storage off */ }
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGS[base]) return base;
  }
  return 'en';
}

export const lang = chosen();
document.documentElement.lang = lang;

async function fetchCatalogue(code) {
  const response = await fetch(`/i18n/${code}.json`, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

let catalogue = {};
try { catalogue = await fetchCatalogue(lang); } catch (err) {
  console.error(`the ${lang} catalogue could not be loaded`, err);
  try { catalogue = lang === 'en' ? {} : await fetchCatalogue('en'); } catch { catalogue = {}; }
}

function lookup(section, key) {
  let node = catalogue[section];
  for (const part of key.split('.')) { if (node === undefined || node === null) return undefined; node = node[part]; }
  return typeof node === 'string' ? node : undefined;
}

const missing = new Set();
function reportMissing(key) {
  if (missing.has(key)) return;
  missing.add(key);
  console.error(`i18n: no "${key}" in the ${lang} catalogue`);
  document.documentElement.setAttribute('data-missing-i18n', [...missing].join(' '));
}

const FIELD = /\{\{|\}\}|\{([A-Za-z_][\w]*)(?::\?([^|}]*)\|([^}]*))?\}/g;

/** A template filled from params, the server's syntax: `{name}`, `{flag:?one|other}`, `{{`. */
export function render(template, params = {}) {
  return template.replace(FIELD, (all, name, whenTrue, whenFalse) => {
    if (all === '{{') return '{';
    if (all === '}}') return '}';
    const value = params[name];
    if (whenTrue !== undefined) return value ? whenTrue : whenFalse;
    if (value === undefined || value === null) return '';
    return typeof value === 'number' ? num(value) : String(value);
  });
}

/** The page's string `key` (dotted, in the catalogue's `page` section) in the chosen language. */
export function t(key, params = {}) {
  const template = lookup('page', key);
  if (template === undefined) { reportMissing(`page.${key}`); return key; }
  return render(template, params);
}

/** A game word of a title as its rulebook prints it (`terms` section), or the word itself. */
export function term(title, group, word) {
  return lookup('terms', `${title}.${group}.${word}`) ?? word;
}

/** A score-sheet source's label (`score` section), or null when the catalogue has none. */
export function scoreLabel(title, source) {
  return lookup('score', `${title}.${source}`) ?? null;
}

/** True when the page section has the key (for optional strings such as an option's help). */
export const has = (key) => lookup('page', key) !== undefined;

// numbers, percentages and dates in the reader's locale
const numbers = new Intl.NumberFormat(lang, { useGrouping: false });
export const num = (n, opts) => (opts ? new Intl.NumberFormat(lang, opts) : numbers).format(n);
export const pct = (fraction, digits = 0) => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: digits }).format(fraction);
export const dateTime = (value) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
export const date = (value) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(value));

export function setLang(code) {
  if (!LANGS[code]) return;
  try { localStorage.setItem(KEY, code); } catch { /* storage off: this visit only */ }
  location.reload();
}

/** The language switch: each language by its own name, the chosen one marked. */
export function languageSwitch() {
  const nav = document.createElement('nav');
  nav.className = 'lang-switch';
  nav.setAttribute('aria-label', t('shell.language'));
  Object.entries(LANGS).forEach(([code, name], i) => {
    if (i) nav.append(' · ');
    const b = document.createElement('button');
    Object.assign(b, { type: 'button', className: 'lang', lang: code, textContent: name });
    b.dataset.lang = code;
    b.setAttribute('aria-pressed', code === lang ? 'true' : 'false');
    b.addEventListener('click', () => setLang(code));
    nav.append(b);
  });
  return nav;
}

/** Elements of the static HTML marked `data-i18n="key"` take their text in the chosen language. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  const title = root.querySelector('title[data-i18n]');
  if (title) document.title = title.textContent;
}
