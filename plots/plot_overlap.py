#!/usr/bin/env python3
"""Draws the overlap of a `numacoll overlap` folder (overlap.png): one panel
per collective and algorithm of DIR/overlap.csv, the overlap percentage
(OSU's definition) over the message size, one line per progress strategy
and test interval; simulated points as solid lines, measured ones (threads,
mpi) dashed. Prints the path of the PNG. The picture is put in place once
drawn; a CSV that cannot be read gives one line and exit status 2.

Usage: plot_overlap.py DIR [OUT]   (the pictures go into OUT when given)
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from picture_set import fitted, mark_coinciding, open_input, place_legend, run_script, size_label  # noqa: E402


def read_table(folder):
    with open_input(os.path.join(folder, "overlap.csv")) as handle:
        rows = list(csv.DictReader(handle))
    if not rows:
        raise ValueError("overlap.csv holds no point")
    for row in rows:
        row["bytes"] = int(row["bytes"])
        row["overlap_percent"] = float(row["overlap_percent"])
        for name in ("collective", "algorithm", "engine", "progress", "test_every", "ranks", "nodes"):
            row[name]  # a missing column is a KeyError, reported as such
    return rows


def draw(folder, rows, pictures):
    panels = list(dict.fromkeys((row["collective"], row["algorithm"]) for row in rows))
    columns = min(3, len(panels))
    lines_of = (len(panels) + columns - 1) // columns
    fig, axes = plt.subplots(lines_of, columns, figsize=(5.2 * columns, 3.8 * lines_of), squeeze=False)
    palette = plt.get_cmap("tab10")
    series = list(dict.fromkeys((row["progress"], row["test_every"]) for row in rows))
    for index, (collective, algorithm) in enumerate(panels):
        ax = axes[index // columns][index % columns]
        for engine in dict.fromkeys(row["engine"] for row in rows):
            for number, (progress, test_every) in enumerate(series):
                points = sorted((row["bytes"], row["overlap_percent"]) for row in rows
                                if (row["collective"], row["algorithm"], row["engine"], row["progress"],
                                    row["test_every"]) == (collective, algorithm, engine, progress, test_every))
                if not points:
                    continue
                tests = "no test" if test_every == "never" else f"test {test_every}"
                ax.plot([p[0] for p in points], [p[1] for p in points], color=palette(number % 10),
                        linestyle="-" if engine == "sim" else "--", marker="o" if engine == "sim" else "s",
                        markersize=3, label=f"{progress}, {tests} ({engine})")
        ax.set_xscale("log", base=2)
        sizes = sorted({row["bytes"] for row in rows})
        ticks = sizes[:: max(1, len(sizes) // 6)]
        ax.set_xticks(ticks)
        ax.set_xticklabels([size_label(size) for size in ticks])
        ax.set_ylim(-5, 105)
        ax.set_xlabel("message size per rank")
        ax.set_ylabel("overlap (%)")
        ax.set_title(f"{collective} {algorithm}")
        ax.grid(alpha=0.3)
        mark_coinciding(ax)
        place_legend(ax, fontsize=6)
    for index in range(len(panels), lines_of * columns):
        axes[index // columns][index % columns].axis("off")
    first = rows[0]
    fig.suptitle(fitted(f"overlap with computation as long as the collective: {first['ranks']} ranks on "
                        f"{first['nodes']} node(s)", 0.9 * fig.get_size_inches()[0]))
    fig.tight_layout()
    path = pictures.save(fig, os.path.join(folder, "overlap.png"), dpi=110)
    plt.close(fig)
    return [path]


if __name__ == "__main__":
    sys.exit(run_script("plot_overlap", __doc__, read_table, draw, sys.argv))
