/* Which floating-point values may be infinite or NaN while the program's inputs are finite: a division
 * (by zero), the singular math functions at their singularities (log 0, sqrt of a negative), and what is
 * computed from them.
 *
 * The optimiser computes both sides of a guarded choice (r2 > 0 ? 1/r2 : 0, a limiter's 2ab/(a+b) where
 * a = b = 0) and selects one. The reverse sweep then carries a zero adjoint through the side not taken,
 * and zero times an infinite partial is NaN, which poisoned the whole gradient. Where a partial may be
 * infinite, the reverse sweep carries a zero adjoint as zero (Enzyme's "strong zero"); elsewhere it
 * multiplies as before, so that the common loops pay nothing. */
#ifndef PARAD_ANALYSIS_NONFINITE_H
#define PARAD_ANALYSIS_NONFINITE_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* Whether an original value may be infinite or NaN though the function's arguments and the memory it
 * reads are finite (a few steps back through arithmetic, choices and phis). */
bool nonfinite_possible(LLVMValueRef v);

/* The mirror images, where a derivative may be infinite while every value is finite: v's adjoint (v
 * flows, a few steps on, into sqrt at 0, asin at 1, pow, cbrt, acos, acosh) and v's tangent
 * (v is computed, a few steps back, from such a function). A product with a factor that is exactly zero
 * then carries zero, not 0 times infinity: the gradient of 3 sqrt(p v) + q at v = 0 in p is 0 (it was
 * NaN, and NaN in q too), the tangent of w sqrt(p) at w = p = 0 along p is 0. */
bool nonfinite_adjoint_possible(LLVMValueRef v);
bool nonfinite_tangent_possible(LLVMValueRef v);

#endif
