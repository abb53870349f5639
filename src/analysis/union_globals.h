/* What the bytes of a global union hold, from how the module reads and writes them.
 *
 * clang types a union as one of its members and tags its members' accesses with the tag of memory that
 * may hold anything, so neither says what a union's bytes hold: an integer member's arithmetic in
 * differentiated code was refused as arithmetic on a float's bits. f2c writes a COMMON block that two
 * routines of a file declare with different layouts as such a union (`union { struct { double y[2]; int
 * nst; } _1; struct { double rls[2]; int ils[1]; } _2; } ls0001_;`): a step counter beside the state.
 * Where every access of the module to the bytes in question (loads and stores at constant offsets, or at
 * an index into one of the union's arrays) moves integers, they hold integers; floats of one width
 * likewise. Anything else the global is used for (its address passed or kept) says nothing is known. */
#ifndef PARAD_ANALYSIS_UNION_GLOBALS_H
#define PARAD_ANALYSIS_UNION_GLOBALS_H

#include <llvm-c/Core.h>

#include "analysis/memtype.h"

/* The kind of the bytes a load or store touches in a global union (MEMTYPE_UNKNOWN elsewhere, or where
 * the module's accesses disagree); for floats, *fp_bits their width. */
MemType union_global_kind(LLVMValueRef access, unsigned *fp_bits);

#endif
