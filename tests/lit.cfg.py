# lit configuration for Parad's tests.
#   tests/ir/      IR -> IR tests of the generators (parad, FileCheck, and lli to run the result)
#   tests/fwd/     forward-mode programs built with parad-cc, checked against analytic derivatives
#                  or central finite differences
#   tests/rev/     reverse-mode programs: gradients checked against analytic derivatives or finite
#                  differences, and against forward tangents
#   tests/omp/     OpenMP programs in both modes, each run with 1, 2 and 4 threads
#   tests/mpi/     MPI programs in both modes, each run under mpirun -np 1, 2, 3 and 4, checked against
#                  finite differences computed collectively across the ranks
#   tests/cxx/     C++ programs built with parad-c++ (classes, templates, lambdas, new/delete, the standard
#                  library, exceptions on), both modes, serial and OpenMP
#   tests/enzyme/  programs written as Enzyme's users write them (Enzyme's spellings, their own declarations
#                  of the entry points and markers, registrations, attributes, library calls, error
#                  estimates, forward over reverse), at -O0 and -O2
#   tests/diag/    refusals: a diagnostic with file:line, a non-zero exit, no output file
#   tests/driver/  parad-cc as a compiler: flags, several files, programs without derivatives
#   tests/examples/ the example applications (examples/md) built with their Makefile and CMakeLists.txt,
#                  run at several thread and rank counts; each checks its own derivatives
#   tests/fuzz/    the differential fuzzer (fuzz.py; its Python files are not tests): a fixed-seed batch
import os
import lit.formats

config.name = "Parad"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".ll", ".test"]
config.excludes = ["include", "Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(root, "tests", "out")

llvm_bin = "/usr/lib/llvm-19/bin"
config.environment["PATH"] = os.pathsep.join([os.path.join(root, "bin"), llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR", "PARAD_CLANG", "ASAN_OPTIONS", "UBSAN_OPTIONS", "PARAD_CHECK_CLEAN"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# libomp 19 runs schedule(dynamic) loops by work stealing, which now and then stops a plain program with
# "Assertion failure at kmp_dispatch.cpp(1618)" when threads outnumber cores (llvm-project issue 54422;
# seen once in this suite at 4 threads on 2 cores). The tests run the monotonic algorithm, which has no
# such failure; the fuzzer's programs still run the default one.
config.environment["KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE"] = "1"
# The tests run teams of 3 and 4 threads, and two tests at once, on 2 cores. libomp's threads spin for
# 200 ms at every barrier and wait before they sleep, which then holds a core another thread of the team
# needs: omp/trusted_copies.c at 4 threads took 127-253 s so, 2.7 s with waiting threads asleep (its CPU
# time 64 s against 1.9 s). Asleep at once (OMP_WAIT_POLICY=passive), a program with a region per step
# pays a futex wake-up per barrier: three such programs at once took 11-14 s; spinning 1 ms first, 6.4-7 s
# (KMP_BLOCKTIME=1). What the tests check does not depend on how threads wait.
config.environment["KMP_BLOCKTIME"] = "1"

include = os.path.join(root, "tests", "include")
config.substitutions.append(("%parad-cc", os.path.join(root, "bin", "parad-cc")))
config.substitutions.append(("%parad-cxx", os.path.join(root, "bin", "parad-c++")))
config.substitutions.append(("%parad", os.path.join(root, "bin", "parad")))
# %cflags' optimisation level: -O2, or another with `--param opt=-Os` (the suite's tests at the levels users
# build with; a test's own -O0 and -O3 lines keep theirs).
config.substitutions.append(("%cflags", lit_config.params.get("opt", "-O2") + " -Wall -I" + include))
config.substitutions.append(("%clang", os.path.join(llvm_bin, "clang")))
config.substitutions.append(("%lli", os.path.join(llvm_bin, "lli")))

# MPI: the program is built by the MPI compiler wrapper with parad-cc as its compiler (as users build);
# runs are bounded in time (a rank that waits for an adjoint that never comes gives up after
# PARAD_MPI_TIMEOUT seconds; an mpirun that outlives its ranks, as Open MPI's once did after an abort, is
# killed 10 s after the limit), and with Open MPI oversubscribed (more ranks than cores), allowed as root and
# given a TMPDIR of its own per run (mpi/Inputs/private-tmpdir).
# Every MPI test runs under each MPI library: Open MPI by default, MPICH with `--param mpi=mpich`
# (scripts/run-tests runs tests/mpi and the MPI refusals again that way when MPICH is installed).
parad_cc = os.path.join(root, "bin", "parad-cc")
parad_cxx = os.path.join(root, "bin", "parad-c++")
# %mpivalgrind: valgrind as the MPI tests run it, with the library's own noise suppressed (mpi/Inputs/).
inputs = os.path.join(config.test_source_root, "mpi", "Inputs")
if lit_config.params.get("mpi", "openmpi") == "mpich":
    config.name = "Parad-MPICH"
    config.test_exec_root = os.path.join(root, "tests", "out-mpich")
    config.available_features.add("mpich")
    mpicc, launch = "env MPICH_CC=%s mpicc.mpich" % parad_cc, "timeout -k 10 120 mpirun.mpich"
    mpicxx = "env MPICH_CXX=%s mpicxx.mpich" % parad_cxx
    suppressions = [os.path.join(inputs, "mpich-init.supp")]
else:
    config.available_features.add("openmpi")
    mpicc = "env OMPI_CC=%s mpicc" % parad_cc
    mpicxx = "env OMPI_CXX=%s mpicxx" % parad_cxx
    launch = "%s timeout -k 10 120 mpirun --oversubscribe --allow-run-as-root" % os.path.join(inputs, "private-tmpdir")
    suppressions = ["/usr/share/openmpi/openmpi-valgrind.supp", os.path.join(inputs, "openmpi-init.supp")]
config.substitutions.append(("%mpicxx", mpicxx))
config.substitutions.append(("%mpicc", mpicc))
config.substitutions.append(("%mpirun", "env PARAD_MPI_TIMEOUT=30 %s -np" % launch))
config.substitutions.append(("%mpilaunch", launch))
config.substitutions.append(("%mpivalgrind", "valgrind -q --num-callers=50 --error-exitcode=9 --leak-check=full "
                             "--errors-for-leak-kinds=definite " + " ".join("--suppressions=" + f for f in suppressions)))
