"""GNU Backgammon's neural nets as an :class:`~nardy_analysis.analysis.evaluator.Evaluator`:
:class:`GnubgNN`, the default engine of short nardy.

It uses the neural nets and bear-off databases of GNU Backgammon through the ``gnubg-nn``
package; its 0-ply numbers are GNU Backgammon's. That package is GPL-3, so it is an optional
extra: install it with ``pip install nardy-analysis[engine]``. Without it this module still
imports; making a :class:`GnubgNN` raises :class:`~nardy_analysis.errors.EngineError` naming
the command to run. Its pruning nets, for the cubeful search, are
:mod:`~nardy_analysis.analysis.pruning`'s.

Known traps of ``gnubg-nn`` 1.1.0a11, guarded here (tests/test_engine.py has a regression
test for each):

* Its boards are ``[opponent, player on roll]``, 25 counts each from that player's own side
  (point ``p`` at index ``p - 1``, the bar at 24, borne-off checkers implicit).
  ``moves()`` returns boards from the mover's side, while ``best_move(..., b=1)`` and
  ``list=1`` return boards already turned round for the opponent, who is then on roll.
* ``best_move`` with ``n >= 1`` and ``list=1`` crashes the process (segmentation fault) when
  the roll has exactly one legal play; this backend only calls ``list=1`` at 0-ply.
* It does not validate its input (a side of 16 checkers or a die of 7 gives garbage or a
  crash), so it is only given a :class:`Position` (which cannot hold such a board) and a
  checked :class:`Roll`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from typing import Any, Iterable, Sequence

import numpy as np

from ..game.moves import Roll
from ..game.position import Position
from ..game.rules import BAR, CHECKERS
from .evaluator import (
    MONEY,
    Evaluator,
    Probabilities,
    Utility,
    check_position,
    check_roll,
    game_over_probabilities,
    not_installed,
    pips_beyond,
    rearmost,
    swapped,
)
from .plies import CubelessSearch


def board_counts(keys: Iterable[str]) -> np.ndarray:
    """The boards of gnubg-nn's position keys, shape (n, 50), int8: the checkers on each
    point of the side not on roll, then of the side on roll (25 points each, 0-based from
    the side's own side, 24 the bar; ``board_from_position_key``'s boards). Each key is 20
    letters ``A``..``P``, two to a byte (high half first), whose 80 bits hold for each point
    as many ones as checkers there and a zero (GNU Backgammon's position key): a point's
    count is the number of ones between its zero and the one before."""
    codes = np.frombuffer("".join(keys).encode("ascii"), np.uint8).reshape(-1, 20) - 65
    bits = np.unpackbits(codes[:, 0::2] << np.uint8(4) | codes[:, 1::2], axis=1,
                         bitorder="little")
    zero = bits == 0
    ends = np.flatnonzero(zero & (np.cumsum(zero, axis=1, dtype=np.int8) <= 2 * BAR))
    counts = np.empty(len(ends), np.int64)
    counts[1:] = ends[1:] - ends[:-1] - 1
    counts[::2 * BAR] = ends[::2 * BAR] % 80  # a key's first zero: the ones before it
    return counts.reshape(-1, 2 * BAR).astype(np.int8)


def _rearmost_indices(boards: np.ndarray) -> np.ndarray:
    """Each side's rearmost point of gnubg boards (n, 2, 25), 0-based from the side's own
    side (24 the bar, -1 none): shape (n, 2)."""
    sides = boards > 0
    indices: np.ndarray = np.where(sides.any(axis=2),
                                   BAR - 1 - np.argmax(sides[:, :, ::-1], axis=2), -1)
    return indices


def board_classes(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`GnubgNN.position_classes` of boards of :func:`board_counts` (n, 50): the
    classes (str) and the pip counts of the player then on roll, shape (n,)."""
    rearmost = _rearmost_indices(counts.reshape(-1, 2, BAR))
    home = (rearmost < 6).all(axis=1) | (rearmost < 0).any(axis=1)
    # my point i + 1 is the opponent's 24 - i: passed when i + j < 23
    kinds = np.where(home, "bearoff", np.where(rearmost.sum(axis=1) < BAR - 2, "race",
                                               "contact"))
    return kinds, counts[:, BAR:] @ np.arange(1, BAR + 1)


def board_keys(counts: np.ndarray) -> list[str]:
    """The position keys of boards of :func:`board_counts` (n, 50): its decoding the other
    way round."""
    ends = np.cumsum(counts.astype(np.int64) + 1, axis=1) - 1  # each point's zero
    bits = np.arange(80) < ends[:, -1:]
    bits[np.arange(len(counts))[:, None], ends] = False
    packed = np.packbits(bits, axis=1, bitorder="little")
    letters = np.stack([packed >> 4, packed & 15], axis=2) + np.uint8(65)
    text = letters.tobytes().decode("ascii")
    return [text[start:start + 20] for start in range(0, len(text), 20)]


@lru_cache(maxsize=None)
def _one_sided(gnubg: Any, side: tuple[int, ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """gnubg-nn's one-sided bear-off distribution of ``side`` (checkers on points 1..6):
    ``P(done in i + 1 rolls)`` and ``P(done in i + 1 rolls or more)``, i = 0, 1, ...
    (GNU Backgammon's database: multiples of 1/65535, the last one not 0)."""
    done = gnubg.bearoff_probabilities(side)
    return done, tuple(sum(done[i:]) for i in range(len(done)))


_NET_FLOOR = 5.0172162445960566e-05
"""The least chance GNU Backgammon's nets give (their output function's lower bound, as
measured). gnubg-nn sets a race's gammon chance below 1e-4 to 0, where gnubg keeps the
net's value when its checks do not make it 0: that value, at least this, is this in 2,016 of
the 2,170 such chances of 26,687 random races (the others 5e-5 to 1e-4)."""

_CROSSINGS = np.repeat([1, 2, 3, 4, 5], [6, 6, 6, 6, 1])
"""Per point (0-based from the side's own side, 24 the bar): the quarters of the board a
checker there has still to cross to be borne off (GNU Backgammon's crossovers)."""


@lru_cache(maxsize=4096)
def _pips_to_pass(position: Position) -> int:
    """The pips the player on roll must move before none of their checkers has one of the
    opponent's still to pass (0 in a race): each checker behind the opponent's rearmost
    brought past it (a hit only adds contact: the checker hit enters behind them all)."""
    return pips_beyond(position, BAR - 1 - rearmost(position)[1])


def _contact_kept(position: Position, roll: Roll) -> bool:
    """Whether after every play of ``roll`` in ``position`` a checker of either side has
    still to pass one of the other's."""
    return _pips_to_pass(position) > roll.pips


def _race_checked(gnubg: Any, boards: np.ndarray, chances: np.ndarray) -> np.ndarray:
    """The 0-ply chances of races (no contact, not both sides home) as GNU Backgammon
    1.1.0a16 has them after its sanity checks (``SanityCheck`` in its ``eval.c``), which
    gnubg-nn 1.1.0a11 makes otherwise; other positions keep their chances.

    A side needs at least a quarter of its crossovers in rolls (4 a roll at most: a double)
    and at most as many rolls as its one-sided bear-off distribution allows when all its
    checkers are home, else twice its crossovers. The player on roll wins for certain when
    the opponent needs more rolls than they can need, and loses for certain the other way
    round; a gammon is certain or impossible by the same count over the crossovers before
    the first checker is borne off; no gammon once a checker is off, no backgammon with
    every checker out of the winner's home board; then no gammon above the wins and no
    backgammon above the gammons. A gammon chance gnubg-nn gives as 0 that the checks leave
    is the nets' least chance (:data:`_NET_FLOOR`).

    Parameters
    ----------
    gnubg : module
        ``gnubg_nn``, for its one-sided bear-off database.
    boards : numpy.ndarray
        Shape (n, 2, 25): gnubg boards, ``[opponent, player on roll]``.
    chances : numpy.ndarray
        Shape (n, 5): gnubg-nn's chances of the player on roll (win, win gammon, win
        backgammon, lose gammon, lose backgammon), probabilities 0..1.

    Returns
    -------
    numpy.ndarray
        Shape (n, 5): the chances checked (``chances`` itself when no position is a race).
    """
    back = _rearmost_indices(boards)
    race = (back.sum(axis=1) < BAR - 1) & (back >= 6).any(axis=1) & (back >= 0).all(axis=1)
    if not race.any():
        return chances
    count = boards.sum(axis=2)
    crossings = boards @ _CROSSINGS
    before_off = 1 + boards @ (_CROSSINGS - 1)  # crossovers to the first checker off
    most = 2 * crossings
    for row, side in zip(*np.nonzero((back < 6) & race[:, None])):
        done, _ = _one_sided(gnubg, tuple(boards[row, side, :6].tolist()))
        most[row, side] = len(done)
    most[:, 1] = np.maximum(most[:, 1], 1)
    win, gammon, backgammon, lose_gammon, lose_backgammon = chances.T.copy()
    gammon[gammon == 0.0] = _NET_FLOOR  # unless the checks below make it 0
    lose_gammon[lose_gammon == 0.0] = _NET_FLOOR
    win[crossings[:, 0] > 4 * (most[:, 1] - 1)] = 1.0
    full = count == CHECKERS
    gammon = np.where(crossings[:, 1] > 8 * before_off[:, 0], 0.0,
                      np.where(before_off[:, 0] > 4 * (most[:, 1] - 1), 1.0, gammon))
    gammon[~full[:, 0]] = 0.0
    backgammon[~full[:, 0] | (back[:, 0] < 18)] = 0.0
    win[crossings[:, 1] > 4 * most[:, 0]] = 0.0
    lose_gammon = np.where(crossings[:, 0] > 8 * before_off[:, 1] - 4, 0.0,
                           np.where(before_off[:, 1] > 4 * most[:, 0], 1.0, lose_gammon))
    lose_gammon[~full[:, 1]] = 0.0
    lose_backgammon[~full[:, 1] | (back[:, 1] < 18)] = 0.0
    gammon = np.minimum(gammon, win)
    lose = np.float32(1.0) - win.astype(np.float32)  # single precision, as gnubg
    lose_gammon = np.minimum(lose_gammon, lose.astype(float))
    checked = np.stack([win, gammon, np.minimum(backgammon, gammon), lose_gammon,
                        np.minimum(lose_backgammon, lose_gammon)], axis=1)
    return np.where(race[:, None], checked, chances)


def _table(rows: Any) -> np.ndarray:
    """Rows of 5 chances (a list of sequences, or an array) as an array (n, 5)."""
    if isinstance(rows, np.ndarray):
        return rows
    return np.fromiter(chain.from_iterable(rows), float, 5 * len(rows)).reshape(-1, 5)


def _turned_twice(win: Any) -> Any:
    """``win`` (a number or an array) as gnubg-nn's ``best_move`` lists it: ``1 - (1 -
    win)`` in single precision (it turns the chances round to the mover's side and back),
    which can differ from ``probabilities()``'s number in the last bit of a float."""
    one = np.float32(1.0)
    turned = one - (one - np.asarray(win, dtype=np.float32))
    return turned.astype(float) if turned.ndim else float(turned)


class GnubgNN(Evaluator):
    """GNU Backgammon's neural nets through ``gnubg-nn`` (GPL-3, the ``engine`` extra).

    Parameters
    ----------
    ply : int
        0 (default) for the nets' static evaluation; ``n >= 1`` (up to 4) to look ``n`` rolls
        ahead: :meth:`evaluate` is gnubg-nn's own ``n``-ply evaluation, and the best play of
        a roll (:meth:`best_play`, :meth:`best_equities`) is GNU Backgammon's at ``n`` plies
        as its luck analysis finds it, cubeless, through its default move filters and without
        pruning nets (:class:`~nardy_analysis.analysis.plies.CubelessSearch`).
    cache_size : int
        How many (position, roll) play lists and position evaluations to keep.

    Raises
    ------
    EngineError
        ``gnubg-nn`` is not installed (the message names ``pip install
        nardy-analysis[engine]``), or ``ply`` is not a whole number 0..4.

    Attributes
    ----------
    gnubg : module
        The ``gnubg_nn`` module: its nets, bear-off databases and weights file.
    """

    def __init__(self, ply: int = 0, cache_size: int = 200_000):
        super().__init__(ply, cache_size, highest=4)
        try:
            import gnubg_nn
        except ImportError as error:
            raise not_installed("equity analyses need an engine", "engine",
                                 "gnubg-nn, GPL-3") from error
        self.gnubg = gnubg_nn
        version = getattr(getattr(gnubg_nn, "_version_module", None), "version", "?")
        self.name = f"gnubg-nn {version} {ply}-ply"
        self._last_search: tuple[Any, CubelessSearch | None] = (None, None)

    @staticmethod
    def board(position: Position) -> list[list[int]]:
        """``position`` as gnubg's ``[opponent, player on roll]`` board (checked first)."""
        check_position(position)
        return [list(position.opponent[1:BAR + 1]), list(position.on_roll[1:BAR + 1])]

    def _position_after(self, key: str, mover: int) -> Position:
        """The position of a gnubg key returned by ``best_move(b=1)``/``list=1``: the board
        turned round, so its player on roll is the opponent of ``mover``."""
        not_on_roll, on_roll = self.gnubg.board_from_position_key(key)
        sides = {}
        for player, side in ((mover, not_on_roll), (1 - mover, on_roll)):
            sides[player] = (CHECKERS - sum(side),) + tuple(side)
        return Position((sides[0], sides[1]), 1 - mover)

    def play_index(self, keys: tuple[Any, ...], after: Position, mover: int) -> int | None:
        key = self.gnubg.key_of_board(self.board(after))
        return keys.index(key) if key in keys else None

    def play_moves(self, position: Position, roll: Roll, key: str) -> tuple[tuple[int, int], ...]:
        """The checker steps of the play ``key`` (of :meth:`plays`) as gnubg lists them:
        ``(start, end)`` points from the mover's side (25 the bar, 0 off), one per die used;
        ``()`` when ``key`` is not a play of ``roll``."""
        gnubg = self.gnubg
        after = gnubg.board_from_position_key(key)  # turned round: moves() keys are not
        wanted = gnubg.key_of_board([list(after[1]), list(after[0])])
        return next((tuple(steps) for found, steps in
                     gnubg.moves(self.board(position), roll.high, roll.low, 1)
                     if found == wanted), ())

    def position_class(self, key: str) -> tuple[str, int]:
        """The class of the position of a play's key, for the cube life index: ``"contact"``,
        ``"race"`` (the rearmost checkers of both sides have passed each other),
        ``"bearoff"`` (every checker of both sides home or off, or the game over), and the
        pip count of the player then on roll, without building the position."""
        kinds, pips = self.position_classes((key,))
        return str(kinds[0]), int(pips[0])

    def position_classes(self, keys: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`position_class` of each of ``keys`` as two arrays of shape (n,): the
        classes (str) and the pip counts."""
        return board_classes(board_counts(keys))

    def _evaluate_uncached(self, position: Position) -> Probabilities:
        if self.ply and not position.is_over:
            return self._net(self.board(position))
        return self._static(position)

    def _net(self, board: list[list[int]],
             probabilities: Sequence[float] | None = None) -> Probabilities:
        """gnubg-nn's chances for the player on roll of ``board`` (at ``self.ply`` unless
        ``probabilities`` at 0-ply are given), races and one-sided bear-offs as GNU
        Backgammon has them.

        A race's chances are checked as GNU Backgammon checks them (:func:`_race_checked`).
        In a bear-off with both sides in the one-sided database gnubg-nn sometimes gives a
        certain win where GNU Backgammon combines the two sides' distributions of the number
        of rolls needed: ``win = sum_i P(I need i rolls) * P(opponent needs >= i rolls)``.
        """
        gnubg = self.gnubg
        if probabilities is None:
            probabilities = gnubg.probabilities(board, self.ply)
            if self.ply:
                return Probabilities(*probabilities)
        kind = gnubg.classify(board)
        if kind == gnubg.c_race:
            return Probabilities(*_race_checked(gnubg, np.array([board]),
                                                np.array([probabilities], dtype=float))[0])
        if kind != gnubg.c_bearoff:
            return Probabilities(*probabilities)
        mine, _ = _one_sided(gnubg, tuple(board[1][:6]))
        _, theirs = _one_sided(gnubg, tuple(board[0][:6]))
        return Probabilities(sum(p * tail for p, tail in zip(mine, theirs)), *probabilities[1:])

    def _plays_uncached(self, position: Position,
                        roll: Roll) -> tuple[tuple[str, ...], np.ndarray]:
        """Every legal play at 0-ply (gnubg keys)."""
        found = self.gnubg.best_move(self.board(position), roll.high, roll.low, n=0, list=1,
                                      b=1)
        if not found[0]:
            return (), np.zeros((0, 5))
        return next(zip(*found[2])), _table(self._listed(position, roll, found))

    def _listed(self, position: Position, roll: Roll,
                found: Any) -> Sequence[Sequence[float]]:
        """The opponent's chances (rows of 5) after each play in gnubg-nn's answer
        ``found`` to ``best_move(list=1, b=1)`` for ``roll`` in ``position``, as
        :meth:`plays` gives them (:meth:`_valued`)."""
        if not found[0]:
            return []
        listed: Sequence[Sequence[float]] = self._valued(
            position, [play[2] for play in found[2]], [play[0] for play in found[2]],
            _contact_kept(position, roll))
        return listed

    def _valued(self, position: Position, listed: Any, keys: Sequence[str],
                contact_kept: bool) -> Any:
        """The opponent's chances after the plays of one roll in ``position`` (or of several
        rolls with two plays or more each) as :meth:`plays` gives them, from those gnubg-nn
        lists (``listed``: rows of 5, a list or an array): a roll's only play, which gnubg-nn
        lists without valuing it, valued at 0-ply; after a play that leaves a race or a
        bear-off, the chances as :meth:`_net` has them. ``keys``, the plays' gnubg keys, are
        read only in those cases, and not at all when ``contact_kept`` says that every play
        leaves the sides in contact."""
        gnubg = self.gnubg
        if len(listed) == 1:
            board = [list(side) for side in gnubg.board_from_position_key(keys[0])]
            return [self._net(board, gnubg.probabilities(board, 0))]
        if contact_kept:  # no race, no bear-off
            return listed
        boards = board_counts(keys).reshape(-1, 2, BAR)
        chances = _race_checked(gnubg, boards, np.asarray(listed, dtype=float))
        for row in np.flatnonzero((_rearmost_indices(boards) < 6).all(axis=1)):  # bear-offs
            chances[row] = self._net(boards[row].tolist(), chances[row])
        return chances

    def play_boards(self, rolls: Sequence[tuple[Position, Roll]]) -> list[np.ndarray]:
        """The boards after every legal play of each ``(position, roll)`` as
        :func:`board_counts` has them (the opponent then on roll), shape (plays, 50) each, in
        gnubg-nn's order of making the plays: :meth:`plays` without valuing them, for a
        search that values only some (:meth:`play_chances`)."""
        gnubg, listed = self.gnubg, []
        for position, roll in rolls:
            check_roll(roll)
            listed.append(gnubg.moves(self.board(position), roll.high, roll.low))
        found = list(chain.from_iterable(listed))
        if not found:
            return [np.zeros((0, 2 * BAR), np.int8) for _ in listed]
        boards = board_counts(found)
        boards = np.concatenate([boards[:, BAR:], boards[:, :BAR]], axis=1)  # turned round
        return np.split(boards, np.cumsum([len(moves) for moves in listed])[:-1])

    def play_chances(self, plays: Sequence[tuple[Position, np.ndarray]]
                     ) -> list[tuple[tuple[str, ...], np.ndarray]]:
        """The keys of plays of :meth:`play_boards` and the opponent's chances after them,
        as :meth:`plays` gives them: for each ``(position, boards)`` (some or all of a roll's
        plays; all of them when there is only one) a tuple of keys and an array
        (len(boards), 5)."""
        gnubg, found = self.gnubg, []
        counts = np.concatenate([boards for _, boards in plays])
        keys = board_keys(counts) if len(counts) else []
        listed = np.array([gnubg.probabilities(board, 0)
                           for board in counts.reshape(-1, 2, BAR).tolist()]).reshape(-1, 5)
        listed[:, 0] = _turned_twice(listed[:, 0])
        contact = _rearmost_indices(counts.reshape(-1, 2, BAR)).sum(axis=1) >= BAR - 1
        start = 0
        for position, play_boards in plays:
            end = start + len(play_boards)
            chances = self._valued(position, listed[start:end], keys[start:end],
                                   bool(contact[start:end].all()))
            found.append((tuple(keys[start:end]), np.asarray(chances).reshape(-1, 5)))
            start = end
        return found

    def best_equities(self, position: Position, rolls: tuple[Roll, ...],
                      utility: Utility = MONEY) -> tuple[float, ...]:
        """As :meth:`Evaluator.best_equities`; at 0-ply the plays of all ``rolls`` are
        listed by gnubg-nn and their equities taken in one array operation (about 15% less
        time than roll by roll through :meth:`plays`; the nets' evaluations are most of the
        rest), and money play needs only gnubg-nn's pick (:meth:`_money_best_equities`).
        A single play's equity is worked out on its own, as the base class does it (numpy's
        product of one row can differ from the same row's in a larger array in the last
        bit), and a dance by the base class."""
        if self.ply or position.is_over:
            return super().best_equities(position, rolls, utility)
        if utility == MONEY and any(position.opponent[7:BAR + 1]):
            found = self._money_best_equities(position, rolls)
            if found is not None:
                return found
        board, ends, alone = self.board(position), [], {}
        rows: list[Sequence[float]] = []
        keys: list[str] = []
        checked: list[int] = []  # the rows of the rolls that may leave a race or a bear-off
        for index, roll in enumerate(rolls):
            check_roll(roll)
            found = self.gnubg.best_move(board, roll.high, roll.low, n=0, list=1, b=1)
            if not found[0]:
                alone[index] = super().best_equities(position, (roll,), utility)[0]
            elif len(found[2]) == 1:
                chances = self._listed(position, roll, found)
                alone[index] = float(utility.of_opponent(np.array(chances, dtype=float)).max())
            else:
                if not _contact_kept(position, roll):
                    checked += range(len(rows), len(rows) + len(found[2]))
                    keys += [play[0] for play in found[2]]
                rows += [play[2] for play in found[2]]
                ends.append(len(rows))
        table = _table(rows)
        if checked:
            table[checked] = self._valued(position, table[checked], keys, False)
        best = iter(np.maximum.reduceat(utility.of_opponent(table), [0, *ends[:-1]]).tolist()
                    if rows else ())
        return tuple(alone[index] if index in alone else next(best)
                     for index in range(len(rolls)))

    def _money_best_equities(self, position: Position,
                             rolls: tuple[Roll, ...]) -> tuple[float, ...] | None:
        """:meth:`best_equities` under :data:`MONEY` at 0-ply, no bear-off to follow, from
        the one play gnubg-nn picks per roll (``best_move(list=0)``, money being the state
        it is left in: this module never sets its score or cube) and its chances, which
        gnubg-nn's evaluation cache holds: the same numbers as the maximum over every
        play's. A dance, a single play and a roll that may leave a race (whose chances
        gnubg-nn does not check as :meth:`plays` does) go the base class's way, and so does
        the whole position (None) when fewer than two rolls are left: numpy's product of a
        single row can differ from the same row's in a larger array in the last bit."""
        gnubg, board, rows, picked, alone = self.gnubg, self.board(position), [], [], {}
        for index, roll in enumerate(rolls):
            check_roll(roll)
            if len(gnubg.moves(board, roll.high, roll.low)) < 2 or \
                    not _contact_kept(position, roll):
                alone[index] = super().best_equities(position, (roll,), MONEY)[0]
                continue
            key = gnubg.best_move(board, roll.high, roll.low, n=0, list=0, b=1)[1]
            chances = gnubg.probabilities(
                [list(side) for side in gnubg.board_from_position_key(key)], 0)
            rows.append((_turned_twice(chances[0]), *chances[1:]))
            picked.append(index)
        if len(rows) < 2:
            return None
        best = dict(zip(picked, MONEY.of_opponent(np.array(rows, dtype=float)).tolist()))
        return tuple(best[index] if index in best else alone[index]
                     for index in range(len(rolls)))

    def _choose(self, position: Position, keys: tuple[Any, ...], chances: np.ndarray,
                utility: Utility) -> tuple[float, Any, Probabilities]:
        if not self.ply:
            return super()._choose(position, keys, chances, utility)
        index, equity, after = self._search(utility, position.turn).best(
            position, keys, chances, self.ply)
        return equity, keys[index], Probabilities(*swapped(after))

    def _after_dance(self, after: Position, utility: Utility) -> Probabilities:
        if not self.ply:
            return super()._after_dance(after, utility)
        return Probabilities(*swapped(
            self._search(utility, 1 - after.turn).chances(after, self.ply)))

    def _search(self, utility: Utility, side: int) -> CubelessSearch:
        """The :class:`CubelessSearch` of ``side`` with the equity ``utility``: the last one
        made, while they are the same (a match's rolls go by a few cube and score
        states)."""
        key, search = self._last_search
        if search is None or key != (utility, side):
            search = CubelessSearch(self, lambda position: np.array(self._static(position)),
                                    utility, side)
            self._last_search = ((utility, side), search)
        return search

    def _static(self, position: Position) -> Probabilities:
        """The 0-ply chances of the player on roll in ``position``."""
        if position.is_over:
            return game_over_probabilities(position)
        board = self.board(position)
        return self._net(board, self.gnubg.probabilities(board, 0))
