"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), pure Python, and the
site's rating rules: time classes as lichess splits them, the default rating of a new
player, and the provisional ratings of the bots.

Each finished rated game is one rating period with one opponent, applied as soon as the
game ends (as lichess does). Deviations are capped at the starting value."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Glicko-2's scale factor between the Glicko and the internal scale.
SCALE = 173.7178
#: The system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2;
#: 0.5 is his worked example's value).
TAU = 0.5
EPSILON = 0.000001
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: Below this deviation a rating is established; above it the site shows it with "?".
PROVISIONAL_RD = 110.0

TIME_CLASSES = ("bullet", "blitz", "rapid", "classical", "correspondence")
CORRESPONDENCE_DAYS = (1, 3, 7, 14)


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period: ``games`` are (opponent, score) with
    score 1 for a win, 0.5 a draw, 0 a loss. No games: only the deviation grows (step 6)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, min(DEFAULT_RD, SCALE * math.sqrt(phi * phi + sigma * sigma)), sigma)
    # Steps 3 and 4: estimated variance v and improvement delta.
    inverse_v = 0.0
    total = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inverse_v
    delta = v * total
    sigma_new = _new_volatility(phi, sigma, v, delta, tau)
    # Steps 6 to 8.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma_new)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm (regula falsi)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


#: Rating periods per day without games, as lichess counts them: a deviation grows by
#: Glicko-2's step 6 (phi^2 + t sigma^2) for the periods since the player's last rated game.
PERIODS_PER_DAY = 0.21436


def after_inactivity(player: Rating, days: float) -> Rating:
    """The rating as it stands ``days`` after the player's last game: less certain."""
    if days <= 0:
        return player
    phi, sigma = player.rd / SCALE, player.volatility
    grown = SCALE * math.sqrt(phi * phi + days * PERIODS_PER_DAY * sigma * sigma)
    return Rating(player.rating, min(DEFAULT_RD, grown), sigma)


def rate_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game between them (each sees the other's
    rating from before the game)."""
    return update(first, [(second, first_score)]), update(second, [(first, 1.0 - first_score)])


def time_class(clock: dict | None, days: int | None = None) -> str | None:
    """lichess's split by estimated duration (initial + 40 x increment seconds): bullet
    under 3 minutes, blitz under 8, rapid under 25, classical beyond; correspondence for
    days per move. A clock of seconds per move counts as 40 such moves. None: untimed."""
    if days is not None:
        return "correspondence"
    if not clock:
        return None
    initial = float(clock.get("initial", 0) or 0)
    if clock.get("mode") == "move":
        estimate = 40 * initial
    else:
        estimate = initial + 40 * float(clock.get("increment", 0) or 0)
    if estimate < 180:
        return "bullet"
    if estimate < 480:
        return "blitz"
    if estimate < 1500:
        return "rapid"
    return "classical"


#: A bot's rating where the levels' ladder (agents/levels_ladder.json, measured by
#: `qipan arena --levels`) has not measured it: the default (1500, deviation 350), provisional.
BOT_RATING = Rating()
