#!/usr/bin/env python3
"""Draws the pictures of a `numacoll tune` folder: one PNG per collective in
DIR/selection.csv (tune-COLLECTIVE.png), a map of the winning algorithm
over message size (x) and communicator shape (y), each cell coloured by
the winner's margin over the next best algorithm (how much choosing it is
worth) and labelled with its name. Prints the path of every PNG. The
pictures are put in place together once all are drawn; a CSV that cannot
be read gives one line and exit status 2.

Usage: plot_tune.py DIR [OUT]   (the pictures go into OUT when given)
"""
import csv
import os
import sys
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import colors  # noqa: E402

from picture_set import fitted, open_input, run_script, size_label  # noqa: E402


def read_rows(folder):
    collectives = OrderedDict()
    with open_input(os.path.join(folder, "selection.csv")) as handle:
        for row in csv.DictReader(handle):
            table = collectives.setdefault(row["collective"], [])
            table.append({
                "shape": (int(row["nodes"]), int(row["ranks_per_node"])),
                "bytes": int(row["bytes"]),
                "algorithm": row["algorithm"],
                "margin": float(row["margin"]) if row["margin"] else None,
            })
    return collectives


def draw(folder, collectives, pictures):
    paths = []
    for collective, rows in collectives.items():
        shapes = sorted({row["shape"] for row in rows})
        sizes = sorted({row["bytes"] for row in rows})
        grid = [[float("nan")] * len(sizes) for _ in shapes]
        labels = {}
        for row in rows:
            y, x = shapes.index(row["shape"]), sizes.index(row["bytes"])
            grid[y][x] = 100.0 * row["margin"] if row["margin"] is not None else float("nan")
            labels[(y, x)] = row["algorithm"]
        fig, axes = plt.subplots(figsize=(max(6.0, 0.55 * len(sizes) + 2.5), max(2.5, 0.6 * len(shapes) + 1.6)))
        finite = [value for line in grid for value in line if value == value]
        top = max(finite) if finite else 1.0
        # A square-root scale: margins of a few percent stay apart from zero
        # even where one shape has margins of several hundred.
        image = axes.imshow(grid, aspect="auto", cmap="viridis", origin="lower",
                            norm=colors.PowerNorm(gamma=0.5, vmin=0.0, vmax=max(top, 1.0)))
        for (y, x), name in labels.items():
            axes.text(x, y, name, ha="center", va="center", fontsize=6, rotation=90 if len(sizes) > 8 else 0,
                      color="white")
        axes.set_xticks(range(len(sizes)))
        axes.set_xticklabels([size_label(size) for size in sizes], rotation=60, fontsize=7)
        axes.set_yticks(range(len(shapes)))
        axes.set_yticklabels([f"{nodes} x {per_node} ({nodes * per_node})" for nodes, per_node in shapes], fontsize=7)
        axes.set_xlabel("bytes per rank (numacoll's sizes)")
        axes.set_ylabel("nodes x ranks per node (ranks)")
        axes.set_title(fitted(f"{collective}: fastest algorithm, coloured by its margin over the next best",
                              0.8 * fig.get_size_inches()[0]))
        bar = fig.colorbar(image, ax=axes)
        bar.set_label("margin over the runner-up (%)")
        fig.tight_layout()
        paths.append(pictures.save(fig, os.path.join(folder, f"tune-{collective}.png"), dpi=110))
        plt.close(fig)
    return paths


if __name__ == "__main__":
    sys.exit(run_script("plot_tune", __doc__, read_rows, draw, sys.argv))
