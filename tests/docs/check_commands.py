#!/usr/bin/env python3
"""Runs every command of README.md and docs/usage.md as printed: each line
of their ```sh blocks (a line ending in a backslash goes on), in order, in
one scratch folder, with the build's program standing for
`build/cli/numacoll`. A command that exits non-zero fails the test, with
its output. A command printed twice runs once. scripts/quickstart.sh and
scripts/test.sh are what CI itself runs, and are left to it.

Usage: check_commands.py SOURCE PROGRAM WORK [DOC...]
"""
import os
import re
import shutil
import subprocess
import sys
import time


def commands(path):
    text = open(path).read()
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        pending = ""
        for line in block.splitlines():
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            line = (pending + line).strip()
            pending = ""
            if line and not line.startswith("scripts/") and not line.startswith("#"):
                yield line


def main():
    source, program, work = sys.argv[1:4]
    documents = sys.argv[4:] or ["README.md", "docs/usage.md"]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    environment = dict(os.environ, NUMACOLL_PROGRESS="0")
    ran = 0
    seen = set()
    for document in documents:
        for command in commands(os.path.join(source, document)):
            if command in seen:  # the README's commands recur in docs/usage.md
                continue
            seen.add(command)
            runnable = command.replace("build/cli/numacoll", program)
            started = time.monotonic()
            done = subprocess.run(["bash", "-c", runnable], cwd=work, env=environment, capture_output=True, text=True,
                                  timeout=900)
            seconds = time.monotonic() - started
            if done.returncode != 0:
                sys.exit(f"{document}: exit {done.returncode} after {seconds:.1f} s:\n  {command}\n"
                         f"{done.stdout[-2000:]}{done.stderr[-3000:]}")
            print(f"{seconds:6.1f} s  {document}: {command}", flush=True)
            ran += 1
    if ran == 0:
        sys.exit("no command found: the documents have no ```sh blocks")
    print(f"{ran} commands ran as printed")


if __name__ == "__main__":
    main()
