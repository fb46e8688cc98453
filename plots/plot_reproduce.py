#!/usr/bin/env python3
"""Draws the figures of a `numacoll reproduce` folder: one PNG per figure in
DIR/figures.csv, the simulated series as lines, the paper's values from
DIR/figure_marks.csv as dashed lines. Prints the path of every PNG. The
pictures are put in place together once all are drawn; a CSV that cannot
be read gives one line and exit status 2.

Usage: plot_reproduce.py DIR [OUT]   (the pictures go into OUT when given)
"""
import csv
import os
import sys
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from picture_set import fitted, mark_coinciding, open_input, place_legend, run_script  # noqa: E402


def read_figures(folder):
    figures = OrderedDict()
    with open_input(os.path.join(folder, "figures.csv")) as handle:
        for row in csv.DictReader(handle):
            figure = figures.setdefault(row["figure"], {"meta": row, "series": OrderedDict(), "marks": []})
            series = figure["series"].setdefault(row["series"], ([], []))
            series[0].append(float(row["x"]))
            series[1].append(float(row["y"]))
    marks_path = os.path.join(folder, "figure_marks.csv")
    if os.path.exists(marks_path):
        with open_input(marks_path) as handle:
            for row in csv.DictReader(handle):
                if row["figure"] in figures:
                    figures[row["figure"]]["marks"].append(row)
    return figures


def draw(folder, figures, pictures):
    paths = []
    for name, figure in figures.items():
        meta = figure["meta"]
        fig, axes = plt.subplots(figsize=(7, 4.5))
        for label, (xs, ys) in figure["series"].items():
            axes.plot(xs, ys, marker="o", markersize=3, label=label)
        claims = [mark["label"] for mark in figure["marks"] if mark["axis"] == "c"]
        for mark in figure["marks"]:
            value = float(mark["value"])
            if mark["axis"] == "c":
                continue
            if mark["axis"] == "x":
                axes.axvline(value, color="black", linestyle="--", linewidth=1, label="paper: " + mark["label"])
            else:
                axes.axhline(value, color="gray", linestyle="--", linewidth=1, label="paper: " + mark["label"])
        if meta["log_x"] == "1":
            axes.set_xscale("log", base=2)
            xs = {x for series_xs, _ in figure["series"].values() for x in series_xs}
            if len(xs) == 1:  # a log axis around one point spans a factor of four, not a sliver
                axes.set_xlim(min(xs) / 2, min(xs) * 2)
        if meta["log_y"] == "1":
            axes.set_yscale("log")
        title = fitted(meta["title"] + " (simulated)", 0.9 * fig.get_size_inches()[0])
        if claims:  # the title above, and under it the paper's finding in words
            fig.suptitle(title)
            axes.set_title(fitted("paper, " + claims[0], 0.95 * fig.get_size_inches()[0], 8), fontsize=8, color="0.25")
        else:
            axes.set_title(title)
        axes.set_xlabel(meta["x_label"])
        axes.set_ylabel(meta["y_label"])
        axes.grid(True, which="both", alpha=0.3)
        mark_coinciding(axes)
        place_legend(axes, fontsize=8)
        fig.tight_layout()
        paths.append(pictures.save(fig, os.path.join(folder, name + ".png"), dpi=110))
        plt.close(fig)
    return paths


if __name__ == "__main__":
    sys.exit(run_script("plot_reproduce", __doc__, read_figures, draw, sys.argv))
