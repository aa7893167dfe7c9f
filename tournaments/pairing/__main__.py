"""python -m tournaments.pairing FILE.json  -> prints the pairing JSON (exit 2 on bad input)."""

from __future__ import annotations

import json
import sys

from .io import pair_round_json
from .model import NoValidPairing, PairingError


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tournaments.pairing FILE.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        print(f"error: cannot read {args[0]}: {exc.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as exc:
        print(f"error: {args[0]} is not valid JSON: {exc}", file=sys.stderr)
        return 2
    try:
        out = pair_round_json(data)
    except NoValidPairing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except PairingError as exc:
        print(f"error: malformed pairing file {args[0]}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
