// Drawing modules, one per title (draw/<title-id>.js), with a generic fallback for any other title.
const cache = new Map();

export async function drawerFor(title) {
  if (!cache.has(title)) {
    cache.set(title, import(`./${title}.js`).catch(() => import('./generic.js')));
  }
  return cache.get(title);
}

export async function factsFor(title) {
  try { return await import(`../facts/${title}.js`); } catch { return import('../facts/generic.js'); }
}
