"""Rule variants as data and the header tags that set them."""

from dataclasses import FrozenInstanceError

import pytest

from nardy_analysis import CAUCASIAN, LENIENT, STANDARD, TAVLA, InvalidArgument, Rules
from nardy_analysis.notation.records import variation_tag


def test_tags_set_the_rules():
    rules = STANDARD.with_tags({"Variation": "Tavla", "Crawford": "Off", "Jacoby": "On",
                                "Beaver": "No", "CubeLimit": "64"})
    assert rules.name == "tavla" and rules.opening_doubles and not rules.backgammons
    assert (rules.crawford, rules.jacoby, rules.beavers, rules.cube_limit) == \
        (False, True, False, 64)


def test_unknown_tags_and_values_change_nothing():
    assert STANDARD.with_tags({"Variation": "Narde", "Crawford": "maybe",
                               "CubeLimit": "abc", "Site": "x"}) == STANDARD


def test_a_chosen_variant_ignores_the_variation_tag_but_not_the_others():
    rules = LENIENT.with_tags({"Variation": "Backgammon", "Jacoby": "On"}, variation=False)
    assert rules.name == "lenient" and rules.jacoby


def test_override_and_unknown_options():
    assert STANDARD.override(crawford=False).crawford is False
    with pytest.raises(InvalidArgument, match="unknown rule option.*: gamons"):
        STANDARD.override(gamons=False)
    assert issubclass(InvalidArgument, ValueError)


def test_variants_are_values():
    # Rules reached by different routes are equal, hash alike and find each other as keys.
    tavla = STANDARD.with_tags({"Variation": "Tavla"})
    assert tavla == TAVLA and {TAVLA: "tavla"}[tavla] == "tavla"
    assert STANDARD.override(crawford=False).override(crawford=True) == STANDARD
    assert len({STANDARD, TAVLA, LENIENT, STANDARD.with_tags({"Variation": "Backgammon"}),
                LENIENT.override(jacoby=False)}) == 3
    # One field apart is a different value; a variant keeps the cube limit already set.
    assert STANDARD.override(beavers=False) != STANDARD
    assert STANDARD.with_tags({"CubeLimit": "8"}).with_tags({"Variation": "Tavla"}) == \
        Rules(name="tavla", opening_doubles=True, backgammons=False, cube_limit=8)
    assert eval(repr(LENIENT), {"Rules": Rules}) == LENIENT
    with pytest.raises(FrozenInstanceError, match="^cannot assign to field 'crawford'$"):
        STANDARD.crawford = False


def test_caucasian_is_short_nardy_with_safe_home_checkers():
    # The rule page names one difference from short nardy: no hit in the home board.
    rules = STANDARD.with_tags({"Variation": "Caucasian"})
    assert rules == CAUCASIAN and rules.home_safe and rules.name == "caucasian"
    assert CAUCASIAN.override(home_safe=False, name="standard") == STANDARD
    assert variation_tag(CAUCASIAN) == "Caucasian"
    assert STANDARD.with_tags({"Variation": variation_tag(CAUCASIAN)}) == CAUCASIAN
