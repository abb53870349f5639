/* Loops the program forces to vectorise, held scalar while the light optimisation runs.
 *
 * The light optimisation before differentiating leaves vectorisation to the pipeline after it, on primal
 * and derivative alike (driver/pipeline.c), but LLVM's loop vectoriser still takes a loop whose hints
 * force it (`#pragma omp simd`, `#pragma clang loop vectorize(enable)`), at any level. The generators then
 * met vector loads of shared memory in a parallel region, whose adjoints the reverse sweep's per-thread
 * reasoning took for single floats: a `parallel for simd` over x[i] * x[i + 1] lost the adjoints of the
 * elements at the threads' boundaries. Held, such a loop reaches the generators as written; the hold is
 * taken back before the pipeline after, which vectorises the program's loop as it was told to. One thing is
 * lost: where such a loop cannot be vectorised (a call to cos, which may set errno), the pipeline after
 * works on code whose locations are gone, and LLVM's warning about it is not printed. */
#ifndef PARAD_AD_FORCED_VECTORS_H
#define PARAD_AD_FORCED_VECTORS_H

#include <llvm-c/Core.h>

/* Takes the hint that forces vectorisation off every loop that has it in the functions m's requests
 * reach, a mark of Parad's in its place; returns how many loops were held. (The program's other loops
 * are left to the light optimisation, which may vectorise them and warn where it cannot.) */
unsigned forced_vectors_hold(LLVMModuleRef m);
/* Puts the hint back on the loops forced_vectors_hold marked (loops the optimiser copied included). */
void forced_vectors_release(LLVMModuleRef m);

#endif
