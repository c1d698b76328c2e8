"""The frame codec: CRC, test vectors, resynchronisation and fuzzing of the decoder."""

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.link import wire

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "hardware" / "test_vectors.json").read_text())
BYTE_FIELDS = ("bits", "tag", "rgb")


def message_from_vector(vector):
    return {k: bytes.fromhex(v) if k in BYTE_FIELDS else v for k, v in vector["message"].items()}


def test_crc_check_value_both_paths():
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16_table(b"123456789") == 0x29B1
    assert VECTORS["crc"]["check"] == "0x29b1"


@given(st.binary(max_size=300), st.integers(0, 0xFFFF))
def test_table_crc_equals_binascii(data, init):
    assert wire.crc16_table(data, init) == wire.crc16(data, init)


@pytest.mark.parametrize("vector", VECTORS["frames"], ids=lambda v: v["meaning"])
def test_vector_decodes_to_its_meaning_and_back(vector):
    frame = bytes.fromhex(vector["hex"])
    message = message_from_vector(vector)
    [(seq, kind, payload)] = wire.Decoder().feed(frame)
    assert seq == vector["seq"]
    assert wire.decode_payload(kind, payload) == message
    assert wire.encode_message(vector["seq"], message) == frame


@pytest.mark.parametrize("vector", VECTORS["other_versions"], ids=lambda v: v["meaning"])
def test_another_versions_hello_is_readable_enough_to_name_it(vector):
    [(_, kind, payload)] = wire.Decoder().feed(bytes.fromhex(vector["hex"]))
    assert wire.decode_payload(kind, payload) == vector["message"]


@pytest.mark.parametrize("vector", VECTORS["rejected"], ids=lambda v: v["meaning"])
def test_rejected_vectors_yield_no_frame(vector):
    decoder = wire.Decoder()
    assert decoder.feed(bytes.fromhex(vector["hex"])) == []


def test_frames_split_across_reads_are_joined():
    stream = b"".join(bytes.fromhex(v["hex"]) for v in VECTORS["frames"])
    decoder = wire.Decoder()
    got = []
    for i in range(0, len(stream), 3):
        got += decoder.feed(stream[i : i + 3])
    assert [f[0] for f in got] == [v["seq"] for v in VECTORS["frames"]]
    assert decoder.pending() == 0


def test_bad_crc_is_counted_and_next_frame_found():
    good = bytes.fromhex(VECTORS["frames"][6]["hex"])
    broken = bytearray(good)
    broken[6] ^= 0x40
    decoder = wire.Decoder()
    frames = decoder.feed(bytes(broken) + good)
    assert frames == wire.Decoder().feed(good)
    assert decoder.bad_crc == 1


def test_invalid_message_payload_is_a_wire_error():
    with pytest.raises(wire.WireError, match="bitmap"):
        wire.decode_payload(wire.BITMAP, bytes([2]) + bytes(8) + bytes([16, 0]) + b"\x00")
    with pytest.raises(wire.WireError, match="die"):
        wire.decode_payload(wire.DIE, bytes([0, 1, 9]) + bytes(8))
    with pytest.raises(wire.WireError, match="leds"):
        wire.encode_message(0, {"type": "leds", "strip": 0, "start": 0, "rgb": b"\x01\x02"})


def test_every_message_fits_the_payload_limit():
    assert all(high <= wire.MAX_PAYLOAD for _, _, high in wire.LENGTHS.values())
    assert set(wire.LENGTHS) == set(wire.NAMES)


def test_sequence_arithmetic_wraps():
    assert wire.seq_after(1, 255)
    assert not wire.seq_after(255, 1)
    assert wire.seq_add(250, 10) == 4


GOOD = [bytes.fromhex(v["hex"]) for v in VECTORS["frames"]]


def accepted_frames_are_genuine(frames, stream):
    """Every accepted frame was in the stream, byte for byte, with a CRC that checks out
    (computed by the table path, independently of the decoder's)."""
    for seq, kind, payload in frames:
        assert wire.length_ok(kind, len(payload))
        raw = bytes((wire.SYNC, len(payload), seq, kind)) + payload
        crc = wire.crc16_table(raw[1:])
        assert raw + crc.to_bytes(2, "big") in stream


@settings(max_examples=300)
@given(st.binary(max_size=600))
def test_random_bytes_never_raise_and_never_yield_bad_frames(data):
    decoder = wire.Decoder()
    frames = decoder.feed(data)
    accepted_frames_are_genuine(frames, data)
    for _seq, kind, payload in frames:
        with contextlib.suppress(wire.WireError):
            wire.decode_payload(kind, payload)


@settings(max_examples=300)
@given(st.binary(max_size=300), st.sampled_from(GOOD), st.integers(1, 17))
def test_next_good_frame_after_garbage_is_found(garbage, good, chunk):
    decoder = wire.Decoder()
    stream = garbage + good
    frames = []
    for i in range(0, len(stream), chunk):
        frames += decoder.feed(stream[i : i + chunk])
    frames += decoder.flush()  # the line goes quiet after the good frame
    accepted_frames_are_genuine(frames, stream)
    expected = wire.Decoder().feed(good)[0]
    assert frames[-1] == expected


@settings(max_examples=300)
@given(st.sampled_from(GOOD), st.data())
def test_bit_flips_are_never_accepted(good, data):
    flips = data.draw(st.sets(st.integers(0, len(good) * 8 - 1), min_size=1, max_size=3))
    broken = bytearray(good)
    for bit in flips:
        broken[bit // 8] ^= 1 << (bit % 8)
    frames = wire.Decoder().feed(bytes(broken))
    # A flip of the sync byte may leave nothing; anything accepted must be the original.
    assert all(f == wire.Decoder().feed(good)[0] for f in frames) or not frames
    if any(b // 8 > 0 for b in flips):
        assert frames == []


@settings(max_examples=200)
@given(st.sampled_from(GOOD), st.sampled_from(GOOD), st.data())
def test_truncated_frame_then_good_frame(first, second, data):
    cut = data.draw(st.integers(1, len(first) - 1))
    decoder = wire.Decoder()
    stream = first[:cut] + second
    frames = decoder.feed(stream)
    frames += decoder.flush()
    accepted_frames_are_genuine(frames, stream)
    assert frames[-1] == wire.Decoder().feed(second)[0]


@given(st.integers(0, 255), st.binary(max_size=60))
def test_decode_payload_raises_only_wire_error(kind, payload):
    with contextlib.suppress(wire.WireError):
        wire.decode_payload(kind, payload)


def test_protocol_document_lists_every_message():
    text = (ROOT / "hardware" / "PROTOCOL.md").read_text()
    for code, name in wire.NAMES.items():
        assert f"| 0x{code:02x} | `{name}` |" in text, name
    assert "CRC-16/CCITT-FALSE" in text and "0x29B1" in text


@st.composite
def noisy_stream(draw):
    """Frames, some with bit flips, with garbage between: (stream, the intact frames)."""
    stream, intact = b"", []
    for _ in range(draw(st.integers(1, 8))):
        stream += draw(st.binary(max_size=20))
        frame = bytearray(draw(st.sampled_from(GOOD)))
        flips = draw(st.sets(st.integers(0, len(frame) * 8 - 1), max_size=2))
        for bit in flips:
            frame[bit // 8] ^= 1 << (bit % 8)
        if not flips:
            intact.append(bytes(frame))
        stream += bytes(frame)
    return stream, intact


@settings(max_examples=300)
@given(noisy_stream(), st.integers(1, 40))
def test_every_intact_frame_is_found_and_nothing_else(case, chunk):
    stream, intact = case
    decoder = wire.Decoder()
    frames = []
    for i in range(0, len(stream), chunk):
        frames += decoder.feed(stream[i : i + chunk])
    frames += decoder.flush()
    assert frames == [wire.Decoder().feed(f)[0] for f in intact]
