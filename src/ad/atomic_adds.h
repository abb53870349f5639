/* Compare-and-swap loops that add a float, in the functions derivatives reach, made the atomic adds they
 * are.
 *
 * C11's `acc += v` on an `_Atomic double` (and `acc -= v`) compiles to a loop: load the old value
 * atomically, add, compare-and-swap the sum in, again from the value found until the swap succeeds. A
 * compare-and-swap of active data is refused (which of several racing updates went first, no sweep can
 * tell), though this one is an atomic add, whose adjoint needs no order. Such a loop becomes `atomicrmw
 * fadd` (fsub) with the same ordering, and the expression's value the old value plus v, as the loop's last
 * sum was. */
#ifndef PARAD_AD_ATOMIC_ADDS_H
#define PARAD_AD_ATOMIC_ADDS_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Rewrites the loops in the functions m's requests reach (`reached`: request_reached_functions); returns
 * how many. */
unsigned atomic_adds_apply(LLVMModuleRef m, const ValueMap *reached);

#endif
