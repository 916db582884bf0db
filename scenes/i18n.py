"""Every user-facing string of the window in Russian and English, and the Cyrillic UI font.

``tr(key, lang, **fmt)`` picks the language chosen by ``settings.lang``; a missing key is a
programming error (KeyError), never a silent English fallback. Game names come from the referee's
registry (each game declares its ru/en names); practice, which has no referee, is named here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"


# key -> (ru, en)
STRINGS: dict[str, tuple[str, str]] = {
    "app.title": ("Бильярд 3D — симулятор и тренажёр судьи", "Billiards 3D — simulator and referee trainer"),
    "menu.title": ("Бильярд 3D", "Billiards 3D"),
    "menu.game": ("Игра", "Game"),
    "menu.players": ("Игроки", "Players"),
    "menu.player_n": ("Игрок {n}", "Player {n}"),
    "menu.frames": ("Партий до победы: {n}", "Frames to win: {n}"),
    "menu.language": ("Язык: русский", "Language: English"),
    "menu.start": ("Начать матч", "Start match"),
    "menu.practice": ("Тренировка", "Practice"),
    "menu.trainer": ("Тренажёр судьи", "Referee trainer"),
    "menu.quit": ("Выход", "Quit"),
    "menu.more": ("+", "+"),
    "menu.less": ("−", "−"),
    "hud.frames": ("Партии", "Frames"),
    "hud.at_table": ("у стола", "at the table"),
    "hud.break": ("Серия: {n}", "Break: {n}"),
    "hud.required": ("Нужно: {text}", "Required: {text}"),
    "hud.call": ("Заказ: {ball} в лузу {pocket}", "Call: {ball} into {pocket}"),
    "hud.call_none": ("Заказ: кликните шар, затем лузу", "Call: click a ball, then a pocket"),
    "hud.nominate": ("Назовите шар: щёлкните его правой кнопкой", "Nominate a ball: right-click it"),
    "hud.nominated": ("Назван шар: {ball}", "Nominated: {ball}"),
    "hud.owed": ("Штрафных шаров в долг: {n}", "Penalty balls owed: {n}"),
    "hud.last": ("Последний удар: {text}", "Last stroke: {text}"),
    "hud.legal": ("без нарушений", "legal"),
    "hud.foul": ("ФОЛ", "FOUL"),
    "hud.counted": ("засчитаны: {balls}", "counted: {balls}"),
    "hud.nothing_counted": ("шары не засчитаны", "no balls counted"),
    "hud.options": ("Выбор: {text}", "Choose: {text}"),
    "hud.in_hand": ("Биток с руки: {zone}", "Ball in hand: {zone}"),
    "hud.frame_over": ("Партия окончена. Победитель: {name}", "Frame over. Winner: {name}"),
    "hud.match_over": ("Матч окончен. Победитель: {name}", "Match over. Winner: {name}"),
    "hud.practice": ("Тренировка (без судьи)", "Practice (no referee)"),
    "hud.no_referee": ("Судья недоступен: {why}", "Referee unavailable: {why}"),
    "zone.house": ("в доме", "in the house"),
    "zone.d": ("в полукруге «D»", "in the D"),
    "zone.behind-head-string": ("за линией дома", "behind the head string"),
    "zone.anywhere": ("в любом месте", "anywhere"),
    "option.play_on": ("играй дальше", "play on"),
    "option.make_offender_replay": ("пусть нарушитель перебьёт", "make the offender replay"),
    "option.remove_ball": ("снять шар (щёлкните шар правой кнопкой)", "remove a ball (right-click it)"),
    "option.lag": ("розыгрыш лага", "the lag"),
    "option.lag_won": ("лаг выиграл игрок {n}", "player {n} won the lag"),
    "option.ball": ("снять шар {ball}", "remove ball {ball}"),
    "option.choose_ball_to_remove": ("выбрать снимаемый шар", "choose the ball to remove"),
    "option.play_from_hand": ("играть с руки", "play from hand"),
    "option.accept_table": ("принять позицию", "accept the table"),
    "option.pass": ("передать удар", "pass the stroke"),
    "option.respot_black": ("переустановить чёрный", "respot the black"),
    "pocket.head-left": ("левая угловая у дома", "head-left corner"),
    "pocket.head-right": ("правая угловая у дома", "head-right corner"),
    "pocket.middle-left": ("левая средняя", "middle-left"),
    "pocket.middle-right": ("правая средняя", "middle-right"),
    "pocket.foot-left": ("левая дальняя угловая", "foot-left corner"),
    "pocket.foot-right": ("правая дальняя угловая", "foot-right corner"),
    "cue.power": ("Сила: {v:.1f} м/с", "Power: {v:.1f} m/s"),
    "cue.elevation": ("Наклон кия: {v:.0f}°", "Cue elevation: {v:.0f}°"),
    "cue.tip": ("Винт: {x:+.2f} / {y:+.2f}", "English: {x:+.2f} / {y:+.2f}"),
    "cue.direction": ("Направление: {v:.1f}°", "Direction: {v:.1f}°"),
    "cue.place": ("Поставьте биток ({zone}) и нажмите {key}", "Place the cue ball ({zone}) and press {key}"),
    "cue.bad_place": ("Сюда ставить нельзя", "Not allowed here"),
    "lag.turn": (
        "Розыгрыш начального удара: бьёт {name} ({half}) — к заднему борту и обратно, ближе к "
        "переднему борту выигрывает",
        "Lag for the break: {name} ({half}) plays to the foot cushion and back; nearer the head cushion wins",
    ),
    "lag.half.1": ("левая половина", "left half"),
    "lag.half.-1": ("правая половина", "right half"),
    "status.simulating": ("Расчёт удара…", "Simulating the stroke…"),
    "status.replay": ("Повтор ×{speed}", "Replay ×{speed}"),
    "status.paused": ("Пауза", "Paused"),
    "status.no_physics": ("Физика недоступна: {why}", "Physics unavailable: {why}"),
    "status.saved": ("Позиция сохранена: {path}", "Position saved: {path}"),
    "status.save_failed": (
        "Позиция не сохранена ({why}): прежний файл цел",
        "Position not saved ({why}): the previous file is kept",
    ),
    "status.autosave_failed": (
        "Автосохранение не удалось ({why}): последнее сохранение цело, матч продолжается",
        "Autosave failed ({why}): the last good save is kept, the match goes on",
    ),
    "status.loaded": ("Позиция загружена: {path}", "Position loaded: {path}"),
    "status.undo": ("Удар отменён", "Stroke undone"),
    "status.nothing_to_undo": ("Отменять нечего", "Nothing to undo"),
    "practice.title": ("Тренировка", "Practice"),
    "practice.help": (
        "Перетащите шар мышью (правая кнопка) · F5 сохранить · F9 загрузить · {repeat} повторить удар · "
        "{undo} отменить",
        "Drag a ball with the right mouse button · F5 save · F9 load · {repeat} repeat shot · {undo} undo",
    ),
    "replay.title": ("Повтор удара", "Stroke replay"),
    "replay.help": (
        "{pause} пауза · {slower}/{faster} скорость · {step} кадр вперёд · ←/→ перемотка · {camera} камера · "
        "{menu} назад",
        "{pause} pause · {slower}/{faster} speed · {step} step · ←/→ scrub · {camera} camera · {menu} back",
    ),
    "play.help": (
        "Мышь — прицел · ЛКМ тянуть — сила · {shoot} удар · {tip} винт · {elev} наклон · {camera} камера · "
        "{replay} повтор · {menu} меню",
        "Mouse aims · LMB drag = power · {shoot} strike · {tip} english · {elev} elevation · {camera} camera · "
        "{replay} replay · {menu} menu",
    ),
    "play.help_hint": ("{key} — клавиши и мышь", "{key} — keys and mouse"),
    "demo.saved": ("Снимок экрана: {path}", "Screenshot: {path}"),
}

PRACTICE_NAME = ("Тренировка", "Practice")


def tr(key: str, lang: str, /, **fmt: Any) -> str:
    """The text for ``key`` in ``lang`` ('ru' or 'en'), formatted with ``fmt``."""
    ru, en = STRINGS[key]
    text = ru if lang == "ru" else en
    return text.format(**fmt) if fmt else text


def game_name(game_id: str, lang: str) -> str:
    """The game's name as its referee declares it (practice has none: named here)."""
    from physics.scenario import PRACTICE
    from rules.registry import get_referee

    if game_id == PRACTICE:
        ru, en = PRACTICE_NAME
        return ru if lang == "ru" else en
    return str(get_referee(game_id).names["ru" if lang == "ru" else "en"])


def pocket_name(pocket: str, lang: str) -> str:
    key = f"pocket.{pocket}"
    return tr(key, lang) if key in STRINGS else pocket


def option_name(option: str, lang: str) -> str:
    """An option of a ruling as the HUD lists it: a named option, ``lag:<p>`` or a ball to pick."""
    if option.startswith("lag:") and option[4:].isdigit():
        return tr("option.lag_won", lang, n=int(option[4:]) + 1)
    key = f"option.{option}"
    if key in STRINGS:
        return tr(key, lang)
    return tr("option.ball", lang, ball=option)


def zone_name(zone: str, lang: str) -> str:
    key = f"zone.{zone}"
    return tr(key, lang) if key in STRINGS else zone


_fonts: dict[tuple[int, bool], Any] = {}


def ui_font(loader: Any, bold: bool = False) -> Any:
    """The shipped DejaVu font (Cyrillic), loaded once per loader; pixels-per-unit high for crisp text."""
    key = (id(loader), bold)
    font = _fonts.get(key)
    if font is None:
        from panda3d.core import Filename

        path = FONT_BOLD if bold else FONT_REGULAR
        font = loader.loadFont(Filename.fromOsSpecific(str(path)).getFullpath())
        font.setPixelsPerUnit(48)
        _fonts[key] = font
    return font
