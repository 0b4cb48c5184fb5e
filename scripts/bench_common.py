"""Timing shared by the bench scripts: sides of an A/B comparison run interleaved
(A, B, A, B, ...), so load that drifts during a run lands on both sides instead of
showing up as a ratio; each side is reported as median, min and max."""
import statistics
import time


def interleaved(sides, runs):
    """`sides`: {name: callable}. Calls each in turn `runs` times; returns {name: [seconds]}."""
    times = {name: [] for name in sides}
    for _ in range(runs):
        for name, run in sides.items():
            t = time.monotonic()
            run()
            times[name].append(time.monotonic() - t)
    return times


def summary(times, unit="s"):
    """`median 1.23s (min 1.20, max 1.30, n=5)`, or in ms with unit="ms"."""
    scale = 1000 if unit == "ms" else 1
    fmt = (lambda v: f"{v * scale:.0f}") if unit == "ms" else (lambda v: f"{v:.2f}")
    return (f"median {fmt(statistics.median(times))}{unit} "
            f"(min {fmt(min(times))}, max {fmt(max(times))}, n={len(times)})")


def ratio(times, a, b):
    return statistics.median(times[a]) / statistics.median(times[b])
