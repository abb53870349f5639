/* The IR of the files the link step merges, made to say what ld makes of their code.
 *
 * A file's IR is what its front end made; ld then decides, from the symbol tables (link_inputs.h), which
 * definition each name gets, where --wrap sends a call, what an unresolved weak reference is. Merged as
 * it was, the IR gave the derivatives another program than the one ld links. */
#ifndef PARAD_DRIVER_LINK_IR_H
#define PARAD_DRIVER_LINK_IR_H

#include <llvm-c/Core.h>

#include "driver/link_inputs.h"

/* Unit u's module m before the merge: --wrap's renames, definitions ld replaces made declarations,
 * gcov's counters added (its pass takes one file), the note for plain linkers made plain data. */
void link_ir_prepare(const LinkView *v, const LinkUnit *u, LLVMModuleRef m);
/* The merged program: an optional hook (a weak reference) that no unit defines is 0, as ld makes it. */
void link_ir_finish(const LinkView *v, LLVMModuleRef m);
/* A name that shows unit u's object was changed after compiling (objcopy --redefine-sym), or NULL: a
 * function or variable m defines for other files that u's code does not, or (*reference) a symbol
 * u's code uses, which another unit defines, that m never names. */
const char *link_ir_stale(const LinkView *v, const LinkUnit *u, LLVMModuleRef m, bool *reference);

#endif
