"""Host command builders, and robustness of both protocol ends against random bytes."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.link import messages, wire
from firmware_host.link.session import LinkSession
from tests.link_harness import make_hub_engine

HELLO = {"led_strips": [27, 100]}


def test_long_strips_are_split_into_frames_that_encode():
    pixels = [(i, 255 - i, 7) for i in range(100)]
    frames = messages.led_frames(1, pixels, hello=HELLO)
    assert [(f["start"], len(f["rgb"]) // 3) for f in frames] == [(0, 78), (78, 22)]
    decoded = [wire.decode_payload(wire.LEDS, wire.encode_payload(f)) for f in frames]
    assert b"".join(d["rgb"] for d in decoded) == bytes(c for p in pixels for c in p)


@pytest.mark.parametrize(
    ("strip", "pixels", "start", "problem"),
    [
        (2, [(0, 0, 0)], 0, "the hub has strips 0-1"),
        (0, [(0, 0, 0)] * 3, 25, "pixels 25-27 beyond its 27 pixels"),
        (0, [(0, 256, 0)], 0, "expected three values 0-255"),
    ],
)
def test_bad_led_requests_are_refused_before_sending(strip, pixels, start, problem):
    with pytest.raises(ValueError, match=problem):
        messages.led_frames(strip, pixels, start, hello=HELLO)


def test_sampling_in_seconds():
    assert messages.sampling(0.001) == {"type": "sampling", "period_us": 1000}
    with pytest.raises(ValueError, match=r"0\.0002 to 0\.1 s"):
        messages.sampling(1.0)
    assert messages.reset() == {"type": "reset"}
    assert messages.snapshot_request() == {"type": "snapshot_request"}


@settings(max_examples=200)
@given(st.lists(st.binary(max_size=80), max_size=8))
def test_random_bytes_never_break_either_end(chunks):
    clock = [1.0]
    sent = []
    session = LinkSession(
        lambda: clock[0], sent.append, on_event=lambda e: None, on_fault=lambda r: None
    )
    engine = make_hub_engine(lambda: int(clock[0] * 1e6), sent.append)
    for chunk in chunks:
        session.receive(chunk)
        engine.feed(chunk)
        clock[0] += 0.05
        session.poll()
        engine.tick()
    for frame in sent:
        assert wire.Decoder().feed(frame)  # whatever they answered is well formed
