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

from picture_set import fitted, open_input, run_script  # noqa: E402

# The columns after the varied keys (which come first, before "machine";
# "nodes" is among the keys when the node count is varied).
FIXED = ("machine", "ranks", "first_best", "crossover_bytes", "then_best", "best_at_largest", "bands")


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
            crossover[y][x] = math.log2(int(row["crossover_bytes"]))
        # Every band of the cell: "tree to 128B", ..., the last "ring from 128KiB".
        bands = [band.strip() for band in row["bands"].split(";") if band.strip()]
        lines = []
        for number, band in enumerate(bands):
            name, sizes = band.rsplit(" ", 1)
            first, last = sizes.split("-") if "-" in sizes else (sizes, sizes)
            lines.append(f"{name} throughout" if len(bands) == 1 else f"{name} from {first}" if number else
                         f"{name} to {last}")
        crossover_text[(y, x)] = "\n".join(lines) if lines else f"{row['first_best']}\nthroughout"
        if row["best_at_largest"]:
            best[y][x] = algorithms.index(row["best_at_largest"])
            best_text[(y, x)] = row["best_at_largest"]
    # Cells wide and tall enough for their longest band list at 7 points.
    texts = list(crossover_text.values())
    longest = max((len(line) for text in texts for line in text.split("\n")), default=10)
    most_lines = max((text.count("\n") + 1 for text in texts), default=1)
    cell_width, cell_height = longest * 7 * 0.6 / 72 + 0.3, most_lines * 7 * 1.35 / 72 + 0.3
    fig, (left, right) = plt.subplots(1, 2, figsize=(max(9.0, 2 * cell_width * len(xs) + 3.5),
                                                     max(3.2, cell_height * len(ys) + 2)))
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
    bar.set_label("first crossover (log2 bytes)")
    left.set_title("the best algorithm per band of sizes")
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
    # The collective and params are in the stamp's line (NUMACOLL_PLOT_PROVENANCE) and named here too.
    subject = os.environ.get("NUMACOLL_PLOT_SUBJECT", "")
    fig.suptitle(fitted(f"what if: {', '.join(keys)}{': ' + subject if subject else ''} ({rows[0]['ranks']} ranks on "
                        "the first machine)", 0.9 * fig.get_size_inches()[0]))
    fig.tight_layout()
    path = pictures.save(fig, os.path.join(folder, "whatif.png"), dpi=110)
    plt.close(fig)
    return [path]


if __name__ == "__main__":
    sys.exit(run_script("plot_whatif", __doc__, read_map, draw, sys.argv))
