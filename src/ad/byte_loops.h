/* Byte-by-byte copy and swap loops, in the functions derivatives reach, made block moves.
 *
 * Generic C moves objects of any type a byte at a time: a memcpy of its own (`while (n--) *d++ = *s++;`),
 * the swap of a hand-written sort (`t = *p; *p++ = *q; *q++ = t;`). Where the objects hold floats, each
 * byte is a part of a float's bits, and adjoints cannot be added a byte at a time: reverse mode refused
 * such loops. The optimiser makes some copies memcpy, but not those whose blocks may overlap, as in a
 * helper whose pointers are its parameters.
 *
 * A loop of one block that does nothing but copy bytes from one place to another, or exchange the bytes
 * of two places, at addresses that step by one byte per iteration, for a count its exit test gives,
 * becomes the same move of whole blocks: memmove for a copy; for a swap, memcpy to a buffer, memmove,
 * memcpy back. Both generators differentiate block moves at whatever type the blocks hold.
 *
 * The two agree unless the loop reads bytes it has written: a copy whose destination starts inside its
 * source, after its start, repeats bytes (memmove would not), and a swap of blocks that partly overlap
 * mixes them. That is tested at run time; such calls run the byte loop itself in Parad's runtime
 * (runtime/byte_loops.c), whose forward derivative moves the tangents' bytes alike and whose reverse one
 * stops the program with a message. */
#ifndef PARAD_AD_BYTE_LOOPS_H
#define PARAD_AD_BYTE_LOOPS_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Rewrites the loops in the functions `reached` (request_reached_functions) holds; returns how many. */
unsigned byte_loops_apply(LLVMModuleRef m, const ValueMap *reached);

/* Whether a function `reached` holds stores a byte it loaded: a byte loop may be there. The light
 * optimisation unrolls a loop of a constant count where a helper is inlined (a swap of one record) and
 * makes the record's bytes parts of its floats' bits: such loops are found before it, where a function is
 * still the helper its author wrote. */
bool byte_loops_maybe(LLVMModuleRef m, const ValueMap *reached);

#endif
