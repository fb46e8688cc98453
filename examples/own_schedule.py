#!/usr/bin/env python3
"""An algorithm of one's own, written as a schedule in JSON (the format of
docs/schedule-format.md) with Python's standard library only, then proven,
simulated and executed by the `numacoll` program.

The algorithm: a ring allgather on the ranks of one node. In step s, rank r
copies block (r - s - 1) mod n from its left neighbour's output into its
own, once the neighbour says that block is there.

Usage: own_schedule.py [--numacoll PROGRAM] [--ranks N] [--bytes B] [--folder DIR]
The ranks sit where numacoll places them on this machine: their places come
from the schedule `numacoll dag -t live` writes for the same rank count.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def numacoll(program, *args):
    """Runs numacoll; its output, or exits with its error and status."""
    done = subprocess.run([program, *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"own_schedule.py: numacoll {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def ring_allgather(places, block_bytes):
    """The schedule of a ring allgather over `places` (one per rank)."""
    n = len(places)
    buffers, tasks = [], []

    def buffer(name, owner, size, role):
        buffers.append({"name": name, "owner": owner, "bytes": size, "role": role, "numa": places[owner]["numa"]})
        return len(buffers) - 1

    def task(kind, rank, deps, label, **fields):
        tasks.append({"id": len(tasks), "kind": kind, "thread": rank, "deps": deps, "label": label, **fields})
        return len(tasks) - 1

    inputs = [buffer(f"in{r}", r, block_bytes, "input") for r in range(n)]
    outputs = [buffer(f"out{r}", r, n * block_bytes, "output") for r in range(n)]
    # A rank's tasks follow one another: each depends on its previous one.
    last = [task("copy", r, [], "own block", reads=[[inputs[r], 0, block_bytes]],
                 write=[outputs[r], r * block_bytes, block_bytes]) for r in range(n)]
    for step in range(n - 1):
        told = [task("flag", r, [last[r]], f"step {step}: block ready", peer=(r + 1) % n) for r in range(n)]
        for r in range(n):
            left = (r - 1) % n
            block = (r - step - 1) % n
            last[r] = task("copy", r, [last[r], told[left]], f"step {step}: block {block}",
                           reads=[[outputs[left], block * block_bytes, block_bytes]],
                           write=[outputs[r], block * block_bytes, block_bytes])
    # No rank leaves while its right neighbour may still read its output.
    done = [task("flag", r, [last[r]], "done", peer=(r - 1) % n) for r in range(n)]
    for r in range(n):
        task("wait", r, [last[r], done[(r + 1) % n]], "right neighbour done")
    return buffers, tasks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numacoll", default="numacoll", help="the numacoll program")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--bytes", type=int, default=4096, help="each rank's block")
    parser.add_argument("--folder", help="where the schedule goes (default: a temporary folder)")
    options = parser.parse_args()
    if options.ranks < 1 or options.bytes < 1:
        parser.error("--ranks and --bytes take positive counts")

    # Where numacoll would place these ranks on this machine, and what it calls it.
    placed = json.loads(numacoll(options.numacoll, "dag", "-t", "live", "--ranks", str(options.ranks),
                                 "-c", "allgather", "-a", "ring", "-b", "8", "-f", "json"))
    buffers, tasks = ring_allgather(placed["ranks"], options.bytes)
    schedule = {
        "format": "numacoll-schedule", "version": 4,
        "spec": {"collective": "allgather", "algorithm": "my-ring", "bytes": options.bytes, "root": 0,
                 "op": "sum", "datatype": "byte", "options": {}},
        "nodes": 1, "rank_kind": "threads",
        "provenance": {"topology": placed["provenance"]["topology"], "written_by": "examples/own_schedule.py"},
        "ranks": placed["ranks"], "buffers": buffers, "tasks": tasks,
    }
    folder = options.folder or tempfile.mkdtemp(prefix="numacoll-own-schedule-")
    path = os.path.join(folder, "my-ring.json")
    with open(path, "w") as file:
        json.dump(schedule, file, indent=1)
    print(f"my-ring allgather of {options.bytes} bytes per rank on {options.ranks} ranks: {len(tasks)} tasks")

    print(numacoll(options.numacoll, "dag", "--from", path, "--check").strip().splitlines()[-1])
    simulated = numacoll(options.numacoll, "sim", "--from", path, "-q", "-o", "-").splitlines()
    row = dict(zip(simulated[0].split(","), simulated[1].split(",")))
    print(f"simulated: {float(row['time_ns']):.1f} ns")
    measured = numacoll(options.numacoll, "run", "--from", path, "-q", "--iterations", "20", "-o", "-").splitlines()
    row = dict(zip(measured[0].split(","), measured[1].split(",")))
    print(f"executed: {float(row['time_ns']):.1f} ns (median of {row['iterations']}), every output verified")


if __name__ == "__main__":
    main()
