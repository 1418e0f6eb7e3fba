"""Rewrite the English phrases passed as message parameters into ``phrase(key, template, ...)``
(``events.messages.Phrase``), mechanically: a string literal or f-string whose template
(``tools/templatize.py``'s reading of it) is one of the English catalogue's ``phrases`` becomes
that phrase, e.g. ``f"for the bonus of {city}"`` becomes
``phrase("why/bonus-city", "for the bonus of {city}", city=city)``. The catalogue is the list of
what to rewrite, so the same rewrite applies to the code wherever it has moved. Needs Python 3.12
or later. Run from the repository root: ``python3.12 tools/phrasify.py FILE.py ...``;
``--show FILE.py:LINE`` prints the templates of the literals on a line (to add one to the catalogue).
"""
import ast, json, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from templatize import build, module_consts, parts_of, pylit  # noqa: E402

IMPORT = "from events.messages import phrase\n"
#: the edits a phrase needs where code read the English string itself (exact text, wherever it is)
FIXES = [
    ('code = codes.OCCUPIED_FEE if why.startswith("for the occupied") else codes.CANNOT_AFFORD',
     'code = codes.OCCUPIED_FEE if getattr(why, "key", "") == "why/occupied-space" else codes.CANNOT_AFFORD'),
]


def literals(tree):
    """The string nodes that may be a phrase: not docstrings, not inside an f-string or a phrase."""
    skip = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body:
            first = n.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(n, ast.JoinedStr):
            skip.update(id(v) for v in ast.walk(n) if v is not n)
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "phrase":
            skip.update(id(v) for v in n.args)  # its key and template; a parameter may be a phrase
    for n in ast.walk(tree):
        if id(n) in skip:
            continue
        if isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str)):
            yield n


def rewrite(path, by_template, show=None):
    src = open(path, encoding="utf-8").read()
    tree = ast.parse(src)
    consts = module_consts(tree)
    lines = [0]
    for line in src.encode().splitlines(keepends=True):
        lines.append(lines[-1] + len(line))
    off = lambda ln, col: lines[ln - 1] + col
    edits, done = [], []
    for node in literals(tree):
        parts = parts_of(node, consts)
        if parts is None:
            continue
        tmpl, params = build(parts, src, consts)
        if show is not None:
            if node.lineno == show:
                print(json.dumps(tmpl, ensure_ascii=False), [p for p, _ in params])
            continue
        key = by_template.get(tmpl)
        if key is None or (not params and " " not in tmpl):
            continue  # a single word is an id or a dict key as often as a phrase: ``terms`` has those
        new = f"phrase({pylit(key)}, {pylit(tmpl)}" + "".join(f", {n}={s}" for n, s in params) + ")"
        start, end = off(node.lineno, node.col_offset), off(node.end_lineno, node.end_col_offset)
        edits.append((start, end, new.encode()))
        done.append((node.lineno, key))
    if show is not None:
        return done
    fixed = src
    for before, after in FIXES:
        fixed = fixed.replace(before, after)
    if not edits:
        if fixed != src:
            open(path, "w", encoding="utf-8").write(fixed)
        return done
    b = src.encode()
    for start, end, new in sorted(edits, reverse=True):
        b = b[:start] + new + b[end:]
    text = b.decode()
    for before, after in FIXES:
        text = text.replace(before, after)
    if IMPORT not in text:  # one added line, after the last top-level import
        last = max(n.end_lineno for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)))
        ls = text.splitlines(keepends=True)
        ls.insert(last, IMPORT)
        text = "".join(ls)
    ast.parse(text)
    open(path, "w", encoding="utf-8").write(text)
    return done


def main(argv):
    phrases = json.loads(Path("api/i18n/en.json").read_text(encoding="utf-8")).get("phrases", {})
    by_template = {t: k for k, t in phrases.items()}
    if argv[:1] == ["--show"]:
        for spec in argv[1:]:
            path, _, line = spec.rpartition(":")
            rewrite(path, by_template, int(line))
        return
    report = {path: rewrite(path, by_template) for path in argv}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
