"""Pipe Mania in real time in a terminal (curses, stdlib).

    run(game, players=1, seed=None, tick_seconds=None) -> final state

Time runs on its own: every ``tick_seconds`` (default: the game's declared
``realtime_tick``) the game plays one tick. Between ticks each
player moves a cursor and chooses an action; the last action chosen in a tick is played
when the tick falls due (the game's ``idle_move``, a pass, if none). ``RealTimeLoop`` holds this logic with an
injectable clock, so it is tested without a terminal; ``run`` only adds curses.

Keys, one player: arrows or w/a/s/d move, space or Enter places, Tab or c cycles the piece
(choice/fixed supply), h hurries, p pauses, q quits. Two players on one keyboard:
player 1 arrows / Enter / '/' (cycle) / '.' (hurry); player 2 w/a/s/d / space / e / r."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ...core import CHANCE, QipanError, resolve_chance
from .board import BY_ID
from .render import ends_status, flow_status, glyph

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

KEYS_ONE = {
    "KEY_UP": "up",
    "KEY_DOWN": "down",
    "KEY_LEFT": "left",
    "KEY_RIGHT": "right",
    "w": "up",
    "s": "down",
    "a": "left",
    "d": "right",
    " ": "place",
    "\n": "place",
    "KEY_ENTER": "place",
    "\t": "cycle",
    "c": "cycle",
    "h": "hurry",
}
KEYS_TWO = (
    {
        "KEY_UP": "up",
        "KEY_DOWN": "down",
        "KEY_LEFT": "left",
        "KEY_RIGHT": "right",
        "\n": "place",
        "KEY_ENTER": "place",
        "/": "cycle",
        ".": "hurry",
    },
    {"w": "up", "s": "down", "a": "left", "d": "right", " ": "place", "e": "cycle", "r": "hurry"},
)


class RealTimeLoop:
    """Keys in, ticks out. ``clock()`` returns seconds; ``agents[p]`` (optional) plays
    player ``p`` with ``agent.choose(state)`` once per tick."""

    def __init__(
        self,
        state,
        tick_seconds: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        agents: dict | None = None,
    ):
        self.state = state
        self.tick_seconds = tick_seconds if tick_seconds is not None else state.game.realtime_tick
        self.clock = clock
        self.rng = random.Random(seed)
        self.agents = agents or {}
        n = state.num_players
        self.cursor = []
        for p in range(n):
            board = state.boards[state.board_of[p]]
            r, c = divmod(board.level.start[0], board.level.cols)
            self.cursor.append([r, c])
        self.pending: list[str | None] = [None] * n
        self.selected = [0] * n
        self.messages: list[str] = []
        self.paused = False
        self.next_tick = clock() + self.tick_seconds
        self._draw_chance()

    # -- input ---------------------------------------------------------------------------------
    def choices(self, player: int) -> list[str]:
        """The piece choices of ``player`` (empty in queue mode, where the front piece is used)."""
        state, g = self.state, self.state.game
        if g.supply == "queue":
            return []
        if g.supply == "fixed":
            return [k for k, n in state.pools[player].items() if n > 0]
        if g.choice == "two_stacks":
            return ["@1", "@2"]
        return list(BY_ID)

    def command(self, player: int, action: str) -> None:
        """A player's command: up/down/left/right, place, cycle or hurry."""
        if self.state.outcome is not None or player in self.agents:
            return
        board = self.state.boards[self.state.board_of[player]]
        if action in MOVES:
            dr, dc = MOVES[action]
            r, c = self.cursor[player]
            self.cursor[player] = [(r + dr) % board.level.rows, (c + dc) % board.level.cols]
        elif action == "cycle":
            options = self.choices(player)
            if options:
                self.selected[player] = (self.selected[player] + 1) % len(options)
        elif action == "hurry":
            self.pending[player] = "h"
        elif action == "place":
            r, c = self.cursor[player]
            options = self.choices(player)
            suffix = ""
            if options:
                pick = options[self.selected[player] % len(options)]
                suffix = pick if pick.startswith("@") else ":" + pick
            self.pending[player] = f"p{r},{c}{suffix}"

    def selected_piece(self, player: int) -> str | None:
        options = self.choices(player)
        return options[self.selected[player] % len(options)] if options else None

    # -- time ----------------------------------------------------------------------------------
    def update(self) -> int:
        """Play every tick that has fallen due; returns how many were played."""
        played = 0
        if self.paused:
            self.next_tick = self.clock() + self.tick_seconds
            return 0
        while self.state.outcome is None and self.clock() >= self.next_tick:
            self.play_tick()
            self.next_tick += self.tick_seconds
            played += 1
        return played

    def play_tick(self) -> None:
        """One tick: every acting player's pending action (or pass), then the flow."""
        state = self.state
        idle = state.game.idle_move
        self._draw_chance()
        if state.outcome is not None:
            return
        for _ in range(len(state.actors)):
            p = state.to_move
            if p in self.agents:
                action = str(self.agents[p].choose(state.view(p)))
            else:
                action = self.pending[p] or idle
            self.pending[p] = None
            try:
                state.play(action)
            except QipanError as exc:
                self.messages.append(f"P{p + 1}: {exc}")
                state.play(idle)
            self._draw_chance()
            if state.outcome is not None:
                return

    def _draw_chance(self) -> None:
        while self.state.to_move == CHANCE:
            resolve_chance(self.state, self.rng)


def _colour_pairs(curses) -> None:
    curses.start_color()
    curses.use_default_colors()
    curses.init_pair(1, curses.COLOR_CYAN, -1)  # flooded
    curses.init_pair(2, curses.COLOR_RED, -1)  # player 1
    curses.init_pair(3, curses.COLOR_BLUE, -1)  # player 2
    curses.init_pair(4, curses.COLOR_YELLOW, -1)  # messages


def draw(screen, loop: RealTimeLoop, curses) -> None:
    state = loop.state
    screen.erase()
    y = 0
    screen.addstr(y, 0, "Pipe Mania - q quits, p pauses" + ("  [PAUSED]" if loop.paused else ""))
    y += 2
    x0 = 0
    for board in state.boards:
        lv = board.level
        width = 70 if len(state.boards) == 1 else 2 * lv.cols + 2
        screen.addstr(y - 1, x0, ends_status(board)[:width])
        screen.addstr(y, x0, flow_status(board)[:width])
        for r in range(lv.rows):
            for c in range(lv.cols):
                cell = r * lv.cols + c
                attr = curses.color_pair(1) | curses.A_BOLD if board.flooded[cell] else 0
                owner = board.owner[cell]
                if not board.flooded[cell] and owner >= 0 and state.num_players == 2:
                    attr = curses.color_pair(2 + owner)
                for p in board.players:
                    if loop.cursor[p] == [r, c] and p not in loop.agents:
                        attr |= curses.A_REVERSE
                screen.addstr(y + 1 + r, x0 + 2 * c, glyph(board, cell), attr)
        x0 += 2 * lv.cols + 4
    y += state.boards[0].level.rows + 2
    for p in range(state.num_players):
        if state.uses_queue():
            stacks = " | ".join(
                "".join(BY_ID[k].glyph for k in state.queue(p, i)) for i in range(len(state.dispensers[p]))
            )
            supply = f"next: {stacks}"
        else:
            pick = loop.selected_piece(p)
            supply = f"piece: {BY_ID[pick].glyph if pick in BY_ID else pick or '-'}"
        lost = f"  (loses {state.lost[p]} ticks)" if state.lost[p] else ""
        pending = f"  pending: {loop.pending[p]}" if loop.pending[p] else ""
        screen.addstr(
            y, 0, f"P{p + 1} score {state.scores[p]:>6}  {supply}{lost}{pending}", curses.color_pair(2 + p)
        )
        y += 1
    for msg in loop.messages[-2:]:
        screen.addstr(y, 0, msg[:78], curses.color_pair(4))
        y += 1
    if state.outcome is not None:
        screen.addstr(y + 1, 0, f"Game over: {state.outcome.reason}"[:78], curses.A_BOLD)
        screen.addstr(y + 2, 0, "press q to leave")
    screen.refresh()


def run(game, players=1, seed: int | None = None, tick_seconds: float | None = None):
    """Play ``game`` (a Pipe Mania game) in real time in this terminal; returns the final state.

    ``players`` is 1 or 2 humans, or a list with one entry per player: "human" or an agent."""
    import curses
    import locale

    entries = list(players) if isinstance(players, (list, tuple)) else ["human"] * int(players)
    agents = {p: a for p, a in enumerate(entries) if hasattr(a, "choose")}
    humans = [p for p in range(len(entries)) if p not in agents]
    state = game.new(players=len(entries), seed=seed)
    keymaps = [KEYS_ONE] if len(humans) == 1 else list(KEYS_TWO)
    locale.setlocale(locale.LC_ALL, "")

    def main(screen):
        curses.curs_set(0)
        _colour_pairs(curses)
        screen.timeout(20)
        loop = RealTimeLoop(state, tick_seconds, seed=seed, agents=agents)
        while True:
            try:
                key = screen.get_wch()
            except curses.error:
                key = None
            if isinstance(key, int):
                key = curses.keyname(key).decode()
            if key in ("q", "Q"):
                return
            if key == "p":
                loop.paused = not loop.paused
            elif key is not None:
                for human, keymap in zip(humans, keymaps, strict=False):
                    if key in keymap:
                        loop.command(human, keymap[key])
                        break
            loop.update()
            draw(screen, loop, curses)

    curses.wrapper(main)
    return state
