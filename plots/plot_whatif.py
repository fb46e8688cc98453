#!/usr/bin/env python3
"""Draws the map of a `numacoll whatif` folder (whatif.png): for the one or
two varied keys of DIR/whatif-map.csv, two heat maps side by side: the
crossover size (the first size at which the best algorithm at the smallest
size stops being best; blank where one algorithm wins everywhere) and the
best algorithm at the largest size, one colour per algorithm, each cell
labelled. Prints the path of the PNG. The picture is put in place once
drawn; a CSV that cannot be read gives one line and exit status 2.

Usage: plot_whatif.py DIR [OUT]   (the pictures go into OUT when given)
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import colors  # noqa: E402

from picture_set import open_input, run_script, size_label  # noqa: E402

# The columns after the varied keys (which come first, before "machine";
# "nodes" is among the keys when the node count is varied).
FIXED = ("machine", "ranks", "first_best", "crossover_bytes", "then_best", "best_at_largest")


def read_map(folder):
    with open_input(os.path.join(folder, "whatif-map.csv")) as handle:
        reader = csv.DictReader(handle)
        names = reader.fieldnames or []
        keys = names[:names.index("machine")] if "machine" in names else []
        rows = list(reader)
    if not keys or not rows:
        raise ValueError("whatif-map.csv holds no varied key or no machine")
    for row in rows:
        for name in FIXED:
            row[name]  # a missing column is a KeyError, reported as such
    return keys, rows


def ordered(values):
    """Values in numeric order when they are numbers, else as first seen."""
    try:
        return sorted(set(values), key=float)
    except ValueError:
        return list(dict.fromkeys(values))


def draw(folder, data, pictures):
    keys, rows = data
    x_key = keys[-1]
    y_key = keys[0] if len(keys) == 2 else None
    xs = ordered([row[x_key] for row in rows])
    ys = ordered([row[y_key] for row in rows]) if y_key else [""]
    crossover = [[float("nan")] * len(xs) for _ in ys]
    crossover_text, best_text = {}, {}
    algorithms = sorted({row["best_at_largest"] for row in rows if row["best_at_largest"]})
    best = [[float("nan")] * len(xs) for _ in ys]
    for row in rows:
        y = ys.index(row[y_key]) if y_key else 0
        x = xs.index(row[x_key])
        if row["crossover_bytes"]:
            size = int(row["crossover_bytes"])
            crossover[y][x] = math.log2(size)
            crossover_text[(y, x)] = f"{row['first_best']}\n→ {row['then_best']}\n@ {size_label(size)}"
        else:
            crossover_text[(y, x)] = f"{row['first_best']}\nthroughout"
        if row["best_at_largest"]:
            best[y][x] = algorithms.index(row["best_at_largest"])
            best_text[(y, x)] = row["best_at_largest"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(max(9.0, 2.4 * len(xs) + 3), max(3.2, 1.1 * len(ys) + 2)))
    finite = [value for line in crossover for value in line if value == value]
    image = left.imshow(crossover, aspect="auto", origin="lower", cmap="viridis",
                        vmin=min(finite) if finite else 0, vmax=max(finite) if finite else 1)
    low, high = (min(finite), max(finite)) if finite else (0.0, 1.0)
    for (y, x), text in crossover_text.items():
        value = crossover[y][x]
        # Dark text on the bright end of viridis and on blank cells.
        bright = value != value or (high > low and (value - low) / (high - low) > 0.6)
        left.text(x, y, text, ha="center", va="center", fontsize=7, color="black" if bright else "white")
    bar = fig.colorbar(image, ax=left)
    bar.set_label("crossover size (log2 bytes)")
    left.set_title("where the best algorithm changes")
    palette = plt.get_cmap("tab10")
    right.imshow(best, aspect="auto", origin="lower", cmap=colors.ListedColormap([palette(i % 10) for i in range(max(1, len(algorithms)))]),
                 vmin=-0.5, vmax=max(1, len(algorithms)) - 0.5)
    for (y, x), text in best_text.items():
        right.text(x, y, text, ha="center", va="center", fontsize=8, color="white")
    right.set_title("best algorithm at the largest size")
    for axes in (left, right):
        axes.set_xticks(range(len(xs)))
        axes.set_xticklabels(xs)
        axes.set_xlabel(x_key)
        axes.set_yticks(range(len(ys)))
        axes.set_yticklabels(ys)
        axes.set_ylabel(y_key or "")
    fig.suptitle(f"what if: {', '.join(keys)} ({rows[0]['ranks']} ranks on the first machine)")
    fig.tight_layout()
    path = pictures.save(fig, os.path.join(folder, "whatif.png"), dpi=110)
    plt.close(fig)
    return [path]


if __name__ == "__main__":
    sys.exit(run_script("plot_whatif", __doc__, read_map, draw, sys.argv))
