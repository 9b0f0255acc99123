"""Ratings of games of three or four players and of teams: OpenSkill's Weng-Lin
Plackett-Luce model (the ``openskill`` package; Weng and Lin, "A Bayesian Approximation
Method for Online Ranking", JMLR 12, 2011).

Glicko-2 rates one player against one opponent; a game of four, or two teams of two, is a
ranking of several sides, which Plackett-Luce models directly (a side's chance to finish
ahead of the others), with partners sharing their team's result in proportion to their
uncertainty. It is TrueSkill's kind of model (a skill mean mu and deviation sigma per
player, starting at 25 and 25/3) without TrueSkill's patent and licence terms, and
openskill.py is kept up and dependency-free. The site shows the conservative estimate
mu - 3 sigma beside each player's Glicko-2 ratings."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
#: Additive dynamics: a little uncertainty added before every game so that a skill can
#: still move after many games (the library's default, 25/300).
TAU = 25.0 / 300.0


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown: mu - 3 sigma (99.7% sure the skill is above)."""
        return self.mu - 3.0 * self.sigma


def sides(players: int, options: dict) -> list[list[int]]:
    """The seats playing together: partners sit opposite (seats i and i + 2) in the team
    presets (Pente and MOD X ``teams``, Tantrix ``doubles``), else each seat alone."""
    if players == 4 and (options.get("teams") or options.get("doubles")):
        return [[0, 2], [1, 3]]
    return [[seat] for seat in range(players)]


def ranks(result: dict | None, teams: list[list[int]], left: set[int] = frozenset()) -> list[int]:
    """Each side's place: the winners' sides first (1), the others after (2); a draw, or
    no winner, ranks every side equal. A side a player left (a bot took the seat) is
    last whatever the bot made of it: the leaver lost."""
    winners = set((result or {}).get("winners") or ())
    won = [any(seat in winners for seat in team) for team in teams]
    places = [1] * len(teams) if not any(won) or all(won) else [1 if w else 2 for w in won]
    last = max(places) + 1
    return [
        last if any(seat in left for seat in team) else place
        for team, place in zip(teams, places, strict=True)
    ]


def rate(skills: list[list[Skill]], places: list[int], tau: float = TAU) -> list[list[Skill]]:
    """The new skills of every side's players after one game (``places``: 1 first)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=tau)
    teams = [[model.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in skills]
    out = model.rate(teams, ranks=places)
    return [[Skill(r.mu, r.sigma) for r in team] for team in out]
