"""Dice fairness audit: are the rolls in a set of match records what fair dice would throw?

The data source and the statistics are separate. :func:`rolls_frame` turns replayed matches
into a tidy frame with one row per roll; :func:`roll_counts` reduces such a frame (from match
files, from :func:`simulate_rolls`, or from anywhere else) to the audit's sufficient
statistics, :class:`AuditCounts`, which add up across files (``+``, ``sum``,
:func:`merge_counts`); :func:`count_tests` runs each test once on counts and returns one row
per test and group (:func:`dice_tests` of a frame is the two together: one way to compute
the tests). :func:`audit_dice` returns a :class:`DiceAudit` report with a text summary (its
charts: :mod:`nardy_analysis.plots.audit`, its HTML page:
:func:`nardy_analysis.report.audit_html`); :func:`match_counts` counts replayed matches
straight from their rolls, and :func:`~nardy_analysis.batch.audit_files` counts each file
so on worker processes or a Dask cluster and tests the sums, with the p-values of the audit
of all rolls together. ``nardy audit`` is the command line. ``audit_dice(...,
player=NAME)`` audits one player's rolls across every file.

Which rolls count: every roll a player threw, dances and unknown (``???``) plays included. The
opening roll of a game is left out by default: under standard rules it cannot be a double
(each player throws one die; RULES.md), so counting it would bias the doubles test. In long
nardy the winner of the opening throw rolls again, an ordinary roll: it always counts. A
``.mat`` file does not say which die is which, so 2-1 and 1-2 are one roll class: 21 classes,
each double 1/36, every other class 2/36.

The tests (``test`` column), each on every group (``all`` rolls, then each player or site):

============== ======================================================================
doubles        Doubles count against 1/6 of the rolls: exact two-sided binomial test
               (``scipy.stats.binomtest``).
roll_classes   The 21 roll classes against 1/36 (doubles) and 2/36 (others): Pearson
               chi-square test of fit, 20 degrees of freedom (``scipy.stats.chisquare``).
faces          Each face of the 2n dice against 1/6: Pearson chi-square, 5 degrees of freedom
               (``scipy.stats.chisquare``); the two dice of a fair roll are independent.
pips           Mean pips per roll (a double counts four times) against 294/36 = 8.1667:
               z-test with the exact variance of one roll, 665/36 = 18.47 pips squared,
               computed from the 36 equally likely throws (``scipy.stats.norm``).
serial         Doubles after doubles: consecutive rolls of the same player in one game,
               2x2 table (previous roll double or not x this roll double or not), Pearson
               chi-square test of independence without continuity correction
               (``scipy.stats.chi2_contingency``), or Fisher's exact test
               (``scipy.stats.fisher_exact``) when an expected count is below 5.
bar_entry      Rolls thrown with checkers on the bar: did at least one checker enter? With
               k of the opponent's home points closed, a roll enters at least one checker
               unless both dice show closed points, probability (36 - k^2)/36, whatever the
               number of checkers on the bar. Poisson-binomial test (below).
hits_on_blots  Rolls thrown while the opponent has a blot: was the roll one that can hit
               (a legal play of it hits)? Probability ``shots(position).count / 36`` from
               :func:`nardy_analysis.shots.shots`. Counting hitting rolls rather than hits
               made keeps the player's choice (not hitting) out of a test of the dice.
============== ======================================================================

Long nardy (RULES.md, "Long nardy") has no bar and no hitting: its rolls count in the first
five tests, and bar_entry and hits_on_blots do not apply to them (an audit of long nardy
rolls only says so in those tests' notes).

With ``luck=True`` (short nardy needs the engine extra: ``pip install
'nardy-analysis[engine]'``) five tests of the dice's luck join them (:data:`LUCK_TESTS`), on
every roll with a replayed position, luck as :mod:`nardy_analysis.analysis.luck` computes it
(GNU Backgammon's: cubeless 0-ply; money play and long nardy in equity per game at cube 1,
short nardy match play in normalised match equity), through each match's own engine (the
long nardy engine for long nardy). Each roll's
luck ``L`` has, under fair dice, a known distribution given its position: the 36 throws and
their best-play equities. Its mean is 0, and its variance ``V`` and fourth central moment
``M4`` are known (:func:`~nardy_analysis.analysis.luck.roll_luck_distribution`). So the
luck of manipulated dice shows even where the counts of every other test are fair ("the
dice give them what they need"):

============== ======================================================================
luck           Z = sum(L) / sqrt(sum(V)), two-sided normal p-value. Each L has
               conditional mean 0 given every roll before it (the position, made by the
               earlier rolls, fixes its distribution): the L are a martingale difference
               sequence, and by the martingale central limit theorem (Hall and Heyde,
               Martingale Limit Theory and Its Application, 1980, Theorem 3.2; McLeish,
               Ann. Probab. 2, 1974) sum(L) / sqrt(sum(V)) is approximately standard
               normal.
luck_spread    Z = sum(D) / sqrt(sum(M4 - V^2)) with D = L^2 - V, two-sided normal
               p-value: D too has conditional mean 0 (V is L's conditional variance), and
               conditional variance M4 - V^2, so the same martingale central limit theorem
               applies; rolls with M4 - V^2 = 0 add nothing. It sees dice too regular (the
               luck's spread below its fair-dice variance) or too wild (above), whatever
               the mean: gnubg's ``set cheat player P roll 11`` gives gnubg's median roll,
               a little below the mean throw, so that the luck test hardly sees it but
               this one does.
lucky_rolls    Rolls marked lucky or very lucky (L > 0.3) against each position's own
               chance of such a throw (the throws of 36 with luck > 0.3): Poisson-binomial
               test (below). Manipulation that avoids extremes (gnubg's
               ``set cheat player P roll 11``, the median roll) shows here as too few.
unlucky_rolls  The same for rolls marked unlucky or very unlucky (L < -0.3).
decisive_luck  The luck test on the decisive rolls: those whose V is in the top decile of
               the group's V (V at least its 0.9 quantile, ``numpy.quantile``), where the
               choice of roll matters most.
============== ======================================================================

The opening roll of standard rules is never in a luck test: it also decides who moves, so
its luck is not one of the roller's 36 throws. Money and match play can be pooled: each L is
measured against its own V.

Poisson-binomial test (bar_entry, hits_on_blots, lucky_rolls, unlucky_rolls): ``n`` rolls
with success probabilities ``p_i``; rolls with ``p_i`` 0 or 1 say nothing and are left out.
Up to 10,000 rolls the exact distribution of the number of successes is computed by
convolving the binomial distributions of the rolls sharing each ``p_i``
(``scipy.stats.binom.pmf``, ``numpy.convolve``) and the two-sided p-value sums the outcomes
no more likely than the one observed (the rule of ``scipy.stats.binomtest``); above 10,000
the normal approximation with continuity correction is used. Each ``p_i`` is fixed by the
position, which earlier rolls shaped, so the sum of ``y_i - p_i`` is a martingale under fair
dice: the normal approximation holds by the martingale central limit theorem, and the exact
distribution treats the ``p_i`` as given.

Columns of the results: ``test``, ``group``, ``n`` (rolls, or dice for ``faces``, or pairs for
``serial``), ``observed`` and ``expected`` (see below), ``statistic``, ``p_value``,
``p_adjusted`` (Benjamini-Hochberg over every p-value of the report,
``scipy.stats.false_discovery_control``), ``effect`` with a 95% confidence interval
``ci_low``..``ci_high``, ``cell``, ``method`` and ``note``. ``effect`` is observed minus
expected per roll (a difference of rates, or of pips per roll), but for luck_spread's ratio:

============== ====================================== =======================================
test           observed / expected                    effect (95% CI)
============== ====================================== =======================================
doubles        doubles                                doubles rate - 1/6 (Clopper-Pearson)
roll_classes   count of the class furthest from its   its rate - 1/36 or 2/36 (Clopper-
               expectation (``cell``, by standardised Pearson, simultaneous over the 21
               residual)                              classes: level 1 - 0.05/21, Bonferroni)
faces          count of the face furthest from 2n/6   its rate per die - 1/6 (Clopper-Pearson,
                                                      simultaneous: level 1 - 0.05/6)
pips           mean pips per roll / 8.1667            mean - 8.1667 (normal, sample s.d.)
serial         doubles after doubles / under          doubles rate after a double - after a
               independence                           non-double (Wald)
bar_entry      rolls that entered / sum of p_i        (observed - expected) / n (normal,
hits_on_blots  hitting rolls / sum of p_i             sample s.d. of the residuals)
luck           sum(L) / 0                             mean luck per roll (normal, sample s.d.)
luck_spread    sum(L^2) / sum(V)                      sum(L^2) / sum(V), a ratio, 1 = fair
                                                      (+- 1.96 sqrt(sum(D^2)) / sum(V))
lucky_rolls    rolls with L > 0.3 / sum of p_i        as bar_entry
unlucky_rolls  rolls with L < -0.3 / sum of p_i       as bar_entry
decisive_luck  sum(L) of the decisive rolls / 0       their mean luck per roll, as luck
============== ====================================== =======================================

The luck effect is in the luck's unit: equity per game at cube 1 (EMG) in money play and long
nardy, and normalised match equity in short nardy match play (where winning the cube's value
in points is +1 and losing it -1; a mix of both in an audit that pools them).

For roll_classes and faces the effect is that of the one cell named in ``cell``, chosen by
the data, while the chi-square p-value tests all cells together. The cell's interval is
therefore simultaneous over the cells (Bonferroni), so that it seldom excludes 0 by chance;
the two remain different questions, and when the interval excludes 0 but the chi-square
test is not significant at 0.05, ``note`` says so. ``method`` names the interval of each row.

Too few rolls: a chi-square test whose expected counts fall below 5 in a cell, or a z-test
on fewer than 30 rolls, gets no p-value, only a ``note`` saying so; an exact test that could
not reach p < 0.05 whatever the dice showed keeps its p-value and says so in ``note``.

The package's modules: :mod:`.rolls` (the rolls frame, simulated rolls, the 21 roll classes
with fair dice), :mod:`.counts` (:class:`AuditCounts`, how they are counted and added),
:mod:`.dice` (the seven tests of the dice's counts, Clopper-Pearson intervals, the
Poisson-binomial test), :mod:`.luck` (the five luck tests) and :mod:`.result`
(:func:`audit_dice`, :func:`count_tests`, :class:`DiceAudit` and its text); the package
re-exports their public names.
"""

from .counts import LUCK_TESTS, TESTS, AuditCounts, match_counts, merge_counts, roll_counts
from .dice import ALPHA, EXACT_LIMIT, cell_alpha, clopper_pearson, poisson_binomial_test
from .result import ABOUT, EFFECT_UNITS, DiceAudit, audit_dice, count_tests, dice_tests
from .rolls import (
                    CLASS_PROBABILITY,
                    LUCK_DTYPES,
                    MEAN_PIPS,
                    ROLL_COLUMNS,
                    ROLLS_DTYPES,
                    VAR_PIPS,
                    rolls_frame,
                    simulate_rolls,
)

__all__ = ["ABOUT", "ALPHA", "CLASS_PROBABILITY", "EFFECT_UNITS", "EXACT_LIMIT", "LUCK_DTYPES",
           "LUCK_TESTS", "MEAN_PIPS", "ROLLS_DTYPES", "ROLL_COLUMNS", "TESTS", "VAR_PIPS",
           "AuditCounts", "DiceAudit", "audit_dice", "cell_alpha", "clopper_pearson",
           "count_tests", "dice_tests", "match_counts", "merge_counts", "poisson_binomial_test",
           "roll_counts", "rolls_frame", "simulate_rolls"]
