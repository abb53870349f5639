/* The forward (tangent) generator.
 *
 * For a function f and an activity pattern (one letter per parameter: 'c' constant, 'd' duplicated)
 * it generates f's tangent function: the same control flow computing f and, beside each active value,
 * its tangent. Parameters: each of f's, followed by `width` shadows when duplicated (a tangent for a
 * float, a shadow pointer for a pointer). Result: f's result, or {f's result, its tangent} when the
 * tangent of the result is asked for. With width N > 1, a float's tangent is an <N x T> vector, other
 * tangents are [N x T] arrays (see tangent.h). */
#ifndef PARAD_FORWARD_FORWARD_H
#define PARAD_FORWARD_FORWARD_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ad/ad.h"
#include "ad/request.h"

/* The attribute of a tangent function of several directions (vector forward mode): its width. */
#define FWD_WIDTH_ATTR "parad-tangent-width"

/* The tangent function of fn, generated on first use. NULL after an error (reported). */
LLVMValueRef fwd_function(AdModule *ad, LLVMValueRef fn, const char *pattern, bool ret_tangent, unsigned width);
/* The same, its tangents estimates of floating-point error (Enzyme's __enzyme_error_estimate). */
LLVMValueRef fwd_error_function(AdModule *ad, LLVMValueRef fn, const char *pattern, bool ret_tangent);

/* The type of a tangent function of a function of type fty (see above). */
LLVMTypeRef fwd_function_type(LLVMTypeRef fty, const char *pattern, bool ret_tangent, unsigned width);

/* Replaces a canonical forward request by a call to the tangent function. Returns errors. */
int fwd_lower_request(AdModule *ad, const Request *r);

#endif
