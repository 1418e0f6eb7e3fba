// JSON-patch operations on the top-level keys of a view (the frames' diff mode)
export function patch(view, ops) {
  const out = { ...(view || {}) };
  for (const op of ops) {
    const key = op.path.slice(1).split('/')[0].replace(/~1/g, '/').replace(/~0/g, '~');
    if (op.op === 'remove') delete out[key];
    else out[key] = op.value;
  }
  return out;
}

// frames in diff mode as whole views, one per step
export function whole(frames) {
  let view = null;
  return frames.map((f) => {
    if (f.view) view = f.view;
    else if (f.diff) view = patch(view, f.diff);
    return { ...f, view };
  });
}
