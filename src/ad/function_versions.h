/* Functions with versions the program picks when it starts (`__attribute__((target_clones("avx2",
 * "default")))`): clang makes one body per target, sq.avx2.0 and sq.default.1, and an ifunc sq whose
 * resolver returns one of them. A request naming sq, or a call to sq in code a derivative reaches, is
 * about the default body: the versions compute the same function, each compiled for its target, and
 * the default runs everywhere. (A request named sq and was refused as "not a function named in this
 * file"; a call to it was taken for a call through a pointer, and the program stopped at run time.) */
#ifndef PARAD_AD_FUNCTION_VERSIONS_H
#define PARAD_AD_FUNCTION_VERSIONS_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* The default version of v when v is such an ifunc (through pointer casts), else NULL. */
LLVMValueRef function_default_version(LLVMValueRef v);
/* An ifunc written by hand (`__attribute__((ifunc("resolve")))`) has no default: its resolver, defined in
 * the module and taking nothing, picks the body by the processor. The resolver when v is such an ifunc,
 * else NULL. */
LLVMValueRef function_resolver(LLVMValueRef v);
/* The functions such a resolver may return (through selects and phis) into out; false when it may return
 * anything else. */
bool function_resolver_choices(LLVMValueRef resolver, ValueList *out);
/* In the functions m's requests reach (`reached`: request_reached_functions), calls of a target_clones
 * ifunc call its default version, and calls of a hand-written one call through what its resolver returns
 * (the derivative then follows the body the program runs, as a call through a pointer), the resolver's
 * call taken as reading no memory so that the optimiser hoists it; returns how many. */
unsigned function_versions_pin(LLVMModuleRef m, const ValueMap *reached);

#endif
