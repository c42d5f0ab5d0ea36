"""Check the deals of an exported game record (docs/fairness.md), without a database or a server.

    python -m games.verify rummyhub-match-42.json

For each round whose seed the record reveals: the commitment shown at the table is recomputed from
the seed and the round's identity, and the deal is made again from the seed by the documented
shuffle and compared with the hands, upcard and stock the record says were played.  Rounds dealt
before provably fair deals (``python-random``) have no commitment; their deal is still checked
with Python's ``random.Random``.  The browser's verifier (static/js/verify.js) does the same.

Exit status: 0 when every revealed round checks out, 1 when one does not, 2 when the file is not a
game record.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from games.engine import shuffle
from games.engine.errors import InvalidAction

FORMAT = "rummyhub-game-record"

OK = "ok"  # the commitment (when the shuffle has one) and the deal check out
MISMATCH = "mismatch"
UNREVEALED = "unrevealed"  # the round is not over (or the record predates deals in records): nothing to check


@dataclass
class RoundCheck:
    number: Any
    shuffle: str
    status: str
    problems: list[str] = field(default_factory=list)


def verify_record(record: Any) -> list[RoundCheck]:
    """Every round's check; ``InvalidAction`` (code ``bad_record``) when ``record`` is not a game record."""
    if not isinstance(record, dict) or record.get("format") != FORMAT or not isinstance(record.get("rounds"), list):
        raise InvalidAction("Not a RummyHub game record.", code="bad_record")
    match = record.get("match") if isinstance(record.get("match"), dict) else {}
    return [_check_round(match, rnd) for rnd in record["rounds"]]


def _check_round(match: dict[str, Any], rnd: Any) -> RoundCheck:
    if not isinstance(rnd, dict):
        return RoundCheck(None, "", MISMATCH, ["a round is not an object"])
    algorithm = rnd.get("shuffle") or shuffle.LEGACY
    check = RoundCheck(rnd.get("number"), str(algorithm), OK)
    if rnd.get("seed") is None or rnd.get("deal") is None:
        check.status = UNREVEALED
        return check
    try:
        check.problems = _commitment_problems(match, rnd, algorithm) + _deal_problems(match, rnd, algorithm)
    except (InvalidAction, KeyError, TypeError, ValueError, IndexError) as exc:
        check.problems = [f"malformed round: {exc}"]
    if check.problems:
        check.status = MISMATCH
    return check


def _commitment_problems(match: dict[str, Any], rnd: dict[str, Any], algorithm: str) -> list[str]:
    if algorithm == shuffle.LEGACY:
        return []  # dealt before commitments were shown
    expected = shuffle.commitment(
        rnd["seed"], match_id=match.get("id"), round_number=rnd.get("number"), algorithm=algorithm
    )
    if rnd.get("commitment") != expected:
        return [f"the seed's commitment is {expected}, the table showed {rnd.get('commitment')}"]
    return []


def _deal_problems(match: dict[str, Any], rnd: dict[str, Any], algorithm: str) -> list[str]:
    deal = rnd["deal"]
    hands, dealer, order = deal["hands"], deal["dealer"], deal["order"]
    problems = []
    if dealer != rnd.get("dealer") or not order or order[-1] != dealer:
        problems.append("the deal does not end its passes with the dealer")
    if match.get("variant") == "manipulation" and order != [
        (dealer + k) % len(hands) for k in range(1, len(hands) + 1)
    ]:
        problems.append("the cards were not dealt from the dealer's left")
    made = shuffle.deal(
        rnd["seed"],
        packs=deal["packs"],
        jokers=deal["jokers"],
        seats=len(hands),
        order=order,
        hand_size=deal["hand_size"],
        upcard=deal.get("upcard") is not None,
        dealer_drawn=bool(deal.get("dealer_drawn")),
        algorithm=algorithm,
    )
    if deal.get("dealer_drawn") and made.dealer != dealer:
        problems.append(f"the seed chooses seat {made.dealer} to deal, not seat {dealer}")
    for seat, (got, want) in enumerate(zip(hands, made.hands, strict=True)):
        if sorted(got) != sorted(want):
            problems.append(
                f"seat {seat} was dealt {sorted(set(got) - set(want))} instead of {sorted(set(want) - set(got))}"
            )
    if deal.get("upcard") != made.upcard:
        problems.append(f"the upcard is {deal.get('upcard')}, the seed turns {made.upcard}")
    if deal["stock"] != made.stock:
        problems.append("the stock is not in the order the seed makes")
    return problems


def report(checks: list[RoundCheck]) -> str:
    words = {OK: "ok", MISMATCH: "MISMATCH", UNREVEALED: "not revealed yet: not checked"}
    lines = []
    for c in checks:
        extra = " (dealt before commitments: the deal only)" if c.status == OK and c.shuffle == shuffle.LEGACY else ""
        lines.append(f"round {c.number}: {words[c.status]}{extra}")
        lines.extend(f"  - {p}" for p in c.problems)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m games.verify RECORD.json  (a game record: docs/game-record.md)", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            checks = verify_record(json.load(f))
    except (OSError, ValueError, InvalidAction) as exc:
        print(f"{args[0]}: not a readable RummyHub game record ({exc})", file=sys.stderr)
        return 2
    print(report(checks))
    return 1 if any(c.status == MISMATCH for c in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
