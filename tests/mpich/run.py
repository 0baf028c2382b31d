#!/usr/bin/env python3
"""MPICH's own test suite (test/mpi) against gpumpi, or against a CPU MPI.

Builds every program the chosen directories' testlists name, runs each
testlist line at its rank count with its arguments and environment, judges
the output as MPICH's runtests does, and compares with an expectations file:
every run not listed there must pass, and every listed run must fail (an
unexpected pass is reported too, so the file stays true).

  run.py --src DIR/test/mpi --work DIR [--mpi gpumpi|mpich] [--dirs a,b]
         [--expect FILE] [--jobs N] [--only PATTERN] [--results FILE]
"""
import argparse
import concurrent.futures as cf
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DIRS = "attr,coll,comm,datatype,errhan,group,info,init,part,pt2pt,topo"
# MPICH's runtests allows 180 s unless MPITEST_TIMEOUT says otherwise; 60
# here keeps CI's hangs short (every run but the slowest takes a few
# seconds); MPITEST_TIMEOUT and MPITEST_TIMEOUT_MULTIPLIER work as there
DEFAULT_TIME_LIMIT = int(os.environ.get("MPITEST_TIMEOUT", "60"))
TIME_LIMIT_MULTIPLIER = float(os.environ.get("MPITEST_TIMEOUT_MULTIPLIER", "1"))
UTIL_SOURCES = ["util/mtest.c", "util/mtest_common.c", "util/mtest_single.c", "util/dtypes.c"]
DTPOOLS_SOURCES = ["dtpools.c", "dtpools_misc.c", "dtpools_init_verify.c", "dtpools_desc.c",
                   "dtpools_attr.c", "dtpools_custom.c"]


class Run:
    """One testlist line: a program, a rank count, its options."""

    def __init__(self, directory, line):
        fields = line.split()
        self.directory = directory
        self.program = fields[0]
        self.np = int(fields[1])
        self.args, self.env, self.opts = [], {}, {}
        for f in fields[2:]:
            key, _, value = f.partition("=")
            if key == "arg":
                self.args.append(value)
            elif key == "env":
                name, _, v = value.partition("=")
                self.env[name] = v
            else:
                self.opts[key] = value
        self.key = directory + "/" + " ".join(fields)
        self.result, self.detail, self.seconds = None, "", 0.0

    @property
    def time_limit(self):
        return int(int(self.opts.get("timeLimit", DEFAULT_TIME_LIMIT)) * TIME_LIMIT_MULTIPLIER)


def read_testlist(src, directory):
    path = os.path.join(src, directory, "testlist.in")
    if not os.path.exists(path):
        path = os.path.join(src, directory, "testlist")
    runs = []
    for raw in open(path):
        line = raw.strip()
        # @largetest@ lines are commented out unless MPICH is configured
        # with --enable-large-tests, as configure does by default.
        if not line or line.startswith("#") or line.startswith("@largetest@"):
            continue
        line = line.replace("@mpix@", "")
        runs.append(Run(directory, line))
    return runs


def read_makefile_am(src, directory):
    """{program: (sources, cppflags, extra libraries)} from Makefile.am."""
    text = open(os.path.join(src, directory, "Makefile.am")).read().replace("\\\n", " ")
    assigns = {}
    for m in re.finditer(r"^(\w+)\s*\+?=\s*(.*)$", text, re.M):
        assigns.setdefault(m.group(1), []).append(m.group(2))
    programs = {}
    for prog in " ".join(assigns.get("noinst_PROGRAMS", [])).split():
        if prog.startswith("$") or prog.startswith("@"):
            continue
        sources = " ".join(assigns.get(prog + "_SOURCES", [prog + ".c"])).split()
        flags = [f for f in " ".join(assigns.get(prog + "_CPPFLAGS", [])).split() if not f.startswith("$")]
        ldadd = " ".join(assigns.get(prog + "_LDADD", []))
        extra = ["-lm"] if "-lm" in ldadd else []
        programs[prog] = ([s for s in sources if s.endswith(".c")], flags, extra, "LDADDDATA" in ldadd)
    return programs


class Toolchain:
    def __init__(self, mpi, work, src):
        self.mpi, self.work, self.src = mpi, work, src
        if mpi == "gpumpi":
            cc = os.environ.get("GPUMPICC", os.path.join(HERE, "..", "..", "build", "bin", "gpumpicc"))
            self.cc = [os.path.abspath(cc), "--backend=" + os.environ.get("GPUMPI_BACKEND", "threads")]
        else:
            self.cc = [os.environ.get("MPICC", "mpicc.mpich")]
        self.includes = ["-I" + os.path.join(HERE, "include"), "-I" + os.path.join(src, "include"),
                         "-I" + os.path.join(src, "dtpools", "include")]

    def compile(self, sources, out, flags=(), libs=(), objects_only=False):
        cmd = self.cc + ["-O1", "-w"] + self.includes + list(flags)
        cmd += ["-c"] if objects_only else []
        cmd += list(sources) + list(libs) + ["-o", out]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        return p.returncode == 0, p.stdout

    def command(self, exe, run):
        if self.mpi == "gpumpi":
            return [exe] + run.args + ["---gpumpi", "-n", str(run.np)]
        mpiexec = os.environ.get("MPIEXEC", "mpiexec.mpich")
        return [mpiexec, "-n", str(run.np), exe] + run.args


def build_support(tc):
    """libmtest (with dtpools and dtypes), built once."""
    lib = os.path.join(tc.work, "libmtest.a")
    if os.path.exists(lib):
        return lib
    # dtpools_internal.h includes "../dtpoolsconf.h", which configure writes.
    shutil.copy(os.path.join(HERE, "include", "dtpoolsconf.h"), os.path.join(tc.src, "dtpools", "dtpoolsconf.h"))
    objs = []
    sources = [os.path.join(tc.src, s) for s in UTIL_SOURCES]
    sources += [os.path.join(tc.src, "dtpools", "src", s) for s in DTPOOLS_SOURCES]
    for s in sources:
        o = os.path.join(tc.work, "support", os.path.basename(s)[:-2] + ".o")
        os.makedirs(os.path.dirname(o), exist_ok=True)
        ok, log = tc.compile([s], o, objects_only=True)
        if not ok:
            sys.exit("run.py: the suite's support library does not build:\n" + log)
        objs.append(o)
    subprocess.run(["ar", "rcs", lib] + objs, check=True)
    return lib


def build_program(tc, lib, directory, prog, spec):
    sources, flags, extra, _ = spec
    exe = os.path.join(tc.work, directory, prog)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    ok, log = tc.compile([os.path.join(tc.src, directory, s) for s in sources], exe, flags, [lib] + extra)
    return prog, ok, log


def judge(run, rc, output):
    """MPICH runtests' rules: exit 0 and a 'No Errors' line and nothing else,
    unless the testlist names another result test."""
    lines = [l for l in output.splitlines() if l.strip()]
    test = run.opts.get("resultTest", "")
    if test == "TestErrFatal":
        return (rc != 0, "a fatal error was expected, the program returned 0")
    if test == "TestStatus":
        stray = [l for l in lines if not l.startswith("=")]
        if stray:
            return False, "unexpected output: " + stray[0]
        return (rc != 0, "a nonzero exit status was expected")
    noerr = [l for l in lines if re.match(r"^\s*No [Ee]rrors\s*$", l)]
    stray = [l for l in lines if not re.match(r"^\s*(No [Ee]rrors|Test Passed)\s*$", l)]
    if stray:
        return False, stray[0][:300]
    if not noerr:
        return False, "no 'No Errors' line (exit status %d)" % rc
    if rc != 0:
        return False, "exit status %d" % rc
    return True, ""


def execute(tc, run):
    exe = os.path.join(tc.work, run.directory, run.program)
    # as runtests: mpiexec (gpumpi's launcher too) ends a job that runs past
    # MPIEXEC_TIMEOUT with an error, which init/timeout expects; the kill
    # here, a little later, is for a job that does not end even then
    env = dict(os.environ, MPIEXEC_TIMEOUT=str(run.time_limit), **run.env)
    start = time.time()
    p = subprocess.Popen(tc.command(exe, run), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         cwd=os.path.dirname(exe), env=env, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=run.time_limit + 15)
        ok, detail = judge(run, p.returncode, out.decode(errors="replace"))
        run.result, run.detail = ("pass" if ok else "fail"), detail
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        run.result, run.detail = "timeout", "did not finish in %d s" % run.time_limit
    run.seconds = time.time() - start
    return run


def read_expectations(path):
    expected = {}
    if not path:
        return expected
    for raw in open(path):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, reason = line.partition(" :: ")
        if not sep:
            sys.exit("%s: expected 'run :: reason', got: %s" % (path, line))
        expected[" ".join(key.split())] = reason.strip()
    return expected


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", required=True, help="MPICH's test/mpi directory")
    ap.add_argument("--work", required=True, help="where programs are built")
    ap.add_argument("--mpi", default="gpumpi", choices=["gpumpi", "mpich"])
    ap.add_argument("--dirs", default=DIRS)
    ap.add_argument("--expect", help="expected failures: 'dir/testlist line :: reason' per line")
    ap.add_argument("--only", help="regular expression: only runs whose key matches")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--results", help="write every run's result here")
    ap.add_argument("--verbose", action="store_true", help="print every failure's detail")
    # the GPU machine has no converter: build here, carry the programs, run there
    ap.add_argument("--build-only", action="store_true", help="build the programs and stop")
    ap.add_argument("--prebuilt", action="store_true",
                    help="build nothing: run the programs already in --work (a missing one fails as a build)")
    a = ap.parse_args()
    src, work = os.path.abspath(a.src), os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    tc = Toolchain(a.mpi, work, src)

    runs, programs = [], {}
    for d in a.dirs.split(","):
        specs = read_makefile_am(src, d)
        for r in read_testlist(src, d):
            if a.only and not re.search(a.only, r.key):
                continue
            runs.append(r)
            programs[(d, r.program)] = specs.get(r.program, ([r.program + ".c"], [], [], False))

    t0 = time.time()
    build_log = {}
    if a.prebuilt:
        for d, p in programs:
            exe = os.path.join(work, d, p)
            build_log[(d, p)] = None if os.access(exe, os.X_OK) else "error: not built (%s)" % exe
    else:
        lib = build_support(tc)
        with cf.ThreadPoolExecutor(a.jobs) as pool:
            futures = [pool.submit(build_program, tc, lib, d, p, s) for (d, p), s in programs.items()]
            for (d, p), f in zip(programs, futures):
                _, ok, log = f.result()
                build_log[(d, p)] = None if ok else log
    t_build = time.time() - t0
    if a.build_only:
        failed = [k for k, log in build_log.items() if log is not None]
        for d, p in failed:
            print("build failed: %s/%s: %s" % (d, p, build_log[(d, p)].strip().splitlines()[-1:]))
        print("%d of %d programs built in %.0f s" % (len(programs) - len(failed), len(programs), t_build))
        return 1 if failed else 0

    todo = []
    for r in runs:
        log = build_log[(r.directory, r.program)]
        if log is None:
            todo.append(r)
            continue
        first = next((l for l in log.splitlines() if "error" in l), log.strip().splitlines()[0] if log.strip() else "")
        r.result, r.detail = "build", first.replace(src + "/", "")[:300]
    # Long runs first, so one slow test does not finish alone at the end.
    todo.sort(key=lambda r: -r.time_limit)
    with cf.ThreadPoolExecutor(a.jobs) as pool:
        list(pool.map(lambda r: execute(tc, r), todo))
    t_run = time.time() - t0 - t_build

    expected = read_expectations(a.expect)
    keys = {r.key for r in runs}
    unexpected_fail, unexpected_pass = [], []
    for r in runs:
        exp = expected.get(r.key)
        if r.result != "pass" and exp is None:
            unexpected_fail.append(r)
        elif r.result == "pass" and exp is not None:
            unexpected_pass.append(r)
    chosen = a.dirs.split(",")
    stale = [k for k in expected if k not in keys and not a.only and k.split("/")[0] in chosen]

    passed = sum(r.result == "pass" for r in runs)
    print("%s: %d of %d runs pass (%d programs built in %.0f s, runs took %.0f s)"
          % (a.mpi, passed, len(runs), len(programs), t_build, t_run))
    for kind in ("build", "fail", "timeout"):
        n = sum(r.result == kind for r in runs)
        if n:
            print("  %-8s %d" % (kind, n))
    if a.results:
        with open(a.results, "w") as f:
            for r in sorted(runs, key=lambda r: r.key):
                f.write("%-7s %-60s %6.1fs  %s\n" % (r.result, r.key, r.seconds, r.detail))
    for r in runs:
        if a.verbose and r.result != "pass":
            print("  %s: %s: %s" % (r.result, r.key, r.detail))
    if a.expect:
        for r in unexpected_fail:
            print("UNEXPECTED %s: %s: %s" % (r.result.upper(), r.key, r.detail))
        for r in unexpected_pass:
            print("UNEXPECTED PASS: %s (listed as: %s); take it out of %s" % (r.key, expected[r.key], a.expect))
        for k in stale:
            print("STALE: %s is in %s but in no testlist" % (k, a.expect))
        if unexpected_fail or unexpected_pass or stale:
            return 1
        print("every failure is an expected one (%d listed in %s)" % (len(expected), os.path.basename(a.expect)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
