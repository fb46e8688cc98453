"""What the plotting scripts share: PictureSet (the PNGs of one plotting
run, put in place together), open_input (a table read within a size cap),
run_script (their main: one line and status 2 for a folder that cannot be
drawn) and size_label.

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
