// Content packs (?page=packs, also #/packs): a title's packs in this store; one pack opened to edit
// its map (places dragged, routes drawn) and its cards and tiles, each through the form generated
// from the title's form schema and shown as the card; saved as a new version with the store's
// admin token (asked for once, kept in this browser); downloaded, uploaded, compared with its parent;
// passed between groups (a share link copied, its QR code, a link opened or pasted: the pack added
// on one tap) and two packs merged, each clash shown side by side for the group to choose.
import { api, ApiError } from '../api.js';
import { h, clear, errorBox, humanize } from '../dom.js';
import { t, has } from '../i18n.js';
import { cardFace, componentForm, localiseForms } from '../packforms.js';
import { mapEditor } from '../mapedit.js';

const ADMIN_KEY = 'tabletape.admin-token';
const draftKey = (title, hash) => `tabletape.pack-draft.${title}.${hash}`;
//: the kinds a pack editor shows below the map, in the order of the rulebook's setup
const SECTIONS = ['contract', 'city_card', 'special', 'offer', 'book', 'seal', 'city_bonus', 'outpost', 'goal', 'route_tile'];
const plural = (kind) => t(`packs.plural.${kind}`);
const SOURCES = ['builtin', 'upload', 'derived', 'grown', 'import', 'merged'];
const sourceWords = (source) => (SOURCES.includes(source) ? t(`packs.source.${source}`) : source);
const PREFIX = { contract: 'K', city_card: 'CC', city_bonus: 'CB', outpost: 'OT', goal: 'G', offer: 'B', route_tile: 'RT' };

const packUrl = (title, id, hash) => `/?page=packs&title=${encodeURIComponent(title)}&pack=${encodeURIComponent(id)}${hash ? `&hash=${hash}` : ''}`;
// a pack in the API's paths by its hash where known: ids may hold a slash (Marco Polo's) or be shared
const packPath = (title, id, hash) => `/titles/${encodeURIComponent(title)}/packs/${encodeURIComponent(hash || id)}`;
const downloadUrl = (title, id, hash) => `${packPath(title, id, hash)}?download=1`;
const components = (n) => t('packs.n-components', { n, one: n === 1 });
const gamesWord = (n) => t('packs.n-games', { n, one: n === 1 });
const total = (components) => Object.values(components || {}).reduce((a, n) => a + n, 0);

// ---- the admin token: asked for once, kept in this browser -----------------------------------
function askToken(reason = '') {
  return new Promise((resolve) => {
    const input = h('input', { id: 'pk-admin-token', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true });
    const dialog = h('dialog', { class: 'pk-dialog', 'aria-labelledby': 'pk-admin-h' },
      h('form', { method: 'dialog', class: 'pk-token-form' },
        h('h2', { id: 'pk-admin-h' }, t('packs.token-heading')),
        reason ? h('p', { class: 'pf-problem' }, reason) : null,
        h('p', {}, `${t('packs.token-needs')} `, h('code', {}, 'tabletape serve'), ` ${t('packs.token-printed')} `,
          h('code', {}, 'tabletape admin-token'), ` ${t('packs.token-new')}`),
        h('label', { for: 'pk-admin-token', class: 'pf-label' }, t('packs.token')), input,
        h('div', { class: 'pf-actions' },
          h('button', { type: 'submit', class: 'primary', value: 'ok' }, t('packs.use-token')),
          h('button', { type: 'submit', value: 'cancel', formnovalidate: true }, t('pf.cancel')))));
    dialog.addEventListener('close', () => {
      const token = dialog.returnValue === 'ok' ? input.value.trim() : '';
      dialog.remove();
      if (token) localStorage.setItem(ADMIN_KEY, token);
      resolve(token || null);
    });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

/** A write with the admin token: asked for when missing, asked again when the store refuses it. */
async function asAdmin(path, opts) {
  let token = localStorage.getItem(ADMIN_KEY) || await askToken();
  for (let tries = 0; token && tries < 3; tries++) {
    try {
      return await api(path, { ...opts, token });
    } catch (err) {
      if (!(err instanceof ApiError) || ![401, 403].includes(err.status)) throw err;
      localStorage.removeItem(ADMIN_KEY);
      token = await askToken(err.status === 403 ? t('packs.token-unknown') : t('packs.token-asked'));
    }
  }
  throw new ApiError(401, { code: 'admin-token-missing', message: t('packs.token-none') });
}

// ---- components of a pack's data ------------------------------------------------------------------
function getPath(data, path) { return path.split('.').reduce((o, k) => (o ? o[k] : undefined), data); }
const routeId = (ends) => { const [a, b] = ends || []; return a <= b ? `${a}-${b}` : `${b}-${a}`; };

/** {kind: Map(id -> spec)} of everything the pack holds (specs without their id). */
export function componentsOf(data, forms) {
  const out = {};
  for (const [kind, form] of Object.entries(forms.kinds)) {
    const where = form.where || {};
    const found = new Map();
    const raw = getPath(data, where.path || '');
    if (where.as === 'list') {
      for (const item of raw || []) {
        const { id, ...spec } = item;
        found.set(kind === 'route' ? routeId(item.ends) : id, spec);
      }
    } else if (where.as === 'dict') {
      for (const [id, spec] of Object.entries(raw || {})) found.set(id, { ...spec });
    } else if (where.as === 'index') {
      (raw || []).forEach((b, i) => { if (b && b.fixed) found.set(String(i + 1), { ...b }); });
    }
    out[kind] = found;
  }
  return out;
}

// the same data whatever the order of its keys
const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

// ---- the list of packs ----------------------------------------------------------------------------
// which pack a button is for, for a screen reader (the card it sits in shows it)
const which = (p) => h('span', { class: 'visually-hidden' }, `: ${t('packs.which', { name: p.name || p.id, version: p.version })}`);
async function listPage(main, title, navigate, q) {
  const titles = await api('/titles').catch(() => []);
  const name = (titles.find((d) => d.id === title) || {}).name || title;
  const list = h('div', { class: 'pk-packs', 'aria-live': 'polite' });
  const status = h('p', { class: 'pk-status', role: 'status' });
  const others = h('nav', { class: 'pk-titles', 'aria-label': t('packs.of-other-games') });
  const offerBox = h('div', { class: 'pk-offer-box' });
  const mergeBox = h('div', { class: 'pk-merge-box' });
  const sheet = h('dialog', { class: 'pk-dialog pk-qr-dialog', id: 'pk-qr', 'aria-labelledby': 'pk-qr-h' });
  document.body.append(sheet);
  main.append(h('h1', {}, t('shell.packs')),
    h('p', {}, t('packs.intro', { name })),
    offerBox, others, list, status,
    h('section', { class: 'pk-add-section', 'aria-labelledby': 'pk-add-h' }, h('h2', { id: 'pk-add-h' }, t('packs.add-heading')),
      uploadForm(title, status, () => load()), linkForm(title, status, navigate)),
    mergeBox);
  let packs = [];
  let forms = null;
  const formsOf = async () => {
    if (forms === null) forms = await api(`/titles/${encodeURIComponent(title)}/pack-forms`).then((f) => localiseForms(f) || f, () => false);
    return forms;
  };
  // the other games with packs in this store
  Promise.all(titles.filter((d) => d.id !== title).map((d) => api(`/titles/${encodeURIComponent(d.id)}/packs`).then(() => d, () => null)))
    .then((found) => {
      const with_ = found.filter(Boolean);
      if (with_.length) others.append(h('span', {}, `${t('packs.other-games')} `, with_.map((d, i) => [i ? ' · ' : null, h('a', { href: `/?page=packs&title=${encodeURIComponent(d.id)}` }, d.name)])));
    });

  async function load() {
    let data;
    try { data = await api(`/titles/${encodeURIComponent(title)}/packs`); } catch (err) { clear(list).append(errorBox(err, { lead: t('packs.none-here') })); return; }
    packs = data.packs;
    clear(list).append(h('ul', { class: 'pk-list' }, data.packs.map((p) => h('li', { class: 'pk-pack', 'data-pack': p.id, 'data-hash': p.hash },
      h('h2', {}, p.name || p.id),
      h('p', { class: 'pk-meta' }, [t('packs.version', { version: p.version }), sourceWords(p.source), components(total(p.components)),
        p.games ? t('packs.used-by', { games: gamesWord(p.games) }) : t('packs.unused'), p.complete ? t('packs.complete') : null].filter(Boolean).join(' · ')),
      p.working ? h('p', {}, h('span', { class: 'badge', 'data-working': 'true' }, t('packs.for-new'))) : null,
      h('p', { class: 'pk-links' },
        h('a', { class: 'button', href: packUrl(title, p.id, p.hash) }, t('packs.open'), which(p)),
        h('a', { class: 'button', href: downloadUrl(title, p.id, p.hash), download: `${p.id}.json` }, t('packs.download'), which(p)),
        h('button', { type: 'button', 'data-action': 'copy-link', onclick: (ev) => copyLink(p, ev.currentTarget) }, t('packs.copy-link'), which(p)),
        h('button', { type: 'button', 'data-action': 'qr', onclick: () => showQr(p) }, t('packs.show-qr'), which(p)),
        p.working ? null : h('button', { type: 'button', 'data-action': 'use', onclick: () => use(p) }, t('packs.use'), which(p)),
        p.working || p.games || p.source === 'builtin' ? null
          : h('button', { type: 'button', class: 'danger', 'data-action': 'delete', onclick: () => remove(p) }, t('packs.delete'), which(p)))))));
    mergeForm();
  }
  const share = (p) => api(`${packPath(title, p.id, p.hash)}/share`);
  // the link on the clipboard; where the browser keeps it from the page (no secure origin), in a field to copy by hand
  async function copyLink(p, button) {
    clear(status);
    let link;
    try { ({ link } = await share(p)); } catch (err) { status.append(errorBox(err, { lead: t('packs.no-link') })); return; }
    try {
      await navigator.clipboard.writeText(link);
      status.append(h('span', { 'data-copied': p.hash }, t('packs.link-copied', { name: p.name || p.id })));
    } catch {
      const field = h('input', { id: 'pk-link-copy', type: 'text', readonly: true, value: link, class: 'pk-link-field' });
      status.append(h('label', { for: 'pk-link-copy', class: 'pf-label' }, t('packs.copy-this-link')), field);
      field.select();
    }
    button.focus();
  }
  async function showQr(p) {
    clear(status);
    let got;
    try { got = await share(p); } catch (err) { status.append(errorBox(err, { lead: t('packs.no-link') })); return; }
    const img = h('img', { class: 'pk-qr', src: got.qr, alt: t('packs.qr-alt', { name: p.name || p.id }), width: 260, height: 260 });
    img.addEventListener('error', () => img.replaceWith(h('p', { class: 'pf-problem' }, t('packs.qr-none'))));
    clear(sheet).append(h('h2', { id: 'pk-qr-h' }, t('packs.qr-heading', { name: p.name || p.id })),
      h('p', {}, t('packs.qr-help')), img,
      h('div', { class: 'pf-actions' },
        h('button', { type: 'button', 'data-action': 'qr-copy', onclick: async (ev) => { await copyLink(p, ev.currentTarget); } }, t('packs.copy-link')),
        h('button', { type: 'button', class: 'primary', onclick: () => sheet.close() }, t('packs.close'))));
    sheet.showModal();
  }

  // ---- a pack another group passed on: its link opened here offers it, added on one tap ----
  async function offer(fileUrl, digest) {
    const box = h('section', { class: 'pk-offer', 'aria-labelledby': 'pk-offer-h' }, h('h2', { id: 'pk-offer-h' }, t('packs.offer-heading')));
    clear(offerBox).append(box);
    let data;
    try {
      const r = await fetch(fileUrl, { headers: { Accept: 'application/json' } });
      if (!r.ok) throw new Error(String(r.status));
      data = await r.json();
    } catch {
      box.append(h('p', { class: 'pf-problem', role: 'alert' }, t('packs.offer-unreadable')));
      return;
    }
    const f = await formsOf();
    const counts = f ? Object.entries(componentsOf(data, f)).filter(([, m]) => m.size).map(([k, m]) => `${has(`packs.plural.${k}`) ? plural(k) : humanize(k)}: ${m.size}`) : [];
    const there = digest ? packs.find((p) => p.hash === digest) : null;
    const done = () => { navigate(`/?page=packs&title=${encodeURIComponent(title)}`, { replace: true }); };
    box.append(h('p', {}, h('strong', {}, data.id || '')),
      ...(counts.length ? [h('p', {}, t('packs.offer-holds')), h('ul', { class: 'pk-offer-holds' }, counts.map((c) => h('li', {}, c)))] : []));
    if (there) {
      box.append(h('p', { 'data-offer-there': there.hash }, t('packs.offer-there', { name: there.name || there.id })),
        h('div', { class: 'pf-actions' }, h('button', { type: 'button', onclick: done }, t('packs.close'))));
      return;
    }
    const working = h('input', { id: 'pk-offer-working', type: 'checkbox', class: 'pf-check', checked: true });
    const said = h('div', { role: 'status' });
    box.append(h('label', { for: 'pk-offer-working', class: 'pf-check-label' }, working, h('span', {}, t('packs.use-it'))),
      h('div', { class: 'pf-actions' },
        h('button', { type: 'button', class: 'primary', 'data-action': 'add-offered', onclick: async (ev) => {
          const button = ev.currentTarget;
          button.disabled = true;
          clear(said);
          try {
            const info = await asAdmin(`/titles/${encodeURIComponent(title)}/packs/import`, { method: 'POST', body: data, params: { hash: digest || undefined, working: working.checked ? 'true' : undefined } });
            sessionStorage.setItem('tabletape.pack-added', JSON.stringify({ hash: info.hash, text: t('packs.added', { name: info.name || info.id, components: components(total(info.components)) }) }));
            done();
          } catch (err) { button.disabled = false; said.append(errorBox(err, { lead: t('packs.not-added') })); }
        } }, t('packs.offer-add')),
        h('button', { type: 'button', onclick: done }, t('packs.not-now'))), said);
  }

  // ---- two packs merged: what each brings, every clash side by side, the side to keep tapped ----
  function mergeForm() {
    if (packs.length < 2) { clear(mergeBox); return; }
    const label = (p) => t('packs.merge-option', { name: p.name || p.id, version: p.version, source: sourceWords(p.source), components: components(total(p.components)) });
    const select = (id, chosen) => h('select', { id }, packs.map((p) => h('option', { value: p.hash, selected: p.hash === chosen }, label(p))));
    const byHash = (hash) => packs.find((p) => p.hash === hash);
    const working = packs.find((p) => p.working) || packs[0];
    const a = select('pk-merge-a', working.hash);
    const b = select('pk-merge-b', (packs.find((p) => p.hash !== working.hash && p.source === 'import') || packs.find((p) => p.hash !== working.hash)).hash);
    const result = h('div', { class: 'pk-merge-result', 'aria-live': 'polite' });
    const form = h('form', { class: 'pk-merge' },
      h('label', { for: 'pk-merge-a', class: 'pf-label' }, t('packs.merge-first')), a,
      h('label', { for: 'pk-merge-b', class: 'pf-label' }, t('packs.merge-second')), b,
      h('div', { class: 'pf-actions' }, h('button', { type: 'submit', 'data-action': 'compare' }, t('packs.merge-compare'))));
    form.addEventListener('submit', (ev) => { ev.preventDefault(); compare(byHash(a.value), byHash(b.value)); });
    clear(mergeBox).append(h('section', { class: 'pk-merge-section', 'aria-labelledby': 'pk-merge-h' },
      h('h2', { id: 'pk-merge-h' }, t('packs.merge-heading')), h('p', { class: 'pf-help' }, t('packs.merge-help')), form, result));

    async function compare(first, second) {
      clear(result);
      if (first.hash === second.hash) { result.append(h('p', { class: 'pf-problem' }, t('packs.merge-same-pack'))); return; }
      let plan;
      try { plan = await api(`${packPath(title, first.id, first.hash)}/merge/${encodeURIComponent(second.hash)}`); } catch (err) { result.append(errorBox(err, { lead: t('packs.not-merged') })); return; }
      const f = await formsOf();
      const kept = new Map();
      const go = h('button', { type: 'button', class: 'primary', 'data-action': 'merge' }, t('packs.merge-go'));
      const said = h('div', { role: 'status' });
      const left = () => plan.clashes.length - kept.size;
      const ready = () => { go.dataset.left = left(); };
      result.append(h('p', { 'data-plan': `${plan.from_a.length} ${plan.from_b.length} ${plan.same} ${plan.clashes.length}` },
        t('packs.merge-summary', { a: components(plan.from_a.length), b: components(plan.from_b.length), same: components(plan.same) })),
      plan.clashes.length ? h('p', {}, t('packs.merge-clashes', { n: plan.clashes.length, one: plan.clashes.length === 1 })) : h('p', {}, t('packs.merge-no-clash')),
      ...plan.clashes.map((c, i) => clashChoice(c, i, plan.clashes.length, f, (side) => { kept.set(`${c.kind}:${c.id}`, { kind: c.kind, id: c.id, side }); clear(said); ready(); })),
      h('div', { class: 'pf-actions' }, go), said);
      ready();
      go.addEventListener('click', async () => {
        clear(said);
        if (left()) { said.append(h('p', { class: 'pf-problem' }, t('packs.merge-choose-all', { n: left() }))); return; }
        try {
          const made = await asAdmin(`/titles/${encodeURIComponent(title)}/packs/merge`, { method: 'POST', body: { a: first.hash, b: second.hash, keep: [...kept.values()] } });
          const there = packs.some((p) => p.hash === made.hash);
          await load();
          // said where the group tapped (the list above it now shows the merged pack)
          const done = h('p', { class: 'pk-merged', role: 'status', 'data-merged': made.hash }, there ? t('packs.merged-there', { name: made.name || made.id })
            : t('packs.merged', { name: made.name || made.id, version: made.version, working: !!made.working }));
          mergeBox.querySelector('.pk-merge-section')?.prepend(done);
          done.scrollIntoView({ block: 'center' });
        } catch (err) { said.append(errorBox(err, { lead: t('packs.not-merged') })); }
      });
    }
  }

  // the same content uploaded again is the pack already there: ``working`` makes new games use it
  async function use(p) {
    clear(status);
    try {
      const full = await api(packPath(title, p.id, p.hash));
      await asAdmin(`/titles/${encodeURIComponent(title)}/packs`, { method: 'POST', body: full.pack, params: { working: 'true' } });
      await load();
      status.textContent = t('packs.now-used', { name: p.name || p.id, version: p.version });
    } catch (err) { status.append(errorBox(err, { lead: t('packs.not-changed') })); }
  }
  async function remove(p) {
    if (!window.confirm(t('packs.confirm-delete', { name: p.name || p.id, version: p.version }))) return;
    clear(status);
    try {
      await asAdmin(packPath(title, p.id, p.hash), { method: 'DELETE' });
      await load();
      status.textContent = t('packs.deleted', { name: p.name || p.id });
    } catch (err) { status.append(errorBox(err, { lead: t('packs.not-deleted') })); }
  }
  await load();
  const link = q.get('import');
  if (link) await offer(link, q.get('hash'));
  const added = sessionStorage.getItem('tabletape.pack-added');
  if (added) {
    sessionStorage.removeItem('tabletape.pack-added');
    try { const { hash, text } = JSON.parse(added); status.append(h('span', { 'data-uploaded': hash, 'data-hash': hash }, text)); } catch { /* nothing to say */ }
  }
  return { leave() { sheet.remove(); } };
}

// the words of one field's value: a bundle as "2 coins, 1 camel", a choice by its label
function valueWords(field, v) {
  if (v === undefined || v === null) return t('packs.merge-none');
  if (Array.isArray(v)) return v.map((x) => valueWords(field, x)).join(t('pf.sep'));
  if (typeof v === 'object') {
    return Object.entries(v).filter(([, n]) => n !== 0 && n !== false).map(([k, n]) => (typeof n === 'number' && has(`pf.word.${k}.other`)
      ? `${n} ${t(`pf.word.${k}.${n === 1 ? 'one' : 'other'}`)}` : `${k} ${typeof n === 'object' ? valueWords(null, n) : n}`)).join(t('pf.sep')) || t('packs.merge-none');
  }
  const choice = ((field && field.choices) || []).find((c) => c.value === v);
  if (choice) return choice.label;
  if (v === true) return t('packs.merge-yes');
  if (v === false) return t('packs.merge-no');
  return String(v);
}

/** One clash: the component as each pack has it, side by side; tapping a side keeps it. */
function clashChoice(c, i, n, forms, onPick) {
  const form = forms && forms.kinds[c.kind];
  const fields = new Map(((form && form.fields) || []).map((f) => [f.name, f]));
  const what = `${form ? form.label : humanize(c.kind)}${c.a.name || c.b.name ? `: ${c.a.name || c.b.name}` : ''}`;
  const names = [...new Set([...Object.keys(c.a), ...Object.keys(c.b)])].filter((k) => !same(c.a[k], c.b[k]));
  const placeMoved = names.includes('x') || names.includes('y');
  const differ = [...names.filter((k) => k !== 'x' && k !== 'y').map((k) => (fields.get(k) || {}).label || humanize(k)), placeMoved ? t('packs.merge-position') : null].filter(Boolean);
  const group = `pk-clash-${i}`;
  const side = (key, spec) => {
    const id = `${group}-${key}`;
    const input = h('input', { type: 'radio', id, name: group, class: 'pf-radio', value: key, 'data-side': key });
    input.addEventListener('change', () => { if (input.checked) onPick(key); });
    const face = cardFace(c.kind, null, spec);
    // a place nobody named is told by what it is (a city and its shield), not by its code
    for (const title of face.querySelectorAll('.pf-title')) if (title.textContent === '?') title.remove();
    return h('label', { for: id, class: 'pf-choice pk-clash-side', 'data-clash-side': key }, input,
      h('span', { class: 'pk-clash-col' },
        h('strong', {}, t(key === 'a' ? 'packs.merge-keep-first' : 'packs.merge-keep-second')), face,
        h('ul', { class: 'pk-clash-words' }, names.filter((k) => k !== 'x' && k !== 'y').map((k) => h('li', {}, `${(fields.get(k) || {}).label || humanize(k)}: ${valueWords(fields.get(k), spec[k])}`)),
          placeMoved ? h('li', {}, typeof spec.x === 'number' && typeof spec.y === 'number' ? t('packs.merge-drawn-at', { x: Math.round(spec.x), y: Math.round(spec.y) }) : t('packs.merge-not-drawn')) : null)));
  };
  return h('fieldset', { class: 'pk-clash', 'data-clash': `${c.kind}:${c.id}` },
    h('legend', {}, t('packs.merge-clash', { what, i: i + 1, n })),
    differ.length ? h('p', { class: 'small' }, t('packs.merge-differs', { list: differ.join(t('pf.sep')) })) : null,
    h('div', { class: 'pk-clash-sides' }, side('a', c.a), side('b', c.b)));
}

// a pack link pasted (its share link, or the file it leads to): the page opens it as an offer
function linkForm(title, status, navigate) {
  // text, not url: what is not a link is told in the page's words, not the browser's
  const field = h('input', { id: 'pk-link', type: 'text', autocomplete: 'off', spellcheck: 'false', inputmode: 'url' });
  const form = h('form', { class: 'pk-link-form' },
    h('h3', {}, t('packs.add-link')),
    h('p', { class: 'pf-help' }, t('packs.link-help')),
    h('label', { for: 'pk-link', class: 'pf-label' }, t('packs.link')), field,
    h('button', { type: 'submit', class: 'primary' }, t('packs.link-open')));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    clear(status);
    let url;
    try { url = new URL(field.value.trim(), window.location.href); } catch { url = null; }
    const file = url && (url.searchParams.get('import') || (/\/packs\/[^/]+$/.test(url.pathname) && url.searchParams.get('download') ? url.href : null));
    if (!file) { status.append(h('span', { class: 'pf-problem' }, t('packs.link-bad'))); return; }
    const digest = url.searchParams.get('hash');
    navigate(`/?page=packs&title=${encodeURIComponent(url.searchParams.get('title') || title)}&import=${encodeURIComponent(file)}${digest ? `&hash=${encodeURIComponent(digest)}` : ''}`);
  });
  return form;
}

function uploadForm(title, status, done) {
  const file = h('input', { id: 'pk-upload', type: 'file', accept: '.json,application/json' });
  const working = h('input', { id: 'pk-upload-working', type: 'checkbox', class: 'pf-check', checked: true });
  const form = h('form', { class: 'pk-upload' },
    h('h3', {}, t('packs.add-file')),
    h('p', { class: 'pf-help' }, t('packs.upload-help')),
    h('label', { for: 'pk-upload', class: 'pf-label' }, t('packs.file')), file,
    h('label', { for: 'pk-upload-working', class: 'pf-check-label' }, working, h('span', {}, t('packs.use-it'))),
    h('button', { type: 'submit', class: 'primary' }, t('packs.upload')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(status);
    const f = file.files && file.files[0];
    if (!f) { status.append(h('span', { class: 'pf-problem' }, t('packs.choose-first'))); return; }
    let data;
    try { data = JSON.parse(await f.text()); } catch { status.append(h('span', { class: 'pf-problem' }, t('packs.not-json', { file: f.name }))); return; }
    try {
      // an import: a file from another group may share its id with a pack of ours (both ``ours-v1``)
      const info = await asAdmin(`/titles/${encodeURIComponent(title)}/packs/import`, { method: 'POST', body: data, params: { working: working.checked ? 'true' : undefined } });
      await done();
      status.append(h('span', { 'data-uploaded': info.id, 'data-hash': info.hash }, t('packs.added', { name: info.name || info.id, components: components(total(info.components)) })));
    } catch (err) {
      status.append(errorBox(err, { lead: t('packs.not-added') }));
    }
  });
  return form;
}

// ---- one pack, to edit ------------------------------------------------------------------------------
async function editPage(main, title, packId, hash, navigate) {
  const enc = encodeURIComponent;
  const [info, forms] = await Promise.all([
    api(packPath(title, packId, hash)),
    api(`/titles/${enc(title)}/pack-forms`).catch((err) => (err.status === 404 ? null : Promise.reject(err))),
  ]);
  if (!forms) return readOnly(main, title, info);
  localiseForms(forms);
  const base = componentsOf(info.pack, forms);
  const key = draftKey(title, info.hash);
  let changes = new Map(); // `${kind}:${id}` -> {op: add|replace|remove, kind, id, spec}
  try { for (const c of JSON.parse(localStorage.getItem(key)) || []) changes.set(`${c.kind}:${c.id}`, c); } catch { /* no draft */ }
  const restored = changes.size;
  const keep = () => { if (changes.size) localStorage.setItem(key, JSON.stringify([...changes.values()])); else localStorage.removeItem(key); };

  const now = (kind) => {
    const out = new Map(base[kind]);
    for (const c of changes.values()) if (c.kind === kind) { if (c.op === 'remove') out.delete(c.id); else out.set(c.id, c.spec); }
    return out;
  };
  // the first change to a map drawn by the layout pins every place where it is seen, so that
  // nothing moves under the hand as places and routes come (and a game draws it so)
  const pinUnplaced = () => {
    if (!editor) return;
    for (const [nid, spec] of now('node')) {
      if (typeof spec.x === 'number' && typeof spec.y === 'number') continue;
      const [x, y] = editor.positions[nid] || [500, 500];
      changes.set(`node:${nid}`, { op: base.node.has(nid) ? 'replace' : 'add', kind: 'node', id: nid, spec: { ...spec, x, y } });
    }
  };
  const change = (kind, id, spec) => {
    if (kind === 'node' || kind === 'route') pinUnplaced();
    const k = `${kind}:${id}`;
    if (spec === null) {
      if (base[kind].has(id)) changes.set(k, { op: 'remove', kind, id }); else changes.delete(k);
    } else if (base[kind].has(id)) {
      if (same(base[kind].get(id), spec)) changes.delete(k); else changes.set(k, { op: 'replace', kind, id, spec });
    } else changes.set(k, { op: 'add', kind, id, spec });
    keep();
    render();
  };

  const status = h('div', { class: 'pk-status', role: 'status', 'aria-live': 'polite' });
  const mapBox = h('div', { class: 'pk-map', id: 'pk-map' });
  const routesBox = h('div', { class: 'pk-routes' });
  const sectionsBox = h('div', { class: 'pk-sections' });
  const saveBtn = h('button', { type: 'button', class: 'primary', 'data-action': 'save', onclick: () => save() }, t('packs.save-new'));
  const diffBtn = info.parent ? h('button', { type: 'button', 'data-action': 'diff', onclick: () => showDiff() }, t('packs.what-changed')) : null;
  // a built-in pack's versions are the group's own: they get a name of their own
  const nameInput = h('input', { id: 'pk-name', type: 'text', value: info.source === 'builtin' ? t('packs.our-own') : info.name || '', autocomplete: 'off' });
  const sheet = h('dialog', { class: 'pk-sheet', id: 'pk-sheet', 'aria-labelledby': 'pk-sheet-h' });
  document.body.append(sheet);
  let editor = null;

  // phone first: the map right under the title, the bar with Save always at the thumb
  main.append(...[
    h('p', { class: 'pk-back' }, h('a', { href: `/?page=packs&title=${enc(title)}` }, t('packs.all-packs'))),
    h('h1', { class: 'pk-title' }, info.name || info.id),
    restored ? h('div', { class: 'pk-restored', role: 'status' }, h('p', {}, t('packs.restored', { n: restored, one: restored === 1 })),
      h('button', { type: 'button', onclick: () => { changes = new Map(); keep(); render(); document.querySelector('.pk-restored')?.remove(); } }, t('packs.forget'))) : null,
    h('div', { class: 'pk-layout' },
      h('section', { class: 'pk-section pk-map-section', 'aria-label': t('me.the-map') }, mapBox, routesBox),
      h('div', { class: 'pk-side' }, status, sectionsBox)),
    h('section', { class: 'pk-about', 'aria-labelledby': 'pk-about-h' }, h('h2', { id: 'pk-about-h' }, t('packs.about')),
      h('p', { class: 'pk-meta' }, [t('packs.version', { version: info.version }), sourceWords(info.source), info.games ? t('packs.used-by-keep', { games: gamesWord(info.games) }) : t('packs.unused'),
        info.working ? t('packs.for-new') : null].filter(Boolean).join(' · ')),
      h('div', { class: 'pk-name-field' }, h('label', { for: 'pk-name', class: 'pf-label' }, t('packs.new-name')), nameInput),
      fingerprint(info)),
    h('div', { class: 'pk-bar', role: 'region', 'aria-label': t('packs.save-bar') }, saveBtn, diffBtn,
      h('a', { class: 'button', href: downloadUrl(title, info.id, info.hash), download: `${info.id}.json` }, t('packs.download'))),
  ].filter(Boolean));

  function nodesNow() { return [...now('node')].map(([id, spec]) => ({ id, ...spec })); }
  function routesNow() { return [...now('route')].map(([id, spec]) => ({ id, ...spec })); }
  const shieldsNow = () => [...new Set([...now('node').values()].map((n) => n.shield).filter(Boolean)
    .concat([...now('goal').values(), ...now('route_tile').values()].flatMap((x) => x.shields || [])))].sort();

  function context(kind) {
    return { nodes: nodesNow().map((n) => ({ id: n.id, name: n.name })), shields: shieldsNow(), taken: [...now(kind).keys()] };
  }
  function nextCode(kind) {
    const taken = new Set(now(kind).keys());
    const p = PREFIX[kind] || kind.slice(0, 2).toUpperCase();
    for (let n = 1; ; n++) { const id = `${p}${String(n).padStart(2, '0')}`; if (!taken.has(id)) return id; }
  }
  function placeCode(spec) {
    const taken = new Set(now('node').keys());
    const word = String(spec.name || '').normalize('NFD').replace(/[^A-Za-z]/g, '').toUpperCase();
    const stem = word.slice(0, 3) || (spec.kind === 'oasis' ? 'O' : 'C');
    if (!taken.has(stem) && word) return stem;
    for (let n = 1; ; n++) if (!taken.has(`${stem}${n}`)) return `${stem}${n}`;
  }

  // a component's form in the bottom sheet: new (``id`` null) or to change
  function openForm(kind, id, initial, { isNew = !id } = {}) {
    const form = forms.kinds[kind];
    clear(sheet);
    const body = h('div', { class: 'pk-sheet-body' });
    const heading = h('h2', { id: 'pk-sheet-h', class: 'visually-hidden' }, isNew ? t('pf.new', { what: form.label.toLowerCase() }) : `${form.label} ${id}`);
    const existing = !isNew && now(kind).has(id);
    const removable = existing && !(kind === 'node' && (initial || {}).kind === 'start');
    const remove = removable ? h('button', { type: 'button', class: 'danger pk-remove', 'data-action': 'remove', onclick: () => {
      if (kind === 'node') for (const [rid, r] of now('route')) if ((r.ends || []).includes(id)) change('route', rid, null);
      change(kind, id, null); sheet.close();
    } }, kind === 'node' ? t('packs.remove-place') : t('packs.remove-it')) : null;
    sheet.append(heading, body);
    const suggest = isNew && !id && (form.id || {}).type === 'text' ? (kind === 'node' ? placeCode : () => nextCode(kind)) : null;
    componentForm(body, {
      kind, id, forms, initial, context: context(kind), suggestId: suggest, extra: remove,
      submitLabel: isNew ? t('packs.add-this', { what: form.label.toLowerCase() }) : t('packs.keep-changes'),
      onSubmit: (spec, cid) => {
        const theId = kind === 'route' ? routeId(spec.ends) : cid;
        // a route moved to other ends is another route: the old one goes
        if (kind === 'route' && !isNew && id && theId !== id) change('route', id, null);
        change(kind, theId, spec);
        sheet.close();
        status.textContent = t(isNew ? 'packs.added-status' : 'packs.changed-status', { what: form.label, id: theId });
      },
      onCancel: () => sheet.close(),
    });
    if (!sheet.open) sheet.showModal();
    const first = body.querySelector('input:not([type=radio]):not([type=checkbox]), .pf-choice input:checked, button.pf-add');
    if (first) first.focus();
  }

  function render() {
    const n = changes.size;
    saveBtn.textContent = n ? t('packs.save-n', { n, one: n === 1 }) : t('packs.no-changes');
    saveBtn.dataset.changes = n;
    saveBtn.disabled = !n;
    // the map
    const nodes = nodesNow();
    editor = mapEditor(mapBox, {
      nodes, routes: routesNow(), editable: true, label: t('packs.map-label'),
      onAddNode: ({ x, y, kind }) => openForm('node', null, { kind, x, y }),
      onMoveNode: (id, xy) => change('node', id, { ...now('node').get(id), ...xy }),
      onPickNodes: (ids) => {
        if (ids.length === 1) { openForm('node', ids[0], now('node').get(ids[0])); return; }
        const rid = routeId(ids);
        if (now('route').has(rid)) openForm('route', rid, now('route').get(rid));
        else openForm('route', null, { ends: ids, coins: 0, camels: 0, jade: 0 });
      },
      onPickRoute: (rid) => openForm('route', rid, now('route').get(rid)),
    });
    const routes = routesNow();
    clear(routesBox).append(unsaved('node') ? h('p', { class: 'small pk-places-unsaved' }, t('packs.places-unsaved', { what: unsaved('node') })) : '', h('details', { class: 'pk-kind', 'data-kind': 'route' },
      h('summary', {}, `${plural('route')} (${routes.length})`, unsaved('route') ? h('span', { class: 'badge' }, unsaved('route')) : null),
      cardsOf('route', now('route'))));
    // the cards and tiles
    clear(sectionsBox);
    for (const kind of SECTIONS) {
      const items = now(kind);
      const form = forms.kinds[kind];
      const choiceIds = (form.id || {}).type === 'choice' ? form.id.choices : null;
      const missing = choiceIds ? choiceIds.filter((c) => !items.has(c.value)) : [];
      const changed = unsaved(kind);
      sectionsBox.append(h('details', { class: 'pk-kind pk-section', 'data-kind': kind, open: openKinds.has(kind) },
        h('summary', { onclick: (ev) => { const d = ev.currentTarget.parentElement; setTimeout(() => (d.open ? openKinds.add(kind) : openKinds.delete(kind)), 0); } },
          `${plural(kind)} (${choiceIds ? t('packs.n-of-m', { n: items.size, m: choiceIds.length }) : items.size})`, changed ? h('span', { class: 'badge' }, changed) : null),
        h('p', { class: 'pf-help' }, form.help),
        cardsOf(kind, items),
        choiceIds
          ? missing.map((c) => h('button', { type: 'button', class: 'pk-add', 'data-add-kind': kind, 'data-add-id': c.value, onclick: () => openForm(kind, c.value, kind === 'book' ? { min_die: ((info.pack.books || [])[Number(c.value) - 1] || {}).min_die } : null, { isNew: true }) }, t('packs.enter', { what: c.label })))
          : h('button', { type: 'button', class: 'pk-add', 'data-add-kind': kind, onclick: () => openForm(kind, null, null) }, t('packs.add-a', { what: form.label.toLowerCase() }))));
    }
  }
  const openKinds = new Set();

  // what is not saved yet of a kind, in words: "1 new, 2 changed"
  function unsaved(kind) {
    const ops = [...changes.values()].filter((c) => c.kind === kind).map((c) => c.op);
    const n = (op) => ops.filter((o) => o === op).length;
    return [[n('add'), 'packs.n-new'], [n('replace'), 'packs.n-changed'], [n('remove'), 'packs.n-removed']].filter(([k]) => k).map(([k, w]) => t(w, { n: k })).join(t('pf.sep'));
  }

  function cardsOf(kind, items) {
    if (!items.size) return h('p', { class: 'muted small' }, t('packs.none-yet'));
    return h('ul', { class: 'pk-cards' }, [...items].map(([id, spec]) => {
      const c = changes.get(`${kind}:${id}`);
      return h('li', {}, h('button', { type: 'button', class: `pk-card${c ? ' pk-changed' : ''}`, 'data-kind': kind, 'data-id': id, onclick: () => openForm(kind, id, spec) },
        h('span', { class: 'visually-hidden' }, `${t('packs.change-hidden')} `), cardFace(kind, id, spec), c ? h('span', { class: 'visually-hidden' }, ` ${t('packs.not-saved-yet')}`) : null));
    }));
  }

  async function save() {
    const body = { add: [], replace: [], remove: [] };
    const nodeChanged = [...changes.values()].some((c) => c.kind === 'node');
    for (const c of changes.values()) {
      if (c.op === 'remove') body.remove.push({ kind: c.kind, id: c.id });
      else body[c.op].push({ kind: c.kind, id: c.id, spec: c.spec });
    }
    // what is seen is what is kept: a place drawn where the editor put it gets those x and y
    if (nodeChanged && editor) {
      for (const [id, spec] of now('node')) {
        if (typeof spec.x === 'number' && typeof spec.y === 'number') continue;
        const [x, y] = editor.positions[id];
        const entry = { kind: 'node', id, spec: { ...spec, x, y } };
        // a place already added or changed is sent once, with where it is drawn
        const op = ['add', 'replace'].find((o) => body[o].some((a) => a.kind === 'node' && a.id === id)) || 'replace';
        const i = body[op].findIndex((a) => a.kind === 'node' && a.id === id);
        if (i >= 0) body[op][i] = entry; else body.replace.push(entry);
      }
    }
    if (nameInput.value.trim() && nameInput.value.trim() !== info.name) body.name = nameInput.value.trim();
    clear(status).append(t('packs.saving'));
    try {
      const made = await asAdmin(`${packPath(title, info.id, info.hash)}/versions`, { method: 'POST', body });
      changes = new Map(); keep();
      sheet.remove();
      sessionStorage.setItem('tabletape.pack-saved', t('packs.saved', { version: made.version, name: made.name || made.id, working: !!made.working }));
      navigate(packUrl(title, made.id, made.hash));
    } catch (err) {
      clear(status).append(errorBox(err, { lead: t('packs.not-saved') }));
    }
  }

  async function showDiff() {
    clear(status);
    let d;
    try { d = await api(`${packPath(title, info.parent.id, info.parent.hash)}/diff/${enc(info.hash)}`); } catch (err) { status.append(errorBox(err, { lead: t('packs.no-comparison') })); return; }
    clear(sheet);
    const group = (label, items, draw) => (items.length ? [h('h3', {}, `${label} (${items.length})`), h('ul', { class: 'pk-cards pk-diff' }, items.map(draw))] : []);
    sheet.append(h('h2', { id: 'pk-sheet-h' }, t('packs.changed-since', { version: info.version - 1 })),
      h('div', { class: 'pk-diff-body', 'data-diff': `${d.added.length} ${d.removed.length} ${d.changed.length}` },
        !d.added.length && !d.removed.length && !d.changed.length ? h('p', {}, t('packs.diff-nothing')) : null,
        group(t('packs.diff-added'), d.added, (c) => h('li', { 'data-added': `${c.kind}:${c.id}` }, cardFace(c.kind, c.id, c.spec))),
        group(t('packs.diff-removed'), d.removed, (c) => h('li', { 'data-removed': `${c.kind}:${c.id}` }, cardFace(c.kind, c.id, c.spec))),
        group(t('packs.diff-changed'), d.changed, (c) => h('li', { 'data-changed': `${c.kind}:${c.id}` }, h('p', { class: 'small' }, t('packs.before')), cardFace(c.kind, c.id, c.before), h('p', { class: 'small' }, t('packs.after')), cardFace(c.kind, c.id, c.after)))),
      h('div', { class: 'pf-actions' }, h('button', { type: 'button', class: 'primary', onclick: () => sheet.close() }, t('packs.close'))));
    sheet.showModal();
  }

  render();
  const saved = sessionStorage.getItem('tabletape.pack-saved');
  if (saved) { sessionStorage.removeItem('tabletape.pack-saved'); status.textContent = saved; }
  return { leave() { sheet.remove(); } };
}

// a pack's id and hash, folded away
const fingerprint = (info) => h('details', { class: 'pk-details' }, h('summary', {}, t('packs.fingerprint')),
  h('p', { class: 'small' }, `${t('packs.fp-pack')} `, h('code', { 'data-pack-id': info.id }, info.id), `${t('pf.sep')}${t('packs.fp-hash')} `, h('code', { 'data-pack-hash': info.hash }, info.hash)));

// a title whose packs have no forms (Marco Polo's one built-in pack): what it holds, to download
function readOnly(main, title, info) {
  main.append(
    h('p', { class: 'pk-back' }, h('a', { href: `/?page=packs&title=${encodeURIComponent(title)}` }, t('packs.all-packs'))),
    h('h1', { class: 'pk-title' }, info.name || info.id),
    h('p', {}, t('packs.read-only')),
    h('ul', { class: 'pk-holds' }, Object.entries(info.components || {}).map(([kind, n]) => h('li', {}, `${has(`packs.holds.${kind}`) ? t(`packs.holds.${kind}`) : humanize(kind)}: ${n}`))),
    h('p', {}, h('a', { class: 'button', href: downloadUrl(title, info.id, info.hash), download: `${info.id}.json` }, t('packs.download'))),
    fingerprint(info));
  return {};
}

export async function show(main, q, { navigate }) {
  const title = q.get('title') || 'marco-polo-2';
  const pack = q.get('pack');
  return pack ? editPage(main, title, pack, q.get('hash'), navigate) : listPage(main, title, navigate, q);
}
