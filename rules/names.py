"""Names of balls, groups, pockets and warnings as each language says them (never a raw id on screen).

Russian billiards calls a numbered ball «шар 7» (declined on «шар»: «шара 7», «шаром 7»), the cue ball
«биток»; snooker's balls are «красный», «жёлтый»... (any red is just «красный»: the reds are all alike).
English says "the cue ball", "the 7", "a red", "the yellow".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from physics.record import BallId
from rules.contract import RefereeWarning, Required, WarningCode

_COLOURS: dict[str, tuple[str, str]] = {
    "yellow": ("the yellow", "жёлтый"),
    "green": ("the green", "зелёный"),
    "brown": ("the brown", "коричневый"),
    "blue": ("the blue", "синий"),
    "pink": ("the pink", "розовый"),
    "black": ("the black", "чёрный"),
}
_GROUPS: dict[str, tuple[str, str]] = {
    "red": ("a red", "красный"),
    "colour": ("a colour (nominate it)", "цветной (объявить)"),
    "solids": ("a solid (1-7)", "сплошной (1-7)"),
    "stripes": ("a stripe (9-15)", "полосатый (9-15)"),
    "any": ("any object ball", "любой прицельный"),
}
_POCKETS: dict[str, tuple[str, str]] = {
    "head-left": ("the head-left corner pocket", "левая угловая луза у дома"),
    "head-right": ("the head-right corner pocket", "правая угловая луза у дома"),
    "middle-left": ("the left middle pocket", "левая средняя луза"),
    "middle-right": ("the right middle pocket", "правая средняя луза"),
    "foot-left": ("the foot-left corner pocket", "левая угловая луза у заднего борта"),
    "foot-right": ("the foot-right corner pocket", "правая угловая луза у заднего борта"),
}


def _lang(lang: str) -> int:
    return 0 if lang == "en" else 1


def ball_name(ball: BallId, lang: str) -> str:
    """One ball: «биток» / "the cue ball", «шар 7» / "the 7", «красный» / "a red", «жёлтый» / "the yellow"."""
    i = _lang(lang)
    if ball == "cue":
        return ("the cue ball", "биток")[i]
    if ball.startswith("red"):
        return ("a red", "красный")[i]
    if ball in _COLOURS:
        return _COLOURS[ball][i]
    if ball in _GROUPS:
        return _GROUPS[ball][i]
    return (f"the {ball}", f"шар {ball}")[i]


# Russian cases of the words that name balls: nominative, genitive, dative, accusative, instrumental, prepositional.
_CASES = ("nom", "gen", "dat", "acc", "ins", "pre")
_NOUN = {
    "шар": ("шар", "шара", "шару", "шар", "шаром", "шаре"),
    "биток": ("биток", "битка", "битку", "биток", "битком", "битке"),
}


def _adjective(nom: str) -> tuple[str, ...]:
    """A masculine adjective used as a noun (a ball is «он»), inanimate: «жёлтый», «синий»."""
    soft = nom.endswith("ий") and not nom.endswith(("кий", "гий", "хий"))
    stem = nom[:-2]
    if soft:
        return (nom, stem + "его", stem + "ему", nom, stem + "им", stem + "ем")
    return (nom, stem + "ого", stem + "ому", nom, stem + "ым", stem + "ом")


def ball_ru(ball: BallId, case: str = "nom") -> str:
    """A ball in Russian, declined: ``ball_ru("7", "gen")`` → «шара 7», ``ball_ru("pink", "ins")`` → «розовым»."""
    k = _CASES.index(case)
    if ball == "cue":
        return _NOUN["биток"][k]
    if ball.startswith("red"):
        return _adjective("красный")[k]
    if ball in _COLOURS:
        return _adjective(_COLOURS[ball][1])[k]
    return f"{_NOUN['шар'][k]} {ball}"


def ball_en(ball: BallId) -> str:
    return ball_name(ball, "en")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def balls_list(balls: Iterable[BallId], lang: str) -> str:
    """Several balls in a sentence: numbered ones together («шары 7, 3» / "balls 7, 3"), reds, all alike,
    counted («красный ×2» / "2 reds"), the rest by name."""
    bs = list(dict.fromkeys(balls))
    nums = [b for b in bs if b.isdigit()]
    n_red = sum(1 for b in bs if b.startswith("red"))
    out: list[str] = []
    for b in bs:
        if b.isdigit():
            if b == nums[0]:
                many = (f"balls {', '.join(nums)}", f"шары {', '.join(nums)}")[_lang(lang)]
                out.append(ball_name(b, lang) if len(nums) == 1 else many)
        elif b.startswith("red"):
            if not any(x.startswith("red") for x in bs[: bs.index(b)]):
                many = (f"{n_red} reds", f"красный ×{n_red}")[_lang(lang)]
                out.append(ball_name(b, lang) if n_red == 1 else many)
        else:
            out.append(ball_name(b, lang))
    return ", ".join(out)


# What a ball may touch (physics/plan/parts.py's surfaces, a person's things, outsiders): English with its
# article, Russian in the nominative and the accusative («задел стену»).
_OBJECTS: dict[str, tuple[str, str, str]] = {
    "chalk": ("the chalk", "мел", "мел"),
    "cue": ("a cue", "кий", "кий"),
    "hand": ("a hand", "рука", "руку"),
    "clothing": ("clothing", "одежда", "одежду"),
    "bridge": ("a bridge", "машинка", "машинку"),
    "person": ("a person", "человек", "человека"),
    "player": ("a player", "игрок", "игрока"),
    "opponent": ("the opponent", "соперник", "соперника"),
    "lamp": ("the lamp", "осветительный прибор", "осветительный прибор"),
    "floor": ("the floor", "пол", "пол"),
    "wall": ("the wall", "стена", "стену"),
    "rail_top": ("the rail top", "верхняя часть борта", "верхнюю часть борта"),
    "frame": ("the table's frame", "рама стола", "раму стола"),
    "bracket": ("a pocket bracket", "скоба лузы", "скобу лузы"),
    "cushion": ("a cushion", "борт", "борт"),
    "jaw": ("a pocket jaw", "губка лузы", "губку лузы"),
    "pocket": ("a pocket", "луза", "лузу"),
    "spectator": ("a spectator", "зритель", "зрителя"),
    "referee": ("the referee", "судья", "судью"),
    "outsider": ("an outsider", "посторонний", "постороннего"),
    "wind": ("a gust of wind", "порыв ветра", "порыв ветра"),
}
# A player's things named as "a player's ..." (a person or the player himself is just the player).
_PLAYER_THING = {"person": ("a player", "игрок"), "player": ("a player", "игрок")}


def object_en(obj: str) -> str:
    """What a ball touched, in English with its article (``rail_top`` → "the rail top", ``person`` → "a person")."""
    return _OBJECTS[obj][0] if obj in _OBJECTS else "the " + obj.replace("_", " ")


def object_ru(obj: str, case: str = "nom") -> str:
    """What a ball touched, in Russian: ``case`` is ``"nom"`` or ``"acc"`` («задел стену»)."""
    if obj not in _OBJECTS:
        return obj.replace("_", " ")
    return _OBJECTS[obj][2 if case == "acc" else 1]


def player_thing(obj: str, lang: str) -> str:
    """A player's thing: "a player's chalk" / «мел»; the player himself: "a player" / «игрок»."""
    if obj in _PLAYER_THING:
        return _PLAYER_THING[obj][_lang(lang)]
    if obj == "opponent":
        return object_en(obj) if lang == "en" else object_ru(obj)
    if lang != "en":
        return object_ru(obj)
    noun = object_en(obj)
    for article in ("the ", "a ", "an "):
        noun = noun.removeprefix(article)
    return f"a player's {noun}"


def pocket_name(pocket: str | None, lang: str) -> str:
    if pocket is None:
        return ("a pocket", "луза")[_lang(lang)]
    return _POCKETS.get(pocket, (pocket, pocket))[_lang(lang)]


def required_text(req: Required, lang: str) -> tuple[str, ...]:
    """What the cue ball must meet first, named (the HUD's "required" line)."""
    return tuple(ball_name(b, lang) for b in req.ball_on)


_WARNINGS: dict[WarningCode, tuple[str, str]] = {
    WarningCode.THIRD_MISS: (
        "warned: a third miss in a row with the ball on in full view loses the frame",
        "предупреждён: третий промах подряд при полностью видимом очередном шаре будет стоить партии",
    ),
    WarningCode.STALEMATE: (
        "warned after two fouls in a row that left the balls where they were: a third by each player stalls "
        "the frame",
        "предупреждён после второго нарушения подряд без изменения позиции: после третьего у обоих игроков "
        "партия будет остановлена (патовая позиция)",
    ),
    WarningCode.OUTSIDE_HOUSE: (
        "warned: the cue ball was placed outside the house; a stroke from outside the house is now a foul",
        "предупреждён: биток установлен вне дома; удар не из дома теперь будет оштрафован",
    ),
}


def warning_text(w: RefereeWarning, players: Sequence[str], lang: str) -> str:
    who = players[w.player] if 0 <= w.player < len(players) else str(w.player)
    return f"{who}: {_WARNINGS[w.code][_lang(lang)]} ({w.rule})"
