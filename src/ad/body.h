/* The body the generators differentiate: the function itself, or a copy of it where the function has
 * what the generators do not take as it is.
 *
 * C++ compiled with exceptions on: a call that may throw is an `invoke`, whose second successor is a
 * landing pad (destructors run, the exception goes on). Parad differentiates the path on which nothing
 * throws, as Enzyme does: in the copy each invoke is a call followed by a branch to its normal successor,
 * and the blocks only an unwind edge reached are gone. A throw on the copy's path (C++'s, or the library's
 * helpers) becomes a call of the runtime that stops the program with where it was: the derivative cannot
 * go on. So do the blocks that lead only to a throw, whole: what they compute is the exception's message
 * (std::to_string of an active value), nothing a derivative needs. Complex arithmetic's helpers (__muldc3, cexp, ...) are open-coded there, and a pointer the
 * optimiser stores or loads as the integer of its bits is stored or loaded as a pointer, so that its
 * shadow goes with it (body.c); fread, read and the scanf family read into buffers of their own
 * (ad/library_reads.h). The program keeps its own function, unwind paths, helpers and all. */
#ifndef PARAD_AD_BODY_H
#define PARAD_AD_BODY_H

#include "ad/ad.h"

/* fn itself, or its copy (made once). */
LLVMValueRef ad_body(AdModule *ad, LLVMValueRef fn);
/* Whether the copy open-codes a call (a complex helper: __muldc3, cexp, ...), whose operands it only reads. */
bool ad_body_open_codes(LLVMValueRef call);
/* The blocks of fn from which every path throws (into doomed, each with the throw it leads to). */
void ad_body_doomed_blocks(LLVMValueRef fn, ValueMap *doomed);
/* The function a copy was made from (its callers are the original's); fn itself for any other. */
LLVMValueRef ad_body_original(LLVMValueRef fn);
/* A request called with invoke (from C++ code with destructors to run): in place, a call and a branch to
 * the invoke's normal successor. NULL (nothing changed) when the landing pad has phis. */
LLVMValueRef ad_invoke_to_call(LLVMValueRef invoke);
/* Once the derivatives are written: the copies go (nothing calls them; each shares its original's debug
 * info, which a function may not). */
void ad_body_drop(AdModule *ad);

#endif
