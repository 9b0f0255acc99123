"""Ratings from game results: maximum-likelihood Elo with error bars (as Ordo and BayesElo
compute them) and the sequential probability ratio test (SPRT) that stops a match once
it is clear which of two hypotheses about the Elo difference holds. Stdlib only."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Elo points per factor 10 in the odds.
SCALE = 400.0
_K = math.log(10) / SCALE


def expected(diff: float) -> float:
    """Expected score of a player ``diff`` Elo above the opponent."""
    return 1.0 / (1.0 + 10.0 ** (-diff / SCALE))


def elo_of_score(score: float) -> float:
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -SCALE * math.log10(1 / score - 1)


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    #: Half-width of the 95% interval (1.96 standard errors).
    error: float
    games: int
    points: float


def _pseudo_inverse(h: list[list[float]]) -> list[list[float]]:
    """The pseudo-inverse of a Laplacian-like matrix (rows sum to 0): (H + J/n)^-1 - J/n."""
    n = len(h)
    a = [[h[i][j] + 1.0 / n for j in range(n)] + [float(i == j) for j in range(n)] for i in range(n)]
    for col in range(n):  # Gauss-Jordan with partial pivoting
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [v / p for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [[a[i][n + j] - 1.0 / n for j in range(n)] for i in range(n)]


def ratings(
    names: list[str], results: list[tuple[int, int, float]], prior_draws: float = 1.0
) -> list[Rating]:
    """Maximum-likelihood Elo of the players ``names`` from ``results`` = (i, j, score of i
    against j in [0, 1]), centred on 0 (the pool's mean). ``prior_draws`` virtual draws
    between every pair that met keep a perfect score finite (BayesElo's prior)."""
    n = len(names)
    wins = [[0.0] * n for _ in range(n)]  # points of i against j
    games = [[0.0] * n for _ in range(n)]
    played, points = [0] * n, [0.0] * n
    for i, j, s in results:
        wins[i][j] += s
        wins[j][i] += 1 - s
        games[i][j] += 1
        games[j][i] += 1
        played[i] += 1
        played[j] += 1
        points[i] += s
        points[j] += 1 - s
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                wins[i][j] += prior_draws / 2
                games[i][j] += prior_draws
    r = [0.0] * n
    for _ in range(10_000):  # minorisation-maximisation (Hunter 2004) on gamma = 10^(r/400)
        gamma = [10 ** (x / SCALE) for x in r]
        new = []
        for i in range(n):
            den = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i and games[i][j])
            total = sum(wins[i])
            new.append(SCALE * math.log10(total / den) if den and total else r[i])
        mean = sum(new) / n
        new = [x - mean for x in new]
        done = max(abs(a - b) for a, b in zip(new, r, strict=True)) < 1e-9
        r = new
        if done:
            break
    # Fisher information of the ratings (in Elo units) and its pseudo-inverse: the covariance.
    h = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                p = expected(r[i] - r[j])
                w = games[i][j] * p * (1 - p) * _K * _K
                h[i][j] -= w
                h[i][i] += w
    cov = _pseudo_inverse(h)
    return [
        Rating(names[i], r[i], 1.96 * math.sqrt(max(cov[i][i], 0.0)), played[i], points[i]) for i in range(n)
    ]


@dataclass
class SPRT:
    """H0: the Elo difference is ``elo0``; H1: it is ``elo1``; error rates ``alpha`` (accept
    H1 wrongly) and ``beta`` (accept H0 wrongly). The log-likelihood ratio uses the normal
    approximation of the score (draws included), as chess testing frameworks do."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, scores: list[float]) -> float:
        """The log-likelihood ratio of H1 against H0 after ``scores`` (the first player's,
        game by game), with one virtual win and one virtual loss added so a short run of
        equal results has a variance and does not decide at once."""
        if not scores:
            return 0.0
        padded = [*scores, 0.0, 1.0]
        n = len(padded)
        mean = sum(padded) / n
        var = sum((s - mean) ** 2 for s in padded) / n
        s0, s1 = expected(self.elo0), expected(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def decide(self, scores: list[float]) -> str | None:
        """ "H1" (the first player is stronger by elo1), "H0", or None (play on)."""
        low, high = self.bounds
        value = self.llr(scores)
        if value >= high:
            return "H1"
        if value <= low:
            return "H0"
        return None
