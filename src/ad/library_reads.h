/* Library calls that read data from outside the program into its memory: fread, read and the scanf
 * family. What they write are constants (their derivative is zero), but the generators cannot tell what
 * or how much they write, and where the memory then holds active values (a buffer refilled in a loop, a
 * variable reused) the call was refused, or, declared inactive, left the memory's old derivative in place.
 * In the body the generators differentiate (ad/body.c), such a call reads into a buffer of its own, and
 * what it read goes where the program wanted it by a memcpy or a store: plain memory operations, whose
 * derivatives zero what they overwrite. */
#ifndef PARAD_AD_LIBRARY_READS_H
#define PARAD_AD_LIBRARY_READS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* Whether the body rewrites the call: fread and read (and their fortified forms), and the scanf family
 * with a constant format that converts a float or a double (its other conversions stay as they are). */
bool library_read_rewrites(LLVMValueRef call);
/* The rewrite at the builder (temporaries at the start of `entry`), with the call's operands as they are
 * (the caller maps them, as for every instruction it makes); returns the value that replaces the call's. */
LLVMValueRef library_read_rewrite(LLVMBuilderRef b, LLVMBasicBlockRef entry, LLVMValueRef call);

#endif
