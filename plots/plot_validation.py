#!/usr/bin/env python3
"""Draws a numacoll validation folder: latency over vector size, and timelines.

Usage: python3 plots/plot_validation.py DIR [OUT]   (or: numacoll plot DIR)

Reads DIR/validation.csv (written by `numacoll validate`) and writes
DIR/latency.png: log-log latency over vector size, one panel per algorithm,
with the measured median and its p10-p90 band, the simulation, and the
paper's closed-form model, as in Figures 18 and 21 of HPDC'13.

Per collective with two algorithms or more (COLL is its name):
DIR/compare-COLL.png, every algorithm over size, measured as lines with
their p10-p90 bands and simulated dashed; DIR/error-COLL.png, the relative
error of the simulation and of the model per algorithm over size; and
DIR/best-COLL.png, a strip of which algorithm is fastest at each size
according to the measurement, the simulation and the model.

If DIR/trace-simulated.csv and DIR/trace-measured.csv exist, it also writes
DIR/gantt-COLL-ALG.png per traced algorithm: its simulated and measured
timelines on one time axis, one row per thread, one bar per task, coloured
by kind.

The pictures of one run are put in place together, once all are drawn
(into OUT when it is given). A CSV that cannot be read gives one line and
exit status 2.

Needs only Debian's python3-matplotlib.
"""

import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

from picture_set import PictureSet, UnreadableInput, mark_coinciding, open_input, place_legend  # noqa: E402


PICTURES = None  # the run's PictureSet, made by main
PICTURE_PREFIXES = ("latency", "compare-", "error-", "best-", "gantt")


KIND_COLOURS = {"reduce": "tab:orange", "copy": "tab:blue", "flag": "tab:gray", "net": "tab:green", "compute": "tab:purple", "wait": "tab:olive"}


def human_bytes(value, _position=None):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= size:
            return f"{value / size:g} {unit}"
    return f"{value:g} B"


def read_rows(path):
    with open_input(path) as handle:
        return list(csv.DictReader(handle))


def widen_single_size(axis, sizes):
    """A log axis around one point spans a factor of four, not a sliver."""
    if sizes and len(set(sizes)) == 1:
        axis.set_xlim(sizes[0] / 2, sizes[0] * 2)


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
                      "^:", color="tab:green", label="model (closed form)")
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        widen_single_size(axis, sizes)
        axis.xaxis.set_major_formatter(FuncFormatter(human_bytes))
        axis.tick_params(axis="x", labelrotation=45)
        axis.set_xlabel("vector size per rank")
        axis.set_ylabel("latency (µs)")
        axis.set_title(f"{collective} {algorithm}, {ranks} threads")
        axis.grid(True, which="both", alpha=0.3)
        place_legend(axis)
    # What produced it is in the picture's stamp (NUMACOLL_PLOT_PROVENANCE).
    return save_figure(figure, folder, "latency.png", top=1.0)


def by_collective(rows):
    """{collective: {algorithm: rows sorted by size}}."""
    out = {}
    for row in rows:
        out.setdefault(row["collective"], {}).setdefault(row["algorithm"], []).append(row)
    for algorithms in out.values():
        for group in algorithms.values():
            group.sort(key=lambda row: int(row["bytes"]))
    return out


def size_axis(axis, sizes=()):
    axis.set_xscale("log", base=2)
    widen_single_size(axis, list(sizes))
    axis.xaxis.set_major_formatter(FuncFormatter(human_bytes))
    axis.tick_params(axis="x", labelrotation=45)
    axis.set_xlabel("vector size per rank")
    axis.grid(True, which="both", alpha=0.3)


def plot_comparisons(folder, rows):
    """compare-, error- and best- pictures for each collective with several algorithms."""
    pictures = []
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for collective, algorithms in sorted(by_collective(rows).items()):
        if len(algorithms) < 2:
            continue
        names = sorted(algorithms)
        colour = {name: colours[k % len(colours)] for k, name in enumerate(names)}
        # All algorithms over size.
        figure, axis = plt.subplots(figsize=(8, 5))
        for name in names:
            group = algorithms[name]
            sizes = [max(int(row["bytes"]), 1) for row in group]
            micro = lambda key: [float(row[key]) / 1000 for row in group]  # noqa: E731
            axis.fill_between(sizes, micro("measured_p10_ns"), micro("measured_p90_ns"), color=colour[name], alpha=0.15)
            axis.plot(sizes, micro("measured_median_ns"), "o-", color=colour[name], label=f"{name} measured")
            axis.plot(sizes, micro("simulated_ns"), "--", color=colour[name], label=f"{name} simulated")
        size_axis(axis, [max(int(row["bytes"]), 1) for group in algorithms.values() for row in group])
        axis.set_yscale("log")
        axis.set_ylabel("latency (µs)")
        axis.set_title(f"{collective}: algorithms compared (bands: measured p10-p90)")
        mark_coinciding(axis)
        place_legend(axis, fontsize=8)
        pictures.append(save_figure(figure, folder, f"compare-{collective}.png", top=1.0))
        # Relative errors.
        figure, axes = plt.subplots(1, len(names), figsize=(5 * len(names), 4), squeeze=False, sharey=True)
        for axis, name in zip(axes[0], names):
            group = algorithms[name]
            sizes = [max(int(row["bytes"]), 1) for row in group]
            axis.axhspan(-10, 10, color="tab:gray", alpha=0.15, label="within 10%")
            axis.plot(sizes, [100 * float(row["simulated_error"]) for row in group], "s--", color="tab:red", label="simulated")
            modelled = [row for row in group if row["model_error"]]
            if modelled:
                axis.plot([max(int(row["bytes"]), 1) for row in modelled], [100 * float(row["model_error"]) for row in modelled],
                          "^:", color="tab:green", label="model")
            size_axis(axis, sizes)
            axis.set_title(f"{collective} {name}")
            axis.axhline(0, color="black", linewidth=0.8)
        axes[0][0].set_ylabel("(predicted - measured) / measured (%)")
        place_legend(axes[0][0], fontsize=8)
        pictures.append(save_figure(figure, folder, f"error-{collective}.png", top=1.0))
        # Which algorithm wins at each size.
        sizes = sorted({int(row["bytes"]) for group in algorithms.values() for row in group})
        lookup = {(row["algorithm"], int(row["bytes"])): row for group in algorithms.values() for row in group}
        sources = [("measured", "measured_median_ns"), ("simulated", "simulated_ns"), ("model", "model_ns")]
        figure, axis = plt.subplots(figsize=(max(8, 0.45 * len(sizes)), 2.6))
        for y, (label, key) in enumerate(sources):
            for x, size in enumerate(sizes):
                times = [(float(lookup[(name, size)][key]), name) for name in names
                         if (name, size) in lookup and lookup[(name, size)][key]]
                if len(times) != len(names):
                    continue
                axis.barh(y, 1, left=x, color=colour[min(times)[1]], edgecolor="white")
        axis.set_yticks(range(len(sources)))
        axis.set_yticklabels([label for label, _ in sources])
        axis.invert_yaxis()
        axis.set_xticks([x + 0.5 for x in range(len(sizes))])
        axis.set_xticklabels([human_bytes(size) for size in sizes], rotation=60, fontsize=7)
        axis.set_xlim(0, len(sizes))
        axis.set_title(f"{collective}: the fastest algorithm at each size")
        handles = [plt.Rectangle((0, 0), 1, 1, color=colour[name]) for name in names]
        axis.legend(handles, names, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
        pictures.append(save_figure(figure, folder, f"best-{collective}.png", top=1.0))
    return pictures


def save_figure(figure, folder, name, top):
    """Lays the figure out below its suptitle/legend band, draws it into the run's picture set and returns its path."""
    figure.tight_layout(rect=(0, 0, 1, top))
    path = PICTURES.save(figure, os.path.join(folder, name), dpi=120)
    plt.close(figure)
    return path


def plot_gantts(folder):
    """One chart per traced run (collective, algorithm, size): the simulated and
    the measured timeline side by side, on one time axis."""
    sources = [("simulated", os.path.join(folder, "trace-simulated.csv")),
               ("measured", os.path.join(folder, "trace-measured.csv"))]
    if not all(os.path.exists(path) for _, path in sources):
        return []
    runs = {}
    for name, path in sources:
        for row in read_rows(path):
            key = (row["collective"], row["algorithm"], int(row["bytes"]))
            runs.setdefault(key, {"simulated": [], "measured": []})[name].append(row)
    pictures = []
    for (collective, algorithm, size), traces in runs.items():
        figure, axes = plt.subplots(1, 2, figsize=(14, 5), sharex=True, sharey=True)
        kinds = []
        for axis, name in zip(axes, ("simulated", "measured")):
            for row in traces[name]:
                start, end = float(row["start_ns"]) / 1000, float(row["end_ns"]) / 1000
                axis.barh(int(row["thread"]), max(end - start, 1e-4), left=start, height=0.7,
                          color=KIND_COLOURS.get(row["kind"], "black"))
                if row["kind"] not in kinds:
                    kinds.append(row["kind"])
            axis.set_title(f"{name}: {collective} {algorithm} {human_bytes(size)}")
            axis.set_xlabel("time since the start (µs)")
            axis.grid(True, axis="x", alpha=0.3)
        threads = sorted({int(row["thread"]) for rows in traces.values() for row in rows})
        axes[0].set_yticks(threads if len(threads) <= 32 else threads[:: max(1, len(threads) // 16)])
        axes[0].set_ylabel("thread")
        axes[0].invert_yaxis()
        present = [kind for kind in KIND_COLOURS if kind in kinds] + [kind for kind in kinds if kind not in KIND_COLOURS]
        handles = [plt.Rectangle((0, 0), 1, 1, color=KIND_COLOURS.get(kind, "black")) for kind in present]
        figure.legend(handles, present, loc="upper right", ncol=len(present))
        pictures.append(save_figure(figure, folder, f"gantt-{collective}-{algorithm}.png", top=0.9))
    return pictures


def main(argv):
    global PICTURES
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    folder = argv[1]
    out = argv[2] if len(argv) == 3 else folder
    if not os.path.exists(os.path.join(folder, "validation.csv")):
        print(f"plot_validation: no validation.csv in '{folder}' (run numacoll validate -o {folder} first)", file=sys.stderr)
        return 2
    PICTURES = PictureSet(out)
    try:
        rows = read_rows(os.path.join(folder, "validation.csv"))
        if not rows:
            raise UnreadableInput("validation.csv holds no rows")
        # The folder says what produced it: its numacoll and its description of the run.
        if not os.environ.get("NUMACOLL_PLOT_PROVENANCE"):
            os.environ["NUMACOLL_PLOT_PROVENANCE"] = " \u00b7 ".join(
                part for part in (f"numacoll {rows[0].get('numacoll', '')}", "measured and simulated",
                                  rows[0].get("provenance", "")) if part.strip())
        paths = [plot_latency(folder)] + plot_comparisons(folder, rows) + plot_gantts(folder)
        PICTURES.commit()
        # A picture this run did not draw (an algorithm no longer measured) is an earlier run's.
        for name in os.listdir(out):
            path = os.path.join(out, name)
            if name.endswith(".png") and name.startswith(PICTURE_PREFIXES) and path not in paths and os.path.isfile(path):
                os.remove(path)
    except (KeyError, ValueError, IndexError, OSError, csv.Error) as error:
        PICTURES.discard()
        what = f"no column {error}" if isinstance(error, KeyError) else str(error)
        print(f"plot_validation: '{folder}' cannot be drawn: {what}", file=sys.stderr)
        return 2
    except BaseException:
        PICTURES.discard()
        raise
    for path in paths:
        if path:
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
