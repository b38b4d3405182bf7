"""SVG board pictures: well-formed XML, the checkers, bar and trays drawn, the numbering."""

import xml.etree.ElementTree as ET

import pytest

from nardy_analysis import Position, Roll
from nardy_analysis.game.svg import board_svg, save_board
from conftest import side

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root, tag, name):
    return [e for e in root.iter(SVG + tag) if name in e.get("class", "").split()]


def test_start_position_has_30_checkers_and_both_pip_counts():
    root = parse(board_svg(Position.start()))
    assert root.tag == SVG + "svg"
    assert len(by_class(root, "circle", "checker")) == 30
    assert len(by_class(root, "circle", "player0")) == len(by_class(root, "circle", "player1"))
    assert len(by_class(root, "polygon", "point")) == 24
    numbers = sorted(int(t.text) for t in by_class(root, "text", "point-number"))
    assert numbers == list(range(1, 25))
    captions = [t.text for t in by_class(root, "text", "caption")]
    assert len(captions) == 2 and all("167 pips, 0 off" in c for c in captions)
    assert "4HPwATDgc/ABMA" in root.find(SVG + "title").text


def checker_at(root, player):
    (circle,) = by_class(root, "circle", f"player{player}")
    return float(circle.get("cx")), float(circle.get("cy"))


@pytest.mark.parametrize("turn", [0, 1])
def test_points_are_numbered_from_the_side_of_the_player_on_roll(turn):
    # Each player has one checker on their own 24-point: the viewer's (the player on roll)
    # is top right, the opponent's is on the viewer's 1-point, bottom right.
    position = Position.from_mover(side(p24=1), side(p24=1), turn)
    root = parse(board_svg(position))
    numbers = {int(t.text): (float(t.get("x")), float(t.get("y")))
               for t in by_class(root, "text", "point-number")}
    x, y = checker_at(root, turn)
    assert x == numbers[24][0] and y < numbers[1][1]  # on the viewer's 24: top row
    x, y = checker_at(root, 1 - turn)
    assert x == numbers[1][0]  # the opponent's 24-point is the viewer's 1-point
    assert numbers[1][0] > numbers[12][0] and numbers[13][0] < numbers[24][0]
    assert numbers[1][1] == numbers[12][1] > numbers[13][1] == numbers[24][1]
    # Seen from the other side, the same checkers swap places.
    root = parse(board_svg(position, side=1 - turn))
    assert checker_at(root, turn)[0] == numbers[1][0]


def test_tall_stacks_show_the_count_bar_and_trays():
    position = Position.from_mover(side(p6=7, p13=6, bar=2), side(p6=8, p8=3, bar=1), 1)
    root = parse(board_svg(position, roll=Roll(5, 3)))
    assert len(by_class(root, "circle", "checker")) == 5 + 5 + 2 + 5 + 3 + 1
    assert sorted(t.text for t in by_class(root, "text", "stack")) == ["6", "7", "8"]
    assert len(by_class(root, "rect", "off")) == 3
    assert len(by_class(root, "rect", "die")) == 2


def test_names_are_escaped_and_the_board_is_saved(tmp_path):
    position = Position.start(turn=1)
    svg = board_svg(position, names=("Zoë & <Ann>", "Bob"), width=300)
    root = parse(svg)
    captions = [t.text for t in by_class(root, "text", "caption")]
    assert any(c.startswith("\u25b6 Bob") for c in captions)  # Bob is on roll
    assert any(c.startswith("Zoë & <Ann>") for c in captions)
    assert root.get("width") == "300"
    path = save_board(position, tmp_path / "b.svg", names=("Zoë & <Ann>", "Bob"), width=300)
    assert path.read_text(encoding="utf-8") == svg
