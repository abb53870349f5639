/* glibc's checked copies (-D_FORTIFY_SOURCE): __memcpy_chk, __memmove_chk and __memset_chk, with their
 * check, as the plain copies the generators differentiate.
 *
 * Distributions' default flags define _FORTIFY_SOURCE, and glibc's headers then make memcpy(d, s, n) a
 * call of __memcpy_chk(d, s, n, size of d where the compiler knows it). The optimiser turns those whose
 * check it can decide into plain copies; the others reached the generators as calls to a function no file
 * of the program defines, and a gradient through a memcpy was refused, with the location in glibc's
 * header. Each becomes the test the library would make (n larger than the destination: __chk_fail, which
 * ends the program as glibc does) and the plain copy, which returns its destination as the call did. */
#ifndef PARAD_AD_CHECKED_COPIES_H
#define PARAD_AD_CHECKED_COPIES_H

#include <llvm-c/Core.h>

/* Rewrites the calls in the functions m's requests reach; returns how many. */
unsigned checked_copies_expand(LLVMModuleRef m);

#endif
