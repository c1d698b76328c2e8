"""The panel file: reference pins, every pin a GPIO line used once, errors naming the key."""

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.config import CONFIG_DIR
from firmware_host.config.panel import ButtonPins, load_panel
from firmware_host.errors import InputError
from tests.builders import write_yaml

REFERENCE = CONFIG_DIR / "panel" / "reference.yaml"
BENCH = CONFIG_DIR / "panel" / "bench_track.yaml"
BUTTONS = list(ButtonPins.model_fields)


def reference_data():
    return yaml.safe_load(REFERENCE.read_text())


def load_data(tmp_path, data):
    return load_panel(write_yaml(tmp_path / "panel.yaml", data))


def test_reference_panel_pins():
    panel = load_panel()
    assert dict(panel.buttons.pins) == {
        "previous_shape": 5,
        "next_shape": 6,
        "confirm": 13,
        "joker": 19,
        "answer_yes": 26,
        "answer_no": 21,
    }
    assert panel.buttons.pull_up is True and panel.buttons.bounce_time == 0.05
    assert panel.led_tracks is None


def test_bench_track_uses_27_distinct_gpio_lines():
    panel = load_panel(BENCH)
    assert panel.buttons is None
    assert sorted(pin for _, pin in panel.pins()) == sorted(set(range(28)) - {1})


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        (lambda d: d["buttons"]["pins"].update(joker=5), "buttons.pins.joker", "GPIO 5 is already"),
        (lambda d: d["buttons"]["pins"].update(confirm=28), "buttons.pins.confirm", "0 to 27"),
        (lambda d: d["buttons"]["pins"].update(confirm=-1), "buttons.pins.confirm", "0 to 27"),
        (lambda d: d["buttons"]["pins"].pop("answer_no"), "buttons.pins.answer_no", "missing"),
        (lambda d: d["buttons"].update(debounce=1), "buttons.debounce", "unknown key"),
        (lambda d: d["buttons"].update(bounce_time=0), "buttons.bounce_time", "greater than 0"),
        (lambda d: d["buttons"]["pins"].update(confirm="13"), "buttons.pins.confirm", "integer"),
        (
            lambda d: [d.pop("buttons"), d.pop("hub_tracks")],
            "(top level)",
            "give buttons, led_tracks or hub_tracks",
        ),
        (lambda d: d.update(version=2), "version", "1"),
    ],
)
def test_bad_panel_files_name_the_key(tmp_path, change, where, problem):
    data = reference_data()
    change(data)
    with pytest.raises(InputError) as error:
        load_data(tmp_path, data)
    assert error.value.where == where
    assert problem in error.value.problem
    assert error.value.source.endswith("panel.yaml")


def test_a_track_needs_25_lights_and_pins_of_its_own(tmp_path):
    data = yaml.safe_load(BENCH.read_text())
    data["led_tracks"]["tracks"][0]["track"].pop()
    with pytest.raises(InputError, match=r"led_tracks\.tracks\[0\]\.track: .*25"):
        load_data(tmp_path, data)
    data = yaml.safe_load(BENCH.read_text())
    data["led_tracks"]["tracks"][0]["plus_50"] = 2
    with pytest.raises(InputError, match=r"plus_50: GPIO 2 is already used by .*track\[0\]"):
        load_data(tmp_path, data)


@given(st.lists(st.integers(0, 27), min_size=6, max_size=6))
def test_six_pins_are_accepted_exactly_when_distinct(tmp_path_factory, pins):
    data = reference_data()
    data["buttons"]["pins"] = dict(zip(BUTTONS, pins, strict=True))
    path = write_yaml(tmp_path_factory.mktemp("panel") / "panel.yaml", data)
    if len(set(pins)) == 6:
        assert list(dict(load_panel(path).buttons.pins).values()) == pins
    else:
        with pytest.raises(InputError, match=r"already used by buttons\.pins"):
            load_panel(path)
