/* Whether a store can later overwrite what a load read, for addresses that are affine functions of the
 * iteration counts of the loops around them.
 *
 * An in-place factorisation reads entries that later steps never write again (LU's pivot row, the
 * finished columns of a Cholesky factor, the solved part of a triangular solve): the reverse sweep can
 * read them from memory, as the forward sweep left it, instead of recording them. Proving it is a
 * dependence test: no instance of the store that runs after an instance of the load, within the loops'
 * bounds, writes a byte the load read. The addresses, the loops' bounds and the order of the two
 * instances become linear constraints on the iteration counts, and Fourier-Motzkin elimination shows the
 * system has no solution. Anything the test does not model (an address made of loaded values, a loop
 * without a known bound, a non-constant stride) gives "may overwrite". */
#ifndef PARAD_ANALYSIS_DEPENDENCE_H
#define PARAD_ANALYSIS_DEPENDENCE_H

#include <llvm-c/Core.h>
#include <stdbool.h>

typedef struct Dependence Dependence;

/* The loops of fn, found once for all questions about it. */
Dependence *dependence_new(LLVMValueRef fn);
void dependence_free(Dependence *d);

/* May an execution of `store` that runs after an execution of `load` (both in the function, in the same
 * call) write a byte that execution of the load read. True unless proven otherwise. */
bool dependence_may_overwrite(Dependence *d, LLVMValueRef load, LLVMValueRef store);

#endif
