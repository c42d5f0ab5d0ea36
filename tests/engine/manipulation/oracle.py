"""The solver's oracle: the best play by exhaustive exact cover, and a check of the solver against it."""

from itertools import combinations, permutations

from games.engine import manipulation as game
from games.engine.manipulation import ManipulationState
from games.engine.manipulation.melds import completions
from games.engine.manipulation.solver import best_play


def ids(cards):
    return [f"{c.code}.{c.deck}" for c in cards]


BIG = 1 << 12


def brute_force(table, hand, rules):
    """Best (points, cards) over every legal new table, by exhaustive exact cover."""
    sub_from = rules.joker_substitute_from
    table_cards = [c for m in table for c in m]
    pool = table_cards + list(hand)
    n = len(pool)
    forced = (1 << len(table_cards)) - 1
    table_ident = {i: c.declared for i, c in enumerate(table_cards) if c.is_joker}
    bare = [c.undeclared() if c.is_joker else c for c in pool]
    cands_by_low = [[] for _ in range(n)]
    for size in range(3, n + 1):
        for combo in _combinations(n, size):
            cards = [bare[i] for i in combo]
            if not _quick_possible(cards):
                continue
            jokers = [i for i in combo if pool[i].is_joker]
            mask = sum(1 << i for i in combo)
            seen = set()
            for _kind, idents in completions(cards, rules):
                for perm in permutations(idents):  # which joker takes which identity
                    assign = tuple(sorted(zip(jokers, perm, strict=True)))
                    if assign not in seen:
                        seen.add(assign)
                        cands_by_low[combo[0]].append((mask, assign))
    best = 0

    def value(mask):
        pts = cnt = 0
        for i in range(len(table_cards), n):
            if mask >> i & 1:
                pts += pool[i].points()
                cnt += 1
        return pts * BIG + cnt

    def m4_ok(mask, assigns, chosen=()):
        need = {}
        freed = set()
        for i, ident in assigns:
            if i in table_ident and table_ident[i] != ident:
                need[table_ident[i]] = need.get(table_ident[i], 0) + 1
                freed.add(i)
        if rules.freed_joker_reuse == "new_meld_only" and freed:
            freed_mask = sum(1 << i for i in freed)
            for m in chosen:
                if m & freed_mask and (m & forced & ~freed_mask or not m & ~forced):
                    return False
        for ident, cnt in need.items():
            have = sum(
                1 for i in range(len(table_cards), n) if mask >> i & 1 and not pool[i].is_joker and pool[i].key == ident
            )
            if sub_from == "hand_or_table":
                have += sum(1 for c in table_cards if not c.is_joker and c.key == ident)
            if have < cnt:
                return False
        return True

    def dfs2(i, used, played, assigns, chosen):
        nonlocal best
        while i < n and used >> i & 1:
            i += 1
        if i == n:
            if played and m4_ok(played, assigns, chosen):
                best = max(best, value(played))
            return
        for mask, assign in cands_by_low[i]:
            if mask & used:
                continue
            dfs2(i + 1, used | mask, played | (mask & ~forced), assigns + assign, chosen + (mask,))
        if not forced >> i & 1:
            dfs2(i + 1, used | (1 << i), played, assigns, chosen)

    dfs2(0, 0, 0, (), ())
    return best


def _combinations(n, k):
    return combinations(range(n), k)


def _quick_possible(cards):
    nat = [c for c in cards if not c.is_joker]
    if not nat:
        return True
    ranks = {c.rank for c in nat}
    suits = {c.suit for c in nat}
    return len(ranks) == 1 or len(suits) == 1


def _state_for(table, hand, rules):
    players = 3
    r = rules.replace(players=players, jokers=4)
    return ManipulationState(
        rules=r,
        players=players,
        dealer=2,
        hands=(tuple(hand), (), ()),
        stock=(),
        table=tuple(map(tuple, table)),
        seat_to_act=0,
        phase="drawn",
        draws=1,
        has_melded=(False,) * players,
    )


def assert_matches_brute_force(table, hand, rules, *context):
    """The solver's optimum is the brute force's, and its table passes the engine's own M1–M4 check."""
    play = best_play(table, hand, rules=rules)
    expected = brute_force(table, hand, rules)
    assert play.points * BIG + len(play.played) == expected, (
        [[c.code for c in m] for m in table],
        [c.code for c in hand],
        *context,
        play.table,
    )
    if play.played:
        report = game.check_table(_state_for(table, hand, rules), 0, [ids(m) for m in play.table_cards])
        assert report["ok"], report
        assert sorted(report["played"]) == sorted(c.id for c in play.played_cards)
    return play
