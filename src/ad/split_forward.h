/* Enzyme's split forward mode (__enzyme_fwdsplit), as a forward-mode call that runs the primal again
 * (split_forward.c). */
#ifndef PARAD_AD_SPLIT_FORWARD_H
#define PARAD_AD_SPLIT_FORWARD_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether running fn again with these arguments (one per parameter) computes what its first run did;
 * when not, why (into why, n bytes). */
bool split_forward_recomputable(LLVMValueRef fn, LLVMValueRef *args, char *why, size_t n);

#endif
