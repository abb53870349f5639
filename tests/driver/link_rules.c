// The derivative made at the link is that of the program ld builds, whichever definition of g ld picks:
// f's derivative against central differences of f as linked (1e-6), and f itself against the g the
// configuration should pick (1e-12). Each configuration once picked a g the program does not run.
// - A weak default g in this file, overridden by a strong one in another: the default was differentiated
//   when this file was compiled (2 where 4 is right). A request reaching an overridable definition now
//   waits for the link.
// - ... overridden by an object clang compiled (no IR): refused, since the code ld takes has no IR (with
//   file:line: the body's removal left a declaration with debug info, which the verifier dropped whole).
// - ... with the strong one only in an archive: ld does not take a member for a defined symbol.
// - Archive order: an archive before the object that needs g gives nothing (ld searches it once, where it
//   stands); the link step took its member anyway. With -u g before it, it gives its member (the program's
//   object then went after the archive, which ld took again: "multiple definition"). With no archive after,
//   the refusal says where g is and why ld does not take it.
// - A --start-group of archives that need each other, and --wrap=g (g's callers get __wrap_g).
// - Archives named by -l:file, LIBRARY_PATH, -Wl,-l, -Xlinker and ld's own response file (-Wl,@file):
//   they were not read, and g was refused.
// - Two files defining g: said as ld says it (it was LLVM's "Linking globals named 'g'"), no program;
//   with --allow-multiple-definition or -z muldefs, the first one, as ld takes it (it was refused).
// - A shared library before an archive, both defining g: ld takes the library's and not the member, which
//   the link step merged (the program ran the member's g): refused now, since the library has no IR.
//   The archive first: its member is taken.
// - An object changed after compiling (objcopy --redefine-sym g=g_old): its IR still defines g, and
//   merging it beside the real g failed with LLVM's "symbol multiply defined". It is plain code now,
//   with a warning, and the program's g is the other file's. One made weak (objcopy --weaken-symbol)
//   yields to the strong g, as ld has it (the merge failed). The caller's side of a rename (objcopy
//   --redefine-sym g=h on the object that calls g): the program object made from its IR called g, so
//   the program ran the old function (f = 3.38 where ld's program gives 4.39). Its own requests are now
//   refused; a library object renamed so is plain code, and derivatives through it refused.
// - parad-cc -r: objects combined, their derivatives left for the program's link (it took the runtime and
//   libm's static members into the object, which then did not link).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %parad-cc -O2 -DPOWER=2 -c %S/Inputs/link_rules/power.c -o square.o
// RUN: %parad-cc -O2 -DPOWER=3 -c %S/Inputs/link_rules/power.c -o cube.o
// RUN: %clang -O2 -DPOWER=2 -c %S/Inputs/link_rules/power.c -o plain_square.o
// RUN: ar rcs libsquare.a square.o && ar rcs libcube.a cube.o
// RUN: %parad-cc -O2 -I%S/../include -DWEAK_DEFAULT -c %s -o weak.o
// RUN: %parad-cc weak.o square.o -o prog1 && ./prog1 2 1
// RUN: %parad-cc weak.o -o prog2 && ./prog2 1 1
// RUN: %parad-cc weak.o -L. -lsquare -o prog3 && ./prog3 1 1
// RUN: not %parad-cc weak.o plain_square.o -o prog4 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: test ! -e prog4
// PLAIN: link_rules.c:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}'g'
// PLAIN-NOT: invalid debug info
// RUN: %parad-cc -O2 -I%S/../include -c %s -o main.o
// RUN: %parad-cc -L. -lcube main.o -lsquare -o prog5 && ./prog5 2 1
// RUN: %parad-cc main.o -L. -lcube -lsquare -o prog6 && ./prog6 3 1
// RUN: %parad-cc -u g -L. -lcube main.o -lsquare -o prog16 && ./prog16 3 1
// RUN: not %parad-cc -L. -lsquare main.o -o early 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: note: 'g' is defined in ./libsquare.a(square.o), which ld does not take where its archive stands
// RUN: %parad-cc main.o -L. -l:libsquare.a -o prog9 && ./prog9 2 1
// RUN: env LIBRARY_PATH=%t %parad-cc main.o -lcube -o prog10 && ./prog10 3 1
// RUN: %parad-cc main.o -Wl,-L.,-lsquare -o prog11 && ./prog11 2 1
// RUN: %parad-cc main.o -Xlinker libcube.a -o prog12 && ./prog12 3 1
// RUN: echo "-L. -lsquare" > ld.rsp && %parad-cc main.o -Wl,@ld.rsp -o prog17 && ./prog17 2 1
// RUN: not %parad-cc main.o square.o cube.o -o twice 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: test ! -e twice
// RUN: %parad-cc main.o cube.o square.o -Wl,--allow-multiple-definition -o prog18 && ./prog18 3 1
// RUN: %parad-cc main.o square.o cube.o -z muldefs -o prog19 && ./prog19 2 1
// TWICE: parad-cc: error: multiple definition of 'g': in square.o and in cube.o
// RUN: %clang -O2 -fPIC -shared -DPOWER=3 %S/Inputs/link_rules/power.c -o libcubeso.so
// RUN: not %parad-cc main.o -L. -lcubeso libsquare.a -o shared_first 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: %parad-cc main.o libsquare.a -L. -lcubeso -Wl,-rpath,%t -o prog13 && ./prog13 2 1
// RUN: objcopy --weaken-symbol g square.o weakened.o && %parad-cc main.o weakened.o cube.o -o prog20 && ./prog20 3 1
// RUN: objcopy --redefine-sym g=g_old square.o renamed.o
// RUN: %parad-cc main.o renamed.o cube.o -o prog15 2>&1 | FileCheck %s --check-prefix=STALE && ./prog15 3 1
// STALE: warning: renamed.o defines no 'g', which the IR it carries defines
// RUN: objcopy --redefine-sym g=h main.o main_h.o && %parad-cc -O2 -DPOWER=3 -Dg=h -c %S/Inputs/link_rules/power.c -o h_cube.o
// RUN: not %parad-cc main_h.o square.o h_cube.o -o renamed_call 2>&1 | FileCheck %s --check-prefix=CALLER
// RUN: test ! -e renamed_call
// CALLER: error: main_h.o uses 'h', which the IR it carries never names
// RUN: %parad-cc -r main.o square.o -o combined.o && %parad-cc combined.o -o prog14 && ./prog14 2 1
// RUN: %parad-cc -O2 -c %S/Inputs/link_rules/wrap.c -o wrap.o
// RUN: %parad-cc main.o wrap.o square.o -Wl,--wrap=g -o prog7 && ./prog7 2 3
// RUN: %parad-cc -O2 -c %S/Inputs/link_rules/chain_a.c -o chain_a.o && %parad-cc -O2 -c %S/Inputs/link_rules/chain_tail.c -o chain_tail.o
// RUN: %parad-cc -O2 -c %S/Inputs/link_rules/chain_b.c -o chain_b.o
// RUN: ar rcs liba.a chain_a.o chain_tail.o && ar rcs libb.a chain_b.o
// RUN: %parad-cc main.o -Wl,--start-group liba.a libb.a -Wl,--end-group -o prog8 && ./prog8 0 1
// RUN: objcopy --redefine-sym b_part=a_tail chain_a.o chain_a_renamed.o
// RUN: not %parad-cc main.o chain_a_renamed.o chain_b.o chain_tail.o -o renamed_callee 2>&1 | FileCheck %s --check-prefix=CALLEE
// RUN: test ! -e renamed_callee
// CALLEE: warning: chain_a_renamed.o uses 'a_tail', which the IR it carries never names
// CALLEE: link_rules.c:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}'g'
#include <stdlib.h>

#include "check.h"

#ifdef WEAK_DEFAULT
__attribute__((weak)) double g(double x) { return x; }
#else
double g(double x);
#endif
double __parad_autodiff(void *, ...);

static double f(double x) { return 2 * g(x); }
static double f_at(void *ctx, double x) { return f(x); }

int main(int argc, char **argv) {
  int power = atoi(argv[1]);      /* of the g ld should pick; 0: the chain, x^3 + x */
  double factor = atof(argv[2]);  /* 3 under --wrap */
  double x = 1.3, want = power ? pow(x, power) : x * x * x + x;
  CHECK_CLOSE(f(x), 2 * factor * want, 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)f, x), fd_central(f_at, NULL, x, 1e-5), 1e-6);
  return check_done();
}
