/* cgcalls: cg.c's conjugate gradients with the matrix-vector product, the update of x and r and the
 * direction update each a function of its own, not inlined, called one after another, as HPCCG and miniFE
 * write their solvers: their regions (cg.c's #pragma omp loops) are forked from different functions. The
 * same hand-written adjoint. */
#define CG_CALLS
#include "cg.c"
