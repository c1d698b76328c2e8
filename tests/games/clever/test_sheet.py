"""The sheet: what can be crossed next, what completes an area, and how stars are counted."""



from firmware_host.games.clever.layout import Color
from tests.clever_support import sheet

ALL_PRESENTS = {f"green.{r}.{c}" for r in (1, 2, 3) for c in (1, 2, 3, 4)}


def test_the_next_crossable_symbols_of_each_area():
    s = sheet()
    assert [b.id for b in s.crossable(frozenset(), Color.YELLOW)] == ["yellow.1"]
    assert [b.id for b in s.crossable(frozenset({"red.1"}), Color.RED)] == ["red.2"]
    assert [b.id for b in s.crossable(frozenset({"blue.cake.1"}), Color.BLUE)] == [
        "blue.cupcake.1",
        "blue.donut.1",
        "blue.cake.2",
    ]
    assert len(s.crossable(frozenset({"green.2.2"}), Color.GREEN)) == 11


def test_stars_beside_crossed_symbols_in_yellow_red_and_blue():
    s = sheet()
    crossed = frozenset({"yellow.1", "yellow.2", "yellow.3", "yellow.4", "red.1", "red.2"})
    crossed |= {"blue.cake.1", "blue.cake.2", "blue.cake.3"}
    assert s.stars(crossed) == {Color.YELLOW: 1, Color.RED: 1, Color.GREEN: 0, Color.BLUE: 1}
    assert s.total_stars(crossed) == 3
    assert s.total_stars(frozenset({"yellow.3", "red.3", "blue.donut.2"})) == 0


def test_green_stars_for_the_left_column_and_each_full_row():
    s = sheet()
    left = frozenset({"green.1.1", "green.2.1", "green.3.1"})
    top_row = frozenset({"green.1.1", "green.1.2", "green.1.3", "green.1.4"})
    assert s.stars(left)[Color.GREEN] == 1
    assert s.stars(top_row)[Color.GREEN] == 1
    assert s.stars(left | top_row)[Color.GREEN] == 2
    assert s.stars(frozenset(ALL_PRESENTS))[Color.GREEN] == 4
    assert s.stars(frozenset({"green.1.2", "green.2.2", "green.3.2"}))[Color.GREEN] == 0


def test_an_area_is_complete_when_every_symbol_is_crossed():
    s = sheet()
    assert s.complete(frozenset(ALL_PRESENTS), Color.GREEN)
    assert not s.complete(frozenset(ALL_PRESENTS - {"green.3.3"}), Color.GREEN)
    blue = frozenset(b.id for b in s.areas[Color.BLUE])
    assert s.complete(blue, Color.BLUE) and len(blue) == 15
    assert not s.complete(blue - {"blue.cake.5"}, Color.BLUE)


def test_the_bonuses_a_cross_earns():
    s = sheet()
    assert s.earned(frozenset(), s.box("yellow.3")) == [Color.BLUE]
    assert s.earned(frozenset(), s.box("yellow.2")) == []
    assert s.earned(frozenset({"green.1.4", "green.2.4"}), s.box("green.3.4")) == [Color.BLUE]
    assert s.earned(frozenset({"green.1.1", "green.2.1"}), s.box("green.3.1")) == []
