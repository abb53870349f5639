/* Short loops over small local arrays, unrolled before differentiating.
 *
 * A function that gathers an element's corners into `double px[4]` in a loop of four and reads them in
 * another keeps px in memory through the light optimisation (its indices are the loops' counters), so
 * every value read back from it is a load of memory the next element overwrites, and the reverse sweep
 * records them all. Unrolled, the indices are constants, px becomes values (SROA), and what the element
 * reads is read where the program reads it: recomputed from the inputs, or read back, as any value is.
 * Clang's -O2 pipeline unrolls these loops too, later; this only does it before differentiating, and only
 * for loops that index such an array, so that no other loop's code changes. */
#ifndef PARAD_AD_LOCAL_ARRAY_LOOPS_H
#define PARAD_AD_LOCAL_ARRAY_LOOPS_H

#include <llvm-c/Core.h>

/* Marks the loops to unroll (a constant trip count of at most 32, indexing a local array of at most 256
 * bytes that only loads, stores and lifetime markers use, the unrolled code of bounded size) for LLVM's
 * full unrolling, and holds every other loop of the module from it. Returns how many were marked; when
 * any, the caller runs full unrolling and SROA, then local_array_loops_release. */
unsigned local_array_loops_mark(LLVMModuleRef m);
/* Takes the marks and holds back off the loops that remain: the later pipeline decides for them as it
 * would have. */
void local_array_loops_release(LLVMModuleRef m);

#endif
