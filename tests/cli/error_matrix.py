#!/usr/bin/env python3
"""The error matrix: every bad input of tests/cli/error_matrix.txt, given to
the real numacoll binary, must give the expected exit status and exactly one
line on standard error that matches the expected pattern; none may crash, run
past its time bound or use more than 2 GB.

Usage: error_matrix.py NUMACOLL_BINARY TABLE SOURCE_DIR

Each line of the table is: EXIT | PATTERN | ARGUMENTS [| REDIRECTION]
- EXIT: the expected exit status (2 for usage, 1 for a failed check or run);
- PATTERN: a Python regular expression searched in standard error;
- ARGUMENTS: shell words (shlex), where {D} is a scratch folder and
  {F:NAME} the path of the fixture NAME (made below, or a file of
  fuzz/corpus/READER/NAME given as READER/NAME); leading NAME=VALUE words
  are set in the case's environment;
- REDIRECTION: <NAME gives the fixture NAME on standard input (else
  /dev/null); >PATH sends standard output to PATH (else a file).
"""
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

SECONDS_PER_CASE = 60
MAX_RSS_KB = 2 * 1024 * 1024


def make_fixtures(binary, source_dir, scratch):
    """Writes the fixture files into scratch and returns {name: path}."""
    fixtures = {}

    def write(name, text):
        path = os.path.join(scratch, name)
        with open(path, "w") as handle:
            handle.write(text)
        fixtures[name] = path

    corpus = os.path.join(source_dir, "fuzz", "corpus")
    for reader in sorted(os.listdir(corpus)):
        for name in sorted(os.listdir(os.path.join(corpus, reader))):
            fixtures[f"{reader}/{name}"] = os.path.join(corpus, reader, name)
    small = open(os.path.join(corpus, "topology_xml", "small-machine.xml")).read()
    header = ("communicator,ranks,nodes,ranks_per_node,placement,collective,algorithm,datatype,size_bucket_bytes,"
              "calls,total_ns,median_ns,handed_back_because\n")
    write("not-a-report.csv", "hello, world\n")
    write("short-report.csv", header + "world,2,1\n")
    write("wrong-number-report.csv", header + "world,2,1,2,PUs 0 1,allreduce,tree,double,8,many,10,5,\n")
    write("empty.xml", "")
    write("blank.xml", "   \n\t\n")
    write("not-xml.xml", "hello, world\n")
    write("not-topology.xml", "<foo/>\n")
    write("v3.xml", small.replace('version="2.0"', 'version="3.0"'))
    write("binary.xml", "\x00\x01\x02<topology>\xff\xfe")
    write("zero-cache.xml", small.replace('cache_size="1048576"', 'cache_size="0"'))
    write("huge-memory.xml", small.replace('local_memory="1073741824"', 'local_memory="99999999999999999999"'))
    many_pus = "".join(f'<object type="PU" os_index="{i}"/>' for i in range(17000))
    write("too-many-pus.xml", '<topology version="2.0"><object type="Machine">' + many_pus + "</object></topology>")
    write("pu-loop.xml", small.replace("</topology>", "</topology><topology>"))

    westmere = json.load(open(os.path.join(source_dir, "costs", "params", "westmere.json")))

    def params_variant(name, change):
        data = json.loads(json.dumps(westmere))
        change(data)
        write(name, json.dumps(data))

    write("params-broken.json", '{"format": ')
    write("params-empty.json", "")
    write("params-array.json", "[1, 2, 3]")
    write("params-other.json", '{"hello": 1}')
    params_variant("params-version-9.json", lambda d: d.update(version=9))
    params_variant("params-no-dram.json", lambda d: d["levels"].pop("dram"))
    params_variant("params-latency-string.json", lambda d: d["levels"]["dram"]["latency_ns"].update(value="fast"))
    params_variant("params-latency-negative.json", lambda d: d["levels"]["dram"]["latency_ns"].update(value=-3))
    params_variant("params-latency-huge.json", lambda d: d["levels"]["dram"]["latency_ns"].update(value=1e300))
    params_variant("params-bandwidth-tiny.json",
                   lambda d: d["levels"]["dram"]["bandwidth_bytes_per_ns"].update(value=1e-300))
    params_variant("params-no-source.json", lambda d: d["levels"]["dram"]["latency_ns"].pop("source"))
    params_variant("params-line-zero.json", lambda d: d.update(cache_line_bytes=0))
    params_variant("params-reduce-zero.json", lambda d: d["core"]["reduce_bytes_per_ns"].update(value=0))
    params_variant("no-compute-params.json", lambda d: d["core"].pop("compute_flops_per_ns"))
    params_variant("params-eager-zero.json", lambda d: d["messages"]["network_eager_limit_bytes"].update(value=0))

    # Schedules made by this binary, then broken one way each.
    def dag(name, arguments):
        path = os.path.join(scratch, name)
        subprocess.run([binary, "dag", "-o", path] + arguments, check=True, stderr=subprocess.DEVNULL)
        fixtures[name] = path
        return open(path).read()

    text = dag("tree-westmere.txt", ["-t", "westmere", "--bytes", "64"])
    schedule_json = dag("tree-westmere.json", ["-t", "westmere", "--bytes", "64", "-f", "json"])
    dag("tree-magnycours.txt", ["-t", "magnycours", "--bytes", "64"])
    dag("tree-two-cores.txt", ["-t", "synthetic:Package:1 Core:2", "--bytes", "64"])
    dag("tree-two-nodes.txt", ["-t", "synthetic:Package:1 Core:2", "--nodes", "2", "--bytes", "64"])
    dag("huge-buffers.txt", ["-t", "synthetic:Package:1 Core:2", "--bytes", "512GiB", "--strip", "off"])
    write("schedule-empty.txt", "")
    write("schedule-garbage.txt", "hello\n")
    write("schedule-task-order.txt", text.replace("task 5 ", "task 9 ", 1))
    write("schedule-bad-kind.txt", text.replace(" reduce thread", " blend thread", 1))
    write("schedule-negative-bytes.txt", text.replace("bytes=64 root", "bytes=-1 root", 1))
    write("schedule-huge-dep.txt", text.replace("deps=1,6", "deps=4294967296", 1))
    write("schedule-self-dep.txt", re.sub(r"(task 3 .*?deps=)[0-9,]*", r"\g<1>3", text, count=1))
    write("schedule-broken.json", schedule_json[: len(schedule_json) // 2])
    data = json.loads(schedule_json)
    data["tasks"][3]["thread"] = 1.5
    write("schedule-fractional.json", json.dumps(data))
    data = json.loads(schedule_json)
    data["spec"]["bytes"] = -64
    write("schedule-negative.json", json.dumps(data))
    data = json.loads(schedule_json)
    data["tasks"][3]["thread"] = 999
    write("schedule-thread-out-of-range.json", json.dumps(data))
    data = json.loads(schedule_json)
    data["tasks"][3]["application"] = "yes"
    write("schedule-application-text.json", json.dumps(data))
    data = json.loads(schedule_json)
    data["tasks"][0]["application"] = True
    write("schedule-application-copy.json", json.dumps(data))
    write("schedule-application-2.txt", re.sub(r"(task 3 [^\n]*?) deps=", r"\g<1> application=2 deps=", text, count=1))
    write("schedule-exposed-2.txt", re.sub(r"(\nbuffer 0 [^\n]*)", r"\g<1> exposed=2", text, count=1))
    write("schedule-exposed-threads.txt", re.sub(r"(\nbuffer 0 [^\n]*)", r"\g<1> exposed=1", text, count=1))
    write("schedule-misspelt-key.txt", text.replace(" write=", " wrte=", 1))
    data = json.loads(schedule_json)
    data["tasks"][0]["wrte"] = data["tasks"][0].pop("deps")
    write("schedule-misspelt-key.json", json.dumps(data))
    magnycours = open(fixtures["tree-magnycours.txt"]).read()
    write("sequence-two-machines.txt", text + magnycours)
    write("sequence-second-no-spec.txt", text + "numacoll-schedule 3\n")
    write("sequence-empty-list.json", "[]")
    write("sequence-list-bad-second.json", json.dumps([json.loads(schedule_json), {"format": "numacoll-schedule"}]))
    write("sequence-two.txt", text + text)
    write("tree-westmere-copy.txt", text)
    unreadable = os.path.join(scratch, "unreadable-validation")
    os.mkdir(unreadable)
    with open(os.path.join(unreadable, "validation.csv"), "w") as handle:
        handle.write("collective,bytes\nallreduce,64\n")
    fixtures["unreadable-validation"] = unreadable
    # Machines for reproduce --machine, exported by hwloc's lstopo: westmere's
    # shape with 8 cores a package, and opteron8218's without its NIC.
    def lstopo(name, synthetic):
        path = os.path.join(scratch, name)
        subprocess.run(["lstopo-no-graphics", "-i", synthetic, "--of", "xml", path], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        fixtures[name] = path
    lstopo("westmere-16.xml", "Package:2 NUMANode:1 L3Cache:1 Core:8 PU:1")
    lstopo("opteron-without-nic.xml", "Package:4 NUMANode:1 L2Cache:2 Core:1 PU:1")
    write("a-file", "not a folder\n")
    os.mkdir(os.path.join(scratch, "a-folder"))
    fixtures["a-folder"] = os.path.join(scratch, "a-folder")
    # A folder whose sweep-points.tsv is another kind of file.
    os.mkdir(os.path.join(scratch, "not-a-shard"))
    write(os.path.join("not-a-shard", "sweep-points.tsv"), "collective,bytes\nbcast,64\n")
    fixtures["not-a-shard"] = os.path.join(scratch, "not-a-shard")
    readonly = os.path.join(scratch, "read-only")
    os.mkdir(readonly)
    os.chmod(readonly, 0o500)
    fixtures["read-only"] = readonly
    return fixtures


def parse_table(path):
    cases = []
    for number, line in enumerate(open(path), start=1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [field.strip() for field in line.split(" | ")]
        if len(fields) not in (3, 4) or not fields[0].isdigit():
            raise SystemExit(f"{path}:{number}: expected 'EXIT | PATTERN | ARGUMENTS [| REDIRECTION]'")
        redirection = fields[3] if len(fields) == 4 else ""
        if redirection and redirection[0] not in "<>":
            raise SystemExit(f"{path}:{number}: a redirection is <FIXTURE or >PATH")
        cases.append({"line": number, "exit": int(fields[0]), "pattern": fields[1], "arguments": fields[2],
                      "stdin": redirection[1:] if redirection.startswith("<") else None,
                      "stdout": redirection[1:] if redirection.startswith(">") else None})
    return cases


def expand(word, fixtures, scratch):
    def fixture(match):
        name = match.group(1)
        if name not in fixtures:
            raise KeyError(f"no fixture '{name}'")
        return fixtures[name]
    return re.sub(r"\{F:([^}]+)\}", fixture, word).replace("{D}", scratch)


def run_case(case, binary, fixtures, scratch):
    """Runs one case; returns a list of what went wrong (empty when it held)."""
    case_dir = tempfile.mkdtemp(prefix=f"case{case['line']}-", dir=scratch)
    arguments = [expand(word, fixtures, case_dir) for word in shlex.split(case["arguments"])]
    environment = dict(os.environ)
    while arguments and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", arguments[0]):
        name, value = arguments.pop(0).split("=", 1)
        environment[name] = value
    stdin_path = fixtures[case["stdin"]] if case["stdin"] else os.devnull
    out_path, err_path = case["stdout"] or os.path.join(case_dir, "stdout"), os.path.join(case_dir, "stderr")
    with open(stdin_path, "rb") as stdin, open(out_path, "wb") as out, open(err_path, "wb") as err:
        process = subprocess.Popen([binary] + arguments, stdin=stdin, stdout=out, stderr=err, cwd=case_dir,
                                   env=environment)
    started = time.monotonic()
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - started > SECONDS_PER_CASE:
            process.kill()
            os.wait4(process.pid, 0)
            return [f"still running after {SECONDS_PER_CASE} s"]
        time.sleep(0.005)
    process.returncode = 0  # reaped here; keeps Popen from waiting on it again
    problems = []
    if os.WIFSIGNALED(status):
        problems.append(f"killed by signal {os.WTERMSIG(status)}")
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    error = open(err_path, errors="replace").read()
    if code != case["exit"]:
        problems.append(f"exit status {code}, expected {case['exit']}")
    lines = [line for line in error.split("\n") if line]
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines on standard error, expected 1")
    if not re.search(case["pattern"], error):
        problems.append(f"standard error does not match /{case['pattern']}/")
    if usage.ru_maxrss > MAX_RSS_KB:
        problems.append(f"used {usage.ru_maxrss // 1024} MB")
    if problems:
        problems.append("standard error: " + error.strip()[:400])
    return problems


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    binary, table, source_dir = argv[1:]
    cases = parse_table(table)
    with tempfile.TemporaryDirectory(prefix="numacoll-error-matrix-") as scratch:
        fixtures = make_fixtures(binary, source_dir, scratch)
        failures = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = pool.map(lambda case: (case, run_case(case, binary, fixtures, scratch)), cases)
            for case, problems in results:
                if problems:
                    failures += 1
                    print(f"FAIL line {case['line']}: numacoll {case['arguments']}")
                    for problem in problems:
                        print(f"    {problem}")
        os.chmod(fixtures["read-only"], 0o700)
    channels = sorted({next((word for word in shlex.split(case["arguments"]) if "=" not in word), "(none)")
                       for case in cases})
    print(f"{len(cases) - failures} of {len(cases)} bad inputs handled as expected (commands: {', '.join(channels)})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
