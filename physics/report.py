"""A short readable summary of a shot record, in Russian or English (settings choose)."""

from __future__ import annotations

from physics.record import BallStatus, Event, EventType, ShotRecord

_TEXT = {
    "en": {
        "title": "Stroke on {table}: {n} events, {dur:.2f} s to rest",
        "strike": "cue strike on {ball} at {speed:.2f} m/s",
        "miscue": " (miscue)",
        "scoop": " (scoop)",
        "first": "first contact: {a} with {b} at {t:.3f} s",
        "no_contact": "the struck ball touched no other ball",
        "pocketed": "pocketed: {items}",
        "off": "off the table: {items}",
        "jumped": "jumped over: {items}",
        "hanging": "hanging on a pocket edge: {items}",
        "counts": "contacts: {bb} ball-ball, {cu} cushion, {jaw} jaw",
        "final": "final positions:",
        "on_table": "  {ball}: on the table at ({x:.3f}, {y:.3f})",
        "in_pocket": "  {ball}: in the {pocket} pocket",
        "off_table": "  {ball}: off the table, on the {rest} at ({x:.3f}, {y:.3f}, {z:.3f})",
    },
    "ru": {
        "title": "Удар на столе {table}: событий {n}, до остановки {dur:.2f} с",
        "strike": "удар кием по шару {ball}, скорость {speed:.2f} м/с",
        "miscue": " (кикс)",
        "scoop": " (подсечка снизу)",
        "first": "первое касание: {a} с {b} на {t:.3f} с",
        "no_contact": "битый шар не коснулся других шаров",
        "pocketed": "в лузах: {items}",
        "off": "выскочили за стол: {items}",
        "jumped": "перепрыгнул: {items}",
        "hanging": "зависли над лузой: {items}",
        "counts": "касаний: шар-шар {bb}, борт {cu}, губка лузы {jaw}",
        "final": "итоговые положения:",
        "on_table": "  {ball}: на столе в точке ({x:.3f}, {y:.3f})",
        "in_pocket": "  {ball}: в лузе {pocket}",
        "off_table": "  {ball}: вне стола, {rest}, точка ({x:.3f}, {y:.3f}, {z:.3f})",
    },
}
_REST_RU = {
    "floor": "на полу",
    "rail": "на борту",
    "frame": "на раме стола",
    "lamp": "на лампе",
    "pocket": "в лузе",
    "chalk": "на мелке",
    "person": "на человеке",
    "cue": "на кие",
}


def summary(record: ShotRecord, lang: str = "en") -> str:
    tx = _TEXT.get(lang, _TEXT["en"])
    lines = [tx["title"].format(table=record.table, n=len(record.events), dur=record.duration)]
    strike = next((e for e in record.events if e.type == EventType.CUE_STRIKE), None)
    if strike is not None:
        s = tx["strike"].format(ball=strike.ball, speed=strike.speed or 0.0)
        if strike.miscue:
            s += tx["miscue"]
        if strike.scoop:
            s += tx["scoop"]
        lines.append(s)
        first = record.first_contact(strike.ball or "cue")
        if first is not None and first.balls is not None:
            a, b = first.balls
            lines.append(tx["first"].format(a=a, b=b, t=first.t))
        else:
            lines.append(tx["no_contact"])
    counts = {
        k: len(record.of_type(k)) for k in (EventType.BALL_BALL, EventType.CUSHION, EventType.POCKET_JAW)
    }
    lines.append(
        tx["counts"].format(
            bb=counts[EventType.BALL_BALL], cu=counts[EventType.CUSHION], jaw=counts[EventType.POCKET_JAW]
        )
    )
    pocketed = [f"{b} ({f.pocket})" for b, f in record.final.items() if f.status == BallStatus.POCKETED]
    if pocketed:
        lines.append(tx["pocketed"].format(items=", ".join(pocketed)))
    off = [
        f"{b} ({_rest(f.rest, lang)})" for b, f in record.final.items() if f.status == BallStatus.OFF_TABLE
    ]
    if off:
        lines.append(tx["off"].format(items=", ".join(off)))
    jumped = _pairs(record.of_type(EventType.JUMPED_OVER))
    if jumped:
        lines.append(tx["jumped"].format(items=", ".join(jumped)))
    hanging = [f"{e.ball} ({e.pocket})" for e in record.of_type(EventType.HANGING)]
    if hanging:
        lines.append(tx["hanging"].format(items=", ".join(hanging)))
    lines.append(tx["final"])
    for b, f in record.final.items():
        if f.status == BallStatus.ON_TABLE and f.pos is not None:
            lines.append(tx["on_table"].format(ball=b, x=f.pos[0], y=f.pos[1]))
        elif f.status == BallStatus.POCKETED:
            lines.append(tx["in_pocket"].format(ball=b, pocket=f.pocket))
        elif f.pos is not None:
            lines.append(
                tx["off_table"].format(ball=b, rest=_rest(f.rest, lang), x=f.pos[0], y=f.pos[1], z=f.pos[2])
            )
    return "\n".join(lines)


def _rest(rest: str | None, lang: str) -> str:
    if rest is None:
        return "?"
    return _REST_RU.get(rest, rest) if lang == "ru" else rest


def _pairs(events: list[Event]) -> list[str]:
    return [f"{e.ball} → {e.over}" for e in events]
