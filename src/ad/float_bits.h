/* Floats' bits combined by integer operations, in the functions derivatives reach, made the float
 * operation they are.
 *
 * SIMD code writes copysign on the bits: `_mm256_or_pd(_mm256_andnot_pd(-0.0, m), _mm256_and_pd(-0.0, s))`,
 * GCC vector extensions `(v4l)m & ~S | (v4l)s & S`, or |m|'s bits or-ed with s's sign. The optimiser turns
 * the single-operand forms into fabs and fneg where the bits come from a bitcast, not where they are
 * loaded as an integer (a fabs or a negation written through a uint64_t and memcpy), and integer
 * arithmetic on an active float's bits carries no derivative the generators can follow (refused). An or
 * of the sign bits of one value and the other bits of another (or of a fabs's bits), made a float again,
 * becomes llvm.copysign of the two, bit for bit the same; one float's bits with the sign bit cleared,
 * flipped or set become fabs, fneg and -fabs. */
#ifndef PARAD_AD_FLOAT_BITS_H
#define PARAD_AD_FLOAT_BITS_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Rewrites the functions m's requests reach (`reached`: request_reached_functions); returns how many
 * floats it rewrote. */
unsigned float_bits_apply(LLVMModuleRef m, const ValueMap *reached);

#endif
