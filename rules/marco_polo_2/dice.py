"""Dice placement: taking a die from a seat, adding one, placing dice on an action space and
the fee for an occupied one; Isabella Donati's rewards for a roll."""

from __future__ import annotations

from events.messages import phrase
from rules.marco_polo_2 import codes
from rules.marco_polo_2.state import BAG, KHAN
from rules.marco_polo_2.work import Work, gain, pay


Q_COLOUR = '"各アクションマスは、プレイヤーの色について各１回しか使用出来ません。"'
Q_FEE = '"埋まっているアクションマスを使う場合には、お金を支払わなければいけません（重要）。" "支払うお金は置いたダイスの最も小さい目と同額となります。"'
Q_NO_STACK = '"このアクションはダイスを重ねて置くことはできません。"'
DIE_TOKENS: dict[str, tuple[str, int]] = {f"{k}{v}": (k or "c", v) for k in ("", "b") for v in range(1, 7)}
DIE_TOKENS.update({f"p{c}": ("p", 6) for c in "BRYG"})
ISABELLA = {1: "coins", 6: "coins", 2: "vp", 5: "vp", 3: "camels", 4: "camels"}
ISABELLA_N = {"coins": 2, "vp": 1, "camels": 1}


def parse_die(token: object) -> tuple[str, int]:
    parsed = DIE_TOKENS.get(token) if isinstance(token, str) else None
    if parsed is None:
        codes.illegal(codes.BAD_DIE, "{token!r} is not a die: write 1-6 (your colour), b4 (a black die showing 4) or pR (Donata's red piece)", token=token)
    return parsed


def take_die(w: Work, seat: int, token: str) -> tuple[str, int]:
    kind, value = parse_die(token) if w.strict else DIE_TOKENS[token]
    d = w.pl.get(seat) or w.p(seat)
    if kind == "p":
        colour = {"B": "blue", "R": "red", "Y": "yellow", "G": "green"}[token[1]]
        if colour not in d.pieces:
            if w.strict:
                codes.illegal(codes.DIE_NOT_HELD, "{player} has no {colour} piece (Donata Badoer's pieces: {pieces})", player=w.who(seat), colour=colour, pieces=list(d.pieces))
            return kind, value
        i = d.pieces.index(colour)
        d.pieces = d.pieces[:i] + d.pieces[i + 1 :]
        return kind, value
    key = "dice" if kind == "c" else "black"
    held = getattr(d, key)
    if value not in held:
        if w.strict:
            codes.illegal(codes.DIE_NOT_HELD, "{player} holds no {kind_is_c:?colour|black} die showing {value} (colour {dice}, black {black})", player=w.who(seat), kind_is_c=kind == 'c', value=value, dice=list(d.dice), black=list(d.black))
        return kind, value
    i = held.index(value)
    setattr(d, key, held[:i] + held[i + 1 :])
    return kind, value


def add_die(w: Work, seat: int, kind: str, value: int) -> None:
    d = w.pl.get(seat) or w.p(seat)
    key = "dice" if kind == "c" else "black"
    setattr(d, key, tuple(sorted(getattr(d, key) + (value,))))


def own_slot(space: str) -> bool:
    """Whether each die placed on ``space`` takes a マス of its own (the Khan's favor's slots, a special
    city's two spaces) instead of joining the dice already there (ruling MP2-12)."""
    return space == KHAN or space.startswith("special:")


def is_occupied(board, space: str) -> bool:
    """Whether a die (or a neutral one) stands on ``space``."""
    for p in board:
        if p[0] == space:
            return True
    return False


def place_dice(w: Work, seat: int, space: str, tokens, count: int, mode: str, what: str) -> int:
    """Dice on an action space: count, possession, the colour rule, Donata's pieces, stacking and the
    occupation fee (``mode``: "shared" pays the fee, "single" takes no die on top, "free" neither).
    Returns the lowest value placed."""
    if not w.strict:
        return _place_trusted(w, seat, space, tokens, mode, what)
    if w.strict and len(tokens) != count:
        codes.illegal(codes.DICE_COUNT, "{what} takes exactly {count} {count_is_1:?die|dice}, not {n_tokens}: {rule}", what=what, count=count, count_is_1=count == 1, n_tokens=len(tokens), rule="\"ボードに描かれているマスの数のダイスを置かなければいけません。\"")
    board = w.get("board")
    occupied = is_occupied(board, space)
    if w.strict and mode == "single" and occupied:
        codes.illegal(codes.NO_STACKING, "{what} already holds a die this round: {rule}", what=what, rule=Q_NO_STACK)
    placed = []
    colour = piece = False
    for t in tokens:
        kind, value = take_die(w, seat, t)
        placed.append((space, value, seat, kind))
        colour = colour or kind == "c"
        piece = piece or kind == "p"
    d = w.pl.get(seat) or w.p(seat)
    if w.strict and piece and occupied and not own_slot(space):
        codes.illegal(codes.PIECE_RULE, "Donata Badoer's pieces go only on a マス without dice, and {what} holds dice: {rule} (ruling MP2-12)", what=what, rule="\"フリーアクションスペース(他のダイスが置かれていないマス)にのみ配置可能。\"")
    if colour and space != BAG:
        if w.strict and space in d.used:
            codes.illegal(codes.COLOUR_ONCE_PER_SPACE, "{player}'s colour already used {what} this round: {rule}", player=w.who(seat), what=what, rule=Q_COLOUR)
        d.used = d.used + (space,)
    w.f["board"] = board + tuple(placed)
    low = min(p[1] for p in placed) if placed else 0
    if mode == "shared" and occupied:
        pay(w, seat, {"coins": low}, phrase("why/occupied-space-2", "for the occupied space {what}: {rule}", what=what, rule=Q_FEE), codes.OCCUPIED_FEE)
    if colour and occupied and mode != "free" and d.character == "donata":
        gain(w, seat, "camels", 2)  # "既にダイスが置かれているスペースのアクションを行った場合、２ラクダを獲得する。"
    return low


def _place_trusted(w: Work, seat: int, space: str, tokens, mode: str, what: str) -> int:
    """``place_dice`` for a checked event (the fold): the same effects, no checks."""
    d = w.pl.get(seat) or w.p(seat)
    board = w.get("board")
    occupied = is_occupied(board, space)
    placed = []
    colour = False
    low = 7
    for t in tokens:
        kind, value = DIE_TOKENS[t]
        if kind == "c":
            held = d.dice
            if value in held:
                i = held.index(value)
                d.dice = held[:i] + held[i + 1 :]
            colour = True
        elif kind == "b":
            held = d.black
            if value in held:
                i = held.index(value)
                d.black = held[:i] + held[i + 1 :]
        else:
            take_die(w, seat, t)
        placed.append((space, value, seat, kind))
        if value < low:
            low = value
    if colour and space != BAG:
        d.used = d.used + (space,)
    w.f["board"] = board + tuple(placed)
    if not placed:
        return 0
    if mode == "shared" and occupied:
        pay(w, seat, {"coins": low}, "", codes.OCCUPIED_FEE)
    if colour and occupied and mode != "free" and d.character == "donata":
        gain(w, seat, "camels", 2)
    return low


def isabella_roll(w: Work, seat: int, value: int) -> None:
    res = ISABELLA[value]
    gain(w, seat, res, ISABELLA_N[res])
