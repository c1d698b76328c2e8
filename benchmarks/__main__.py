"""Run every benchmark module (or those named on the command line) and print their figures."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks


def main(args: list[str]) -> None:
    """Run ``benchmarks.bench_<name>`` for each name given, or all of them; options after
    the names (``eye_bound --drops 100``) are left in ``sys.argv`` for the benchmark."""
    first = next((i for i, arg in enumerate(args) if arg.startswith("-")), len(args))
    names, sys.argv[1:] = args[:first], args[first:]
    found = sorted(
        m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )
    chosen = [f"bench_{n.removeprefix('bench_')}" for n in names] or found
    for name in chosen:
        if name not in found:
            sys.exit(f"no benchmark {name!r}; there are: {', '.join(found)}")
        print(f"== {name}")
        importlib.import_module(f"benchmarks.{name}").main()


if __name__ == "__main__":
    main(sys.argv[1:])
