"""What the scoreboard says: the plain :class:`HudSnapshot` the match controller builds, and ``hud_text``,
which turns it into the blocks' text in either language. Pure: the view (``scenes.hud``) only places it."""

from __future__ import annotations

from dataclasses import dataclass, field

from scenes.core.i18n import (
    ball_list,
    ball_name,
    ball_on_name,
    option_name,
    pocket_name,
    rule_name,
    tr,
    zone_name,
)


@dataclass(frozen=True)
class PlayerLine:
    name: str
    score: int
    frames: int = 0
    owed: int = 0  # penalty balls owed (Американка/Московская: shelf empty)
    at_table: bool = False


@dataclass(frozen=True)
class FoulLine:
    code: str
    rule: str
    explain_ru: str
    explain_en: str
    family: str | None = None  # the rulebook family that cited it: names the text by its title
    world: bool = True  # the international rule is named beside it


@dataclass(frozen=True)
class LastCall:
    """The referee's call for the last stroke, as the ruling gave it."""

    foul: bool
    fouls: tuple[FoulLine, ...] = ()
    counted: tuple[str, ...] = ()
    points: tuple[int, ...] = ()


@dataclass(frozen=True)
class HudSnapshot:
    game_name: str
    players: tuple[PlayerLine, ...]
    frames_to_win: int = 1
    current_break: int = 0
    ball_on: tuple[str, ...] = ()  # what must be hit first (snooker: reds/colour, 9-ball: lowest)
    needs_call: bool = False  # Russian pyramid etc.: ball and pocket must be called
    nominate: bool = False  # snooker: a colour or a free ball must be nominated
    call_ball: str | None = None
    call_pocket: str | None = None
    golf_pocket: str | None = None  # golf: the pocket the player at the table needs next
    last: LastCall | None = None
    options: tuple[str, ...] = ()
    # The options as the controller words them (who plays and from where; localized); () = by their names.
    option_labels: tuple[str, ...] = ()
    in_hand: str | None = None
    touching: str | None = None  # snooker: the ball the referee announced as touching the cue ball
    frame_winner: str | None = None
    match_winner: str | None = None
    practice: bool = False
    status: str = ""  # one already-localized line (simulating, saved, ...)
    notes: tuple[str, ...] = field(default_factory=tuple)
    details_key: str = ""  # the key that shows the call's details (the explanations), "" = none


def _required_lines(s: HudSnapshot, lang: str) -> list[str]:
    """The top-right block: what the player at the table must do (ball on, pocket, call, ball in hand)."""
    required: list[str] = []
    on = ", ".join(ball_on_name(b, lang) for b in s.ball_on)
    if s.golf_pocket:
        # Golf: one requirement, the ball into its pocket (two "Required:" lines read as two tasks).
        pocket = pocket_name(s.golf_pocket, lang)
        required.append(
            tr("hud.required_into", lang, text=on, pocket=pocket)
            if on
            else tr("hud.required_pocket", lang, pocket=pocket)
        )
    elif s.ball_on:
        required.append(tr("hud.required", lang, text=on))
    if s.needs_call:
        if s.call_ball and s.call_pocket:
            required.append(
                tr(
                    "hud.call",
                    lang,
                    ball=ball_name(s.call_ball, lang),
                    pocket=pocket_name(s.call_pocket, lang),
                )
            )
        else:
            required.append(tr("hud.call_none", lang))
    if s.nominate:
        required.append(
            tr("hud.nominated", lang, ball=ball_name(s.call_ball, lang))
            if s.call_ball
            else tr("hud.nominate", lang)
        )
    if s.in_hand:
        required.append(tr("hud.in_hand", lang, zone=zone_name(s.in_hand, lang)))
    if s.touching:
        required.append(tr("hud.touching", lang, ball=ball_name(s.touching, lang)))
    return required


def hud_text(s: HudSnapshot, lang: str) -> dict[str, str]:
    """The HUD's text blocks: ``score`` (top left), ``required`` (top right), ``call`` (bottom left)."""
    score: list[str] = [s.game_name]
    if s.practice:
        score.append(tr("hud.practice", lang))
    else:
        frames = tr("hud.frames", lang)
        for p in s.players:
            marker = "▶ " if p.at_table else "   "
            line = f"{marker}{p.name}: {p.score}   {frames} {p.frames}/{s.frames_to_win}"
            if p.owed:
                line += "   " + tr("hud.owed", lang, n=p.owed)
            if p.at_table:
                line += f"   ({tr('hud.at_table', lang)})"
            score.append(line)
        score.append(tr("hud.break", lang, n=s.current_break))

    required = _required_lines(s, lang)

    call: list[str] = []
    details: list[str] = []
    if s.last is not None:
        verdict = tr("hud.foul", lang) if s.last.foul else tr("hud.legal", lang)
        if s.last.fouls:
            # Compact: what was broken in a few words; why, and by which rule, is in the details.
            from scenes.core.stats import foul_name

            verdict += ": " + ", ".join(dict.fromkeys(foul_name(f.code, lang) for f in s.last.fouls))
        call.append(tr("hud.last", lang, text=verdict))
        for f in s.last.fouls:
            explain = f.explain_ru if lang == "ru" else f.explain_en
            details.append(f"• {explain} [{rule_name(f.rule, lang, family=f.family, world=f.world)}]")
        if s.last.foul and any(s.last.points):
            # The penalty where the call is: each player's points from this stroke (−5 / +5, 4 points...).
            shares = [
                f"{p.name} {'+' if v > 0 else '−' if v < 0 else ''}{abs(v)}"
                for p, v in zip(s.players, s.last.points, strict=False)
                if v
            ]
            call.append(tr("hud.penalty", lang, points=", ".join(shares)))
        if s.last.counted:
            call.append(tr("hud.counted", lang, balls=ball_list(s.last.counted, lang)))
        elif not s.practice:
            call.append(tr("hud.nothing_counted", lang))
    if s.options:
        labels = (
            s.option_labels
            if len(s.option_labels) == len(s.options)
            else tuple(option_name(o, lang) for o in s.options)
        )
        call.append(
            tr(
                "hud.options",
                lang,
                text=" / ".join(f"{i + 1}) {label}" for i, label in enumerate(labels)),
            )
        )
    if s.frame_winner:
        call.append(tr("hud.frame_over", lang, name=s.frame_winner))
    if s.match_winner:
        call.append(tr("hud.match_over", lang, name=s.match_winner))
    # The referee's announcements (a warning, a lag to play) are for everyone at the table: in the call itself.
    call.extend(s.notes)
    if details and s.details_key:
        call.append(tr("hud.details_hint", lang, key=s.details_key))
    if s.status:
        call.append(s.status)
    return {
        "score": "\n".join(score),
        "required": "\n".join(required),
        "call": "\n".join(call),
        "details": "\n".join(details),
    }
