#!/usr/bin/env python3
"""The examples as a user meets them: numacoll installed into a prefix,
then each example built against the installed package (CMake's
find_package, or pkg-config) or run with the installed program, its output
held to examples/NAME.expected, line by line: text as written, where
<number> stands for a decimal number and <signed> for one with its sign.
The simulated time the C++ example prints must also be the one the
installed `numacoll sim` writes for the same point.

Usage: check_examples.py install BUILD PREFIX
       check_examples.py cmake|pkgconfig|python SOURCE PREFIX WORK
"""
import os
import re
import shutil
import subprocess
import sys


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


def pattern_of(line):
    parts = re.split(r"(<number>|<signed>)", line)
    table = {"<number>": r"[0-9]+(\.[0-9]+)?", "<signed>": r"[-+][0-9]+(\.[0-9]+)?"}
    return "".join(table.get(part, re.escape(part)) for part in parts)


def check_output(name, output, source):
    expected = open(os.path.join(source, "examples", name + ".expected")).read().splitlines()
    lines = output.splitlines()
    for number, (want, got) in enumerate(zip(expected, lines), 1):
        if not re.fullmatch(pattern_of(want), got):
            sys.exit(f"{name}, line {number}:\n  expected {want}\n  got      {got}\nwhole output:\n{output}")
    if len(lines) != len(expected):
        sys.exit(f"{name}: {len(lines)} lines where {len(expected)} are expected:\n{output}")
    print(f"{name}: {len(lines)} lines as expected")


def check_simulate_allreduce(program, prefix, source):
    output = run([program])
    check_output("simulate_allreduce", output, source)
    api_ns = re.search(r"^simulated: ([0-9.]+) ns$", output, re.M).group(1)
    csv = run([os.path.join(prefix, "bin", "numacoll"), "sim", "-t", "westmere", "-N", "2", "-c", "allreduce",
               "-a", "tree", "-b", "1048576", "-q", "-o", "-"]).splitlines()
    row = dict(zip(csv[0].split(","), csv[1].split(",")))
    if f"{float(row['time_ns']):.1f}" != api_ns:
        sys.exit(f"the library simulated {api_ns} ns, numacoll sim {row['time_ns']} ns")
    print(f"simulate_allreduce: {api_ns} ns, as numacoll sim")


def main():
    step = sys.argv[1]
    if step == "install":
        build, prefix = sys.argv[2:4]
        shutil.rmtree(prefix, ignore_errors=True)
        run(["cmake", "--install", build, "--prefix", prefix])
        for part in ["bin/numacoll", "include/numacoll/numacoll.hpp", "include/numacoll/version.hpp",
                     "lib/cmake/numacoll/numacollConfig.cmake", "lib/pkgconfig/numacoll.pc",
                     "share/numacoll/machines/westmere.xml", "share/numacoll/params/westmere.json"]:
            if not os.path.exists(os.path.join(prefix, part)):
                sys.exit(f"the install lacks {part}")
        print(f"installed into {prefix}")
        return
    source, prefix, work = sys.argv[2:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if step == "cmake":
        run(["cmake", "-S", os.path.join(source, "examples"), "-B", work, f"-DCMAKE_PREFIX_PATH={prefix}"])
        run(["cmake", "--build", work])
        check_simulate_allreduce(os.path.join(work, "simulate_allreduce"), prefix, source)
        check_output("linear_allreduce", run([os.path.join(work, "linear_allreduce")]), source)
    elif step == "pkgconfig":
        environment = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
        flags = run(["pkg-config", "--cflags", "--libs", "numacoll"], env=environment).split()
        program = os.path.join(work, "simulate_allreduce")
        run(["c++", "-std=c++20", os.path.join(source, "examples", "simulate_allreduce.cpp"), "-o", program, *flags,
             f"-Wl,-rpath,{os.path.join(prefix, 'lib')}"])
        check_simulate_allreduce(program, prefix, source)
    elif step == "python":
        output = run([sys.executable, os.path.join(source, "examples", "own_schedule.py"),
                      "--numacoll", os.path.join(prefix, "bin", "numacoll"), "--folder", work])
        check_output("own_schedule", output, source)
    else:
        sys.exit(f"unknown step {step}")


if __name__ == "__main__":
    main()
