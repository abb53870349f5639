/* Floats the program leaves undefined, made zero in the functions derivatives reach.
 *
 * A vector built by `__builtin_shufflevector(a, a, 3, -1, -1, -1)`, or by instcombine from the program's own
 * vector code (a lane nobody reads is left `poison`), carries lanes with no value. The primal never looks at
 * them; the reverse sweep does: the adjoint of c = a * b adds dc * b into a's adjoint in every lane, and
 * where dc is 0 and b poison the sum is poison (in practice NaN, or whatever the register held). So, before
 * the generators run, every undefined floating-point lane a shuffle selects, and every undefined float or
 * lane of a constant operand, becomes 0.0: a value the primal never reads, whose products with a zero
 * adjoint are zero. */
#ifndef PARAD_AD_DEFINED_LANES_H
#define PARAD_AD_DEFINED_LANES_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Rewrites the functions m's requests reach (`reached`: request_reached_functions); returns how many
 * instructions changed. */
unsigned defined_lanes_fill(LLVMModuleRef m, const ValueMap *reached);

#endif
