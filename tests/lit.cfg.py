# lit configuration for Parad's tests.
#   tests/ir/      IR -> IR tests of the generators (parad, FileCheck, and lli to run the result)
#   tests/fwd/     forward-mode programs built with parad-cc, checked against analytic derivatives
#                  or central finite differences
#   tests/rev/     reverse-mode programs: gradients checked against analytic derivatives or finite
#                  differences, and against forward tangents
#   tests/omp/     OpenMP programs in both modes, each run with 1, 2 and 4 threads
#   tests/mpi/     MPI programs in both modes, each run under mpirun -np 1, 2, 3 and 4, checked against
#                  finite differences computed collectively across the ranks
#   tests/diag/    refusals: a diagnostic with file:line, a non-zero exit, no output file
#   tests/driver/  parad-cc as a compiler: flags, several files, programs without derivatives
#   tests/fuzz/    the differential fuzzer (fuzz.py; its Python files are not tests): a fixed-seed batch
import os
import lit.formats

config.name = "Parad"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".ll", ".test"]
config.excludes = ["include", "Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(root, "tests", "out")

llvm_bin = "/usr/lib/llvm-19/bin"
config.environment["PATH"] = os.pathsep.join([os.path.join(root, "bin"), llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR", "PARAD_CLANG", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

include = os.path.join(root, "tests", "include")
config.substitutions.append(("%parad-cc", os.path.join(root, "bin", "parad-cc")))
config.substitutions.append(("%parad", os.path.join(root, "bin", "parad")))
config.substitutions.append(("%cflags", "-O2 -Wall -I" + include))
config.substitutions.append(("%clang", os.path.join(llvm_bin, "clang")))
config.substitutions.append(("%lli", os.path.join(llvm_bin, "lli")))

# MPI: the program is built by the MPI compiler wrapper with parad-cc as its compiler (as users build);
# runs are oversubscribed (more ranks than cores), allowed as root, and bounded in time: a rank that
# waits for an adjoint that never comes gives up after PARAD_MPI_TIMEOUT seconds.
config.substitutions.append(("%mpicc", "env OMPI_CC=%s MPICH_CC=%s mpicc" % ((os.path.join(root, "bin", "parad-cc"),) * 2)))
config.substitutions.append(("%mpirun", "timeout 120 mpirun --oversubscribe --allow-run-as-root -x PARAD_MPI_TIMEOUT=30 -np"))
