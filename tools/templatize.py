"""Rewrite refusals raised with an f-string into a template and its params, mechanically:
``illegal(C, f"{card} cannot go on {name}")`` becomes ``illegal(C, "{card} cannot go on {name}",
card=card, name=name)``, and ``raise X(f"...")`` gets ``params=dict(...)``. The message stays
what it was (``events.messages.render``); a rulebook quote in the text becomes a ``rule`` param.
Needs Python 3.12 or later (exact positions inside f-strings). Run from the repository root:
``python3.12 tools/templatize.py FILE.py ...``; then add the new templates to ``api/i18n/*.json``
(``tests/api/test_i18n_catalogues.py`` lists the ones missing).
"""
import ast, json, re, sys, keyword

HELPERS = {"illegal", "contradiction", "bad_options"}
CLASSES = {
    "MalformedEvent", "UnknownEventType", "InvalidPlayerName", "UnknownTitle", "InvalidOptions", "IllegalMove",
    "ContradictsKnownFacts", "UnknownGame", "GameExists", "ConcurrencyConflict", "IdempotencyKeyReused",
    "HistoryEditRefused", "PackRefused", "UnknownPack", "LogCorrupted", "ChainBroken", "ChainSecretMissing",
    "StatsQueryRefused", "SqlRefused", "SqlBusy", "ParquetImportRefused", "TokenMissing", "TokenWrong",
    "AdminTokenMissing", "AdminTokenWrong", "NotYetVisible", "MalformedRequest", "ImportRefused", "TabletapeError",
}
RESERVED = {"code", "message", "details", "params", "self"}
QUOTE = re.compile(r'"[^"]*[^\x00-\x7f][^"]*"')

def module_consts(tree):
    out = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            if isinstance(n.value, ast.Constant) and isinstance(n.value.value, str):
                out[n.targets[0].id] = n.value.value
    return out

def parts_of(node, consts):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [("lit", node.value)]
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(("lit", v.value))
            else:
                spec = None
                if v.format_spec is not None:
                    if not all(isinstance(x, ast.Constant) for x in v.format_spec.values):
                        return None
                    spec = "".join(x.value for x in v.format_spec.values)
                conv = {-1: "", 115: "!s", 114: "!r", 97: "!a"}[v.conversion]
                val = v.value
                if (not conv and spec is None and isinstance(val, ast.IfExp) and sel_ok(val)):
                    out.append(("sel", val))
                else:
                    out.append(("expr", val, conv, spec))
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = parts_of(node.left, consts), parts_of(node.right, consts)
        return None if a is None or b is None else a + b
    if isinstance(node, ast.IfExp) and sel_ok(node):
        return [("sel", node)]
    if isinstance(node, ast.Name) and node.id in consts:
        return [("expr", node, "", None)]
    return None

def sel_ok(n):
    for b in (n.body, n.orelse):
        if not (isinstance(b, ast.Constant) and isinstance(b.value, str)):
            return False
        if "{" in b.value or "}" in b.value:
            return False
    return "|" not in n.body.value

def base_name(n, consts):
    if isinstance(n, ast.Name):
        if n.id in consts and n.id.startswith("Q_"):
            return "rule" if consts[n.id].startswith('"') else n.id[2:].lower()
        return n.id.lower()
    if isinstance(n, ast.Attribute):
        if n.attr in ("id", "name", "value", "n", "kind", "__name__") and isinstance(n.value, (ast.Name, ast.Attribute)):
            return base_name(n.value, consts) + "_" + n.attr.strip("_")
        return n.attr.lower()
    if isinstance(n, ast.Call):
        f = n.func
        fname = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "value"
        if fname == "len" and n.args:
            return "n_" + base_name(n.args[0], consts)
        if fname in ("who", "player", "name_of"):
            return "player"
        if fname in ("list", "sorted", "tuple", "repr", "str", "dict", "set", "join", "int", "abs") and n.args:
            return base_name(n.args[0], consts)
        return fname.lower()
    if isinstance(n, ast.Subscript):
        s = n.slice
        if isinstance(s, ast.UnaryOp) and isinstance(s.op, ast.USub) and isinstance(s.operand, ast.Constant) and s.operand.value == 1:
            return base_name(n.value, consts) + "_last"
        if isinstance(s, ast.Constant) and isinstance(s.value, str):
            return s.value
        if isinstance(s, ast.Constant) and isinstance(s.value, int):
            return base_name(n.value, consts) + f"_{s.value}"
        return base_name(n.value, consts) + "_item"
    if isinstance(n, ast.BinOp):
        op = {ast.Add: "plus", ast.Sub: "minus", ast.Mult: "times", ast.FloorDiv: "div", ast.Mod: "mod"}.get(type(n.op), "op")
        return base_name(n.left, consts) + "_" + op
    if isinstance(n, ast.Compare):
        c = n.comparators[0]
        op = {ast.Eq: "is", ast.NotEq: "not", ast.Lt: "lt", ast.Gt: "gt", ast.LtE: "le", ast.GtE: "ge", ast.In: "in", ast.NotIn: "not_in", ast.Is: "is", ast.IsNot: "not"}.get(type(n.ops[0]), "cmp")
        tail = str(c.value) if isinstance(c, ast.Constant) else base_name(c, consts)
        return base_name(n.left, consts) + "_" + op + "_" + tail
    if isinstance(n, ast.BoolOp):
        return base_name(n.values[0], consts)
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
        return "not_" + base_name(n.operand, consts)
    if isinstance(n, ast.IfExp):
        return base_name(n.body, consts)
    if isinstance(n, ast.Constant):
        return "value"
    return "value"

def clean(name):
    name = re.sub(r"[^0-9a-zA-Z_]+", "_", name).strip("_").lower() or "value"
    if name[0].isdigit():
        name = "v" + name
    if keyword.iskeyword(name) or name in RESERVED:
        name += "_"
    return name

def esc(s):
    return s.replace("{", "{{").replace("}", "}}")

def pylit(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'

def build(parts, src, consts):
    tmpl, params, by_src = [], [], {}
    def add(name, expr_src):
        if expr_src in by_src:
            return by_src[expr_src]
        taken = {p for p, _ in params}
        n, i = name, 2
        while n in taken:
            n, i = f"{name}{i}", i + 1
        params.append((n, expr_src)); by_src[expr_src] = n
        return n
    for p in parts:
        if p[0] == "lit":
            text = p[1]; pos = 0
            for m in QUOTE.finditer(text):
                if len(m.group()) < 10:
                    continue
                tmpl.append(esc(text[pos:m.start()]))
                n = add("rule", pylit(m.group()))
                tmpl.append("{" + n + "}"); pos = m.end()
            tmpl.append(esc(text[pos:]))
        elif p[0] == "expr":
            _, node, conv, spec = p
            s = ast.get_source_segment(src, node)
            n = add(clean(base_name(node, consts)), s)
            tmpl.append("{" + n + conv + (":" + spec if spec is not None else "") + "}")
        else:
            node = p[1]
            s = ast.get_source_segment(src, node.test)
            n = add(clean(base_name(node.test, consts)), s)
            tmpl.append("{" + n + ":?" + node.body.value + "|" + node.orelse.value + "}")
    return "".join(tmpl), params

def main(path, manifest, bails):
    src = open(path, encoding="utf-8").read()
    tree = ast.parse(src)
    consts = module_consts(tree)
    b = src.encode()
    lines = [0]
    for line in b.splitlines(keepends=True):
        lines.append(lines[-1] + len(line))
    off = lambda ln, col: lines[ln - 1] + col
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        fname = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        if fname in HELPERS and len(node.args) >= 2:
            msg, kind = node.args[1], "helper"
            code_src = ast.get_source_segment(src, node.args[0])
        elif fname in CLASSES and node.args:
            msg, kind = node.args[0], "class"
            kw = [k for k in node.keywords if k.arg == "code"]
            code_src = ast.get_source_segment(src, kw[0].value) if kw else None
            if any(k.arg == "params" for k in node.keywords):
                continue
        else:
            continue
        if isinstance(msg, ast.Constant) and (node.keywords if kind == "helper" else False):
            continue  # already a template with its params
        parts = parts_of(msg, consts)
        rec = {"file": path, "line": node.lineno, "call": fname, "code": code_src}
        if parts is None:
            bails.append({**rec, "msg": ast.get_source_segment(src, msg)})
            continue
        tmpl, params = build(parts, src, consts)
        rec.update(template=tmpl, params=[p for p, _ in params])
        manifest.append(rec)
        if not params:
            # a plain literal: leave the site untouched; the catalogue stores it escaped
            rec["template"] = tmpl
            rec["plain"] = True
            continue
        if kind == "helper":
            extra = "".join(f", {n}={s}" for n, s in params)
        else:
            extra = ", params=dict(" + ", ".join(f"{n}={s}" for n, s in params) + ")"
        start = off(msg.lineno, msg.col_offset); end = off(msg.end_lineno, msg.end_col_offset)
        edits.append((start, end, (pylit(tmpl) + extra).encode()))
    for start, end, new in sorted(edits, reverse=True):
        b = b[:start] + new + b[end:]
    open(path, "wb").write(b)
    ast.parse(b.decode())

if __name__ == "__main__":
    manifest, bails = [], []
    for path in sys.argv[1:]:
        main(path, manifest, bails)
    print(json.dumps({"rewritten": [s for s in manifest if not s.get("plain")], "left": bails}, ensure_ascii=False, indent=1))
