"""What every socket's page shows is the page drawn from scratch for its viewer, after every version.

Random legal games of every variant (Manipulation with 2 to 5 seats, box Gin with a human and with a
bot advisor, two-player Gin, Oklahoma, Hollywood), a socket per player and a spectator's: each
socket's frames are applied to a model of its page as htmx does (a fragment by its id, a part by its
id, new log lines at the top of the log, a hand's cards put in and taken out), and after each move
the page equals the board drawn for that viewer from a fresh load (``#board-meta``'s clock apart).
No frame shows a card of a hand its viewer may not see.

Each game is played twice: with the moves made in the sockets' process (its board cache keeps what
each move held), and as if made in another (this process keeps only the version before each move and
takes the move's version from what it handed over: ``boardcache.take_handed``).
"""

from __future__ import annotations

import difflib
import random
import re
from html.parser import HTMLParser

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import selectors, services
from games.board import fragments, kept
from games.engine import bots as engine_bots
from games.engine import gin
from games.engine.cards import Card
from games.live import boardcache
from games.models import Match, MatchStatus, Seat
from games.variants import spec_for
from games.versions import committed
from plumbing import handoff
from rummyhub.asgi import application
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
CARD_ATTR = re.compile(r"""data-(?:id|ref)=["']([^"']+)["']""")
CLOCK = re.compile(r' data-now-ms="\d+"')
BETWEEN_TAGS = re.compile(r">\s+<")
# A countdown's words ("starts in 30 s"): the seconds left when it was drawn, which the page's script counts
# down from its data-deadline-ms every second; a page drawn from scratch a moment later says one less.
COUNTDOWN = re.compile(r'( data-deadline-ms="\d+"[^>]*>)[^<]*')
PRESENCE_WAIT = 2.0  # seconds a page that differs waits for one more message (an online dot) before it fails


def same_dom(html: str) -> str:
    """The markup without ``#board-meta``'s clock, the seconds a countdown says and white space between tags
    (no text node the board shows)."""
    return BETWEEN_TAGS.sub("><", COUNTDOWN.sub(r"\1", CLOCK.sub("", html))).strip()


class _Spans(HTMLParser):
    """Every element of a piece of markup: (start, end, tag, attributes, depth), by offsets."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.html = html
        self.lines = [0]
        for line in html.split("\n")[:-1]:
            self.lines.append(self.lines[-1] + len(line) + 1)
        self.open: list[list] = []
        self.elements: list[tuple[int, int, str, dict, int]] = []
        self.feed(html)
        self.close()

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        start = self._offset()
        end = start + len(self.get_starttag_text())
        if tag in VOID:
            self.elements.append((start, end, tag, dict(attrs), len(self.open)))
        else:
            self.open.append([start, tag, dict(attrs), len(self.open)])

    def handle_startendtag(self, tag, attrs):
        start = self._offset()
        self.elements.append((start, start + len(self.get_starttag_text()), tag, dict(attrs), len(self.open)))

    def handle_endtag(self, tag):
        start = self._offset()
        while self.open:
            begin, name, attrs, depth = self.open.pop()
            if name == tag:
                self.elements.append((begin, self.html.index(">", start) + 1, tag, attrs, depth))
                return


def elements(html: str):
    return sorted(_Spans(html).elements)


def by_id(html: str, ident: str):
    return next(((s, e, t, a) for s, e, t, a, _d in elements(html) if a.get("id") == ident), None)


class Page:
    """A table page's board as its socket's frames leave it: fragment id -> markup."""

    def __init__(self):
        self.fragments: dict[str, str] = {}

    def where(self, ident: str):
        for name, html in self.fragments.items():
            found = by_id(html, ident)
            if found is not None:
                return name, found
        raise AssertionError(f"the page has no element #{ident}")

    def apply(self, frame: str) -> None:
        whole = not self.fragments  # a socket's first frame (opened without ?v=) is the whole board
        for start, end, _tag, attrs, depth in elements(frame):
            if depth:
                continue
            piece = frame[start:end]
            oob = attrs.get("hx-swap-oob")
            if oob in (None, "true"):
                ident = attrs["id"]
                if oob:
                    piece = piece.replace(' hx-swap-oob="true"', "", 1)
                if ident in self.fragments or whole:
                    self.fragments[ident] = piece
                else:
                    name, (s, e, _t, _a) = self.where(ident)
                    html = self.fragments[name]
                    self.fragments[name] = html[:s] + piece + html[e:]
                continue
            how, _, target = oob.partition(":")
            inner = piece[len(re.match(r'<ol hx-swap-oob="[^"]*">', piece).group(0)) : piece.rindex("</")]
            list_id, _, child = target.partition(" > ")
            name, (s, e, _t, _a) = self.where(list_id.lstrip("#"))
            html = self.fragments[name]
            if how == "afterbegin":
                at = html.index(">", s) + 1
                html = html[:at] + inner + html[at:]
                if list_id == "#log-list":
                    html = self._keep(html, "log-list")
            else:
                key = re.fullmatch(r"\[data-id='([^']+)'\]", child).group(1)
                cs, ce = next(
                    (cs, ce) for cs, ce, _t, a, _d in elements(html) if a.get("data-id") == key and s < cs < e
                )
                html = html[:cs] + html[ce:] if how == "delete" else html[:ce] + inner + html[ce:]
            self.fragments[name] = html

    def _keep(self, html: str, list_id: str) -> str:
        """The page keeps the log's ``data-keep`` newest lines (static/js/table.js)."""
        s, e, _t, attrs = by_id(html, list_id)
        keep = int(attrs["data-keep"])
        rows = [(cs, ce) for cs, ce, tag, _a, depth in elements(html[s:e]) if tag == "li" and depth == 1]
        if len(rows) <= keep:
            return html
        cut = s + rows[keep][0]
        end = s + rows[-1][1]
        return html[:cut] + html[end:]


def scratch(match_id: int, user) -> dict[str, str]:
    """The board a page drawn now from a fresh load shows this viewer (the socket's, without a CSRF token)."""
    data = selectors.board_data(Match.objects.get(pk=match_id))
    # Nothing kept by its content or inputs (the fragments kept by their inputs, seat rows and counts, hands,
    # log lines): each one drawn from this load, while the sockets' frames keep using (and filling) the kept
    # ones across versions.
    with kept.drawn_afresh():
        board = fragments.board_for(data, user)
    return {name: same_dom(html) for name, html in board.fragments.items()}


def may_see(match_id: int, seat: int | None) -> tuple[set[str], set[str]]:
    """(the card ids of the hands this viewer may not see, the ids they may) while a round is played."""
    match = Match.objects.get(pk=match_id)
    if match.status != MatchStatus.PLAYING:
        return set(), set()
    state = spec_for(match.variant).load(match.state["round"])
    if getattr(state, "game", None) == "gin":
        hands = {i: {gin.IDS[c] for c in h} for i, h in enumerate(state.hands)}
        own = set(hands.get(seat, ())) if seat is not None else set()
        if seat is not None and seat == state.advisor:
            own |= hands[state.nondealer]
        public = {gin.IDS[c] for c in state.discard}
        if state.rules.oklahoma and state.first_upcard is not None:
            public.add(gin.IDS[state.first_upcard])
        hidden = set().union(*hands.values()) - own - public
        return hidden, own
    view = spec_for(match.variant).view(state, seat)
    own = set(view.get("hand") or ()) if seat is not None else set()
    table = {Card.from_code(ref).id for meld in view["table"] for ref in meld}
    hidden = {Card.from_code(c).id for i in range(len(state.hands)) for c in state.hands[i]} - own - table
    return hidden, own


class Viewer:
    def __init__(self, match_id: int, user, seat: int | None, cookie: str):
        self.user, self.seat = user, seat
        self.socket = WebsocketCommunicator(
            application,
            f"/ws/tables/{match_id}/",
            headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())],
        )
        self.page = Page()


def shown_version(page) -> int:
    found = re.search(r'data-version="(\d+)"', page.fragments.get("board-meta", ""))
    return int(found.group(1)) if found else -1


async def settle(viewers, match_id: int) -> None:
    """Apply every frame up to the match's current version to each page; check each frame and then each page."""
    version = (await database_sync_to_async(Match.objects.get)(pk=match_id)).version
    for v in viewers:
        hidden, _own = await database_sync_to_async(may_see)(match_id, v.seat)
        # At the match's version or later: a seat's socket opening can make a version of its own (the
        # player to act is back: their disconnect grace ends), read again below.
        while shown_version(v.page) < version:
            frame = await v.socket.receive_from(timeout=10)
            leaked = set(CARD_ATTR.findall(frame)) & hidden
            assert not leaked, f"seat {v.seat} was sent {sorted(leaked)}"
            v.page.apply(frame)
        # The online dots of sockets opening come as their own messages, in their own time (no version):
        # the page is compared again as each arrives, until it is the board drawn from scratch or
        # nothing more comes.  A page left wrong fails; one only late to show a dot does not.
        while True:
            expected = await database_sync_to_async(scratch)(match_id, v.user)
            if shown_version(v.page) != (await database_sync_to_async(Match.objects.get)(pk=match_id)).version:
                await settle(viewers, match_id)  # the table moved on meanwhile: every page again at the new one
                return
            shown = {name: same_dom(html) for name, html in v.page.fragments.items()}
            if shown == expected or await v.socket.receive_nothing(timeout=PRESENCE_WAIT):
                break
            v.page.apply(await v.socket.receive_from())
        assert shown == expected, f"seat {v.seat}'s page differs from its board drawn from scratch at {version}: " + (
            differences(shown, expected)
        )


def differences(shown: dict, expected: dict) -> str:
    out = []
    for name in sorted(set(shown) | set(expected)):
        a, b = shown.get(name, ""), expected.get(name, "")
        if a != b:
            lines = difflib.unified_diff(
                a.replace(">", ">\n").split("\n"), b.replace(">", ">\n").split("\n"), lineterm="", n=1
            )
            out.append(f"#{name}:\n" + "\n".join(list(lines)[2:40]))
    return "\n".join(out)


def setup(make_user, settings, variant: str, seats: int, bot_advisor: bool = False):
    settings.RUMMYHUB_FIXED_SEED = f"views-{variant}-{seats}"
    settings.RUMMYHUB_BOT_DELAY = 0
    humans = seats - 1 if bot_advisor else seats
    users = [make_user(f"p{i}") for i in range(humans)]
    match = services.match_create(host=users[0], variant=variant, seats_count=seats)
    for i, u in enumerate(users[1:], start=1):
        services.seat_join(match_id=match.pk, user=u, index=i)
    if bot_advisor:
        services.seat_add_bot(match_id=match.pk, user=users[0], index=seats - 1)
    services.match_start(match_id=match.pk, user=users[0])
    return match, users, make_user("watcher")


def one_move(match_id: int, users: list, rng: random.Random) -> bool:
    """One step, one version: a bot's, a random legal move of the human to act, or a player's "ready"
    between rounds; False at the end.  (One version at a time: each frame is checked against its own.)"""
    match = Match.objects.get(pk=match_id)
    if match.status == MatchStatus.FINISHED:
        return False
    seats = {s.index: s for s in Seat.objects.filter(match=match)}
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        waiting = [s.user for s in seats.values() if s.user is not None and not s.ready]
        if waiting:
            services.round_ready(match_id=match_id, user=waiting[0])
        else:
            services.run_until_human(match_id=match_id, max_steps=1)
        return True
    spec = spec_for(match.variant)
    state = spec.load(match.state["round"])
    acting = spec.acting_seats(state)
    if not acting or seats[acting[0]].user is None:
        services.run_until_human(match_id=match_id, max_steps=1)
        return True
    seat = acting[0]
    policy = "random-legal" if rng.random() < 0.5 else "greedy"
    action = engine_bots.choose_action(state, seat, policy=policy, rng=rng)
    services.turn_submit(match_id=match_id, user=seats[seat].user, action=action, expected_version=match.version)
    return True


GAMES = [
    ("manipulation", 2, False),
    ("manipulation", 3, False),
    ("manipulation", 4, False),
    ("manipulation", 5, False),
    ("gin_box", 3, False),
    ("gin_box", 3, True),
    ("gin", 2, False),
    ("oklahoma", 2, False),
    ("hollywood", 2, False),
]


@pytest.fixture(params=["here", "elsewhere"])
def made(request, monkeypatch):
    """Where the moves are made: in the sockets' process, or in another that hands each version over
    (``plumbing.handoff``, in memory here)."""
    if request.param == "here":
        return None
    taken: list[str] = []  # the versions taken from what was handed over
    shared: dict[str, bytes] = {}

    async def get(key):
        if key in shared:
            taken.append(key)
        return shared.get(key)

    monkeypatch.setattr(handoff, "enabled", lambda: True)
    monkeypatch.setattr(handoff, "put", lambda key, value, seconds: shared.__setitem__(key, value))
    monkeypatch.setattr(handoff, "get", get)

    def committed_elsewhere(news):
        before = boardcache.latest(news.match.pk)
        boardcache.on_committed(news)  # kept, and handed over
        boardcache.forget(news.match.pk)  # ...by the process that made it: this one keeps the version before
        if before is not None:
            boardcache.remember(before)

    monkeypatch.setattr(committed, "_listeners", [committed_elsewhere])
    return taken


@pytest.mark.parametrize(("variant", "seats", "bot_advisor"), GAMES)
async def test_every_sockets_page_is_its_viewers_page_drawn_from_scratch(
    make_user, settings, variant, seats, bot_advisor, made
):
    match, users, watcher = await database_sync_to_async(setup)(make_user, settings, variant, seats, bot_advisor)
    viewers = []
    for user in [*users, watcher]:
        seat = await database_sync_to_async(selectors.seat_index_of)(match_id=match.pk, user=user)
        viewers.append(Viewer(match.pk, user, seat, await database_sync_to_async(session_cookie_for)(user)))
    for v in viewers:
        assert (await v.socket.connect(timeout=10))[0]
    await settle(viewers, match.pk)
    rng = random.Random(f"{variant}-{seats}-{bot_advisor}")
    moves = 0
    for _ in range(40):
        if not await sync_to_async(one_move)(match.pk, users, rng):
            break
        moves += 1
        await settle(viewers, match.pk)
    for v in viewers:
        await v.socket.disconnect()
    if made is not None:  # made elsewhere: the pages above were drawn from the versions handed over
        assert len(made) >= moves // 2, f"{len(made)} of {moves} versions taken from what was handed over"
