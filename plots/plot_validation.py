#!/usr/bin/env python3
"""Draws a numacoll validation folder: latency over vector size, and timelines.

Usage: python3 plots/plot_validation.py DIR      (or: numacoll plot DIR)

Reads DIR/validation.csv (written by `numacoll validate`) and writes
DIR/latency.png: log-log latency over vector size, one panel per algorithm,
with the measured median and its p10-p90 band, the simulation, and the
paper's closed-form model, as in Figures 18 and 21 of HPDC'13.

If DIR/trace-simulated.csv and DIR/trace-measured.csv exist, it also writes
DIR/gantt.png: the simulated and measured timelines of one run, one row per
thread, one bar per task, coloured by kind.

Needs only Debian's python3-matplotlib.
"""

import csv
import os
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

KIND_COLOURS = {"reduce": "tab:orange", "copy": "tab:blue", "flag": "tab:gray", "net": "tab:green", "compute": "tab:purple", "wait": "tab:olive"}


def human_bytes(value, _position=None):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= size:
            return f"{value / size:g} {unit}"
    return f"{value:g} B"


def read_rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def plot_latency(folder):
    rows = read_rows(os.path.join(folder, "validation.csv"))
    if not rows:
        raise SystemExit(f"{folder}/validation.csv has no rows")
    groups = {}
    for row in rows:
        groups.setdefault((row["collective"], row["algorithm"], row["ranks"]), []).append(row)
    figure, axes = plt.subplots(1, len(groups), figsize=(6.5 * len(groups), 4.8), squeeze=False)
    for axis, ((collective, algorithm, ranks), group) in zip(axes[0], sorted(groups.items())):
        group.sort(key=lambda row: int(row["bytes"]))
        sizes = [max(int(row["bytes"]), 1) for row in group]
        micro = lambda key: [float(row[key]) / 1000 for row in group]  # noqa: E731
        axis.fill_between(sizes, micro("measured_p10_ns"), micro("measured_p90_ns"), color="tab:blue", alpha=0.2,
                          label="measured p10-p90")
        axis.plot(sizes, micro("measured_median_ns"), "o-", color="tab:blue", label="measured median")
        axis.plot(sizes, micro("simulated_ns"), "s--", color="tab:red", label="simulated (SimGrid)")
        modelled = [row for row in group if row["model_ns"]]
        if modelled:
            axis.plot([max(int(row["bytes"]), 1) for row in modelled], [float(row["model_ns"]) / 1000 for row in modelled],
                      "^:", color="tab:green", label="model (HPDC'13 eq. 5)")
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        axis.xaxis.set_major_formatter(FuncFormatter(human_bytes))
        axis.tick_params(axis="x", labelrotation=45)
        axis.set_xlabel("vector size per rank")
        axis.set_ylabel("latency (µs)")
        axis.set_title(f"{collective} {algorithm}, {ranks} threads")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    provenance = rows[0].get("provenance", "")
    figure.suptitle("\n".join(textwrap.wrap(f"numacoll validate: {provenance}", 110)), fontsize=7)
    return save_figure(figure, folder, "latency.png", top=0.95)


def save_figure(figure, folder, name, top):
    """Lays the figure out below its suptitle/legend band, writes it and returns its path."""
    figure.tight_layout(rect=(0, 0, 1, top))
    path = os.path.join(folder, name)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def plot_gantt(folder):
    sources = [("simulated", os.path.join(folder, "trace-simulated.csv")),
               ("measured", os.path.join(folder, "trace-measured.csv"))]
    if not all(os.path.exists(path) for _, path in sources):
        return None
    figure, axes = plt.subplots(1, 2, figsize=(14, 5), sharey=True)
    for axis, (name, path) in zip(axes, sources):
        rows = read_rows(path)
        if not rows:
            continue
        first = rows[0]
        for row in rows:
            start, end = float(row["start_ns"]) / 1000, float(row["end_ns"]) / 1000
            axis.barh(int(row["thread"]), max(end - start, 1e-4), left=start, height=0.7,
                      color=KIND_COLOURS.get(row["kind"], "black"))
        axis.set_title(f"{name}: {first['collective']} {first['algorithm']} {human_bytes(int(first['bytes']))}")
        axis.set_xlabel("time since the start (µs)")
        axis.grid(True, axis="x", alpha=0.3)
    threads = sorted({int(row["thread"]) for _, path in sources for row in read_rows(path)})
    axes[0].set_yticks(threads if len(threads) <= 32 else threads[:: max(1, len(threads) // 16)])
    axes[0].set_ylabel("thread")
    axes[0].invert_yaxis()
    handles = [plt.Rectangle((0, 0), 1, 1, color=colour) for colour in KIND_COLOURS.values()]
    figure.legend(handles, KIND_COLOURS.keys(), loc="upper right", ncol=len(KIND_COLOURS))
    return save_figure(figure, folder, "gantt.png", top=0.93)


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    folder = argv[1]
    if not os.path.exists(os.path.join(folder, "validation.csv")):
        print(f"plot_validation: no validation.csv in '{folder}' (run numacoll validate -o {folder} first)", file=sys.stderr)
        return 2
    for path in (plot_latency(folder), plot_gantt(folder)):
        if path:
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
