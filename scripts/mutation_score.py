"""The mutation score per module from the last ``mutmut run`` (``make mutation``).

Reads ``mutmut results --all true`` (one ``name: status`` line per mutant) and prints, per
mutated module, how many mutants were killed (a test failed, or the mutant hung and timed
out), survived (every test passed) or met no test, and the score killed / mutants.

    .venv/bin/python scripts/mutation_score.py [--survivors]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

LINE = re.compile(r"^\s*(?P<name>[\w.]+?)\.x(?:ǁ\w+ǁ)?\w*?__mutmut_\d+: (?P<status>[\w ]+)$")
KILLED = {"killed", "timeout"}


def parse(text: str) -> dict[str, Counter[str]]:
    """Status counts per module from the lines of ``mutmut results --all true``."""
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    for line in text.splitlines():
        found = LINE.match(line)
        if found:
            by_module[found["name"]][found["status"].strip()] += 1
    return dict(by_module)


def table(by_module: dict[str, Counter[str]]) -> str:
    """One row per module: mutants, killed, survived, no tests, other, score."""
    rows = [
        "module | mutants | killed | survived | no tests | other | score",
        "---|---|---|---|---|---|---",
    ]
    for module, counts in sorted(by_module.items()):
        total = sum(counts.values())
        killed = sum(counts[s] for s in KILLED)
        survived, untested = counts["survived"], counts["no tests"]
        other = total - killed - survived - untested
        score = f"{100 * killed / total:.1f}%" if total else "-"
        rows.append(f"{module} | {total} | {killed} | {survived} | {untested} | {other} | {score}")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--survivors", action="store_true", help="also list every survivor")
    args = parser.parse_args()
    mutmut = Path(sys.executable).with_name("mutmut")
    done = subprocess.run(
        [str(mutmut), "results", "--all", "true"], capture_output=True, text=True, check=True
    )
    print(table(parse(done.stdout)))
    if args.survivors:
        for line in done.stdout.splitlines():
            if line.strip().endswith(("survived", "no tests")):
                print(line.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
