/* Calls through pointers to functions declared without a prototype, in the functions derivatives reach,
 * made calls of the type their arguments give.
 *
 * K&R declarations and f2c's headers (`typedef doublereal (*D_fp)();`, the integrand QUADPACK is given)
 * leave a function pointer's parameters unsaid: clang calls through it as a variadic function of no fixed
 * parameters but the arguments it is given (`call double (ptr, ...) %f(ptr %x)`), which matches no
 * function's type, and an active call
 * of a variadic function is refused. C requires the function called to take the arguments as promoted,
 * so the call is the call of that function's own type, `double (ptr)`, where the function is not variadic:
 * such calls become calls of that type, and the functions a pointer of that type may hold are the ones
 * differentiated. Not where the module takes the address of a variadic function (one with fixed
 * parameters, as C declares them) of the same result type, which the pointer might hold. */
#ifndef PARAD_AD_UNPROTOTYPED_CALLS_H
#define PARAD_AD_UNPROTOTYPED_CALLS_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Rewrites the calls in the functions `reached` holds; returns how many. */
unsigned unprototyped_calls_apply(LLVMModuleRef m, const ValueMap *reached);

#endif
