"""What the plotting scripts share: PictureSet (the PNGs of one plotting
run, put in place together), run_script (their main: one line and status 1
for a folder that cannot be drawn) and size_label.

numacoll writes this file beside the script it runs.
"""
import os
import signal


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
    (SIGINT, SIGTERM, SIGHUP) removes the temporaries."""

    def __init__(self):
        self.pending = []
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(number) is not signal.SIG_IGN:
                signal.signal(number, self._interrupted)

    def _interrupted(self, number, _frame):
        self.discard()
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)

    def save(self, figure, path, dpi):
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
    """The main() of a plotting script: `argv` is [script, DIR]; draws what
    read(DIR) returns with draw(DIR, data, pictures), puts the pictures in
    place together, and prints their paths. A CSV that cannot be read gives
    one line, `NAME: 'DIR' cannot be drawn: ...`, and exit status 1."""
    import csv
    import sys

    if len(argv) != 2:
        print(doc.strip(), file=sys.stderr)
        return 2
    folder = argv[1]
    pictures = PictureSet()
    try:
        paths = draw(folder, read(folder), pictures)
        pictures.commit()
    except (KeyError, ValueError, OSError, csv.Error) as error:
        pictures.discard()
        what = f"no column {error}" if isinstance(error, KeyError) else str(error)
        print(f"{name}: '{folder}' cannot be drawn: {what}", file=sys.stderr)
        return 1
    except BaseException:
        pictures.discard()
        raise
    for path in paths:
        print(path)
    return 0
