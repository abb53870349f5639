/* The body the generators differentiate, for C++ compiled with exceptions on.
 *
 * There a call that may throw is an `invoke`, whose second successor is a landing pad: destructors run
 * and the exception goes on (resume). Parad differentiates the path on which nothing throws, as Enzyme
 * does: the generators work on a copy of such a function in which each invoke is a call followed by a
 * branch to its normal successor, and the blocks only an unwind edge reached are gone. The program keeps
 * its own function, unwind paths and all. A throw on the copy's path (C++'s, or the library's helpers)
 * becomes a call of the runtime that stops the program with where it was: the derivative cannot go on. */
#ifndef PARAD_AD_NOUNWIND_H
#define PARAD_AD_NOUNWIND_H

#include "ad/ad.h"

/* fn itself when it has no invoke; else its copy without unwind paths (made once). */
LLVMValueRef ad_nounwind_body(AdModule *ad, LLVMValueRef fn);
/* A request called with invoke (from C++ code with destructors to run): in place, a call and a branch to
 * the invoke's normal successor. NULL (nothing changed) when the landing pad has phis. */
LLVMValueRef ad_invoke_to_call(LLVMValueRef invoke);
/* Once the derivatives are written: the copies go (nothing calls them; each shares its original's debug
 * info, which a function may not). */
void ad_nounwind_drop(AdModule *ad);

#endif
