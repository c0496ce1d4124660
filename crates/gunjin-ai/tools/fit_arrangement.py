#!/usr/bin/env python3
"""Fits the levels' arrangement table (crates/gunjin-ai/src/deploy.rs) to arena games.

Usage:
  gunjin arena --a greedy --b greedy --games 10000 --seed 101 --brier-every 0 --deployments > gg.txt
  python3 fit_arrangement.py gg.txt [more.txt ...] > table.rs

Each game gives one sample: its result for sente (1, 0.5 for a draw, 0) against the difference
between sente's and gote's placement counts (each kind on each of twelve places: row 1-4 from
the own back row by file, edge a/f, bridge b/e, centre c/d with the headquarters; and the kind
standing behind the flag). A logistic regression with an L2 penalty (Newton's method) gives each
count's worth in thousandths of a logit. It prints the held-out log loss (one pair of games in
five, against the intercept alone) on stderr and the Rust table on stdout. Needs numpy.
"""
import re
import sys

import numpy as np

# Kind::ALL's order in crates/gunjin/src/kind.rs.
KINDS = ["general", "lieutenant_general", "major_general", "colonel", "lieutenant_colonel",
         "major", "captain", "lieutenant", "second_lieutenant", "cavalry", "engineer", "tank",
         "plane", "spy", "mine", "flag"]
INDEX = {k: i for i, k in enumerate(KINDS)}
PLACES = 12
FEATURES = len(KINDS) * PLACES + len(KINDS) + 1
PENALTY = 100.0


def square(name, side):
    """(row from the own back row 1-4, file class 0-2, column letters, board row)."""
    m = re.fullmatch(r"([a-f]+)(\d)", name)
    cols, row = m.group(1), int(m.group(2))
    relative = row if side == "sente" else 9 - row
    col = "abcdef".index(cols[0]) if len(cols) == 1 else 2
    return relative, min(col, 5 - col), cols, row


def counts(listed, side):
    x = np.zeros(FEATURES)
    kinds = dict(item.split("=") for item in listed.split(","))
    for name, kind in kinds.items():
        relative, file, cols, row = square(name, side)
        x[INDEX[kind] * PLACES + (relative - 1) * 3 + file] += 1
        if kind == "flag":
            behind = None
            if relative > 1:
                back = row - 1 if side == "sente" else row + 1
                hq = back in (1, 8) and cols in ("c", "d")
                behind = kinds.get(f"cd{back}" if hq else f"{cols}{back}")
            x[len(KINDS) * PLACES + (INDEX[behind] if behind else len(KINDS))] += 1
    return x


def load(paths):
    xs, ys, results = [], [], {}
    for path in paths:
        results.clear()
        for line in open(path, encoding="utf-8"):
            m = re.match(r"game (\d+): \S+ as \S+ vs \S+ — (Won \{ winner: (\w+)|Draw)", line)
            if m:
                won = m.group(3)
                results[int(m.group(1))] = 0.5 if won is None else float(won == "Sente")
                continue
            m = re.match(r"deploy (\d+) sente (\S+) gote (\S+)", line)
            if m:
                xs.append(counts(m.group(2), "sente") - counts(m.group(3), "gote"))
                ys.append(results[int(m.group(1))])
    return np.array(xs), np.array(ys)


def fit(x, y, penalty):
    xb = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(xb.shape[1])
    reg = penalty * np.eye(xb.shape[1])
    reg[0, 0] = 0.0
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-xb @ w))
        grad = xb.T @ (p - y) + reg @ w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + reg
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(w, x, y):
    xb = np.hstack([np.ones((len(x), 1)), x])
    p = np.clip(1.0 / (1.0 + np.exp(-xb @ w)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(paths):
    x, y = load(paths)
    held = (np.arange(len(y)) // 2) % 5 == 0
    plain = fit(x[~held][:, :0], y[~held], 1.0)
    w = fit(x[~held], y[~held], PENALTY)
    print(f"{len(y)} games; held-out log loss {log_loss(w, x[held], y[held]):.4f} "
          f"against {log_loss(plain, x[held][:, :0], y[held]):.4f} for the intercept",
          file=sys.stderr)
    w = fit(x, y, PENALTY)
    milli = np.rint(w[1:] * 1000).astype(int)
    print(f"const PLACE_WORTH: [[i16; {PLACES}]; 16] = [")
    for i, kind in enumerate(KINDS):
        row = ", ".join(str(v) for v in milli[i * PLACES:(i + 1) * PLACES])
        print(f"    [{row}], // {kind}")
    print("];")
    backing = ", ".join(str(v) for v in milli[len(KINDS) * PLACES:])
    print(f"const FLAG_BACKING_WORTH: [i16; 17] = [{backing}];")


if __name__ == "__main__":
    main(sys.argv[1:])
