/* x86 vector intrinsics whose lanes mix, written as the lane operations they are, in the functions
 * derivatives reach.
 *
 * Hand-vectorised code sums pairs of lanes (`_mm_hadd_pd`, `_mm256_hsub_ps`), narrows doubles to floats
 * (`_mm_cvtpd_ps`, `_mm256_cvtpd_ps`) and takes dot products under a mask (`_mm_dp_pd`, `_mm_dp_ps`,
 * `_mm256_dp_ps`). clang keeps them as target intrinsics, which have no lane-for-lane rule. Each becomes
 * shuffles, fptrunc, fmul and fadd in the order the instruction adds, bit for bit the same (in the
 * default rounding mode, which fptrunc assumes), and the generators differentiate those. */
#ifndef PARAD_AD_X86_VECTORS_H
#define PARAD_AD_X86_VECTORS_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Rewrites the functions m's requests reach (`reached`: request_reached_functions); returns how many
 * calls it rewrote. */
unsigned x86_vectors_apply(LLVMModuleRef m, const ValueMap *reached);

#endif
