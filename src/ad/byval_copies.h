/* Structs passed by value in memory (byval), made copies the generators see.
 *
 * A call passing a struct byval copies it: the callee's parameter is a private copy, which it may change
 * while the caller's memory keeps the old value, and the optimiser passes the caller's memory itself
 * (`insert_sorted(a, n, a[n])`, the heap's sift-down given `*(first + parent)`). Reverse mode gave the
 * parameter the caller's shadow, so the copy and the memory it came from shared adjoints: wrong gradients
 * with no message wherever the callee wrote that memory (at -O0 too). Each such call in the functions
 * the requests reach now copies the struct into a local of its own first (a memcpy the generators
 * differentiate as any) and passes that: the copy has a shadow of its own. */
#ifndef PARAD_AD_BYVAL_COPIES_H
#define PARAD_AD_BYVAL_COPIES_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Rewrites the calls in the functions `reached` holds; returns how many arguments were copied. */
unsigned byval_copies_apply(LLVMModuleRef m, const ValueMap *reached);

#endif
