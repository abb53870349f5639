#!/usr/bin/env python3
"""Parad's differential fuzzer: random well-defined C programs, differentiated in every mode and checked
against each other and against finite differences.

    scripts/fuzz [--seeds A..B] [--omp | --both | --omp-seeds C..D] [-j N] [--opt O0,O2]
                 [--threads 1,2,3] [--keep DIR] [--shrink] [--features F,G] [--quiet]

For each seed, gen.py makes a program (a differentiated entry f and helpers; with --omp, OpenMP
constructs) and harness.py its main(); the program is built with bin/parad-cc at each optimisation
level and run (OpenMP programs at each thread count).  main() computes f's objective, its forward
tangents along every input direction, vector forward mode (width 2 and sometimes 4), the reverse
gradient (and sometimes split mode), and central finite differences, and compares: reverse against
forward tightly, vector lanes against scalar forward, the primal values the derivative calls leave
against f's, and the tangents against finite differences where no kink is near (harness.py explains
the kink-aware tolerance).  Each build is classified:

  ok        every check passed
  refused   parad-cc declined with a diagnostic "file:line:col: error: ..."; counted by construct (the
            message with names and numbers taken out)
  wrong     a derivative check failed: named by its first failing check (rev-fwd, fd, vec2, primal-rev, ...)
  internal  parad-cc crashed, asserted, said "internal error", timed out, or failed without a diagnostic
  crash     the built program died (signal, no result line, a message of Parad's runtime) or timed out
  genbug    the program itself is at fault: plain clang rejects it, or its plain build (-DFUZZ_PLAIN)
            gives inf/NaN or a different value on a second run.  A fuzzer bug, never a finding.

The summary gives the counts per class, the refusals by construct, and every failure with the command
that reproduces it.  Exit status 1 when any build is wrong, internal, crash or genbug.

  --seeds A..B     seeds A to B inclusive (default 0..19); a single number is one seed
  --omp / --both   OpenMP programs (compiled with -fopenmp, run at each --threads) / serial and OpenMP
  --omp-seeds C..D serial programs for --seeds and OpenMP programs for these seeds
  --opt O0,O2      optimisation levels (default both); '+' adds flags to one: O2+ffast-math
  --threads 1,2,3  OMP_NUM_THREADS for OpenMP programs
  -j N             programs in parallel (default 2)
  --keep DIR       keep the sources and binaries there (default: a temporary directory, removed)
  --shrink         shrink one failure of each distinct kind to a small reproducer (shrink.py), written to
                   the --keep directory (or ./fuzz-repro) as repro-*.c with the command in its header
  --features F,G   only these generator features (gen.SERIAL, gen.OPENMP), to aim at one construct; and
                   affine, never drawn: indices from loop variables alone, for the check that the entry's
                   pointers lie apart (gen.py)
  --timeout S      the most seconds parad-cc may take on one program (default 180; they take 1 or 2)

Examples: scripts/fuzz --seeds 0..999;  scripts/fuzz --omp --seeds 0..499;
          scripts/fuzz --seeds 0..59 --omp-seeds 0..39   (the fixed-seed batch of make check);
          scripts/fuzz --omp --seeds 17 --opt O2 --threads 2 --keep /tmp/f17 --shrink
"""

import argparse
import collections
import concurrent.futures
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

PARADCC = os.path.join(ROOT, "bin", "parad-cc")
CLANG = next((c for c in (os.environ.get("PARAD_CLANG"), "/usr/lib/llvm-19/bin/clang") if c and os.path.exists(c)),
             "clang-19")
COMPILE_TIMEOUT = 180
RUN_TIMEOUT = 60
# a failed build is named by its first failing check in this order of blame
KINDS = ["nonfinite", "primal-fwd", "primal-fwd-x", "primal-rev", "primal-split", "primal-vec", "rev-fwd",
         "split-rev", "vec2", "vec4", "fd"]
CLASSES = ["ok", "refused", "wrong", "internal", "crash", "genbug"]
INTERNAL = re.compile(r"internal error|Assertion|LLVM ERROR|PLEASE submit|Stack dump|UNREACHABLE|"
                      r"Segmentation fault|Aborted|core dumped")
DIAG = re.compile(r"^\S+?:\d+(?::\d+)?: error: (.*)$|^parad: error: (.*)$", re.M)


def limits():
    """No program or compiler may take more than 8 GB: a runaway tape should fail, not swap."""
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))


def sanitized_tool():
    """parad-cc built with sanitizers (make SAN=...): AddressSanitizer reserves terabytes of address space
    at start-up, so the compiler runs without the limit (the programs it builds keep it)."""
    try:
        with open(os.path.join(ROOT, "bin", ".build-kind")) as f:
            return f.read().strip() != ""
    except OSError:
        return False


SANITIZED = sanitized_tool()


def sh(cmd, timeout, env=None, limited=True):
    """(exit status, stdout, stderr); status None on timeout, -signal when killed by one."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                           preexec_fn=limits if limited else None, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or ""), ""


def construct(msg):
    """A refusal's message with the names and numbers taken out: what it counts by."""
    msg = re.sub(r" in function '[^']*'$", "", msg.strip())
    msg = re.sub(r"'[^']*'", "'X'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg


def first_line(text, pattern=None):
    for line in text.splitlines():
        if line.strip() and (pattern is None or re.search(pattern, line)):
            return line.strip()[:200]
    return ""


def build(src, exe, opt, omp):
    """Builds with parad-cc: ('ok', ''), ('refused', construct), ('internal', what), ('error', stderr)."""
    cmd = [PARADCC] + ["-" + o for o in opt.split("+")] + (["-fopenmp"] if omp else []) + [src, "-o", exe, "-lm"]
    rc, out, err = sh(cmd, COMPILE_TIMEOUT, limited=not SANITIZED)
    if rc is None:
        return "internal", "parad-cc ran out of time (%s)" % "compile time limit"
    if rc == 0 and INTERNAL.search(err):   # built all the same (-O0's copies fall back), but a bug to report
        return "internal", construct(first_line(err, INTERNAL))
    if rc == 0:
        return "ok", ""
    if INTERNAL.search(err) or rc < 0 or rc >= 128:
        what = first_line(err, INTERNAL) or first_line(err) or "exit status %d" % rc
        if what.endswith(":"):    # "the generated code is invalid:" and the verifier's first complaint
            lines = err.splitlines()
            at = [l.strip() for l in lines].index(what) if what in [l.strip() for l in lines] else -1
            if 0 <= at < len(lines) - 1:
                what += " " + lines[at + 1].strip()
        what = re.sub(r"^\S+?:\d+(?::\d+)?: ", "", what)
        return "internal", construct(what)
    m = DIAG.search(err)
    if m:
        return "refused", construct(m.group(1) or m.group(2))
    return "internal", "exit status %d without a diagnostic: %s" % (rc, first_line(err))


def run(exe, threads):
    """Runs a built program: ('ok', ''), ('wrong', kind, fail lines), ('crash', what)."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    rc, out, err = sh([exe], RUN_TIMEOUT, env)
    if rc is None:
        return "crash", "timed out after %d s" % RUN_TIMEOUT, ""
    res = re.search(r"^FUZZ-RESULT (\w+)(?: kinds=(\S+))? checks=(\d+) fdskip=(\d+)", out, re.M)
    if rc != 0 or not res:
        what = "signal %d" % -rc if rc < 0 else "exit status %d" % rc
        detail = first_line(err)
        return "crash", construct(what + (": " + detail if detail else "")), err[-2000:]
    stats = (int(res.group(3)), int(res.group(4)), out.count("FUZZ-FD "))
    if res.group(1) == "ok":
        return "ok", "", "", stats
    kinds = res.group(2).split(",")
    kind = min(kinds, key=lambda k: KINDS.index(k) if k in KINDS else len(KINDS))
    fails = "\n".join(line for line in out.splitlines() if line.startswith("FUZZ-FAIL"))
    return "wrong", kind, fails, stats


def plain_check(src, exe, omp):
    """The program without derivatives, built by plain clang: None if well-behaved, else what is wrong."""
    cmd = [CLANG, "-O1", "-DFUZZ_PLAIN", "-Werror=uninitialized", "-Werror=sometimes-uninitialized",
           "-Werror=return-type", "-Werror=implicit-function-declaration"] + \
          (["-fopenmp"] if omp else []) + [src, "-o", exe, "-lm"]
    rc, out, err = sh(cmd, COMPILE_TIMEOUT)
    if rc != 0:
        return "plain clang rejects it: " + (first_line(err, "error") or first_line(err))
    for threads in ((1, 3) if omp else (1,)):
        rc, out, err = sh([exe], RUN_TIMEOUT, dict(os.environ, OMP_NUM_THREADS=str(threads)))
        if rc != 0 or "FUZZ-PLAIN ok" not in out:
            return "plain build: " + (first_line(out, "FUZZ-PLAIN") or "exit status %s %s" % (rc, first_line(err)))
    return None


class Result:
    """One build of one program: its class, detail (check kind, construct, message), where it ran."""

    def __init__(s, seed, omp, opt, cls, detail, threads=None, fails="", stats=(0, 0, 0)):
        s.seed, s.omp, s.opt, s.cls, s.detail, s.threads, s.fails = seed, omp, opt, cls, detail, threads, fails
        s.stats = stats      # the runs' checks, and finite-difference directions skipped and compared

    def name(s):
        return "%s seed %d -%s%s" % ("omp" if s.omp else "serial", s.seed, s.opt,
                                     " threads=%s" % s.threads if s.threads else "")

    def signature(s):
        """What the shrinker keeps and the summary deduplicates by."""
        return (s.cls, s.detail, s.omp)

    def reproduce(s):
        return "scripts/fuzz %s--seeds %d --opt %s%s --keep DIR" % (
            "--omp " if s.omp else "", s.seed, s.opt, " --threads %s" % s.threads if s.threads else "")


def program_name(seed, omp):
    return "%s%d" % ("o" if omp else "s", seed)


def fuzz_one(seed, omp, opts, threads, work, features=None):
    """Generates, builds and runs one program; returns its Results, one per build (the worst run)."""
    name = program_name(seed, omp)
    src = os.path.join(work, name + ".c")
    try:
        text = gen.generate(seed, omp, features).c()
    except Exception as e:   # a generator crash is a fuzzer bug
        return [Result(seed, omp, opt, "genbug", "generator raised %s: %s" % (type(e).__name__, e)) for opt in opts]
    with open(src, "w") as f:
        f.write(text)
    results = []
    for opt in opts:
        exe = os.path.join(work, "%s-%s" % (name, opt))
        cls, detail = build(src, exe, opt, omp)
        if cls != "ok":
            results.append(Result(seed, omp, opt, cls, detail))
            continue
        worst, stats = None, [0, 0, 0]
        for t in (threads if omp else [1]):
            r = run(exe, t)
            res = Result(seed, omp, opt, r[0], r[1], t if omp else None, r[2] if len(r) > 2 else "")
            stats = [a + b for a, b in zip(stats, r[3] if len(r) > 3 else (0, 0, 0))]
            if worst is None or CLASSES.index(res.cls) > CLASSES.index(worst.cls):
                worst = res
        worst.stats = stats
        results.append(worst)
    if any(r.cls not in ("ok",) for r in results):
        bad = plain_check(src, os.path.join(work, name + "-plain"), omp)
        if bad:
            return [Result(seed, omp, r.opt, "genbug", bad) for r in results]
    return results


def parse_seeds(text):
    if ".." in text:
        a, b = text.split("..")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def summary(results, progs, elapsed, opts, threads, out=sys.stdout):
    w = lambda line="": print(line, file=out)
    nser = sum(1 for s, o in progs if not o)
    nomp = len(progs) - nser
    w("parad fuzz: %d serial + %d OpenMP programs at %s%s: %d builds in %.0f s" % (
        nser, nomp, " ".join("-" + o for o in opts), ", OpenMP at %s threads" % ",".join(map(str, threads)) if nomp else "",
        len(results), elapsed))
    checks, skipped, compared = (sum(r.stats[k] for r in results) for k in range(3))
    w("%d builds ran, making %d checks; finite differences compared along %d directions, %d skipped at kinks" % (
        sum(1 for r in results if r.stats[0]), checks, compared, skipped))
    by = collections.Counter(r.cls for r in results)
    w("builds by class:")
    for c in CLASSES:
        w("  %-9s %5d" % (c, by.get(c, 0)))
    for omp in (False, True):
        sub = [r for r in results if r.omp == omp]
        if sub and nser and nomp:
            w("  %s: %s" % ("OpenMP" if omp else "serial", ", ".join(
                "%s %d" % (c, n) for c, n in sorted(collections.Counter(r.cls for r in sub).items(), key=lambda x: CLASSES.index(x[0])))))
    wrong = collections.Counter(r.detail for r in results if r.cls == "wrong")
    if wrong:
        w("wrong derivatives by first failing check:")
        for k, n in wrong.most_common():
            w("  %5d  %s" % (n, k))
    refused = collections.Counter(r.detail for r in results if r.cls == "refused")
    if refused:
        w("refusals by construct (builds; a few examples):")
        for k, n in refused.most_common():
            ex = sorted((r for r in results if r.cls == "refused" and r.detail == k), key=lambda r: (r.omp, r.seed))
            w("  %5d  %s\n         e.g. %s" % (n, k, ", ".join("%s%d -%s" % ("omp " if r.omp else "", r.seed, r.opt)
                                                            for r in ex[:4])))
    failures = [r for r in results if r.cls not in ("ok", "refused")]
    if failures:
        w("failures:")
        for r in sorted(failures, key=lambda r: (r.omp, r.seed, r.opt)):
            w("  %s: %s %s   [%s]" % (r.name(), r.cls, r.detail, r.reproduce()))
    w("%d failures (wrong %d, internal %d, crash %d, genbug %d), %d refusals" % (
        len(failures), by.get("wrong", 0), by.get("internal", 0), by.get("crash", 0), by.get("genbug", 0),
        by.get("refused", 0)))


def main(argv=None):
    global COMPILE_TIMEOUT
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0..19")
    ap.add_argument("--omp", action="store_true")
    ap.add_argument("--both", action="store_true")
    ap.add_argument("--omp-seeds")
    ap.add_argument("--opt", default="O0,O2")
    ap.add_argument("--threads", default="1,2,3")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--keep")
    ap.add_argument("--shrink", action="store_true")
    ap.add_argument("--features")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--timeout", type=int, default=COMPILE_TIMEOUT)
    a = ap.parse_args(argv)
    if not os.path.exists(PARADCC):
        sys.exit("fuzz: %s not built (make)" % PARADCC)
    COMPILE_TIMEOUT = a.timeout
    seeds = parse_seeds(a.seeds)
    opts = a.opt.split(",")
    threads = [int(t) for t in a.threads.split(",")]
    features = set(a.features.split(",")) if a.features else None
    modes = [False, True] if a.both else [a.omp]
    progs = [(s, m) for m in modes for s in seeds]
    if a.omp_seeds:
        progs = [(s, False) for s in seeds] + [(s, True) for s in parse_seeds(a.omp_seeds)]
    work = a.keep or tempfile.mkdtemp(prefix="parad-fuzz-")
    os.makedirs(work, exist_ok=True)
    start = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
        futs = {pool.submit(fuzz_one, s, m, opts, threads, work, features): (s, m) for s, m in progs}
        done = 0
        for fut in concurrent.futures.as_completed(futs):
            rs = fut.result()
            results += rs
            done += 1
            for r in rs:
                if r.cls not in ("ok", "refused"):
                    print("FAIL %s: %s %s" % (r.name(), r.cls, r.detail), flush=True)
                    if r.fails and not a.quiet:
                        print("    " + r.fails.replace("\n", "\n    ")[:1500], flush=True)
            if not a.quiet and done % 50 == 0:
                print("... %d/%d programs, %.0f s" % (done, len(progs), time.time() - start), flush=True)
    summary(results, progs, time.time() - start, opts, threads)
    if a.shrink:
        import shrink
        shrink.shrink_failures(results, a.keep or os.path.join(os.getcwd(), "fuzz-repro"), features)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if any(r.cls not in ("ok", "refused") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
