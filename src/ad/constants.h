/* Shadows of constants. A pointer to a function or to constant data may be stored into active memory (a
 * table of operations `s->pot = &harmonic`), and the derivative code then wants its shadow:
 *   a function         is its own shadow: it is not data;
 *   a constant global  gets a shadow global of its own: zeros where it holds floats (a constant has no
 *                      derivative; what the reverse sweep adds there is dropped), the shadows of the
 *                      pointers it holds where it holds pointers (a table of functions keeps them);
 *   a constant address into either (a getelementptr) is the same address in the shadow.
 * Anything else (a mutable global: Parad gives those no shadow) has none: NULL. */
#ifndef PARAD_AD_CONSTANTS_H
#define PARAD_AD_CONSTANTS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* Whether v is a constant that has a shadow (see above). */
bool ad_has_constant_shadow(LLVMValueRef v);
/* Its shadow, made in v's module on first use; NULL when it has none. */
LLVMValueRef ad_constant_shadow(LLVMValueRef v);

#endif
