/* Helpers that copy different kinds of memory for different callers. A generic container's push and pop
 * copy an element with memcpy of its size: doubles for one caller, pointers for another. What a copy
 * moves is told by its ends' callers (analysis/memtype.h), and where they disagree nothing holds for the
 * helper as a whole: reverse mode refused the copy, though each call alone was plain.
 *
 * Such a helper is copied once per kind of copy its callers in differentiated code give it, and each of
 * those calls calls its copy: in every copy the kinds are known again. Nothing is copied where one
 * caller alone still leaves a copy unknown (the refusal stays, with its message). */
#ifndef PARAD_AD_COPY_CONTEXTS_H
#define PARAD_AD_COPY_CONTEXTS_H

#include <llvm-c/Core.h>

#include "ir/valuemap.h"

/* In the functions the requests reach (`reached`), calls of such helpers call their copies; returns how
 * many helpers were split. Where a helper's callers only pass on what their own callers give, the callers
 * are copied per call first (their copies join `reached`). */
unsigned copy_contexts_split(LLVMModuleRef m, ValueMap *reached);

#endif
