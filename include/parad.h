/* parad.h: what a program includes to ask Parad for derivatives. Build it with parad-cc.
 *
 * Forward mode (tangents):
 *     double dy = __parad_fwddiff((void *)f, x, dx, parad_const, n);      // dy = f'(x) . dx
 *   Each argument may be preceded by a marker:
 *     parad_dup        value, then its shadow (a pointer's tangent buffer, or a float's tangent)
 *     parad_dupnoneed  the same; the primal result stored through it is not needed
 *     parad_const      value only: no derivative with respect to it
 *   Without a marker, pointers and floats are duplicated and integers constant.
 *   Vector mode: __parad_fwddiff((void *)f, parad_width, N, x, dx0, ..., dxN-1) computes N directions at
 *   once; declare the entry point returning a struct of N doubles (see PARAD_FWDDIFF_N below).
 *
 * Reverse mode (gradients):
 *     double dk = __parad_autodiff((void *)f, x, dx, k, parad_const, n);   // dx += df/dx, dk = df/dk
 *   A float result of f is seeded with 1; pointer arguments are followed by their shadow, into which the
 *   adjoints are added (a buffer f writes as an output carries its seed in). The call returns the
 *   adjoints of the float arguments passed by value (a struct of them when there are several).
 *   With MPI, a result every rank holds (after an Allreduce) is one value: return it through an output
 *   buffer whose adjoint is 1 on rank 0 and 0 elsewhere.
 *
 * The Enzyme spellings (__enzyme_fwddiff, __enzyme_autodiff, enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_width)
 * mean the same and may be declared by the program itself. */
#ifndef PARAD_H
#define PARAD_H

#ifdef __cplusplus
extern "C" {
#endif

extern int parad_dup, parad_const, parad_dupnoneed, parad_out, parad_width;
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_out, enzyme_width; /* the same, Enzyme's names */

/* The call's declared result type is what it returns: declare your own variant (any name starting
 * with __parad_fwddiff) when you want another result, e.g. a struct of N tangents in vector mode. */
double __parad_fwddiff(void *fn, ...);
double __parad_autodiff(void *fn, ...);

#ifdef __cplusplus
}

/* Enzyme's C++ spelling: the result type as a template argument, the arguments with their own types,
 * __enzyme_autodiff<double>((void *)f, enzyme_dup, x, dx). */
template <typename Return, typename... Args> Return __enzyme_autodiff(void *, Args...);
template <typename Return, typename... Args> Return __enzyme_fwddiff(void *, Args...);
#endif

#endif
