/* C library calls written out, in the functions derivatives reach, as the code Parad differentiates.
 *
 *   __memcpy_chk, __memmove_chk, __memset_chk: with -D_FORTIFY_SOURCE (distributions' default flags),
 *     glibc's headers make a memcpy(d, s, n) whose size the compiler cannot decide a call of
 *     __memcpy_chk(d, s, n, size of d); such calls reached the generators as calls to a function no file of
 *     the program defines, refused, with the location in glibc's header. Each becomes the library's test
 *     (n larger than the destination: __chk_fail, which ends the program as glibc does) and the plain copy,
 *     which returns its destination as the call did.
 *   sincos(x, &s, &c) (GNU): s = sin(x), c = cos(x), two stores the generators differentiate as any;
 *     sincosf and sincosl alike.
 *   reallocarray(p, n, size): realloc(p, n * size), asking for SIZE_MAX bytes where the product overflows
 *     (realloc then fails as reallocarray does); realloc is what reverse mode knows how to move shadows
 *     for.
 *   bsearch(key, base, n, size, compare): the binary search glibc's headers write inline from -O1 on, so
 *     that -O0 gets what -O2 gets: the result is an address into the array, whose shadow follows (called,
 *     it was refused where the array has a shadow). */
#ifndef PARAD_AD_LIBRARY_EXPANSIONS_H
#define PARAD_AD_LIBRARY_EXPANSIONS_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Rewrites the calls in the functions m's requests reach (`reached`: request_reached_functions); returns
 * how many. */
unsigned library_expansions_apply(LLVMModuleRef m, const ValueMap *reached);

#endif
