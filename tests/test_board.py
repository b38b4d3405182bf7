"""SVG board pictures: well-formed XML, the checkers, bar and trays drawn, the numbering."""

import xml.etree.ElementTree as ET

import pytest
from conftest import side

from nardy_analysis import Position, Roll
from nardy_analysis.game.ids import MatchState
from nardy_analysis.game.long import LongPosition
from nardy_analysis.game.svg import board_svg, save_board

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


# The example of `nardy board`: player 1 owns a 2-cube and is to play 52, 1-2 in a 5-point
# match (the XGID's fields: cube 2^1, owner 1, turn 1, dice 52, score 2 and 1 from the
# side on roll, Crawford off, length 5; XG's XGID format, as the ASCII board prints it).
XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:5:10"
CENTRED = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"


def cube_of(root):
    (cube,) = by_class(root, "g", "cube")
    (rect,) = cube.iter(SVG + "rect")
    (value,) = by_class(cube, "text", "cube-value")
    return int(value.text), float(rect.get("y"))


def test_the_cube_score_and_dice_of_a_match_state_are_drawn():
    position, state = Position.from_xgid(XGID)
    root = parse(board_svg(position, state=state))
    value, y = cube_of(root)
    top, bottom = 26, 26 + 2 * 180 + 60   # the board's edges (TOP, BOTTOM)
    assert value == 2 and y > (top + bottom) / 2  # owned by the viewer (player 1): bottom
    (status,) = by_class(root, "text", "status")
    assert status.text == "5-point match \u00b7 player 2 to play 52"  # names as unnamed
    captions = [t.text for t in by_class(root, "text", "caption")]  # players' in a record
    assert captions == ["player 1 (light): score 1, 167 pips, 0 off",
                        "\u25b6 player 2 (dark): score 2, 167 pips, 0 off"]
    assert [t.text for t in by_class(root, "text", "die-value")] == ["5", "2"]
    # Seen from player 0's side the cube is on the opponent's side: top.
    assert cube_of(parse(board_svg(position, side=0, state=state)))[1] < (top + bottom) / 2
    centred_position, centred = Position.from_xgid(CENTRED)
    assert centred_position == position
    centred_svg = board_svg(position, state=centred)
    assert centred_svg != board_svg(position, state=state)
    value, y = cube_of(parse(centred_svg))
    assert value == 1 and y == (top + bottom) / 2 - 17
    assert "score 0, 167 pips" in centred_svg


def test_a_double_on_offer_the_crawford_game_and_long_nardy():
    position, state = Position.from_xgid(XGID)
    doubled = MatchState(cube=2, cube_owner=1, player=1, turn=0, doubled=True,
                         match_length=5, score=(1, 2))
    root = parse(board_svg(position, state=doubled))
    assert sorted(int(t.text) for t in by_class(root, "text", "cube-value")) == [2, 4]
    assert len(by_class(root, "g", "offered")) == 1
    assert by_class(root, "text", "status")[0].text == (
        "5-point match \u00b7 player 2 doubles to 4; player 1 to take or drop")
    crawford = MatchState(player=1, dice=(5, 2), crawford=True, match_length=5, score=(4, 2))
    root = parse(board_svg(position, state=crawford))
    assert by_class(root, "g", "cube") == []
    assert by_class(root, "text", "status")[0].text.startswith("5-point match, Crawford game")
    long = parse(board_svg(LongPosition.start(), state=MatchState(match_length=3)))
    assert by_class(long, "g", "cube") == []
    # No cube column either: the frame left of the board as wide as right of the trays.
    x0, _, width, _ = map(float, long.get("viewBox").split())
    assert x0 == 50 - 12 and width == 642 - x0  # LEFT - 12, WIDTH - x0
    assert len(by_class(long, "circle", "checker")) == 2 * 5  # two heads of 15, 5 drawn each
    assert [t.text for t in by_class(long, "text", "stack")] == ["15", "15"]
    assert by_class(long, "text", "status")[0].text == (
        "Long nardy \u00b7 3-point match \u00b7 player 1 to roll")
    bare_long = parse(board_svg(LongPosition.start()))
    assert [t.text for t in by_class(bare_long, "text", "status")] == ["Long nardy"]
    # With no state (a bare position, as in notebooks): a centred cube at 1, no score.
    root = parse(board_svg(position))
    assert cube_of(root)[0] == 1 and by_class(root, "text", "status") == []


def test_each_tray_is_labelled_in_its_owners_colour():
    position = Position.from_mover(side(p1=14), side(p6=12), 0)
    root = parse(board_svg(position))
    owners = by_class(root, "circle", "tray-owner")
    assert [o.get("class") for o in owners] == ["tray-owner owner1", "tray-owner owner0"]
    assert [t.text for t in by_class(root, "text", "tray")] == ["3 off", "1 off"]
