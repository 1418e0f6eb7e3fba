// The HTTP API, as the page uses it. Every error is JSON {code, message, ...}; it becomes an ApiError.
// Every call names the reader's language, so a refusal's message arrives in it.
import { lang, t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || `http-${status}`;
    this.body = body || {};
  }
}

export async function api(path, { method = 'GET', body, token, params, signal } = {}) {
  let url = path;
  if (params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.set(k, String(v));
    const s = q.toString();
    if (s) url += (url.includes('?') ? '&' : '?') + s;
  }
  const headers = { Accept: 'application/json', 'Accept-Language': lang };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, { code: 'network', message: t('shell.no-answer', { detail: err.message }) });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { code: `http-${response.status}`, message: text.slice(0, 200) }; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// Tokens live in localStorage, per game: {write, seats: [..]}. Only their holder can record.
const KEY = (id) => `tabletape.tokens.${id}`;

export function tokensOf(gameId) {
  try { return JSON.parse(localStorage.getItem(KEY(gameId))) || {}; } catch { return {}; }
}

export function saveTokens(gameId, tokens) {
  const now = tokensOf(gameId);
  localStorage.setItem(KEY(gameId), JSON.stringify({ ...now, ...tokens }));
}

export function forgetTokens(gameId) { localStorage.removeItem(KEY(gameId)); }
