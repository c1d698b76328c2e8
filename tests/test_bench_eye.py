"""The eye's benchmark keeps timing the eye's real entry points (it broke once silently
when the look was split into begin and settle)."""

from benchmarks.bench_eye import PARTS, split


def test_the_split_times_whole_looks_and_their_parts_inside_them() -> None:
    totals = split("clean", 3)

    look = totals.pop("look")
    assert look > 0.0
    labels = {label for _, _, label in PARTS}
    assert "stepping the candidates (Chipmunk)" in totals
    assert set(totals) <= labels | {"garbage collection"}
    assert sum(totals.values()) <= look * 1.05  # parts lie inside the looks
