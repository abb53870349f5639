# lit configuration for Parad's tests.
#   tests/ir/      IR -> IR tests of the generators (parad, FileCheck, and lli to run the result)
#   tests/fwd/     forward-mode programs built with parad-cc, checked against analytic derivatives
#                  or central finite differences
#   tests/rev/     reverse-mode programs: gradients checked against analytic derivatives or finite
#                  differences, and against forward tangents
#   tests/omp/     OpenMP programs in both modes, each run with 1, 2 and 4 threads
#   tests/diag/    refusals: a diagnostic with file:line, a non-zero exit, no output file
#   tests/driver/  parad-cc as a compiler: flags, several files, programs without derivatives
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
