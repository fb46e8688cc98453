"""PictureSet: the PNGs of one plotting run, put in place together.

Shared by the plotting scripts (plot_validation.py, plot_reproduce.py);
numacoll writes it beside them when it runs one.
"""
import os
import signal


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
