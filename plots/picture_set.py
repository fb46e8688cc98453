"""What the plotting scripts share: PictureSet (the PNGs of one plotting
run, put in place together, each stamped with what produced it), open_input
(a table read within a size cap), run_script (their main: one line and
status 2 for a folder that cannot be drawn), size_label, place_legend (a
legend where it covers no data) and mark_coinciding (curves drawn on top
of each other named so).

Every picture carries, under its axes, the line numacoll passes in
NUMACOLL_PLOT_PROVENANCE (version, engine, machine, params; the collective
is in each picture's title). With NUMACOLL_PLOT_CHECK_LAYOUT=1 a picture
whose titles, labels, tick labels, colour bars or legends reach outside
the canvas, or whose legend covers a data point, is refused with one line
(matplotlib's own layout boxes say where each lies): the layout test draws
every kind of picture so.

numacoll hands this module to the script it runs, with the script.
"""
import os
import signal

# The largest table a script reads: far above what numacoll writes (a
# validation trace of a million tasks is about 100 MB); numacoll passes its
# own cap (NUMACOLL_MAX_INPUT_BYTES) in NUMACOLL_PLOT_INPUT_CAP_BYTES.
DEFAULT_INPUT_CAP_BYTES = 256 << 20


class UnreadableInput(ValueError):
    """A table that is too large, lacks a column or holds a value of the wrong kind."""


def input_cap_bytes():
    text = os.environ.get("NUMACOLL_PLOT_INPUT_CAP_BYTES", "")
    return int(text) if text.isdigit() else DEFAULT_INPUT_CAP_BYTES


def open_input(path):
    """Opens a table for csv, refusing one larger than the cap before reading it."""
    handle = open(path, newline="")
    size = os.fstat(handle.fileno()).st_size
    if size > input_cap_bytes():
        handle.close()
        raise UnreadableInput(f"{os.path.basename(path)} holds {size} bytes, more than the {input_cap_bytes()} "
                              f"a picture reads (NUMACOLL_MAX_INPUT_BYTES raises it)")
    return handle


def size_label(value):
    """Bytes as numacoll writes them: 64B, 4KiB, 16MiB."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= scale and value % scale == 0:
            return f"{value // scale}{unit}"
    return f"{value}B"


PROVENANCE_POINTS = 7  # the stamp's type size: readable at the pictures' dpi


def mark_coinciding(axes, pixels=2.0):
    """Curves of `axes` drawn on an earlier one (every point within
    `pixels` of it at the axes' scales and size) get that one's name in
    their label and a dashed line, so that a reader sees both where the
    legend lists both. Call it once the scales and limits are set."""
    axes.figure.canvas.draw()
    seen = []
    for line in axes.get_lines():
        label = line.get_label()
        if label.startswith("_") or not line.get_visible():
            continue
        points = line.get_transform().transform(line.get_xydata())
        for other_label, other_points in seen:
            if len(points) == len(other_points) and all(
                    abs(p[0] - q[0]) <= pixels and abs(p[1] - q[1]) <= pixels for p, q in zip(points, other_points)):
                line.set_label(f"{label} (= {other_label})")
                line.set_linestyle((0, (4, 3)))
                break
        else:
            seen.append((label, points))


def lines_under(axes, box):
    """The visible lines of `axes` with a point inside both the axes and
    `box` (display coordinates): the data a legend at `box` would hide."""
    inside = axes.get_window_extent(axes.figure.canvas.get_renderer())
    hidden = []
    for line in axes.get_lines():
        if not line.get_visible():
            continue
        for x, y in line.get_transform().transform(line.get_xydata()):  # an axvline is in axes units along y
            if inside.x0 <= x <= inside.x1 and inside.y0 <= y <= inside.y1 and \
                    box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1:
                hidden.append(line)
                break
    return hidden


def grow_canvas(figure, left_inches=0.0, right_inches=0.0, bottom_inches=0.0):
    """Adds room at the left, right and bottom of `figure`: every axes and
    figure text keeps its size and its place in pixels from the top."""
    width, height = figure.get_size_inches()
    wider, taller = width + left_inches + right_inches, height + bottom_inches
    positions = [(axes, axes.get_position()) for axes in figure.axes]
    figure.set_size_inches(wider, taller)

    def moved(x, y):
        return (x * width + left_inches) / wider, (y * height + bottom_inches) / taller

    for axes, box in positions:
        x0, y0 = moved(box.x0, box.y0)
        axes.set_position([x0, y0, box.width * width / wider, box.height * height / taller])
    for text in figure.texts:  # a suptitle and the like keep their distance from the top
        text.set_position(moved(*text.get_position()))


def fit_in_canvas(legend, margin_pixels=6.0):
    """Grows the canvas where `legend` (placed outside its axes) reaches past it."""
    figure = legend.figure
    figure.canvas.draw()
    box, canvas = legend.get_window_extent(figure.canvas.get_renderer()), figure.bbox
    excesses = (canvas.x0 - box.x0, box.x1 - canvas.x1, canvas.y0 - box.y0)
    left, right, bottom = ((excess + margin_pixels) / figure.dpi if excess > 0 else 0.0 for excess in excesses)
    if left or right or bottom:
        grow_canvas(figure, left, right, bottom)


def place_legend(axes, **options):
    """A legend in the first corner of `axes` (or middle of a side) that
    covers no data point, else outside the axes on a grown canvas: beside
    them, or under them when it is wide. The options are kept with the axes:
    a later layout (tight_layout) moves the points and the axes, and
    PictureSet.save settles the legend again (settle_legends)."""
    axes.numacoll_legend_options = options
    figure = axes.figure
    renderer = figure.canvas.get_renderer()
    for location in ("upper left", "upper right", "lower left", "lower right", "center left", "center right",
                     "upper center", "lower center"):
        legend = axes.legend(loc=location, **options)
        figure.canvas.draw()
        if not lines_under(axes, legend.get_window_extent(renderer)):
            return legend
    legend = axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **options)
    figure.canvas.draw()
    if legend.get_window_extent(renderer).width > 0.4 * figure.bbox.width:
        legend.set_visible(False)  # the axes' labels alone say where "under" begins
        labels_bottom = axes.get_tightbbox(renderer).y0
        frame = axes.get_window_extent(renderer)
        legend = axes.legend(loc="upper center", bbox_to_anchor=(0.5, (labels_bottom - 4 - frame.y0) / frame.height),
                             borderaxespad=0.0, **options)
    fit_in_canvas(legend)
    return legend


def settle_legends(figure):
    """Each legend place_legend put, once the layout is final: placed again
    where data now lies under it, and given room where it reaches past the
    canvas (tight_layout lays out the axes without a legend outside them)."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    for axes in figure.axes:
        legend = axes.get_legend()
        options = getattr(axes, "numacoll_legend_options", None)
        if options is None or legend is None:
            continue
        if lines_under(axes, legend.get_window_extent(renderer)):
            place_legend(axes, **options)
        else:
            fit_in_canvas(legend)


def fitted(text, width_inches, points=12.0):
    """`text` broken into lines that fit `width_inches` at `points` (a
    title longer than its figure is wide would reach past the canvas)."""
    import textwrap
    columns = max(20, int(width_inches * 72 / (points * 0.6)))
    return "\n".join(textwrap.wrap(text, columns)) if len(text) > columns else text


def provenance_line():
    return os.environ.get("NUMACOLL_PLOT_PROVENANCE", "").strip()


def stamp(figure, line):
    """Writes `line` under everything else: the canvas grows by the line's
    height and every axes moves up by as much, so nothing is covered."""
    if not line:
        return
    width, height = figure.get_size_inches()
    size = PROVENANCE_POINTS
    # Long lines (a machine's path, a run's description) wrap rather than run past the edge.
    line = fitted(line, 0.97 * width, size)
    rows = line.count("\n") + 1
    extra = (rows * size * 1.25 + 6) / 72
    grow_canvas(figure, bottom_inches=extra)
    figure.text(0.006, 3 / 72 / (height + extra), line, fontsize=size, color="0.3", ha="left", va="bottom")


def layout_problems(figure):
    """What of `figure` lies outside its canvas or hides its data, by
    matplotlib's own layout boxes (empty when nothing)."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    canvas = figure.bbox
    problems = []

    def outside(box, what):
        if box.x0 < canvas.x0 - 1 or box.y0 < canvas.y0 - 1 or box.x1 > canvas.x1 + 1 or box.y1 > canvas.y1 + 1:
            problems.append(f"{what} reaches outside the canvas")

    for axes in figure.axes:
        name = " ".join((axes.get_title() or axes.get_label() or "an axes").split())[:60]
        outside(axes.get_tightbbox(renderer), f"'{name}' (its labels, ticks or title)")
        legend = axes.get_legend()
        if legend is not None and legend.get_visible():
            outside(legend.get_window_extent(renderer), f"the legend of '{name}'")
            for line in lines_under(axes, legend.get_window_extent(renderer)):
                if not line.get_label().startswith("_"):
                    problems.append(f"the legend of '{name}' covers a point of '{line.get_label()}'")
                    break
    for text in figure.texts:
        if text.get_visible() and text.get_text().strip():
            outside(text.get_window_extent(renderer), f"the text '{' '.join(text.get_text().split())[:50]}'")
    for legend in figure.legends:
        outside(legend.get_window_extent(renderer), "a figure legend")
    return problems


class PictureSet:
    """The PNGs of one run, put in place together: each is drawn into a
    temporary beside its target and renamed in only once all are drawn, so
    that a folder never shows pictures of two runs; an error or a signal
    (SIGINT, SIGTERM, SIGHUP) removes the temporaries. With `out`, the
    pictures go into that folder instead of the one they are named in."""

    def __init__(self, out=None):
        self.out = out
        self.pending = []
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(number) is not signal.SIG_IGN:
                signal.signal(number, self._interrupted)

    def _interrupted(self, number, _frame):
        self.discard()
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)

    def save(self, figure, path, dpi):
        settle_legends(figure)
        stamp(figure, provenance_line())
        if os.environ.get("NUMACOLL_PLOT_CHECK_LAYOUT") == "1":
            problems = layout_problems(figure)
            if problems:
                raise ValueError(f"{os.path.basename(path)}: {problems[0]}")
        if self.out is not None:
            path = os.path.join(self.out, os.path.basename(path))
        temporary = f"{path}.tmp{os.getpid()}.png"
        self.pending.append((temporary, path))
        figure.savefig(temporary, dpi=dpi)
        return path

    def commit(self):
        for temporary, path in self.pending:
            os.replace(temporary, path)
        self.pending = []

    def discard(self):
        for temporary, _ in self.pending:
            try:
                os.remove(temporary)
            except OSError:
                pass
        self.pending = []


def run_script(name, doc, read, draw, argv):
    """The main() of a plotting script: `argv` is [script, DIR] or [script,
    DIR, OUT]; draws what read(DIR) returns with draw(DIR, data, pictures),
    puts the pictures in place together (in OUT when given), and prints
    their paths. A CSV that cannot be read gives one line, `NAME: 'DIR'
    cannot be drawn: ...`, and exit status 2."""
    import csv
    import sys

    if len(argv) not in (2, 3):
        print(doc.strip(), file=sys.stderr)
        return 2
    folder = argv[1]
    pictures = PictureSet(argv[2] if len(argv) == 3 else None)
    try:
        paths = draw(folder, read(folder), pictures)
        pictures.commit()
    except (KeyError, ValueError, IndexError, OSError, csv.Error) as error:
        pictures.discard()
        what = f"no column {error}" if isinstance(error, KeyError) else str(error)
        print(f"{name}: '{folder}' cannot be drawn: {what}", file=sys.stderr)
        return 2
    except BaseException:
        pictures.discard()
        raise
    for path in paths:
        print(path)
    return 0
