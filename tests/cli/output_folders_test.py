#!/usr/bin/env python3
"""A folder is one run: for every command that writes a folder (tune,
whatif, reproduce, overlap, validate, plot), against the real binary:

- a reused folder holds only the second run's files (every file numacoll
  wrote is listed in the folder's manifest and is newer than the second
  run's start; the first run's other files are gone; a file of the user's
  stays);
- an interrupt (SIGINT) at each stage (simulating, writing, plotting) leaves
  the earlier folder whole, byte for byte, with at most the interrupted
  run's finished files in unfinished-PID, and no staging folder;
- two runs into one folder at once: the second refuses with one line while
  the first holds it.

The stages are reached with NUMACOLL_PAUSE_AT, which makes the command say
"numacoll: paused at STAGE" and wait there.

Usage: output_folders_test.py NUMACOLL_BINARY
"""
import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time

FAILURES = []


def fail(message):
    FAILURES.append(message)
    print(f"FAIL: {message}", flush=True)


def snapshot(folder):
    """Every entry below `folder` (hidden ones too) with a hash of its bytes."""
    found = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            found[os.path.relpath(os.path.join(root, name), folder) + "/"] = "folder"
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, folder)] = hashlib.sha256(handle.read()).hexdigest()
    return found


def run(binary, args, cwd, env=None):
    return subprocess.run([binary] + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def check_one_run(what, folder, started, user_files):
    """Every file numacoll wrote is in the manifest and newer than `started`."""
    manifest_path = os.path.join(folder, ".numacoll-run")
    if not os.path.isfile(manifest_path):
        fail(f"{what}: no manifest")
        return
    listed = {line for line in open(manifest_path).read().splitlines() if line and not line.startswith("#")}
    present = {name for name in os.listdir(folder) if not name.startswith(".") and name not in user_files}
    if listed != present:
        fail(f"{what}: the manifest lists {sorted(listed)} but the folder holds {sorted(present)}")
    for name in present:
        if os.path.getmtime(os.path.join(folder, name)) < started:
            fail(f"{what}: {name} is older than the second run")
    for name in user_files:
        if not os.path.isfile(os.path.join(folder, name)):
            fail(f"{what}: the user's {name} is gone")


def interrupt_at(binary, what, args, cwd, folder, stage):
    """Runs `args` until it pauses at `stage`, interrupts it, and checks the
    earlier folder is whole."""
    before = snapshot(folder)
    env = dict(os.environ, NUMACOLL_PAUSE_AT=stage)
    process = subprocess.Popen([binary] + args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    reached = False
    deadline = time.time() + 120
    for line in process.stderr:
        if line.strip() == f"numacoll: paused at {stage}":
            reached = True
            break
        if time.time() > deadline:
            break
    if not reached:
        process.kill()
        process.wait()
        fail(f"{what}: never reached stage {stage}")
        return
    process.send_signal(signal.SIGINT)
    process.stderr.read()
    status = process.wait(timeout=60)
    if status != -signal.SIGINT:
        fail(f"{what} interrupted at {stage}: status {status}, expected death by SIGINT")
    after = snapshot(folder)
    unfinished = {name for name in after if name.startswith("unfinished-")}
    for name in unfinished:
        if not name.startswith(f"unfinished-{process.pid}"):
            fail(f"{what} interrupted at {stage}: an unfinished folder of another run: {name}")
    # Its tables were written whole before it stopped: they wait, apart, in its unfinished folder.
    if stage == "writing" and not any(name.endswith(".csv") for name in unfinished):
        fail(f"{what} interrupted at {stage}: its finished tables are not in unfinished-{process.pid}: {sorted(after)}")
    kept = {name: value for name, value in after.items() if name not in unfinished}
    if kept != before:
        changed = sorted(set(kept.items()) ^ set(before.items()))
        fail(f"{what} interrupted at {stage}: the earlier folder changed: {changed[:6]}")
    # The next test starts from the earlier folder alone.
    for name in sorted(unfinished, reverse=True):
        path = os.path.join(folder, name)
        (os.rmdir if name.endswith("/") else os.remove)(path)


def two_at_once(binary, what, args, cwd, folder):
    before = snapshot(folder)
    env = dict(os.environ, NUMACOLL_PAUSE_AT="simulating")
    first = subprocess.Popen([binary] + args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    for line in first.stderr:
        if line.strip() == "numacoll: paused at simulating":
            break
    second = run(binary, args, cwd)
    lines = [line for line in second.stderr.splitlines() if line.startswith("numacoll: ")]
    if second.returncode != 2 or len(lines) != 1 or "being written by another numacoll run" not in lines[0]:
        fail(f"{what}: a second run at once gave status {second.returncode} and {second.stderr!r}")
    first.send_signal(signal.SIGINT)
    first.stderr.read()
    first.wait(timeout=60)
    after = {name: value for name, value in snapshot(folder).items() if not name.startswith("unfinished-")}
    if after != before:
        fail(f"{what}: two runs at once changed the folder")
    for name in os.listdir(folder):
        if name.startswith("unfinished-"):
            subprocess.run(["rm", "-rf", os.path.join(folder, name)], check=True)


def check_command(binary, scratch, what, first, second, stages):
    """`first` and `second` are argument lists writing into scratch/what."""
    folder = os.path.join(scratch, what)
    done = run(binary, first, scratch)
    if done.returncode != 0:
        fail(f"{what}: the first run failed: {done.stderr.strip()}")
        return
    with open(os.path.join(folder, "notes.txt"), "w") as handle:
        handle.write("the user's own file\n")
    time.sleep(1.1)  # file times have a resolution of a second on some file systems
    started = time.time() - 0.01
    done = run(binary, second, scratch)
    if done.returncode != 0:
        fail(f"{what}: the second run failed: {done.stderr.strip()}")
        return
    check_one_run(what, folder, started, {"notes.txt"})
    for stage in stages:
        interrupt_at(binary, what, second, scratch, folder, stage)
    two_at_once(binary, what, second, scratch, folder)
    leftovers = [name for name in os.listdir(folder) if name.startswith(".numacoll-run-")]
    if leftovers:
        fail(f"{what}: staging folders left: {leftovers}")
    print(f"ok: {what}", flush=True)


def main(argv):
    binary = os.path.abspath(argv[1])
    quick = ["-n", "5", "--warmup", "1"]
    with tempfile.TemporaryDirectory() as scratch:
        check_command(binary, scratch, "tune",
                      ["tune", "-t", "westmere", "-c", "bcast", "-a", "binomial,linear", "-b", "64,4KiB", "-q", "-o", "tune"],
                      ["tune", "-t", "westmere", "-c", "reduce", "-a", "binomial,linear", "-b", "64", "-q", "-o", "tune"],
                      ["simulating", "writing", "plotting"])
        check_command(binary, scratch, "whatif",
                      ["whatif", "-t", "westmere", "--vary", "nodes=1,2", "-c", "allreduce", "-a", "tree,dissemination",
                       "-b", "64,4KiB", "-q", "-o", "whatif"],
                      ["whatif", "-t", "westmere", "--vary", "levels.other_socket.bandwidth_bytes_per_ns=3,6", "-c",
                       "bcast", "-a", "binomial,linear", "-b", "64", "-q", "-o", "whatif"],
                      ["simulating", "writing", "plotting"])
        check_command(binary, scratch, "reproduce",
                      ["reproduce", "hpdc13-westmere-line", "-q", "-o", "reproduce"],
                      ["reproduce", "hier-bcast-smp", "-q", "-o", "reproduce"],
                      ["simulating", "writing", "plotting"])
        check_command(binary, scratch, "overlap",
                      ["overlap", "-t", "westmere", "--nodes", "2", "--ranks", "1", "-a", "tree", "-b", "64,4KiB",
                       "--progress", "manual", "--test-every", "never", "-q", "-o", "overlap"],
                      ["overlap", "-t", "westmere", "--nodes", "2", "--ranks", "1", "-a", "tiled", "-b", "64",
                       "--progress", "manual", "--test-every", "never", "-q", "-o", "overlap"],
                      ["simulating", "writing", "plotting"])
        check_command(binary, scratch, "validate",
                      ["validate", "--threads", "2", "-a", "tree,dissemination", "-b", "64,4KiB", "--trace-bytes", "64",
                       "--rounds", "1", "-q", "-o", "validate"] + quick,
                      ["validate", "--threads", "2", "-a", "tiled", "-b", "64", "--rounds", "1", "-q", "-o",
                       "validate"] + quick,
                      ["simulating", "writing"])
        # plot draws a validation folder: its pictures are one run's, beside the validation's files.
        folder = os.path.join(scratch, "validate")
        drawn = run(binary, ["plot", folder], scratch)
        if drawn.returncode != 0:
            fail(f"plot: {drawn.stderr.strip()}")
        else:
            time.sleep(1.1)
            started = time.time() - 0.01
            again = run(binary, ["validate", "--threads", "2", "-a", "tree,dissemination", "-b", "64", "--rounds",
                                 "1", "-q", "-o", folder] + quick, scratch)
            drawn = run(binary, ["plot", folder], scratch)
            if again.returncode != 0 or drawn.returncode != 0:
                fail(f"plot: the second validation or plot failed: {again.stderr.strip()} {drawn.stderr.strip()}")
            else:
                check_one_run("plot", folder, started, {"notes.txt"})
                pictures = sorted(name for name in os.listdir(folder) if name.endswith(".png"))
                if "compare-allreduce.png" not in pictures:
                    fail(f"plot: no comparison of the two algorithms: {pictures}")
                interrupt_at(binary, "plot", ["plot", folder], scratch, folder, "plotting")
                two_at_once_plot = subprocess.Popen([binary, "plot", folder], cwd=scratch,
                                                    env=dict(os.environ, NUMACOLL_PAUSE_AT="plotting"),
                                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                for line in two_at_once_plot.stderr:
                    if line.strip() == "numacoll: paused at plotting":
                        break
                second = run(binary, ["plot", folder], scratch)
                if second.returncode != 2 or "being written by another numacoll run" not in second.stderr:
                    fail(f"plot: a second plot at once gave {second.returncode}: {second.stderr!r}")
                two_at_once_plot.send_signal(signal.SIGINT)
                two_at_once_plot.stderr.read()
                two_at_once_plot.wait(timeout=60)
                print("ok: plot", flush=True)
        leftovers = [name for name in os.listdir("/tmp") if name.startswith("numacoll-plot-")]
        if leftovers:
            fail(f"temporary plotting folders left in /tmp: {leftovers}")
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        return 1
    print("ok: every folder holds one run")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
