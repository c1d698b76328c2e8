"""The link's delivery benchmark measures the real engine and session: on a clean line
every event is sent once; at 5 % lost and 1 % corrupted frames nothing is lost or doubled
and the hub sends at most 1.2 event frames per event delivered."""

from benchmarks.bench_link import deliver


def test_a_clean_line_sends_every_event_once() -> None:
    run = deliver(drops=10, lost=0.0, corrupted=0.0)
    assert run.delivered == run.events > 300
    assert run.event_frames == run.events  # no timer fires while an ack is on its way
    assert run.latency(0.95) < 0.003


def test_a_faulty_line_loses_and_doubles_nothing_and_repeats_little() -> None:
    run = deliver(drops=30, seed=1)
    assert run.lost == 0 and run.doubled == 0
    assert run.frames_per_event <= 1.2
    assert run.latency(0.5) < 0.002
