/* The derivative table. Each line is one math function; see rules.h for the expression language:
 *   x0 x1 x2  the arguments          r            the result
 *   + - * /   arithmetic             neg          negation
 *   sqrt exp log sin cos sinh cosh trunc fabs roundeven    unary functions
 *   j0 j1 y0 y1  Bessel functions     digamma      Gamma'/Gamma (the runtime's: libm has none)
 *   jn yn     n x -> of order n      inc dec      an integer argument plus or minus one
 *                                    trigamma     digamma' (the runtime's)
 *                                    tetragamma   trigamma' (the runtime's)
 *   pow copysign                     binary functions
 *   oeq une olt ole                  comparisons, consumed by sel
 *   sel       c a b -> c ? a : b     itofp        integer argument to the float type
 * Partial derivatives are written where the function is differentiable; at kinks the rule picks the
 * derivative of the branch the primal took (fmin, fmax, fabs), as Enzyme and Tapenade do. */
#include <stddef.h>

#include "rules/rules.h"

/* Entries leave out what they do not use: partials past their arguments, the reduction of a plain function. */
#pragma clang diagnostic ignored "-Wmissing-field-initializers"

#define LN2 "0.6931471805599453"
#define LN10 "2.302585092994046"
#define TWO_OVER_SQRTPI "1.1283791670955126"

const MathRule math_rules[] = {
    /* libm        intrinsic          n   d/dx0                              d/dx1 */
    {"sin",        "llvm.sin",        1, {"x0 cos"}},
    {"cos",        "llvm.cos",        1, {"x0 sin neg"}},
    {"tan",        "llvm.tan",        1, {"1 r r * +"}},
    {"asin",       "llvm.asin",       1, {"1 1 x0 x0 * - sqrt /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"acos",       "llvm.acos",       1, {"-1 1 x0 x0 * - sqrt /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"atan",       "llvm.atan",       1, {"1 1 x0 x0 * + /"}},
    {"atan2",      NULL,              2, {"x0 x0 * x1 x1 * + 0 oeq 0 x1 x0 x0 * x1 x1 * + 0 oeq 1 x0 x0 * x1 x1 * + sel / sel",
                                          "x0 x0 * x1 x1 * + 0 oeq 0 x0 neg x0 x0 * x1 x1 * + 0 oeq 1 x0 x0 * x1 x1 * + sel / sel"},
     REDUCE_NONE, WRITES_NONE, false, true},
    {"sinh",       "llvm.sinh",       1, {"x0 cosh"}},
    {"cosh",       "llvm.cosh",       1, {"x0 sinh"}},
    {"tanh",       "llvm.tanh",       1, {"1 r r * -"}},
    {"asinh",      NULL,              1, {"1 x0 x0 * 1 + sqrt /"}},
    {"acosh",      NULL,              1, {"1 x0 x0 * 1 - sqrt /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"atanh",      NULL,              1, {"1 1 x0 x0 * - /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"exp",        "llvm.exp",        1, {"r"}},
    {"exp2",       "llvm.exp2",       1, {"r " LN2 " *"}},
    {"exp10",      "llvm.exp10",      1, {"r " LN10 " *"}},
    {"expm1",      NULL,              1, {"r 1 +"}},
    {"log",        "llvm.log",        1, {"1 x0 /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"log2",       "llvm.log2",       1, {"1 x0 " LN2 " * /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"log10",      "llvm.log10",      1, {"1 x0 " LN10 " * /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"log1p",      NULL,              1, {"1 1 x0 + /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"sqrt",       "llvm.sqrt",       1, {"0.5 r /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"cbrt",       NULL,              1, {"1 3 r r * * /"}, REDUCE_NONE, WRITES_NONE, false, true},
    /* pow: the y-partial is taken as 0 where x <= 0 (0^y is flat in y; a negative base has no real
     * y-derivative), not NaN, which would poison x's derivative through a zero y-tangent. Where a choice
     * guards a singular operation, the operation gets a harmless operand on the other side (log of 1, a
     * division by 1): both sides are computed, and log(0) set errno and the division-by-zero flag where
     * the program's own calls set neither (a program checking errno after pow took the other branch in
     * its tangent). */
    {"pow",        "llvm.pow",        2, {"x1 x0 x1 1 - pow *", "x0 0 ole 0 r x0 0 ole 1 x0 sel log * sel"}, REDUCE_NONE, WRITES_NONE, false, true},
    {NULL,         "llvm.powi",       2, {"x1 itofp x0 x1 dec powi *", NULL}},
    /* hypot and atan2 at the origin, where neither has a derivative, take 0 (a subgradient of the norm
     * there), as fabs takes a branch's: a tangent through hypot(x - y, ...) at x = y is not NaN */
    {"hypot",      NULL,              2, {"r 0 oeq 0 x0 r 0 oeq 1 r sel / sel", "r 0 oeq 0 x1 r 0 oeq 1 r sel / sel"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"erf",        NULL,              1, {TWO_OVER_SQRTPI " x0 x0 * neg exp *"}},
    {"erfc",       NULL,              1, {TWO_OVER_SQRTPI " neg x0 x0 * neg exp *"}},
    {"lgamma",     NULL,              1, {"x0 digamma"}, REDUCE_NONE, WRITES_NONE, false, true},
    /* the reentrant ones write the sign of Gamma through their pointer: flat (float: lgammaf_r, not
       lgamma_rf) */
    {"lgamma_r",   NULL,              2, {"x0 digamma", NULL}, REDUCE_NONE, WRITES_INT},
    {"lgammaf_r",  NULL,              2, {"x0 digamma", NULL}, REDUCE_NONE, WRITES_INT},
    {"lgammal_r",  NULL,              2, {"x0 digamma", NULL}, REDUCE_NONE, WRITES_INT},
    {"tgamma",     NULL,              1, {"r x0 digamma *"}, REDUCE_NONE, WRITES_NONE, false, true},
    /* the runtime's digamma, for second derivatives of those */
    {"__parad_digamma", NULL,         1, {"x0 trigamma"}},
    {"__parad_trigamma", NULL,        1, {"x0 tetragamma"}},
    /* Bessel functions of orders 0 and 1: J0' = -J1, J1' = J0 - J1/x (1/2 at 0), and alike for Y */
    {"j0",         NULL,              1, {"x0 j1 neg"}},
    {"j1",         NULL,              1, {"x0 0 oeq 0.5 x0 j0 x0 j1 x0 0 oeq 1 x0 sel / - sel"}},
    /* of integer order n: Jn' = (J(n-1) - J(n+1)) / 2 for every n (J(-1) = -J1), and alike for Y */
    {"jn",         NULL,              2, {NULL, "x0 dec x1 jn x0 inc x1 jn - 0.5 *"}},
    {"yn",         NULL,              2, {NULL, "x0 dec x1 yn x0 inc x1 yn - 0.5 *"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"y0",         NULL,              1, {"x0 y1 neg"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"y1",         NULL,              1, {"x0 y0 x0 y1 x0 / -"}, REDUCE_NONE, WRITES_NONE, false, true},
    {"fdim",       NULL,              2, {"x1 x0 olt 1 0 sel", "x1 x0 olt -1 0 sel"}},
    {"logb",       NULL,              1, {"0"}},
    /* the neighbouring float: a step of one ulp, constant where it is differentiable */
    {"nextafter",  NULL,              2, {"1", "0"}},
    {"nexttoward", NULL,              2, {"1", "0"}},
    {"fabs",       "llvm.fabs",       1, {"1 x0 copysign"}},
    {"copysign",   "llvm.copysign",   2, {"1 x0 copysign 1 x1 copysign *", "0"}},
    /* r = x - n y with n an integer (fmod: x/y rounded towards zero, remainder and remquo: to nearest,
     * ties to even): n is recovered from the result, (x - r)/y rounded, because x/y rounded to a double
     * may cross an integer (1/0.1 is 10, n is 9). remquo's quotient bits are not all of n. */
    {"fmod",       NULL,              2, {"1", "x0 r - x1 / roundeven neg"}},
    {"remainder",  NULL,              2, {"1", "x0 r - x1 / roundeven neg"}},
    {"remquo",     NULL,              3, {"1", "x0 r - x1 / roundeven neg", NULL}, REDUCE_NONE, WRITES_INT},
    /* Ties go to the first argument; a NaN argument is the one not returned. The arguments are compared,
     * not an argument with the result: the reverse sweep may recompute an argument that the forward sweep
     * computed with another rounding (the optimiser folds a constant llvm.fmuladd fused, the machine
     * may not fuse it), and an equality with the recorded result then sends the adjoint to the other. */
    {"fmin",       "llvm.minnum",     2, {"x0 x1 ole 1 x1 x1 une 1 0 sel sel", "x0 x1 ole 0 x1 x1 une 0 1 sel sel"}, REDUCE_NONE, WRITES_NONE, true},
    {"fmax",       "llvm.maxnum",     2, {"x1 x0 ole 1 x1 x1 une 1 0 sel sel", "x1 x0 ole 0 x1 x1 une 0 1 sel sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL,         "llvm.minimum",    2, {"x0 x1 ole 1 0 sel", "x0 x1 ole 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL,         "llvm.maximum",    2, {"x1 x0 ole 1 0 sel", "x1 x0 ole 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    /* x86's max and min (immintrin.h's _mm_max_pd ... _mm512_min_ps): a > b ? a : b and a < b ? a : b,
     * the second operand where they tie or either is a NaN; AVX-512's take a rounding mode third */
    {NULL, "llvm.x86.sse2.max.pd",  2, {"x1 x0 olt 1 0 sel", "x1 x0 olt 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.sse.max.ps",   2, {"x1 x0 olt 1 0 sel", "x1 x0 olt 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.avx.max.pd",   2, {"x1 x0 olt 1 0 sel", "x1 x0 olt 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.avx.max.ps",   2, {"x1 x0 olt 1 0 sel", "x1 x0 olt 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.avx512.max.pd", 3, {"x1 x0 olt 1 0 sel", "x1 x0 olt 0 1 sel", NULL}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.avx512.max.ps", 3, {"x1 x0 olt 1 0 sel", "x1 x0 olt 0 1 sel", NULL}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.sse2.min.pd",  2, {"x0 x1 olt 1 0 sel", "x0 x1 olt 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.sse.min.ps",   2, {"x0 x1 olt 1 0 sel", "x0 x1 olt 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.avx.min.pd",   2, {"x0 x1 olt 1 0 sel", "x0 x1 olt 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.avx.min.ps",   2, {"x0 x1 olt 1 0 sel", "x0 x1 olt 0 1 sel"}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.avx512.min.pd", 3, {"x0 x1 olt 1 0 sel", "x0 x1 olt 0 1 sel", NULL}, REDUCE_NONE, WRITES_NONE, true},
    {NULL, "llvm.x86.avx512.min.ps", 3, {"x0 x1 olt 1 0 sel", "x0 x1 olt 0 1 sel", NULL}, REDUCE_NONE, WRITES_NONE, true},
    /* x86's estimates of 1/sqrt(x) and 1/x (immintrin.h's _mm_rsqrt_ps, _mm256_rcp_ps: 12 bits): the
     * derivative of what they estimate, at x (not from the estimate, whose error the derivative would
     * carry); a Newton step after one is differentiated as written */
    {NULL, "llvm.x86.sse.rsqrt.ps",     1, {"-0.5 x0 x0 sqrt * /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {NULL, "llvm.x86.avx.rsqrt.ps.256", 1, {"-0.5 x0 x0 sqrt * /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {NULL, "llvm.x86.sse.rcp.ps",       1, {"-1 x0 x0 * /"}, REDUCE_NONE, WRITES_NONE, false, true},
    {NULL, "llvm.x86.avx.rcp.ps.256",   1, {"-1 x0 x0 * /"}, REDUCE_NONE, WRITES_NONE, false, true},
    /* their rounding in any mode (_mm_floor_ps, _mm256_round_pd(v, _MM_FROUND_TO_NEAREST_INT)): flat */
    {NULL, "llvm.x86.sse41.round.ps",   2, {"0", NULL}},
    {NULL, "llvm.x86.sse41.round.pd",   2, {"0", NULL}},
    {NULL, "llvm.x86.avx.round.ps.256", 2, {"0", NULL}},
    {NULL, "llvm.x86.avx.round.pd.256", 2, {"0", NULL}},
    {"fma",        "llvm.fma",        3, {"x1", "x0", "1"}},
    {NULL,         "llvm.fmuladd",    3, {"x1", "x0", "1"}},
    {"floor",      "llvm.floor",      1, {"0"}},
    {"ceil",       "llvm.ceil",       1, {"0"}},
    {"trunc",      "llvm.trunc",      1, {"0"}},
    {"round",      "llvm.round",      1, {"0"}},
    {"rint",       "llvm.rint",       1, {"0"}},
    {"nearbyint",  "llvm.nearbyint",  1, {"0"}},
    {NULL,         "llvm.roundeven",  1, {"0"}},
    {"ldexp",      "llvm.ldexp",      2, {"2 x1 itofp pow", NULL}},
    {"scalbn",     NULL,              2, {"2 x1 itofp pow", NULL}},
    {"scalbln",    NULL,              2, {"2 x1 itofp pow", NULL}},
    /* x = m 2^e exactly, so dm/dx = 2^-e = m/x; at 0 (m = 0, e = 0) the branch's 1 */
    {"frexp",      NULL,              2, {"x0 0 oeq 1 r x0 0 oeq 1 x0 sel / sel", NULL}, REDUCE_NONE, WRITES_INT},
    /* the fractional part moves with x; the integral part written through the pointer is flat */
    {"modf",       NULL,              2, {"1", NULL}, REDUCE_NONE, WRITES_RESULT_TYPE},
    /* vector reductions (an OpenMP simd loop's sum): see ReduceOp */
    {NULL,         "llvm.vector.reduce.fadd",     2, {NULL}, REDUCE_SUM},
    {NULL,         "llvm.vector.reduce.fmul",     2, {NULL}, REDUCE_PRODUCT},
    {NULL,         "llvm.vector.reduce.fmax",     1, {NULL}, REDUCE_EXTREMUM},
    {NULL,         "llvm.vector.reduce.fmin",     1, {NULL}, REDUCE_EXTREMUM},
    {NULL,         "llvm.vector.reduce.fmaximum", 1, {NULL}, REDUCE_EXTREMUM},
    {NULL,         "llvm.vector.reduce.fminimum", 1, {NULL}, REDUCE_EXTREMUM},
};

const unsigned math_rule_count = sizeof math_rules / sizeof math_rules[0];
