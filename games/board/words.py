"""The words of a table and its history: moves, round results, score reasons, house rules.

One vocabulary: the table's log and a replay's steps say the same move the same way
(:func:`event_sentence`); the round panels and the history pages name results and reasons
with the same words.  Everything here is translated at call time, in the viewer's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games import forms
from games.board import bidi, faces, lists

MINUS = "\u2212"

# A role's label, said in the reader's language when it is asked for (a board asks for every seat's).
_ROLE_LABELS = {
    # Translators: a role in Gin for three (RULES C.1): the player alone against the other two ("in the box").
    "box": gettext_lazy("Box"),
    # Translators: a role in Gin for three: the partner who holds the cards and plays against the box.
    "captain": gettext_lazy("Captain"),
    # Translators: a role in Gin for three: the partner who holds no cards and advises the captain.
    "advisor": gettext_lazy("Advisor"),
    "dealer": gettext_lazy("Dealer"),
    "nondealer": gettext_lazy("Non-dealer"),
}


def sentence_name(name: str, is_bot: bool) -> str:
    """A seat's name as a sentence of the table or its history says it: a bot's says that it is one
    ("Ada (bot) drew a card."), so a player who chose a bot's name ("ada") is never taken for the bot.
    The seats and the result tables show a "bot" badge beside the name instead."""
    if not is_bot:
        return name
    # Translators: a bot's name inside a sentence of the table's log, a result or a replay, e.g. "Ada (bot) drew a card."
    return pgettext("a bot's name in a sentence", "%(name)s (bot)") % {"name": name}


def sentence_names(seats) -> dict[int, str]:
    """Each seat's name as a sentence says it (:func:`sentence_name`), by the seat's index."""
    return {s.index: sentence_name(s.display_name, s.is_bot) for s in seats}


def role_label(role: str) -> str:
    """A seat's role as its badge says it (Gin: RULES C.1-C.2); "" for a seat with no role."""
    label = _ROLE_LABELS.get(role)
    return str(label) if label is not None else ""


def reason_text(reason: Any) -> str:
    """One part of a round score, e.g. "undercut bonus 25" (a stored value of another shape as it is)."""
    if not isinstance(reason, dict):
        return str(reason)
    code, points = reason.get("code"), reason.get("points", 0)
    texts = {
        # Translators: the parts of a round's score with their points, e.g. "undercut bonus 25".
        "difference": _("difference %(p)d"),
        "differences": _("differences %(p)d"),
        "undercut_bonus": _("undercut bonus %(p)d"),
        "going_out_bonus": _("going-out bonus %(p)d"),
        "deadwood": _("opponent's deadwood %(p)d"),
        "gin_bonus": _("gin bonus %(p)d"),
        "doubled": _("doubled (×%(p)d)"),
        "big_gin": _("big gin"),
    }
    template = texts.get(code)
    if template is None:
        return f"{str(code).replace('_', ' ')} {points}"
    return template % {"p": points}


def signed(n: int) -> str:
    """A round's score with its sign, as the score sheets write it: "+12", "−4", "0"."""
    return ("+" if n > 0 else MINUS if n < 0 else "") + str(abs(n))


def scores_text(scores: list[tuple[str, int]]) -> str:
    """What each player scored in a round, one list in the reader's language: "alice +12, bob 0" (each
    name and number isolated on a right-to-left page)."""
    # Translators: one player's score of a round, an item of a list ("alice +12, bob 0").
    item = pgettext("a player's score in a list", "%(name)s %(score)s")
    return lists.items(item % bidi.isolated({"name": name, "score": signed(score)}) for name, score in scores)


def bonus_text(kind: str, points: int, *, count: int = 0, each: int = 0, target: int = 0) -> str:
    """One end-of-match bonus of a seat in words (the match page's breakdown): ``box`` (``count`` boxes ×
    ``each``), ``rounds_won`` (``count`` rounds × ``each``), ``game`` (with a shutout's), ``game_reached``
    (``target`` reached), ``three_games`` (Hollywood's games and their bonuses) or ``bonuses`` (all of them,
    from the stored totals)."""
    if kind == "box":
        # Translators: Gin scoring: a "box" is a hand won (a line on the score sheet), not the role "the box".
        template = ngettext("%(n)d box × %(b)d = %(p)d", "%(n)d boxes × %(b)d = %(p)d", count)
        return template % {"n": count, "b": each, "p": points}
    if kind == "rounds_won":
        template = ngettext("%(w)d round won × %(b)d = %(p)d", "%(w)d rounds won × %(b)d = %(p)d", count)
        return template % {"w": count, "b": each, "p": points}
    texts = {
        "game": _("game bonus %(p)d"),
        "game_reached": _("game bonus %(p)d (reached %(t)d)"),
        "three_games": _("the three games (a hand counts in up to three) and their bonuses %(p)d"),
        "bonuses": _("game, box and shutout bonuses %(p)d"),
    }
    return texts[kind] % {"p": points, "t": target}


def result_text(kind: str) -> str:
    """How a round ended, as a short label (the history's tables)."""
    return {
        # Translators: how a round ended, a noun: "knock" (a player knocked), "undercut" (Gin: the defender's
        # deadwood was as low as the knocker's), "gin" (every card in melds), "dead hand" (nobody scores).
        "knock": pgettext("how a round ended", "knock"),
        "went_out": pgettext("how a round ended", "went out"),
        "stock_exhausted": _("stock exhausted"),
        "gin": _("gin"),
        "undercut": _("undercut"),
        "dead": _("dead hand"),
        "tie": _("tie (nobody scores)"),
        "big_gin": _("big gin"),
    }.get(kind or "", (kind or "").replace("_", " "))


def event_sentence(summary: dict[str, Any] | None, name: str, action: dict[str, Any] | None = None) -> str:
    """One move in words, the same on the table's log and in a replay: ``name`` did what ``summary`` says.

    ``action`` (the stored move) fills in what an old event's summary lacks: its kind and its card.
    """
    summary = summary or {}
    action = action if isinstance(action, dict) else {}
    name = bidi.isolate(name)  # a Latin name in a Persian sentence (and the other way round) keeps its place
    code = summary.get("code") or action.get("type", "")
    if code == "deal":
        return _("Round %(n)d dealt.") % {"n": summary.get("round", 0)}
    if code == "draw":
        return _("%(name)s drew a card.") % {"name": name}
    if code == "meld":
        return _meld_sentence(summary, name)
    if code == "knock":
        if summary.get("outcome") == "gin":
            return _("%(name)s went gin!") % {"name": name}
        return _("%(name)s knocked.") % {"name": name}
    if code == "end_turn":
        return _("%(name)s ended the turn.") % {"name": name}
    if code == "round_end":
        return round_end_sentence(summary.get("round", 0), summary.get("kind", ""))
    if code == "match_end":
        return _("The match is over.")
    if code == "suggest":
        return _("%(name)s made a suggestion.") % {"name": name}
    card = summary.get("card") or action.get("card")
    card = bidi.isolate(faces.card_text(card)) if isinstance(card, str) else ""
    if code == "take_upcard":
        return _("%(name)s took the upcard %(card)s.") % {"name": name, "card": card}
    if code == "pass_upcard":
        return _("%(name)s refused the upcard.") % {"name": name}
    if code == "draw_stock":
        return _("%(name)s drew from the stock.") % {"name": name}
    if code == "draw_discard":
        return _("%(name)s took %(card)s from the discard pile.") % {"name": name, "card": card}
    if code == "discard":
        return _("%(name)s discarded %(card)s.") % {"name": name, "card": card}
    if code == "pass":
        return _("%(name)s passed.") % {"name": name}
    return _("%(name)s: %(code)s") % {"name": name, "code": str(code).replace("_", " ")}


def _meld_sentence(summary: dict[str, Any], name: str) -> str:
    """A meld step in one sentence: the cards laid from the hand, the table cards moved, and the melds
    they changed as they lie now (and going out).  A step stored before the cards were recorded says
    how many were laid."""
    n = summary.get("cards", 0)
    if "laid" not in summary:
        return _old_meld_sentence(summary, name, n)
    melds = summary.get("melds") or []
    k = len(melds)
    values = {
        "name": name,
        "laid": _cards(summary.get("laid") or []),
        "moved": _cards(summary.get("moved") or []),
        "n": k,
        "melds": lists.items(_cards(meld) for meld in melds),
    }
    moved, out = bool(summary.get("moved")), bool(summary.get("went_out"))
    if moved and out:
        # Translators: Manipulation Rummy, one meld step: the cards laid from the hand, the table cards moved
        # to other melds, and the melds changed as they lie now (cards like "4♠ 5♠ 6♠", melds separated by commas).
        text = ngettext(
            "%(name)s laid %(laid)s, moved %(moved)s and went out, changing %(n)d meld: %(melds)s.",
            "%(name)s laid %(laid)s, moved %(moved)s and went out, changing %(n)d melds: %(melds)s.",
            k,
        )
    elif moved and values["laid"]:
        text = ngettext(
            "%(name)s laid %(laid)s and moved %(moved)s, changing %(n)d meld: %(melds)s.",
            "%(name)s laid %(laid)s and moved %(moved)s, changing %(n)d melds: %(melds)s.",
            k,
        )
    elif moved:
        text = ngettext(
            "%(name)s moved %(moved)s, changing %(n)d meld: %(melds)s.",
            "%(name)s moved %(moved)s, changing %(n)d melds: %(melds)s.",
            k,
        )
    elif out:
        # Translators: Manipulation Rummy: the player laid their last cards on the table and so ended the round.
        text = ngettext(
            "%(name)s laid %(laid)s in %(n)d meld and went out: %(melds)s.",
            "%(name)s laid %(laid)s in %(n)d melds and went out: %(melds)s.",
            k,
        )
    else:
        # Translators: Manipulation Rummy, one meld step: the cards laid from the hand and the melds they are in now.
        text = ngettext(
            "%(name)s laid %(laid)s in %(n)d meld: %(melds)s.", "%(name)s laid %(laid)s in %(n)d melds: %(melds)s.", k
        )
    return text % values


def _cards(refs: list[str]) -> str:
    """Cards in a sentence, "4♠ 5♠ 6♠" (a joker as what it stands for, "★=7♠"): one run, isolated (a
    right-to-left sentence keeps its order)."""
    return bidi.isolate(" ".join(_card(r) for r in refs)) if refs else ""


def _card(ref: str) -> str:
    face = faces.card_face(ref)
    return f"{face['rank']}={face['as']}" if face.get("as") else faces.card_text(ref)


def _old_meld_sentence(summary: dict[str, Any], name: str, n: int) -> str:
    if summary.get("went_out"):
        # Translators: Manipulation Rummy: the player laid their last cards on the table and so ended the round.
        text = ngettext("%(name)s melded %(n)d card and went out!", "%(name)s melded %(n)d cards and went out!", n)
    elif summary.get("rearranged"):
        # Translators: "melded": laid cards on the table in melds, Manipulation Rummy; other melds were changed too.
        text = ngettext(
            "%(name)s melded %(n)d card and rearranged the table.",
            "%(name)s melded %(n)d cards and rearranged the table.",
            n,
        )
    else:
        # Translators: "melded": laid cards on the table in melds (groups or sequences), Manipulation Rummy.
        text = ngettext("%(name)s melded %(n)d card.", "%(name)s melded %(n)d cards.", n)
    return text % {"name": name, "n": n}


def round_end_sentence(number: int, kind: str) -> str:
    """How a round (a Gin hand) ended, as one sentence of the log."""
    texts = {
        # Translators: a player knocked: ended the round (Manipulation: a low hand; Gin: low deadwood).
        "knock": _("Round %(n)d is over: a player knocked."),
        "went_out": _("Round %(n)d is over: a player went out."),
        "stock_exhausted": _("Round %(n)d is over: the stock ran out."),
        "gin": _("Round %(n)d is over: gin!"),
        # Translators: Gin Rummy: the defender's deadwood was as low as or lower than the knocker's.
        "undercut": _("Round %(n)d is over: an undercut."),
        "dead": _("Round %(n)d is over: a dead hand (nobody scores)."),
        "tie": _("Round %(n)d is over: a tie (nobody scores)."),
        "big_gin": _("Round %(n)d is over: big gin!"),
    }
    template = texts.get(kind or "")
    if template is None:
        return _("Round %(n)d is over.") % {"n": number}
    return template % {"n": number}


def drawn_prompt(draws: int, max_draws: int, can_draw: bool) -> str:
    """The Manipulation prompt between a draw and the meld step, with the table's own "Most draws per
    turn" (RULES B.5, E.1): "draw 1 of 2" at a table of 2.  ``can_draw`` is the engine's answer (no
    further draw with 1 draw per turn, after the last one, or from an empty stock): then the choice is
    meld or end the turn."""
    if can_draw:
        return _("Meld (drag cards onto the table) or draw again — draw %(n)d of %(max)d.") % {
            "n": draws,
            "max": max_draws,
        }
    return _("Meld (drag cards onto the table) or end your turn.")


def options_text(variant: str, options: dict[str, Any]) -> list[tuple[str, Any]]:
    """A match's house rules as (label, value) in the reader's language, in the lobby form's order.

    The labels and choice names are the new-table form's own (games/forms.py); an option
    the form does not know is shown by its key.
    """
    gin = variant in forms.GIN_VARIANTS
    labels = forms.GIN_OPTION_LABELS if gin else forms.MANIPULATION_OPTION_LABELS
    order = list(labels)
    keys = sorted(options, key=lambda k: (order.index(k) if k in order else len(order), k))
    return [(_option_label(labels, k), _option_value(gin, k, options[k])) for k in keys]


def _option_label(labels: dict[str, tuple[Any, ...]], key: str) -> str:
    if key in labels:
        return str(labels[key][0])
    return key.replace("_", " ").capitalize()


def _option_value(gin: bool, key: str, value: Any) -> Any:
    if value is None:
        return "—"
    if gin and key in forms.GIN_CHOICES:
        if isinstance(value, bool):  # end_bonuses: stored as a bool, chosen as on/off
            value = "on" if value else "off"
        return str(dict(forms.GIN_CHOICES[key]).get(value, value))
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        return str(forms.CHOICE_LABELS.get(value, value))
    return value


# ---------------------------------------------------------------- turn-based time (docs/turn-based.md)


def duration_formats() -> dict[str, str]:
    """A turn-based table's time left, in the reader's language: the three shapes, with ``%(d)s``,
    ``%(h)s`` and ``%(m)s`` for the days, hours and minutes (the table's script fills them in too)."""
    return {
        # Translators: time left for a move, days and hours, abbreviated ("2 d 3 h").
        "dh": _("%(d)s d %(h)s h"),
        # Translators: time left for a move, hours and minutes, abbreviated ("5 h 10 min").
        "hm": _("%(h)s h %(m)s min"),
        # Translators: time left for a move, minutes only, abbreviated ("12 min").
        "m": _("%(m)s min"),
    }


def duration_text(seconds: float) -> str:
    """A time of hours or days said as a table shows it: "2 d 3 h", "5 h 10 min", "12 min" (a part
    minute counts as a minute; past a day the minutes are left out).  ``static/js/table.js`` counts
    down the same way."""
    minutes = max(0, -int(-max(0.0, seconds) // 60))  # rounded up
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    formats = duration_formats()
    if days:
        return formats["dh"] % {"d": days, "h": hours}
    if hours:
        return formats["hm"] % {"h": hours, "m": mins}
    return formats["m"] % {"m": mins}


def time_left_formats() -> dict[str, str]:
    """The sentences of :func:`time_left_text` (``%(time)s``: a :func:`duration_text`)."""
    return {
        # Translators: a turn-based game's time left for a move: "2 d 3 h left".
        "left": _("%(time)s left"),
        # Translators: a turn-based game whose move's time has run out (the rule is being applied).
        "up": _("time is up"),
    }


def time_left_text(seconds: float) -> str:
    """ "2 d 3 h left" (a turn-based game's time left for a move, in a list of games; ``static/js/site.js``
    counts it down with :func:`time_left_formats`)."""
    formats = time_left_formats()
    if seconds <= 0:
        return formats["up"]
    return formats["left"] % {"time": duration_text(seconds)}
