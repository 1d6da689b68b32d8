#!/usr/bin/env python3
"""Write N node cards into DIR for the fleet benchmark and tests.

The cards are the repository's own plan fixtures (tests/fixtures/plan/cards)
with a unique hostname each; every 50th node gets an older driver on the
same branch, so the lab card has groups, outliers and nodes to report.
"""
import json
import pathlib
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: make-fleet-cards.py N DIR", file=sys.stderr)
        return 2
    n, out = int(sys.argv[1]), pathlib.Path(sys.argv[2])
    root = pathlib.Path(__file__).resolve().parent.parent
    templates = [
        json.loads(p.read_text())
        for p in sorted((root / "tests/fixtures/plan/cards").glob("*.json"))
    ]
    out.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        card = json.loads(json.dumps(templates[i % len(templates)]))
        card.setdefault("os", {})["hostname"] = {"value": f"node-{i:05d}", "source": "generated"}
        if i % 50 == 49 and card.get("nvidia", {}).get("kernel_module"):
            card["nvidia"]["kernel_module"]["value"] = "535.54.03"
            if card["nvidia"].get("driver_version"):
                card["nvidia"]["driver_version"]["value"] = "535.54.03"
            if card["nvidia"].get("cuda_max"):
                card["nvidia"]["cuda_max"]["value"] = "12.2"
        (out / f"node-{i:05d}.json").write_text(json.dumps(card))
    return 0


if __name__ == "__main__":
    sys.exit(main())
