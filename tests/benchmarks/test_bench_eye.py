"""The eye's benchmark keeps timing the eye's real entry points (it broke once silently
when the look was split into begin and settle)."""

from benchmarks.bench_eye import PARTS, bound_beside, split


def test_the_split_times_whole_looks_and_their_parts_inside_them() -> None:
    totals = split("clean", 3)

    look = totals.pop("look")
    assert look > 0.0
    labels = {label for _, _, label in PARTS}
    assert "stepping the candidates (Chipmunk)" in totals
    assert set(totals) <= labels | {"garbage collection"}
    assert sum(totals.values()) <= look * 1.05  # parts lie inside the looks


def test_the_bound_beside_the_eye_asks_on_the_share_given() -> None:
    everything = bound_beside("realistic", 6, 1.0)
    nothing = bound_beside("realistic", 6, 0.0)

    assert everything[:2] == (0.0, 0.0)  # every drop asked: nothing decided wrong
    assert nothing[0] >= everything[0] and nothing[1] >= everything[1]
    assert all(0.0 <= share <= 1.0 for share in (*everything, *nothing))
