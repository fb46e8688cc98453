#!/usr/bin/env python3
"""Every kind of picture numacoll draws fits its canvas, keeps its legends
off its data and says what produced it.

First the check itself, on figures made to fail it (plots/picture_set.py's
layout_problems, matplotlib's own layout boxes): a title wider than its
canvas, a legend over a data point, a colour bar label cut off; a stamped
figure carries its line inside the canvas. Then every picture-drawing
command, with NUMACOLL_PLOT_CHECK_LAYOUT=1 (a picture that fails the check
fails its command): tune maps, a whatif map, every reproduce figure, the
overlap plot, and validate's latency, compare, error, best and gantt
pictures.

Usage: figure_layout_test.py NUMACOLL PLOTS_DIR
"""
import os
import subprocess
import sys
import tempfile

numacoll, plots_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, plots_dir)
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import picture_set  # noqa: E402

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


# The check finds what it is for.
figure, axes = plt.subplots(figsize=(3, 2))
axes.plot([1, 2], [1, 2])
axes.set_title("a title far wider than the three inches of this little figure's canvas")
figure.tight_layout()
problems = picture_set.layout_problems(figure)
expect(any("reaches outside the canvas" in p for p in problems), f"a title past the edge is not found: {problems}")
plt.close(figure)

figure, axes = plt.subplots(figsize=(5, 4))
axes.plot([k / 10 for k in range(31)], [k / 10 for k in range(31)], label="rising")
axes.legend(loc="center")  # the middle of the line sits under it
figure.tight_layout()
problems = picture_set.layout_problems(figure)
expect(any("covers a point of 'rising'" in p for p in problems), f"a legend over data is not found: {problems}")
picture_set.place_legend(axes)
figure.tight_layout()
expect(picture_set.layout_problems(figure) == [], "place_legend left the legend over the data")
plt.close(figure)

# A legend placed before the layout changes (tight_layout, the stamp) is placed again where it then hides data.
figure, axes = plt.subplots(figsize=(4, 3))
axes.plot([0, 1], [0, 0], label="floor")
axes.set_xlim(0, 1)
axes.set_ylim(0, 1)
legend = picture_set.place_legend(axes)
figure.canvas.draw()
legend_bottom = axes.transAxes.inverted().transform(legend.get_window_extent(figure.canvas.get_renderer()))[0][1]
axes.plot([0.15], [legend_bottom - 0.03], "o", label="just below the legend")
box = axes.get_position()
axes.set_position([box.x0, box.y0, box.width, box.height * 0.6])  # as a later layout shrinks it
expect(picture_set.layout_problems(figure) != [], "a shrunk axes does not bring the point under the legend")
picture_set.settle_legends(figure)
expect(picture_set.layout_problems(figure) == [], "settle_legends left the legend over the data")
plt.close(figure)

figure, axes = plt.subplots(figsize=(4, 3))  # every corner covered: the legend goes beside the axes
axes.plot([x / 10 for x in range(11) for _ in range(11)], [y / 10 for _ in range(11) for y in range(11)], "o",
          label="a grid of points")
figure.tight_layout()
figure.canvas.draw()
before = axes.get_window_extent(figure.canvas.get_renderer()).width
picture_set.place_legend(axes)
after = axes.get_window_extent(figure.canvas.get_renderer()).width
problems = picture_set.layout_problems(figure)
expect(problems == [] and abs(before - after) < 1, f"a legend beside the axes: {problems}, width {before} -> {after}")
plt.close(figure)

figure, axes = plt.subplots(figsize=(4, 3))
image = axes.imshow([[0, 1], [2, 3]])
bar = figure.colorbar(image, ax=axes)
bar.set_label("a colour bar label")
figure.subplots_adjust(left=0.1, right=0.99)  # no room for the bar's label
expect(picture_set.layout_problems(figure) != [], "a cut colour bar label is not found")
plt.close(figure)

figure, axes = plt.subplots(figsize=(4, 3))
axes.plot([1, 2, 3], [1, 4, 9], label="a")
axes.plot([1, 2, 3], [1, 4, 9.001], label="b")
axes.plot([1, 2, 3], [2, 5, 10], label="c")
picture_set.mark_coinciding(axes)
labels = [line.get_label() for line in axes.get_lines()]
expect(labels == ["a", "b (= a)", "c"], f"coinciding curves are not marked: {labels}")
figure.tight_layout()
picture_set.stamp(figure, "numacoll 0.0.0 (test) · sim engine · a machine with a long name · params somewhere")
expect(picture_set.layout_problems(figure) == [], "the stamp lies outside the canvas")
expect(any("params somewhere" in text.get_text() for text in figure.texts), "the stamp is not on the figure")
plt.close(figure)

# Every picture-drawing command, checked as it draws.
environment = dict(os.environ, NUMACOLL_PLOT_CHECK_LAYOUT="1")
with tempfile.TemporaryDirectory() as scratch:
    commands = [
        ["tune", "-t", "westmere", "-c", "allreduce,barrier", "--nodes", "1,2", "--bytes", "8,64KiB"],
        ["tune", "-t", "westmere", "-c", "bcast", "--nodes", "1,2,4,8", "--bytes", "8B:16MiB", "-a",
         "binomial,pipeline,tree"],
        ["whatif", "-t", "synthetic:Package:1 NUMANode:1 L3Cache:2 Core:4", "--params", "generic", "--vary",
         "llc_per_package=1,2", "--vary", "cores_per_llc=2,4", "-c", "allreduce", "--bytes", "8,64KiB,1MiB"],
        ["reproduce"],
        ["overlap", "-c", "allreduce", "-a", "tree,tiled", "--bytes", "8,64KiB"],
        ["validate", "-t", "live", "-a", "tree,dissemination", "--bytes", "64,64KiB", "-n", "3"],
    ]
    for number, command in enumerate(commands):
        folder = os.path.join(scratch, f"run{number}")
        run = subprocess.run([numacoll] + command + ["-q", "-o", folder], env=environment, capture_output=True,
                             text=True, timeout=600)
        pictures = [name for name in os.listdir(folder) if name.endswith(".png")] if os.path.isdir(folder) else []
        expect(run.returncode == 0 and (pictures or command[0] == "validate"),
               f"numacoll {' '.join(command)}: exit {run.returncode}, {len(pictures)} pictures: {run.stderr.strip()}")
    plot = subprocess.run([numacoll, "plot", os.path.join(scratch, "run5")], env=environment, capture_output=True,
                          text=True, timeout=600)
    expect(plot.returncode == 0 and "gantt-" in plot.stdout and "best-allreduce" in plot.stdout,
           f"numacoll plot: exit {plot.returncode}: {plot.stdout.strip()} {plot.stderr.strip()}")

for failure in failures:
    print(f"FAIL: {failure}")
print("figure layout test:", "passed" if not failures else f"{len(failures)} failed")
sys.exit(1 if failures else 0)
