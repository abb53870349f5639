#!/usr/bin/env python3
"""Parad's MPI fuzzer: random MPI programs, differentiated in both modes and checked against finite
differences over the ranks (tests/include/mpicheck.h).

    scripts/fuzz-mpi [--seeds A..B] [--opt O0,O2] [--ranks 2,3] [--mpi openmpi,mpich] [-j N] [--keep DIR]

Each program's entry f(x, &J) starts from three local arrays made of the rank's inputs x, then runs a
random sequence of steps: local nonlinear updates of the arrays, and communications between them (every
rank runs every step, so none can deadlock): reductions (sum, in place, max and min, to a root and back),
shifts around the ranks (Sendrecv, Sendrecv_replace, Isend/Irecv with Waitall, Send/Recv between pairs,
messages of bytes, of contiguous and strided derived types), gathers and scatters, all-to-all, scans,
broadcasts, reduce-scatter, gathers of varying counts, sub-communicators, Waitany, Probe with Get_count,
persistent requests; some steps repeated in a loop (checkpointed now and then), some communications in a
helper of their own, some local updates over OpenMP threads (2 per rank). J, the sum over ranks of a function of the
arrays, ends in an Allreduce. main() (MPI_CHECK_BOTH_MODES) checks the gradient against central
differences of J perturbing one value of one rank at a time (h 1e-6, tolerance 1e-6), the forward tangent
against sum over ranks of gradient . v (1e-12 relative), and the primal. Where only finite differences
disagree, the run is repeated with h 1e-7 and 1e-8: a steep function's differences converge to the
gradient. A build is ok, refused (a
diagnostic, counted by message), wrong (a check failed), internal (the compiler failed without a
diagnostic) or crash (the run died or timed out). Exit status 1 when any build is wrong, internal or crash.
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MAXR = 4  # the most ranks a program is run on: its gather buffers are sized for it


class Gen:
    def __init__(s, seed):
        s.r = random.Random(seed)
        s.n = s.r.choice([2, 3, 4, 5, 6])
        s.tag = 0
        s.body = []
        s.features = set()
        s.extra = random.Random(seed * 7919 + 1)  # later features, on a stream of their own: earlier seeds keep
        s.helpers = []                             # their programs

    def arr(s):
        return s.r.choice("abc")

    def two(s):
        a, b = s.r.sample("abc", 2)
        return a, b

    def coef(s):
        return "%.3f" % s.r.uniform(-0.9, 0.9)

    def term(s, i):
        """A smooth, bounded expression of the arrays at index expression i."""
        a = s.arr()
        k = s.r.randrange(s.n)
        at = "%s[%s]" % (a, i) if s.r.random() < 0.6 else "%s[(%s + %d) %% N]" % (a, i, k)
        f = s.r.choice(["sin(%s)", "tanh(%s)", "%s * %s", "cos(%s)", "(%s)", "atan(%s)", "exp(0.3 * tanh(%s))"])
        e = f % ((at, at) if f.count("%s") == 2 else at)
        if s.r.random() < 0.4:
            e = "%s * (rank + 1) * 0.25" % e
        return e

    def expr(s, i):
        e = "%s * %s" % (s.coef(), s.term(i))
        for _ in range(s.r.randrange(1, 3)):
            op = s.r.choice(["+", "+", "*"])
            e = "%s %s %s * %s" % (e, op, s.coef(), s.term(i))
        return e

    def local(s):
        """An update squashed into (-1, 1): unbounded products overflow over the steps, and the reverse sweep
        of an overflowed value that the program overwrites later multiplies an adjoint of 0 by inf."""
        d = s.arr()
        pragma = ""
        if s.r.random() < 0.25:  # hybrid: the update over the rank's threads (reads of d only at i)
            s.features.add("omp")
            pragma = "_Pragma(\"omp parallel for\") "
            e = "tanh(%s)" % s.expr("i").replace("%s[(i + " % d, "%s_[(i + " % d)
            s.body.append("{ double %s_[N]; for (int i = 0; i < N; i++) %s_[i] = %s[i]; %sfor (int i = 0; i < N; i++)"
                          " %s[i] = %s; }" % (d, d, d, pragma, d, e))
            return
        s.body.append("for (int i = 0; i < N; i++) %s[i] = tanh(%s);" % (d, s.expr("i")))

    def newtag(s):
        s.tag += 1
        return s.tag

    def shift_vars(s):
        k = s.r.randrange(1, 4)
        return ("int dest = (rank + %d) %% size, src = (rank - %d %% size + size) %% size;" % (k, k))

    # ---- communication steps: (name, emitter) ----
    def c_allreduce(s):
        a, b = s.two()
        op = s.r.choice(["MPI_SUM", "MPI_SUM", "MPI_MAX", "MPI_MIN"])
        s.features.add("allreduce_" + op[4:].lower())
        s.body.append("MPI_Allreduce(%s, %s, N, MPI_DOUBLE, %s, MPI_COMM_WORLD);" % (a, b, op))

    def c_allreduce_inplace(s):
        s.features.add("allreduce_inplace")
        s.body.append("MPI_Allreduce(MPI_IN_PLACE, %s, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);" % s.arr())

    def c_reduce_bcast(s):
        a, b = s.two()
        root = s.r.randrange(MAXR)
        s.features.add("reduce_bcast")
        s.body.append("{ int root = %d %% size; MPI_Reduce(%s, %s, N, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);"
                      " if (rank == root) for (int i = 0; i < N; i++) %s[i] = sin(%s[i]);"
                      " MPI_Bcast(%s, N, MPI_DOUBLE, root, MPI_COMM_WORLD); }" % (root, a, b, b, b, b))

    def shift(s, a, b, count, dtype, make_type=""):
        """A Sendrecv of count dtype's from a to the rank k places on, into b from the rank k places back
        (make_type: the statements that build dtype, a variable t, freed after)."""
        free = " MPI_Type_free(&t);" if make_type else ""
        s.body.append("{ %s %sMPI_Sendrecv(%s, %s, %s, dest, %d, %s, %s, %s, src, %d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);%s }"
                      % (s.shift_vars(), make_type, a, count, dtype, s.newtag(), b, count, dtype, s.tag, free))

    def c_sendrecv(s):
        a, b = s.two()
        s.features.add("sendrecv")
        s.shift(a, b, "N", "MPI_DOUBLE")

    def c_sendrecv_replace(s):
        s.features.add("sendrecv_replace")
        s.body.append("{ %s MPI_Sendrecv_replace(%s, N, MPI_DOUBLE, dest, %d, src, %d, MPI_COMM_WORLD,"
                      " MPI_STATUS_IGNORE); }" % (s.shift_vars(), s.arr(), s.newtag(), s.tag))

    def c_nonblocking(s):
        a, b = s.two()
        s.features.add("isend_irecv")
        order = s.r.random() < 0.5
        recv = "MPI_Irecv(%s, N, MPI_DOUBLE, src, %d, MPI_COMM_WORLD, &rq[0]);" % (b, s.newtag())
        send = "MPI_Isend(%s, N, MPI_DOUBLE, dest, %d, MPI_COMM_WORLD, &rq[1]);" % (a, s.tag)
        s.body.append("{ %s MPI_Request rq[2]; %s %s MPI_Waitall(2, rq, MPI_STATUSES_IGNORE); }"
                      % (s.shift_vars(), recv if order else send, send if order else recv))

    def c_pairs(s):
        a, b = s.two()
        s.features.add("send_recv")
        t = s.newtag()
        s.body.append("if (rank %% 2 == 0 && rank + 1 < size) MPI_Send(%s, N, MPI_DOUBLE, rank + 1, %d, MPI_COMM_WORLD);"
                      " else if (rank %% 2 == 1) MPI_Recv(%s, N, MPI_DOUBLE, rank - 1, %d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);"
                      % (a, t, b, t))

    def c_bytes(s):
        a, b = s.two()
        s.features.add("bytes")
        s.shift(a, b, "N * (int)sizeof(double)", "MPI_BYTE")

    def c_derived(s):
        a, b = s.two()
        if s.r.random() < 0.5 or s.n < 2:
            s.features.add("type_contiguous")
            mk = "MPI_Type_contiguous(N, MPI_DOUBLE, &t);"
        else:  # every other element: the receive buffer's others keep their values
            s.features.add("type_vector")
            mk = "MPI_Type_vector(%d, 1, 2, MPI_DOUBLE, &t);" % (s.n // 2)
        s.shift(a, b, "1", "t", "MPI_Datatype t; %s MPI_Type_commit(&t); " % mk)

    def c_allgather(s):
        a, b = s.two()
        s.features.add("allgather")
        k = s.r.randrange(1, 5)
        s.body.append("{ double all[N * %d]; MPI_Allgather(%s, N, MPI_DOUBLE, all, N, MPI_DOUBLE, MPI_COMM_WORLD);"
                      " for (int i = 0; i < N; i++) %s[i] = all[(i * %d + rank) %% (N * size)] * all[i];"
                      " }" % (MAXR, a, b, k))

    def c_gather_scatter(s):
        a, b = s.two()
        s.features.add("gather_scatter")
        root = s.r.randrange(MAXR)
        s.body.append("{ int root = %d %% size; double all[N * %d]; MPI_Gather(%s, N, MPI_DOUBLE, all, N, MPI_DOUBLE,"
                      " root, MPI_COMM_WORLD); if (rank == root) for (int i = 0; i < N * size; i++) all[i] ="
                      " tanh(all[i] + 0.5 * all[(i + 1) %% (N * size)]); MPI_Scatter(all, N, MPI_DOUBLE, %s, N, MPI_DOUBLE,"
                      " root, MPI_COMM_WORLD); }" % (root, MAXR, a, b))

    def c_alltoall(s):
        a, b = s.two()
        s.features.add("alltoall")
        s.body.append("{ double out[%d], in[%d]; for (int i = 0; i < size; i++) out[i] = %s[i %% N] * (i + 1);"
                      " MPI_Alltoall(out, 1, MPI_DOUBLE, in, 1, MPI_DOUBLE, MPI_COMM_WORLD);"
                      " for (int i = 0; i < N; i++) %s[i] += in[i %% size]; }" % (MAXR, MAXR, a, b))

    def c_scan(s):
        a, b = s.two()
        s.features.add("scan")
        s.body.append("MPI_Scan(%s, %s, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);" % (a, b))

    def c_bcast(s):
        s.features.add("bcast")
        s.body.append("MPI_Bcast(%s, N, MPI_DOUBLE, %d %% size, MPI_COMM_WORLD);" % (s.arr(), s.r.randrange(MAXR)))

    def c_reduce_scatter(s):
        a, b = s.two()
        s.features.add("reduce_scatter_block")
        s.body.append("{ double out[N * %d], in[N]; for (int i = 0; i < N * size; i++) out[i] = %s[i %% N] * (1 + 0.1 * i);"
                      " MPI_Reduce_scatter_block(out, in, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);"
                      " for (int i = 0; i < N; i++) %s[i] = in[i]; }" % (MAXR, a, b))

    def c_split(s):
        a, b = s.two()
        s.features.add("comm_split")
        s.body.append("{ MPI_Comm sub; MPI_Comm_split(MPI_COMM_WORLD, rank %% 2, -rank, &sub);"
                      " MPI_Allreduce(%s, %s, N, MPI_DOUBLE, MPI_SUM, sub); MPI_Comm_free(&sub); }" % (a, b))

    def c_gatherv(s):
        a, b = s.two()
        s.features.add("gatherv_scatterv")
        root = s.r.randrange(MAXR)
        s.body.append("{ int root = %d %% size, cnt[%d], disp[%d], tot = 0; for (int r = 0; r < size; r++)"
                      " cnt[r] = 1 + r %% N, disp[r] = tot, tot += cnt[r]; double all[N * %d];"
                      " MPI_Gatherv(%s, cnt[rank], MPI_DOUBLE, all, cnt, disp, MPI_DOUBLE, root, MPI_COMM_WORLD);"
                      " if (rank == root) for (int i = 0; i < tot; i++) all[i] = sin(all[i]) * (1 + all[(i + 1) %% tot]);"
                      " MPI_Scatterv(all, cnt, disp, MPI_DOUBLE, %s, cnt[rank], MPI_DOUBLE, root, MPI_COMM_WORLD); }"
                      % (root, MAXR, MAXR, MAXR, a, b))

    def c_allgatherv(s):
        a, b = s.two()
        s.features.add("allgatherv")
        s.body.append("{ int cnt[%d], disp[%d], tot = 0; for (int r = 0; r < size; r++) cnt[r] = N - r %% N, disp[r] = tot,"
                      " tot += cnt[r]; double all[N * %d]; MPI_Allgatherv(%s, cnt[rank], MPI_DOUBLE, all, cnt, disp,"
                      " MPI_DOUBLE, MPI_COMM_WORLD); for (int i = 0; i < N; i++) %s[i] = all[(i * 2 + rank) %% tot]; }"
                      % (MAXR, MAXR, MAXR, a, b))

    def c_waitany(s):
        a, b = s.two()
        s.features.add("waitany")
        t = s.newtag()
        s.body.append("{ %s MPI_Request rq[2]; MPI_Irecv(%s, N, MPI_DOUBLE, src, %d, MPI_COMM_WORLD, &rq[0]);"
                      " MPI_Isend(%s, N, MPI_DOUBLE, dest, %d, MPI_COMM_WORLD, &rq[1]);"
                      " for (int k = 0; k < 2; k++) { int idx; MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE); } }"
                      % (s.shift_vars(), b, t, a, t))

    def c_probe(s):
        a, b = s.two()
        s.features.add("probe")
        t = s.newtag()
        s.body.append("{ %s MPI_Request rq; MPI_Isend(%s, N, MPI_DOUBLE, dest, %d, MPI_COMM_WORLD, &rq); MPI_Status st;"
                      " MPI_Probe(src, %d, MPI_COMM_WORLD, &st); int cnt; MPI_Get_count(&st, MPI_DOUBLE, &cnt);"
                      " MPI_Recv(%s, cnt, MPI_DOUBLE, src, %d, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Wait(&rq, MPI_STATUS_IGNORE); }"
                      % (s.shift_vars(), a, t, t, b, t))

    def c_persistent(s):
        a, b = s.two()
        s.features.add("persistent")
        t = s.newtag()
        s.body.append("{ %s MPI_Request rq[2]; MPI_Recv_init(%s, N, MPI_DOUBLE, src, %d, MPI_COMM_WORLD, &rq[0]);"
                      " MPI_Send_init(%s, N, MPI_DOUBLE, dest, %d, MPI_COMM_WORLD, &rq[1]); for (int k = 0; k < 2; k++) {"
                      " MPI_Startall(2, rq); MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);"
                      " for (int i = 0; i < N; i++) %s[i] = 0.5 * %s[i] + 0.3 * sin(%s[i]); }"
                      " MPI_Request_free(&rq[0]); MPI_Request_free(&rq[1]); }" % (s.shift_vars(), b, t, a, t, a, a, b))

    COMMS = ["c_split", "c_gatherv", "c_allgatherv", "c_waitany", "c_probe", "c_persistent","c_allreduce", "c_allreduce_inplace", "c_reduce_bcast", "c_sendrecv", "c_sendrecv_replace",
             "c_nonblocking", "c_pairs", "c_bytes", "c_derived", "c_allgather", "c_gather_scatter", "c_alltoall",
             "c_scan", "c_bcast", "c_reduce_scatter"]

    def step(s):
        if s.r.random() < 0.45:
            s.local()
            return
        comm = s.r.choice(s.COMMS)
        if s.extra.random() < 0.2:  # in a helper of its own, the arrays passed as pointers
            s.features.add("helper")
            outer = s.body
            s.body = []
            getattr(s, comm)()
            name = "h%d" % len(s.helpers)
            s.helpers.append("__attribute__((noinline)) static void %s(double *a, double *b, double *c, int rank, int size) {\n"
                             "  %s\n}\n" % (name, "\n  ".join(s.body)))
            s.body = outer
            s.body.append("%s(a, b, c, rank, size);" % name)
        else:
            getattr(s, comm)()

    def program(s):
        for _ in range(s.r.randrange(3, 8)):
            if s.r.random() < 0.15:
                trips = s.r.randrange(2, 4)
                s.features.add("loop")
                s.body.append("for (int t = 0; t < %d; t++) {" % trips)
                if s.extra.random() < 0.35:  # each step's communication again as the reverse sweep recomputes it
                    s.features.add("checkpoint")
                    s.body.append("__parad_checkpoint_loop();")
                for _ in range(s.r.randrange(1, 4)):
                    s.step()
                s.local()
                s.body.append("}")
            else:
                s.step()
        xs = ["%.3f" % s.r.uniform(-1, 1) for _ in range(3)]
        body = "\n  ".join(s.body)
        return PROGRAM % dict(n=s.n, body=body, helpers="\n".join(s.helpers), feats=" ".join(sorted(s.features)), x0=xs[0], x1=xs[1], x2=xs[2],
                              fin=s.expr("i"))


PROGRAM = """/* Parad MPI fuzz program. features: %(feats)s */
#include <math.h>
#include <stdlib.h>
#include "mpicheck.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { N = %(n)d };

%(helpers)s
__attribute__((noinline)) static void f(const double *x, double *J) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = x[i], b[i] = sin(x[(i + 1) %% N]) + 0.1 * rank, c[i] = 0.5 * x[i] * x[i];
  %(body)s
  double s = 0;
  for (int i = 0; i < N; i++) s += %(fin)s;
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, %(maxr)d);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = %(x0)s + %(x1)s * i + %(x2)s * rank, v[i] = cos(0.3 + 2 * i + rank);
  const char *h = getenv("FUZZ_H"); /* a smaller step, where the runner checks a steep function again */
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, h ? atof(h) : 1e-6, 1e-6);
  return mpi_check_done();
}
""".replace("%(maxr)d", str(MAXR))


def run(cmd, timeout, env=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        return None, out.decode(errors="replace") if isinstance(out, bytes) else out


def one(seed, opt, ranks, mpis, work):
    src = os.path.join(work, "m%d-%s.c" % (seed, opt))  # a file per job: the -O0 and -O2 jobs of a seed run at once
    with open(src, "w") as fh:
        fh.write(Gen(seed).program())
    results = []
    for mpi in mpis:
        exe = os.path.join(work, "m%d-%s-%s" % (seed, opt, mpi))
        env = dict(os.environ)
        if mpi == "mpich":
            env["MPICH_CC"] = os.path.join(ROOT, "bin", "parad-cc")
            cc, mpirun = ["mpicc.mpich"], ["timeout", "-k", "10", "120", "mpirun.mpich", "-np"]
        else:  # a TMPDIR per run: Open MPI's session directories race between jobs started at once
            env["OMPI_CC"] = os.path.join(ROOT, "bin", "parad-cc")
            cc = ["mpicc"]
            mpirun = [os.path.join(ROOT, "tests", "mpi", "Inputs", "private-tmpdir"), "timeout", "-k", "10", "120",
                      "mpirun", "--oversubscribe", "--allow-run-as-root", "-np"]
        env["PARAD_MPI_TIMEOUT"] = "30"  # a rank waiting for an adjoint that never comes gives up
        env["OMP_NUM_THREADS"] = "2"
        rc, out = run(cc + ["-" + opt, "-fopenmp", "-I" + os.path.join(ROOT, "tests", "include"), src, "-o", exe, "-lm"],
                      300, env)
        where = "%d -%s %s" % (seed, opt, mpi)
        if rc != 0:
            m = re.search(r"error: (.*?)(?: in function '[^']*')?$", out, re.M)
            if rc is not None and m and "linker command failed" not in out:
                results.append(("refused", where, re.sub(r"'[^']*'|\d+", "_", m.group(1))[:160]))
            else:
                results.append(("internal", where, out[-400:]))
            continue
        for np_ in ranks:
            rc, out = run(mpirun + [str(np_), exe], 150, env)
            tag = "%s at %d ranks" % (where, np_)
            if rc is not None and "FAIL gradient" in out and "FAIL" not in out.replace("FAIL gradient", "").replace("FAIL:", ""):
                # only finite differences disagree: the function may be steep there (a truncation error of
                # h^2 times the third derivative); with steps 10 and 100 times smaller, differences that
                # converge to the gradient pass
                for h in ("1e-7", "1e-8"):
                    rc, out = run(mpirun + [str(np_), exe], 150, dict(env, FUZZ_H=h))
                    if rc == 0 and "FAIL" not in out:
                        break
            if rc is None or "checks passed" not in out and "FAIL" not in out:
                results.append(("crash", tag, out[-400:]))
            elif rc != 0 or "FAIL" in out:
                first = next((l for l in out.splitlines() if "FAIL" in l), out[-300:])
                results.append(("wrong", tag, first))
            else:
                results.append(("ok", tag, ""))
    return seed, results


def seeds_of(spec):
    if ".." in spec:
        a, b = spec.split("..")
        return range(int(a), int(b) + 1)
    return [int(x) for x in spec.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="0..19")
    ap.add_argument("--opt", default="O2,O0")
    ap.add_argument("--ranks", default="2,3")
    ap.add_argument("--mpi", default="openmpi")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--keep")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="parad-mpifuzz-")
    os.makedirs(work, exist_ok=True)
    ranks = [int(r) for r in a.ranks.split(",")]
    mpis = a.mpi.split(",")
    jobs = [(s, o) for s in seeds_of(a.seeds) for o in a.opt.split(",")]
    counts = collections.Counter()
    refusals = collections.Counter()
    failures = []
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for seed, results in ex.map(lambda j: one(j[0], j[1], ranks, mpis, work), jobs):
            for kind, where, what in results:
                counts[kind] += 1
                if kind == "refused":
                    refusals[what] += 1
                elif kind != "ok":
                    failures.append((kind, where, what))
                    print("%s: %s: %s" % (kind, where, what.strip()[:300]), flush=True)
    print("parad MPI fuzz: %d programs, ranks %s, %s" % (len(jobs), a.ranks, a.mpi))
    for what, n in refusals.most_common():
        print("  refused %3d  %s" % (n, what))
    print("%d ok, %d refused, %d wrong, %d internal, %d crash" %
          (counts["ok"], counts["refused"], counts["wrong"], counts["internal"], counts["crash"]))
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
