/* Rounding to bfloat16 written out in integer operations.
 *
 * The adjoint of a bfloat widened to float is a float narrowed to bfloat (an `__bf16` array read as
 * floats gets its adjoints added back as bfloats). LLVM lowers that fptrunc to a call of __truncsfbf2,
 * which compiler-rt has and libgcc only since GCC 13, and so does a sum of bfloats, done in float: on
 * Debian 12 the program did not link, though the program itself (which only widens) did. Each such
 * fptrunc becomes the bit operations of rounding to nearest, ties to even, a NaN kept a quiet NaN (from
 * double through float); a sum, difference, product or quotient of bfloats is done in float and rounded
 * so. */
#ifndef PARAD_IR_BFLOAT_TRUNCS_H
#define PARAD_IR_BFLOAT_TRUNCS_H

#include <llvm-c/Core.h>

/* Rewrites every fptrunc to bfloat (or vectors of it), and arithmetic on bfloats, in m; returns how many. */
unsigned bfloat_truncs_lower(LLVMModuleRef m);

#endif
